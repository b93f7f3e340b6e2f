#!/usr/bin/env python3
"""Writes Box2D v3's "smash" benchmark (its shared/benchmarks.c, CreateSmash) as Carom scenes.

No gravity; a box 8 x 8 m of density 8 at (-20, 0) moving at 40 m/s into a grid of boxes 0.4 m
square (density 1) whose columns start at x = 30, rows centred on y = 0; friction 0.6 and
restitution 0 (Box2D's defaults). smash.json is Box2D's grid of 120 x 80; smash-20x20.json,
smash-40x40.json and smash-80x80.json are the grids of 400, 1,600 and 6,400 boxes for the
scaling check (each 4 times the last); smash-20x20-elastic.json is the smallest with restitution 1
(Carom's: an elastic crowd is struck in free flight, pair by pair, and its cost is the flights').

    python3 assets/bench/make-smash.py      (from the top of the repository)
"""
from scene_text import scene_text, write_beside

D = 0.4


def scene(columns, rows, restitution=0):
    bodies = [{"name": "smasher", "shape": {"type": "box", "width": 8, "height": 8},
               "position": [-20, 0], "velocity": [40, 0], "density": 8}]
    for i in range(columns):
        for j in range(rows):
            bodies.append({"name": f"box-c{i}r{j}", "shape": {"type": "box", "width": D, "height": D},
                           "position": [round(i * D + 30, 9), round((j - rows / 2) * D, 9)]})
    elastic = ", elastic" if restitution else ""
    head = {"format": 1, "name": f"Smash ({columns} x {rows} boxes{elastic})",
            "x-comment": "Box2D v3's smash benchmark (shared/benchmarks.c): a box 8 x 8 m, density 8, "
                         "at 40 m/s into a grid of boxes 0.4 m square, no gravity; assets/bench/make-smash.py",
            "gravity": [0, 0], "restitution": restitution, "friction": 0.6}
    return scene_text(head, bodies)

SIZES = {"smash.json": (120, 80), "smash-20x20.json": (20, 20), "smash-40x40.json": (40, 40),
         "smash-80x80.json": (80, 80)}
scenes = {name: scene(c, r) for name, (c, r) in SIZES.items()}
scenes["smash-20x20-elastic.json"] = scene(20, 20, restitution=1)
write_beside(__file__, scenes)
