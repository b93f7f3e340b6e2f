#!/usr/bin/env python3
"""Writes Box2D v3's "joint_grid" benchmark (its shared/benchmarks.c, CreateJointGrid) as Carom
scenes.

N x N circles of radius 0.4 m (density 1) 1 m apart, column k at x = k, row i at y = -i, each
pinned (revolute) to the one above and the one to its left at the point midway; the seven of the
top row about the middle are static; the circles never collide with one another (Box2D's filter:
here one group); gravity -10 (Box2D's default). joint-grid.json is Box2D's N = 100 (10,000 bodies,
19,800 joints); joint-grid-20.json is its debug size, N = 20.

    python3 assets/bench/make-joint-grid.py      (from the top of the repository)
"""
from scene_text import scene_text, write_beside


def scene(n):
    bodies, joints = [], []
    for k in range(n):
        for i in range(n):
            body = {"name": f"c{k}r{i}", "shape": {"type": "circle", "radius": 0.4},
                    "position": [k, -i], "group": 1}
            if n // 2 - 3 <= k <= n // 2 + 3 and i == 0:
                body["type"] = "static"
            bodies.append(body)
            if i > 0:
                joints.append({"type": "revolute", "a": f"c{k}r{i - 1}", "b": f"c{k}r{i}",
                               "anchor": [k, -i + 0.5]})
            if k > 0:
                joints.append({"type": "revolute", "a": f"c{k - 1}r{i}", "b": f"c{k}r{i}",
                               "anchor": [k - 0.5, -i]})
    head = {"format": 1, "name": f"Joint grid ({n} x {n})",
            "x-comment": "Box2D v3's joint_grid benchmark (shared/benchmarks.c): circles pinned to "
                         "their neighbours, seven of the top row static; assets/bench/make-joint-grid.py",
            "gravity": [0, -10]}
    return scene_text(head, bodies, joints)

SIZES = {"joint-grid.json": 100, "joint-grid-20.json": 20}
write_beside(__file__, {name: scene(n) for name, n in SIZES.items()})
