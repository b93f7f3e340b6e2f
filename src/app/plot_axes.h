// Axes for the graphs drawn with ImDrawList (Debian has no ImPlot): a frame, grid lines at
// "nice" steps (1, 2 or 5 × 10^k) with their numbers, and a legend.
#pragma once

#include "plot_range.h"
#include <cstddef>
#include <imgui.h>

namespace app {

struct PlotFrame {
    ImVec2 min, max;       // the data area on screen
    double x0, x1, y0, y1; // the data range shown
    float titleRow = 0;    // pixels between the legend and the data area, for the axis titles
    ImVec2 map(double x, double y) const {
        return {float(min.x + (x - x0) / (x1 - x0) * (max.x - min.x)),
                float(max.y - (y - y0) / (y1 - y0) * (max.y - min.y))};
    }
};

// The step for numbers along `pixels` showing [lo, hi]: as many as fit with room between them.
double axisStep(double lo, double hi, float pixels);
// A tick's number: plain digits to the step's precision ("14000", "0.25"), exponents only for
// very large or small values; no "-0" at the zero line.
void tickLabel(char* buf, std::size_t n, double v, double step);
// Axis titles with their units ("time (s)"), and a second axis on the right for another unit.
struct AxisTitles {
    const char* x = nullptr;       // under the numbers of the x axis, at its right end
    const char* y = nullptr;       // above the left axis's numbers
    const char* right = nullptr;   // above the right axis's numbers; set: the right axis is drawn
    double right0 = 0, right1 = 1; // the right axis's range
};
// The data area inside `outer` (room left for the numbers, titles and legend rows), without
// drawing: for a caller that needs its size first (equal scales).
PlotFrame layoutFrame(ImVec2 outerMin, ImVec2 outerMax, int legendRows, const AxisTitles& t);
// Draws the background, grid, tick numbers, titles and border; `outer` is the whole widget area,
// the returned frame the data area inside it (room left for the numbers).
// legendRows: rows kept free above the data area for drawLegend.
PlotFrame drawAxes(ImDrawList* dl, ImVec2 outerMin, ImVec2 outerMax, double x0, double x1,
                   double y0, double y1, int legendRows, const AxisTitles& titles = {});
// How many rows the legend needs in `width` pixels.
int legendRows(const char* const* names, int n, float width);
// The legend above the data area, wrapped into as many rows as legendRows says.
void drawLegend(ImDrawList* dl, const PlotFrame& f, const char* const* names, const ImU32* colors,
                int n);

} // namespace app
