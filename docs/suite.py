#!/usr/bin/env python3
"""Box2D v3's benchmark suite, Carom beside Box2D v3: ms per step of each scene at 1 to N threads
(Carom's `carom-cli bench --threads T`, Box2D's `box2d-v3-suite NAME STEPS T`, T workers), timed
A B A B (Carom, Box2D, Carom, Box2D) on each scene and thread count; the table of both runs goes to
docs/bench/suite.csv and a plot of the faster of each pair, ms per step against threads, to
docs/bench/suite.svg (no plotting library needed).

    python3 docs/suite.py --box2d-suite PATH/TO/box2d-v3-suite [--threads N] [--scenes a,b]
    python3 docs/suite.py --redraw      # the plot again from docs/bench/suite.csv, no run

Run from the top of the repository after the Release build (build/carom-cli). The scenes are the
suite's as Carom scene files (assets/, each generator beside its file); rain places its 1,000
ragdolls at once where Box2D adds a column every 8 steps, so its figures are not the same load.
"""
import argparse, math, os, re, subprocess

import svg_axes  # docs/svg_axes.py, beside this script

# Box2D's name, Carom's scene, steps timed.
SUITE = [
    ("large_pyramid", "assets/scenes/pyramid-100.json", 200),
    ("many_pyramids", "assets/scenes/many-pyramids.json", 60),
    ("smash", "assets/bench/smash.json", 300),
    ("tumbler", "assets/bench/tumbler.json", 300),
    ("joint_grid", "assets/bench/joint-grid.json", 200),
    ("spinner", "assets/bench/spinner.json", 200),
    ("rain", "assets/bench/rain.json", 100),
]
COLOURS = ["#2a6fdb", "#d9534f", "#5cb85c", "#f0ad4e", "#8e44ad", "#17a2b8", "#555555"]


def ms_per_step(command):
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return float(re.search(r"ms_per_step: ([0-9.eE+-]+)", out).group(1))


def svg(rows, path):
    """Log-scale ms per step against threads: Carom solid, Box2D dashed, a colour per scene."""
    W, H, L, R, T, B = 720, 460, 70, 190, 30, 50
    threads = sorted({r["threads"] for r in rows})
    ys = [v for r in rows for v in (r["carom"], r["box2d"]) if v]
    y0, y1 = math.log10(min(ys) / 1.5), math.log10(max(ys) * 1.5)
    t0, t1 = min(threads) - 0.3, max(threads) + 0.3
    px = lambda t: L + (t - t0) / (t1 - t0) * (W - L - R)
    py = lambda y: H - B - (math.log10(y) - y0) / (y1 - y0) * (H - T - B)
    parts = svg_axes.frame(W, H, L, R, T, B, threads, px, y0, y1, py)
    parts.append('<text x="%d" y="%d" text-anchor="middle">threads (Box2D: workers)</text>'
                 % ((L + W - R) / 2, H - 14))
    parts.append('<text transform="translate(16,%d) rotate(-90)" text-anchor="middle">'
                 'ms per step (log scale)</text>' % ((T + H - B) / 2))
    scenes = [s for s, _, _ in SUITE if any(r["scene"] == s for r in rows)]
    for i, scene in enumerate(scenes):
        colour = COLOURS[i % len(COLOURS)]
        for key, dash in (("carom", ""), ("box2d", ' stroke-dasharray="5,4"')):
            pts = [(px(r["threads"]), py(r[key])) for r in rows if r["scene"] == scene and r[key]]
            if pts:
                parts.append('<polyline fill="none" stroke="%s" stroke-width="2"%s points="%s"/>'
                             % (colour, dash, " ".join("%.1f,%.1f" % p for p in pts)))
                parts += ['<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>' % (x, y, colour)
                          for x, y in pts]
        parts.append('<text x="%d" y="%d" fill="%s">%s</text>' % (W - R + 14, T + 14 + 18 * i, colour,
                                                                 scene))
    y = T + 14 + 18 * len(scenes) + 12
    parts.append('<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="black" stroke-width="2"/>'
                 % (W - R + 14, W - R + 44, y - 4, y - 4))
    parts.append('<text x="%d" y="%d">Carom</text>' % (W - R + 50, y))
    parts.append('<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="black" stroke-width="2" '
                 'stroke-dasharray="5,4"/>' % (W - R + 14, W - R + 44, y + 14, y + 14))
    parts.append('<text x="%d" y="%d">Box2D v3 (AVX2)</text>' % (W - R + 50, y + 18))
    parts.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(parts) + "\n")


def read_csv(path):
    rows = []
    with open(path) as f:
        next(f)
        for line in f:
            scene, threads, c1, c2, b1, b2 = line.strip().split(",")
            rows.append({"scene": scene, "threads": int(threads),
                         "carom": min(float(c1), float(c2)),
                         "box2d": min(float(b1), float(b2)) if b1 else None})
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--box2d-suite", help="Box2D v3's suite program (built outside the repository)")
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--scenes", help="comma-separated Box2D names (default: all)")
    ap.add_argument("--cli", default="build/carom-cli")
    ap.add_argument("--redraw", action="store_true",
                    help="draw docs/bench/suite.svg from docs/bench/suite.csv without measuring")
    args = ap.parse_args()
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bench")
    csv, plot = os.path.join(here, "suite.csv"), os.path.join(here, "suite.svg")
    if args.redraw:
        svg(read_csv(csv), plot)
        return
    wanted = set(args.scenes.split(",")) if args.scenes else None
    lines = ["scene,threads,carom_ms_a,carom_ms_b,box2d_ms_a,box2d_ms_b"]
    for name, scene, steps in SUITE:
        if wanted and name not in wanted:
            continue
        for t in range(1, args.threads + 1):
            carom_cmd = [args.cli, "bench", scene, "--steps", str(steps), "--threads", str(t)]
            box2d_cmd = [args.box2d_suite, name, str(steps), str(t)] if args.box2d_suite else None
            carom, box2d = [], []
            for _ in range(2):  # A B A B
                carom.append(ms_per_step(carom_cmd))
                if box2d_cmd:
                    box2d.append(ms_per_step(box2d_cmd))
            line = "%s,%d,%.3f,%.3f,%s" % (name, t, carom[0], carom[1],
                                           "%.3f,%.3f" % tuple(box2d) if box2d else ",")
            print(line, flush=True)
            lines.append(line)
    with open(csv, "w") as f:
        f.write("\n".join(lines) + "\n")
    svg(read_csv(csv), plot)


if __name__ == "__main__":
    main()
