// Axes for the graphs drawn with ImDrawList (Debian has no ImPlot): a frame, grid lines at
// "nice" steps (1, 2 or 5 × 10^k) with their numbers, and a legend.
#pragma once

#include <cstddef>
#include <imgui.h>

namespace app {

struct PlotFrame {
    ImVec2 min, max;       // the data area on screen
    double x0, x1, y0, y1; // the data range shown
    ImVec2 map(double x, double y) const {
        return {float(min.x + (x - x0) / (x1 - x0) * (max.x - min.x)),
                float(max.y - (y - y0) / (y1 - y0) * (max.y - min.y))};
    }
};

double niceStep(double range, int targetTicks); // 1, 2 or 5 × 10^k near range / targetTicks
// The step for numbers along `pixels` showing [lo, hi]: as many as fit with room between them.
double axisStep(double lo, double hi, float pixels);
// A tick's number: plain digits to the step's precision ("14000", "0.25"), exponents only for
// very large or small values; no "-0" at the zero line.
void tickLabel(char* buf, std::size_t n, double v, double step);
// Widens [lo, hi] to whole multiples of a nice step; a zero range becomes ±1 around it.
void niceRange(double& lo, double& hi);
// Draws the background, grid, tick numbers and border; `outer` is the whole widget area, the
// returned frame the data area inside it (room left for the numbers).
// legendRows: rows kept free above the data area for drawLegend.
PlotFrame drawAxes(ImDrawList* dl, ImVec2 outerMin, ImVec2 outerMax, double x0, double x1,
                   double y0, double y1, int legendRows);
// How many rows the legend needs in `width` pixels.
int legendRows(const char* const* names, int n, float width);
// The legend above the data area, wrapped into as many rows as legendRows says.
void drawLegend(ImDrawList* dl, const PlotFrame& f, const char* const* names, const ImU32* colors,
                int n);

} // namespace app
