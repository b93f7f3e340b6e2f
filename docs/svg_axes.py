"""The frame of the docs' plots (docs/plot-scaling.py, docs/suite.py), drawn as SVG without a
plotting library: a white page of W x H with margins L, R, T, B, the two axes, a label under each
x tick, and grid lines at 1, 2 and 5 times the powers of ten of a log-scale y axis from 10^y0 to
10^y1. px and py map a value to its pixel coordinate."""
import math


def frame(W, H, L, R, T, B, ticks, px, y0, y1, py):
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
             'font-family="sans-serif" font-size="12">' % (W, H),
             '<rect width="100%" height="100%" fill="white"/>',
             '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (L, H - B, W - R, H - B),
             '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (L, T, L, H - B)]
    for x in ticks:
        parts.append('<text x="%.1f" y="%d" text-anchor="middle">%d</text>' % (px(x), H - B + 16, x))
    for e in range(math.floor(y0), math.ceil(y1) + 1):
        for m in (1, 2, 5):
            y = m * 10 ** e
            if y0 <= math.log10(y) <= y1:
                parts.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/>'
                             % (L, W - R, py(y), py(y)))
                parts.append('<text x="%d" y="%.1f" text-anchor="end">%g</text>' % (L - 6, py(y) + 4, y))
    return parts
