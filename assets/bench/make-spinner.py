#!/usr/bin/env python3
"""Writes Box2D v3's "spinner" benchmark (its shared/benchmarks.c, CreateSpinner) as a Carom scene.

A loop of 360 segments (a static chain, friction 0.1) on a circle of radius 40 m about (0, 32); a
bar 40 m long pinned at (0, 12) to the world and driven by a motor at 5 rad/s of (nearly) unlimited
torque; 6,076 bodies (density 0.25, friction 0.1, restitution 0.1) in rows from (-23, 2) 0.5 m
apart, in turn a capsule (0.5 m between its centres, radius 0.25), a circle (radius 0.35) and a
square (0.7 m). Box2D's bar is a rounded box (0.8 x 40 m, corners of radius 0.2); here a box of
its outer size, 1.2 x 40.4 m. Box2D's largest motor torque (FLT_MAX) is here 1e12 N m, the
largest number a scene file takes.

    python3 assets/bench/make-spinner.py      (from the top of the repository)
"""
import math
from scene_text import scene_text, write_beside


def scene(count):
    points = []
    for i in range(360):
        a = -2 * math.pi * i / 360
        points.append([round(40 * math.cos(a), 9), round(40 * math.sin(a) + 32, 9)])
    bodies = [{"name": "ground", "type": "static", "position": [0, 0], "friction": 0.1,
               "shape": {"type": "chain", "points": points, "loop": True}},
              {"name": "spinner", "position": [0, 12], "friction": 0,
               "shape": {"type": "box", "width": 1.2, "height": 40.4}}]
    shapes = [{"type": "capsule", "length": 0.5, "radius": 0.25},
              {"type": "circle", "radius": 0.35},
              {"type": "box", "width": 0.7, "height": 0.7}]
    x, y = -23.0, 2.0
    for i in range(count):
        bodies.append({"name": f"b{i}", "position": [x, y], "shape": shapes[i % 3],
                       "density": 0.25, "friction": 0.1, "restitution": 0.1})
        x += 0.5
        if x >= 23:
            x, y = -23.0, y + 0.5
    joints = [{"type": "revolute", "name": "motor", "b": "spinner", "anchor": [0, 12],
               "motor_speed": 5, "max_motor_torque": 1e12}]
    head = {"format": 1, "name": f"Spinner ({count} bodies)",
            "x-comment": "Box2D v3's spinner benchmark (shared/benchmarks.c); assets/bench/make-spinner.py",
            "gravity": [0, -10], "restitution": 0, "friction": 0.6}
    return scene_text(head, bodies, joints)

SIZES = {"spinner.json": 2 * 3038, "spinner-499.json": 499}
write_beside(__file__, {name: scene(count) for name, count in SIZES.items()})
