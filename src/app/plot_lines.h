// The graphs' lines with no more points than can be seen, without ImGui (tested in
// tests/plots_test.cpp). Mesa's software rasterizer spends about 0.7 µs on every triangle however
// small, and an anti-aliased line of ImGui is six triangles a segment: a time graph of three
// series and an X-Y graph, a point a pixel column, were 17,000 triangles, 12 ms of the
// rasterizer's time, every frame. Most of their points lie on the straight line between their
// neighbours, to well within a pixel.
#pragma once

#include <vector>

namespace app {

struct Pixel {
    float x, y;
};

// The points of a polyline, in pixels, that draw it to within `tolerance` pixels (Douglas and
// Peucker, 1973): its two ends, and, between two kept points, the one farthest from the segment
// joining them while that is farther than the tolerance. Every point left out lies within the
// tolerance of the segment between the kept points on either side of it. In their order.
std::vector<Pixel> simplified(const std::vector<Pixel>& line, float tolerance);

} // namespace app
