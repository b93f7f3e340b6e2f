#!/usr/bin/env python3
"""Speed against size: ms per step of `carom-cli bench` on pyramids of base 20, 50, 100 and 150
(the anchors' large pyramid: boxes 1x1 m, density 1, friction 0.6, gravity -10, on a ground box
200x2 m at (0, -1)), and of Box2D v3 on the same pyramids when its bench program is given.
Writes docs/bench/scaling.csv and draws docs/bench/scaling.svg from it (no plotting library needed).

    python3 docs/plot-scaling.py [--box2d PATH/TO/box2d-v3-bench] [--steps N]
    python3 docs/plot-scaling.py --redraw    # the plot again from docs/bench/scaling.csv, no run

Run from the top of the repository after building (build/carom-cli). Box2D v3 is built from its
own source outside the repository for the measurement only; each size is timed A B A B (Carom,
Box2D, Carom, Box2D) and the smaller of the two runs is kept, as the machine is shared.
"""
import argparse, json, os, re, subprocess, tempfile

import svg_axes  # docs/svg_axes.py, beside this script

BASES = [20, 50, 100, 150]


def pyramid(base):
    """The pyramid of base `base`, as assets/scenes/pyramid-100.json and Box2D's benchmark."""
    bodies = [{"name": "ground", "type": "static", "position": [0, -1],
               "shape": {"type": "box", "width": 200, "height": 2}}]
    for i in range(base):
        for j in range(i, base):
            bodies.append({"name": "box-r%dc%d" % (i, j - i),
                           "shape": {"type": "box", "width": 1, "height": 1},
                           "position": [(i + 1) * 0.5 + (j - i) - 0.5 * base, (2 * i + 1) * 0.5]})
    return {"format": 1, "name": "Pyramid (base %d)" % base, "gravity": [0, -10],
            "restitution": 0, "friction": 0.6, "bodies": bodies}


def ms_per_step(command):
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return float(re.search(r"ms_per_step: ([0-9.eE+-]+)", out).group(1))


def svg(rows, path):
    """A log-log plot of ms per step against the number of boxes."""
    import math
    W, H, L, R, T, B = 640, 420, 70, 20, 30, 60
    xs = [r["boxes"] for r in rows]
    ys = [v for r in rows for v in (r["carom"], r["box2d"]) if v]
    x0, x1 = math.log10(min(xs) / 1.3), math.log10(max(xs) * 1.3)
    y0, y1 = math.log10(min(ys) / 1.5), math.log10(max(ys) * 1.5)
    px = lambda x: L + (math.log10(x) - x0) / (x1 - x0) * (W - L - R)
    py = lambda y: H - B - (math.log10(y) - y0) / (y1 - y0) * (H - T - B)
    parts = svg_axes.frame(W, H, L, R, T, B, xs, px, y0, y1, py)
    parts.append('<text x="%d" y="%d" text-anchor="middle">boxes (pyramids of base %s)</text>'
                 % ((L + W - R) / 2, H - 18, ", ".join(str(b) for b in BASES)))
    parts.append('<text transform="translate(16,%d) rotate(-90)" text-anchor="middle">'
                 'ms per step (one thread, log scale)</text>' % ((T + H - B) / 2))
    for key, colour, label, dy in (("carom", "#2a6fdb", "Carom (carom-cli bench)", 0),
                                   ("box2d", "#d9534f", "Box2D v3 (box2d-v3-bench)", 18)):
        pts = [(px(r["boxes"]), py(r[key])) for r in rows if r[key]]
        if not pts:
            continue
        parts.append('<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>'
                     % (colour, " ".join("%.1f,%.1f" % p for p in pts)))
        parts += ['<circle cx="%.1f" cy="%.1f" r="3.5" fill="%s"/>' % (x, y, colour) for x, y in pts]
        parts.append('<text x="%d" y="%d" fill="%s">%s</text>' % (L + 12, T + 12 + dy, colour, label))
    parts.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(parts) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--box2d", help="Box2D v3's bench program (built outside the repository)")
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--cli", default="build/carom-cli")
    ap.add_argument("--redraw", action="store_true",
                    help="draw docs/bench/scaling.svg from docs/bench/scaling.csv without measuring")
    args = ap.parse_args()
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bench")
    if args.redraw:
        rows = []
        with open(os.path.join(here, "scaling.csv")) as f:
            next(f)
            for line in f:
                base, boxes, carom, box2d = line.strip().split(",")
                rows.append({"base": int(base), "boxes": int(boxes), "carom": float(carom),
                             "box2d": float(box2d) if box2d else None})
        svg(rows, os.path.join(here, "scaling.svg"))
        return
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for base in BASES:
            scene = os.path.join(tmp, "pyramid-%d.json" % base)
            with open(scene, "w") as f:
                json.dump(pyramid(base), f)
            carom_cmd = [args.cli, "bench", scene, "--steps", str(args.steps)]
            box2d_cmd = [args.box2d, str(base), str(args.steps)] if args.box2d else None
            carom, box2d = [], []
            for _ in range(2):  # A B A B
                carom.append(ms_per_step(carom_cmd))
                if box2d_cmd:
                    box2d.append(ms_per_step(box2d_cmd))
            row = {"base": base, "boxes": base * (base + 1) // 2, "carom": min(carom),
                   "box2d": min(box2d) if box2d else None}
            print(row, flush=True)
            rows.append(row)
    with open(os.path.join(here, "scaling.csv"), "w") as f:
        f.write("base,boxes,carom_ms_per_step,box2d_v3_ms_per_step\n")
        for r in rows:
            f.write("%d,%d,%.4f,%s\n" % (r["base"], r["boxes"], r["carom"],
                                         "%.4f" % r["box2d"] if r["box2d"] else ""))
    svg(rows, os.path.join(here, "scaling.svg"))


if __name__ == "__main__":
    main()
