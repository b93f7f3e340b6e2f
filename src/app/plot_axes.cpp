// Plot axes: nice tick steps (Heckbert, "Nice numbers for graph labels", Graphics Gems, 1990).
#include "plot_axes.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace app {

double niceStep(double range, int targetTicks) {
    const double raw = std::max(range, 1e-12) / std::max(targetTicks, 1);
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    const double f = raw / mag;
    return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * mag;
}

void niceRange(double& lo, double& hi) {
    if (!std::isfinite(lo) || !std::isfinite(hi)) {
        lo = -1;
        hi = 1;
        return;
    }
    if (hi - lo < 1e-9 * std::max(1.0, std::abs(hi))) {
        const double pad = std::max(1e-3, 0.1 * std::abs(hi));
        lo -= pad;
        hi += pad;
    }
    const double step = niceStep(hi - lo, 5);
    lo = std::floor(lo / step) * step;
    hi = std::ceil(hi / step) * step;
}

void tickLabel(char* buf, std::size_t n, double v, double step) {
    if (std::abs(v) < step * 1e-6) v = 0;
    const double big = std::max(std::abs(v), step);
    if (big >= 1e7 || step < 1e-4) { // significant digits down to the step's
        const int digits = int(std::floor(std::log10(big)) - std::floor(std::log10(step))) + 1;
        std::snprintf(buf, n, "%.*g", std::clamp(digits, 1, 15), v);
        return;
    }
    // Decimals enough for the step (1, 2 or 5 × 10^k): 0.02 needs 2, 5 needs none.
    const int decimals = std::max(0, int(std::ceil(-std::log10(step) - 1e-9)));
    std::snprintf(buf, n, "%.*f", decimals, v);
}

double axisStep(double lo, double hi, float pixels) {
    char a[32], b[32];
    for (int ticks = std::clamp(int(pixels / 50), 2, 10);; --ticks) {
        const double step = niceStep(hi - lo, ticks);
        tickLabel(a, sizeof a, std::ceil(lo / step) * step, step);
        tickLabel(b, sizeof b, std::floor(hi / step) * step, step);
        const float widest = std::max(ImGui::CalcTextSize(a).x, ImGui::CalcTextSize(b).x);
        // A number at an end is pushed inside by up to half its width: 1.5 widths between ticks.
        if (ticks <= 2 || float(step / (hi - lo)) * pixels >= 1.5f * widest + 10) return step;
    }
}

PlotFrame drawAxes(ImDrawList* dl, ImVec2 outerMin, ImVec2 outerMax, double x0, double x1,
                   double y0, double y1, int legendRows) {
    const float fontH = ImGui::GetFontSize();
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
    const ImU32 grid = IM_COL32(128, 128, 128, 50);
    const ImU32 border = IM_COL32(128, 128, 128, 160);
    PlotFrame f{{outerMin.x + 6 * fontH * 0.6f + 8, outerMin.y + legendRows * (fontH + 3) + 6},
                {outerMax.x - 8, outerMax.y - fontH - 6},
                x0,
                x1,
                y0,
                y1};
    if (!(f.x1 > f.x0)) f.x1 = f.x0 + 1;
    if (!(f.y1 > f.y0)) f.y1 = f.y0 + 1;
    dl->AddRectFilled(f.min, f.max, IM_COL32(0, 0, 0, 60));
    char buf[32];
    // Numbers across as many as fit side by side; up, about one per 40 pixels.
    const double xs = axisStep(f.x0, f.x1, f.max.x - f.min.x);
    const double ys = niceStep(f.y1 - f.y0, std::clamp(int((f.max.y - f.min.y) / 40), 2, 10));
    for (double x = std::ceil(f.x0 / xs) * xs; x <= f.x1 + xs * 1e-6; x += xs) {
        const float sx = f.map(x, f.y0).x;
        dl->AddLine({sx, f.min.y}, {sx, f.max.y}, grid);
        tickLabel(buf, sizeof buf, x, xs);
        const float w = ImGui::CalcTextSize(buf).x;
        dl->AddText({std::clamp(sx - w / 2, f.min.x - 4, f.max.x - w + 4), f.max.y + 3}, text, buf);
    }
    for (double y = std::ceil(f.y0 / ys) * ys; y <= f.y1 + ys * 1e-6; y += ys) {
        const float sy = f.map(f.x0, y).y;
        dl->AddLine({f.min.x, sy}, {f.max.x, sy}, grid);
        tickLabel(buf, sizeof buf, y, ys);
        const float w = ImGui::CalcTextSize(buf).x;
        dl->AddText({f.min.x - w - 4, sy - fontH / 2}, text, buf);
    }
    if (f.y0 < 0 && f.y1 > 0) { // the zero line, a little stronger
        const float sy = f.map(f.x0, 0).y;
        dl->AddLine({f.min.x, sy}, {f.max.x, sy}, IM_COL32(160, 160, 160, 110));
    }
    dl->AddRect(f.min, f.max, border);
    return f;
}

namespace {
constexpr float kSwatch = 20, kGap = 14; // swatch plus its space, space between entries
}

int legendRows(const char* const* names, int n, float width) {
    int rows = 1;
    float x = 0;
    for (int i = 0; i < n; ++i) {
        const float w = kSwatch + ImGui::CalcTextSize(names[i]).x;
        if (x > 0 && x + w > width) {
            ++rows;
            x = 0;
        }
        x += w + kGap;
    }
    return rows;
}

void drawLegend(ImDrawList* dl, const PlotFrame& f, const char* const* names, const ImU32* colors,
                int n) {
    // Above the data area: a short line in the series' colour, then its name.
    const float h = ImGui::GetFontSize(), width = f.max.x - f.min.x;
    const int rows = legendRows(names, n, width);
    float x = 0, y = f.min.y - rows * (h + 3) - 3;
    for (int i = 0; i < n; ++i) {
        const float w = kSwatch + ImGui::CalcTextSize(names[i]).x;
        if (x > 0 && x + w > width) {
            x = 0;
            y += h + 3;
        }
        const float mid = y + h * 0.5f;
        dl->AddRectFilled({f.min.x + x, mid - 1.5f}, {f.min.x + x + 16, mid + 1.5f}, colors[i]);
        dl->AddText({f.min.x + x + kSwatch, y}, ImGui::GetColorU32(ImGuiCol_Text), names[i]);
        x += w + kGap;
    }
}

} // namespace app
