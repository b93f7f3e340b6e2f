// The ranges the graphs show, without ImGui (tested in tests/plots_test.cpp): nice numbers, a
// range that follows the data, equal scales on both axes, and which axis each series goes on.
#pragma once

#include <array>
#include <string>

namespace app {

double niceStep(double range, int targetTicks); // 1, 2 or 5 × 10^k near range / targetTicks
double roundBelow(double x);                    // the 1, 2 or 5 × 10^k at or below x > 0
double roundAbove(double x);                    // the 1, 2 or 5 × 10^k at or above x > 0
// Widens [lo, hi] to whole multiples of a nice step; a zero range becomes ±1 around it.
void niceRange(double& lo, double& hi);

struct Range {
    double lo = 0, hi = 0;
    bool empty() const { return !(hi > lo); }
};

// A shown range following the data [lo, hi]: it grows at once to hold them, and shrinks to
// them when they fill less than a third of it (so that it does not flicker). Nice bounds.
void followRange(Range& shown, double lo, double hi);

// Widens one of the ranges, about its middle, so that a unit takes as many pixels across as up:
// a circle stays round.
void equalScales(Range& x, Range& y, float widthPixels, float heightPixels);

// Which axis each of a graph's series goes on, by its unit: the first series' unit on the left,
// the first other unit on the right, any third unit scaled into the frame (its own range).
enum class Axis { Left, Right, Scaled };
template <std::size_t N>
std::array<Axis, N> assignAxes(const std::array<std::string, N>& units,
                               const std::array<bool, N>& valid) {
    std::array<Axis, N> out{};
    std::string left, right;
    for (std::size_t i = 0; i < N; ++i) {
        if (!valid[i]) continue;
        if (left.empty() || units[i] == left) {
            left = units[i];
            out[i] = Axis::Left;
        } else if (right.empty() || units[i] == right) {
            right = units[i];
            out[i] = Axis::Right;
        } else {
            out[i] = Axis::Scaled;
        }
    }
    return out;
}

} // namespace app
