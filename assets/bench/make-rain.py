#!/usr/bin/env python3
"""Writes Box2D v3's "rain" benchmark (its shared/benchmarks.c, CreateRain, and the ragdoll of
shared/human.c) as Carom scenes.

Five floors of 501 static boxes 0.5 m square, 45 m apart; above each, 40 groups of 5 ragdolls
(11 capsule bones each, pinned at their joints within Box2D's angle limits, a joint friction of
0.05 N m times the bone's scale as a motor of speed 0, each ragdoll a group of its own so that its
bones never collide). Box2D adds a column of groups every 8 steps and, once all 40 are in, takes
out the oldest column and drops it again; a Carom scene has no such schedule, so all 1,000
ragdolls are placed at the start (11,000 bodies, 10,000 joints), where Box2D's would be once its
columns are all in. Not modelled: the joints' springs (5 Hz towards their start angles) and the
feet (a second shape of the lower legs: Carom has one shape a body), each capsule's body at the
capsule's centre, turned a quarter. rain-small.json
is Box2D's debug size: 3 floors of 201 boxes, 10 columns of 2 ragdolls.

    python3 assets/bench/make-rain.py      (from the top of the repository)
"""
import math
from scene_text import scene_text, write_beside

PI = math.pi
# name, parent, centre y, capsule (from y, to y, radius), pivot y, lower and upper angle, friction
BONES = [
    ("hip", None, 0.95, (-0.02, 0.02, 0.095), None, None, None, 1.0),
    ("torso", "hip", 1.2, (-0.135, 0.135, 0.09), 1.0, -0.25 * PI, 0.0, 0.5),
    ("head", "torso", 1.475, (-0.038, 0.039, 0.075), 1.4, -0.3 * PI, 0.1 * PI, 0.25),
    ("upper-left-leg", "hip", 0.775, (-0.125, 0.125, 0.06), 0.9, -0.05 * PI, 0.4 * PI, 1.0),
    ("lower-left-leg", "upper-left-leg", 0.475, (-0.155, 0.125, 0.045), 0.625, -0.5 * PI, -0.02 * PI, 0.5),
    ("upper-right-leg", "hip", 0.775, (-0.125, 0.125, 0.06), 0.9, -0.05 * PI, 0.4 * PI, 1.0),
    ("lower-right-leg", "upper-right-leg", 0.475, (-0.155, 0.125, 0.045), 0.625, -0.5 * PI, -0.02 * PI, 0.5),
    ("upper-left-arm", "torso", 1.225, (-0.125, 0.125, 0.035), 1.35, -0.1 * PI, 0.8 * PI, 0.5),
    ("lower-left-arm", "upper-left-arm", 0.975, (-0.125, 0.125, 0.03), 1.1, -0.2 * PI, 0.3 * PI, 0.1),
    ("upper-right-arm", "torso", 1.225, (-0.125, 0.125, 0.035), 1.35, -0.1 * PI, 0.8 * PI, 0.5),
    ("lower-right-arm", "upper-right-arm", 0.975, (-0.125, 0.125, 0.03), 1.1, -0.2 * PI, 0.3 * PI, 0.1),
]
JOINT_FRICTION = 0.05
r9 = lambda v: round(v, 9)


def human(prefix, x, y, group, bodies, joints):
    for name, parent, cy, (y0, y1, radius), pivot, lower, upper, friction in BONES:
        # The capsule stands up: its body turned a quarter, its centre the capsule's.
        bodies.append({"name": f"{prefix}{name}", "position": [r9(x), r9(y + cy + (y0 + y1) / 2)],
                       "angle": r9(PI / 2), "friction": 0.2, "group": group,
                       "shape": {"type": "capsule", "length": r9(y1 - y0), "radius": radius}})
        if parent:
            joints.append({"type": "revolute", "a": f"{prefix}{parent}", "b": f"{prefix}{name}",
                           "anchor": [r9(x), r9(y + pivot)], "lower_angle": r9(lower),
                           "upper_angle": r9(upper), "motor_speed": 0,
                           "max_motor_torque": r9(JOINT_FRICTION * friction)})


def scene(rows, columns, group_size, grid_count):
    grid = 0.5
    bodies, joints = [], []
    for i in range(rows):
        x = -0.5 * grid_count * grid
        for j in range(grid_count + 1):
            bodies.append({"name": f"floor{i}-{j}", "type": "static", "position": [r9(x), 45 * i],
                           "shape": {"type": "box", "width": grid, "height": grid}})
            x += grid
    span = grid_count * grid
    distance = span / columns
    group = 0
    for row in range(rows):
        for column in range(columns):
            x = -0.5 * span + distance * (column + 0.5)
            y = 40 + 45 * row
            for k in range(group_size):
                group += 1
                human(f"r{row}c{column}h{k}-", x, y, group, bodies, joints)
                x += 0.5
    head = {"format": 1, "name": f"Rain ({rows * columns * group_size} ragdolls)",
            "x-comment": "Box2D v3's rain benchmark (shared/benchmarks.c, human.c), all its ragdolls "
                         "placed at the start; assets/bench/make-rain.py",
            "gravity": [0, -10], "restitution": 0, "friction": 0.6}
    return scene_text(head, bodies, joints)

SIZES = {"rain.json": (5, 40, 5, 500), "rain-small.json": (3, 10, 2, 200)}
write_beside(__file__, {name: scene(*args) for name, args in SIZES.items()})
