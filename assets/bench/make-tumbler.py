#!/usr/bin/env python3
"""Writes Box2D v3's "tumbler" benchmark (its shared/benchmarks.c, CreateTumbler) as a Carom scene.

A box of four walls, one compound body (density 50): walls 1 x 20 m with their centres 10 m left
and right of the body's, and 20 x 1 m ones 10 m above and below, the body's centre at (0, 10),
pinned there to the world and driven by a motor at 25 degrees a second (max torque 1e8 N m).
Inside it, 2,025 boxes 0.25 m square (density 1) in a grid of 45 x 45, 0.4 m apart, from
(-9, 1). benchmarks.c creates them all at the start, as here. Gravity (0, -10), friction 0.6,
restitution 0 (Box2D's defaults). tumbler-small.json is Box2D's debug size, a grid of 20 x 20.

    python3 assets/bench/make-tumbler.py      (from the top of the repository)
"""
import math
from scene_text import scene_text, write_beside


def scene(grid):
    walls = [{"type": "box", "width": 1, "height": 20, "offset": [10, 0]},
             {"type": "box", "width": 1, "height": 20, "offset": [-10, 0]},
             {"type": "box", "width": 20, "height": 1, "offset": [0, 10]},
             {"type": "box", "width": 20, "height": 1, "offset": [0, -10]}]
    bodies = [{"name": "tumbler", "position": [0, 10], "density": 50, "shapes": walls}]
    y = -0.2 * grid + 10
    for i in range(grid):
        x = -0.2 * grid
        for j in range(grid):
            bodies.append({"name": f"b{i * grid + j}", "position": [round(x, 9), round(y, 9)],
                           "shape": {"type": "box", "width": 0.25, "height": 0.25}})
            x += 0.4
        y += 0.4
    joints = [{"type": "revolute", "name": "motor", "b": "tumbler", "anchor": [0, 10],
               "motor_speed": round(math.pi / 180 * 25, 15), "max_motor_torque": 1e8}]
    head = {"format": 1, "name": f"Tumbler ({grid * grid} boxes)",
            "x-comment": "Box2D v3's tumbler benchmark (shared/benchmarks.c); assets/bench/make-tumbler.py",
            "gravity": [0, -10], "restitution": 0, "friction": 0.6}
    return scene_text(head, bodies, joints)

SIZES = {"tumbler.json": 45, "tumbler-small.json": 20}
write_beside(__file__, {name: scene(grid) for name, grid in SIZES.items()})
