#!/usr/bin/env python3
"""Writes the dense fast crowd of issue 46, item 7: 200 circles and convex polygons of 2-5 cm in a
box of walls 1 m wide, speeds up to 1,410 m/s (each component up to 1,000 m/s), spins up to
500 rad/s, gravity 9.81 m/s^2 down, placed apart. A step of such a scene used to take 12-25 s;
every method must now run 3 s of it in under 5 s (carom-cli run S --time 3 --method M).

    python3 tests/stress-scenes/make-fast-crowd.py   (from the top of the repository)

fast-crowd.json is seed 46 with restitutions 0-1; fast-crowd-elastic.json seed 47 with
restitution 1 (no energy lost at any impact).
"""
import math
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "assets", "bench"))
from scene_text import scene_text, write_beside  # noqa: E402

HALF = 0.5


def polygon(rng, radius):
    """A convex polygon of 3-8 vertices on a circle of the radius, evenly spaced angles jittered
    by at most a third of a gap (so it stays fat)."""
    n = rng.randint(3, 8)
    gap = 2 * math.pi / n
    angles = [k * gap + rng.uniform(-gap / 3, gap / 3) for k in range(n)]
    return [[round(radius * math.cos(a), 9), round(radius * math.sin(a), 9)] for a in angles]


def scene(seed, elastic):
    rng = random.Random(seed)
    bodies, placed = [], []
    while len(bodies) < 200:
        r = rng.uniform(0.01, 0.025)  # 2-5 cm across
        p = [rng.uniform(-HALF + r, HALF - r), rng.uniform(-HALF + r, HALF - r)]
        if any(math.hypot(p[0] - q[0], p[1] - q[1]) < r + s + 1e-3 for q, s in placed):
            continue
        placed.append((p, r))
        if rng.random() < 0.5:
            shape = {"type": "circle", "radius": round(r, 9)}
        else:
            shape = {"type": "polygon", "vertices": polygon(rng, r)}
        body = {"name": f"b{len(bodies)}", "shape": shape, "position": [round(p[0], 9), round(p[1], 9)],
                "angle": round(rng.uniform(-3, 3), 6),
                "velocity": [round(rng.uniform(-1000, 1000), 6), round(rng.uniform(-1000, 1000), 6)],
                "angular_velocity": round(rng.uniform(-500, 500), 6),
                "density": round(rng.uniform(100, 10000), 3)}
        if not elastic:
            body["restitution"] = round(rng.uniform(0, 1), 6)
        bodies.append(body)
    head = {"format": 1, "name": f"fast crowd (seed {seed})",
            "x-comment": "issue 46 item 7: 200 bodies of 2-5 cm in a 1 m box at up to 1,410 m/s under "
                         "gravity; tests/stress-scenes/make-fast-crowd.py",
            "gravity": [0, -9.81], "restitution": 1, "friction": 0.5,
            "walls": {"left": -HALF, "right": HALF, "bottom": -HALF, "top": HALF}}
    return scene_text(head, bodies)


write_beside(__file__, {"fast-crowd.json": scene(46, False), "fast-crowd-elastic.json": scene(47, True)})
