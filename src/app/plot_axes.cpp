// Plot axes: frames, ticks, titles and legends drawn with ImDrawList.
#include "plot_axes.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace app {

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

PlotFrame layoutFrame(ImVec2 outerMin, ImVec2 outerMax, int legendRows, const AxisTitles& t) {
    const float fontH = ImGui::GetFontSize();
    const float numbers = 6 * fontH * 0.6f + 8; // room for the tick numbers beside an axis
    PlotFrame f{};
    f.titleRow = t.y || t.right ? fontH + 2 : 0;
    f.min = {outerMin.x + numbers, outerMin.y + legendRows * (fontH + 3) + 6 + f.titleRow};
    f.max = {outerMax.x - (t.right ? numbers : 8), outerMax.y - fontH - 6 - (t.x ? fontH + 2 : 0)};
    return f;
}

PlotFrame drawAxes(ImDrawList* dl, ImVec2 outerMin, ImVec2 outerMax, double x0, double x1,
                   double y0, double y1, int legendRows, const AxisTitles& t) {
    const float fontH = ImGui::GetFontSize();
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
    const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    const ImU32 grid = IM_COL32(128, 128, 128, 50);
    const ImU32 border = IM_COL32(128, 128, 128, 160);
    PlotFrame f = layoutFrame(outerMin, outerMax, legendRows, t);
    f.x0 = x0;
    f.x1 = x1;
    f.y0 = y0;
    f.y1 = y1;
    if (!(f.x1 > f.x0)) f.x1 = f.x0 + 1;
    if (!(f.y1 > f.y0)) f.y1 = f.y0 + 1;
    dl->AddRectFilled(f.min, f.max, ImGui::GetColorU32(ImGuiCol_Text, 0.05f)); // either theme
    char buf[32];
    // Numbers across as many as fit side by side; up, about one per 40 pixels.
    const double xs = axisStep(f.x0, f.x1, f.max.x - f.min.x);
    const int yTicks = std::clamp(int((f.max.y - f.min.y) / 40), 2, 10);
    const double ys = niceStep(f.y1 - f.y0, yTicks);
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
    if (t.right && t.right1 > t.right0) { // the right axis: its numbers only, no grid
        const double r0 = t.right0, r1 = t.right1, rs = niceStep(r1 - r0, yTicks);
        for (double y = std::ceil(r0 / rs) * rs; y <= r1 + rs * 1e-6; y += rs) {
            const float sy = float(f.max.y - (y - r0) / (r1 - r0) * (f.max.y - f.min.y));
            dl->AddLine({f.max.x, sy}, {f.max.x + 3, sy}, border);
            tickLabel(buf, sizeof buf, y, rs);
            dl->AddText({f.max.x + 5, sy - fontH / 2}, text, buf);
        }
    }
    if (f.y0 < 0 && f.y1 > 0) { // the zero line, a little stronger
        const float sy = f.map(f.x0, 0).y;
        dl->AddLine({f.min.x, sy}, {f.max.x, sy}, IM_COL32(160, 160, 160, 110));
    }
    dl->AddRect(f.min, f.max, border);
    // Titles: the left axis's above its numbers, the right one's above its, x's under its numbers.
    const float titleY = f.min.y - f.titleRow - 1;
    if (t.y) dl->AddText({outerMin.x + 2, titleY}, dim, t.y);
    if (t.right)
        dl->AddText({outerMax.x - ImGui::CalcTextSize(t.right).x - 2, titleY}, dim, t.right);
    if (t.x) dl->AddText({f.max.x - ImGui::CalcTextSize(t.x).x, f.max.y + fontH + 4}, dim, t.x);
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
    float x = 0, y = f.min.y - f.titleRow - rows * (h + 3) - 3;
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
