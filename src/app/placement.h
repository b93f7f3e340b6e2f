// Where a floating window (the inspector) goes so that it hides no body: plain geometry over
// screen boxes, without ImGui, so that the tests can check it.
#pragma once

#include <vector>

namespace app {

// A box on the screen, in pixels, y down.
struct Box {
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    float width() const { return x1 - x0; }
    float height() const { return y1 - y0; }
};

// The area two boxes share, 0 when they are apart.
float overlapArea(const Box& a, const Box& b);

// Where a window w × h goes inside `area`: at a corner of the area or beside a body, wherever it
// hides the least of the bodies (`bodies`, the moving ones), then of `others` (windows already
// there, the static bodies), then at the first corner in the order top right, top left, bottom
// right, bottom left. A window larger than the area starts at its top left. Returns the window's
// box.
Box placeClear(const Box& area, float w, float h, const std::vector<Box>& bodies,
               const std::vector<Box>& others);

// Which way a window placed at `at` grows when its content grows: away from the nearer side of
// `area` on each axis (0: rightwards / downwards from its left / top edge, 1: the other way), so
// that a window in a right or bottom corner stays there.
struct Pivot {
    float x = 0, y = 0;
};
Pivot pivotFor(const Box& area, const Box& at);

} // namespace app
