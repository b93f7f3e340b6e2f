// Graphs drawn with ImDrawList: recording, variable pickers, lines.
#include "plots.h"

#include "plot_axes.h"
#include "plot_lines.h"
#include "tooltip.h"
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <imgui.h>

namespace app {
namespace {

const ImU32 kLineColors[3] = {IM_COL32(80, 170, 255, 255), IM_COL32(255, 150, 60, 255),
                              IM_COL32(110, 220, 110, 255)};

// A combo listing every variable; returns true when the choice changed.
bool variableCombo(const char* label, std::string& name, const carom::World& world) {
    bool changed = false;
    if (ImGui::BeginCombo(label, name.c_str(), ImGuiComboFlags_HeightLarge)) {
        const std::vector<Variable> all = allVariables(world);
        ImGuiListClipper clip;
        clip.Begin(int(all.size()));
        while (clip.Step())
            for (int i = clip.DisplayStart; i < clip.DisplayEnd; ++i) {
                const std::string n = nameOf(all[i], world);
                if (ImGui::Selectable(n.c_str(), n == name)) {
                    name = n;
                    changed = true;
                }
                ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - 70);
                ImGui::TextDisabled("%s", unitOf(all[i]));
            }
        ImGui::EndCombo();
    }
    tooltip("The variable drawn: energies, momenta, or a body's position, angle and velocities "
            "(units at the right of the list).");
    return changed;
}

// An axis title: the quantity in words and its unit.
std::string titleOf(const char* unit) {
    static const struct {
        const char* unit;
        const char* word;
    } words[] = {
        {"s", "time"},    {"J", "energy"},     {"kg m/s", "momentum"},       {"m", "position"},
        {"rad", "angle"}, {"m/s", "velocity"}, {"rad/s", "angular velocity"}};
    for (const auto& w : words)
        if (std::string(unit) == w.unit) return std::string(w.word) + " (" + unit + ")";
    if (std::string(unit).rfind("kg m", 0) == 0)
        return std::string("angular momentum (") + unit + ")";
    return unit;
}

// The units of a series' slope (per second) and of its area (times a second).
std::string slopeUnit(const std::string& unit) {
    const std::size_t n = unit.size();
    return n >= 2 && unit.compare(n - 2, 2, "/s") == 0 ? unit + "\u00b2" : unit + "/s";
}
std::string areaUnit(const std::string& unit) {
    const std::size_t n = unit.size();
    return n >= 2 && unit.compare(n - 2, 2, "/s") == 0 ? unit.substr(0, n - 2) : unit + " s";
}

void expand(double& lo, double& hi, double v, bool first) {
    if (first) {
        lo = hi = v;
    } else {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
}

// At most about one point per pixel column: a stride through long series.
std::size_t strideFor(std::size_t n, float pixels) {
    return std::max<std::size_t>(1, n / std::max<std::size_t>(1, std::size_t(pixels)));
}

// How far a line drawn may stray from its points, in pixels (plot_lines.h): a quarter of one.
constexpr float kLineTolerance = 0.25f;

// A series' line through `points` (pixels), with only the points that can be seen.
void drawLine(ImDrawList* dl, const std::vector<Pixel>& points, ImU32 color, float thickness) {
    std::vector<ImVec2> drawn;
    for (const Pixel& p : simplified(points, kLineTolerance))
        drawn.push_back({p.x, p.y});
    if (drawn.size() >= 2) dl->AddPolyline(drawn.data(), int(drawn.size()), color, 0, thickness);
}

// What a graph `width` wide takes besides its data area, in height: the legend's rows, the
// titles and the numbers (layoutFrame).
float overhead(float width, int legendRows, const AxisTitles& titles) {
    const PlotFrame f = layoutFrame({0, 0}, {width, 0}, legendRows, titles);
    return f.min.y - f.max.y;
}

} // namespace

void timeGraphWidget(PlotState& p, const carom::World& world, float height) {
    TimeGraph& g = p.time;
    ImGui::PushID("time");
    for (int i = 0; i < 3; ++i) {
        ImGui::PushID(i);
        ImGui::ColorButton("##c", ImGui::ColorConvertU32ToFloat4(kLineColors[i]),
                           ImGuiColorEditFlags_NoTooltip, {14, 14});
        ImGui::SameLine();
        ImGui::SetNextItemWidth(-1);
        if (variableCombo("##v", g.names[i], world)) {
            g.valid[i] = parseVariable(g.names[i], world, g.vars[i]);
            g.refill = true; // its past, from the history (app.cpp), not an empty start
        }
        ImGui::PopID();
    }
    ImGui::Checkbox("pause", &g.paused);
    tooltip("Stop recording (the simulation runs on).");
    ImGui::SameLine();
    if (ImGui::Button("clear")) clearTimeGraph(g);
    tooltip("Forget the recorded samples.");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-1);
    float window = float(g.window);
    if (ImGui::SliderFloat("##window", &window, 2, 60, "window %.0f s",
                           ImGuiSliderFlags_AlwaysClamp))
        g.window = window;
    tooltip("How many seconds of simulated time the graph shows.");

    // One axis per unit: the first series' on the left, another on the right, a third unit
    // scaled into the frame.
    std::array<std::string, 3> units;
    for (int i = 0; i < 3; ++i)
        units[i] = g.valid[i] ? unitOf(g.vars[i]) : "";
    const std::array<Axis, 3> axis = assignAxes(units, g.valid);
    const std::size_t n = g.t.size();
    const double tEnd = n ? g.t.back() : 0;
    const double x1 = std::max(tEnd, g.window), x0 = x1 - g.window;
    Range left, right, own[3];
    bool anyLeft = false, anyRight = false, first[3] = {true, true, true}, firstL = true,
         firstR = true;
    for (std::size_t k = g.start; k < n; ++k)
        for (int i = 0; i < 3; ++i) {
            if (!g.valid[i]) continue;
            const double v = g.y[i][k];
            expand(own[i].lo, own[i].hi, v, first[i]);
            first[i] = false;
            if (axis[i] == Axis::Left) expand(left.lo, left.hi, v, firstL), firstL = false;
            if (axis[i] == Axis::Right) expand(right.lo, right.hi, v, firstR), firstR = false;
        }
    for (int i = 0; i < 3; ++i) {
        anyLeft |= g.valid[i] && axis[i] == Axis::Left;
        anyRight |= g.valid[i] && axis[i] == Axis::Right;
        niceRange(own[i].lo, own[i].hi);
    }
    niceRange(left.lo, left.hi);
    niceRange(right.lo, right.hi);

    std::string names[3];
    const char* shown[3];
    bool scaledAny = false;
    for (int i = 0; i < 3; ++i) {
        names[i] = g.names[i];
        if (g.valid[i] && axis[i] == Axis::Right) names[i] += " (right)";
        if (g.valid[i] && axis[i] == Axis::Scaled) {
            names[i] += std::string(" (scaled, ") + unitOf(g.vars[i]) + ")";
            scaledAny = true;
        }
        shown[i] = names[i].c_str();
    }
    std::string leftTitle, rightTitle;
    for (int i = 0; i < 3; ++i) {
        if (g.valid[i] && axis[i] == Axis::Left && leftTitle.empty())
            leftTitle = titleOf(unitOf(g.vars[i]));
        if (g.valid[i] && axis[i] == Axis::Right && rightTitle.empty())
            rightTitle = titleOf(unitOf(g.vars[i]));
    }
    AxisTitles titles;
    titles.x = "time (s)";
    titles.y = anyLeft ? leftTitle.c_str() : nullptr;
    if (anyRight) {
        titles.right = rightTitle.c_str();
        titles.right0 = right.lo;
        titles.right1 = right.hi;
    }

    const float width = ImGui::GetContentRegionAvail().x;
    const int rows = legendRows(shown, 3, width - 60);
    height = std::max(height, kMinGraphFrame + overhead(width, rows, titles));
    const ImVec2 a = ImGui::GetCursorScreenPos();
    const ImVec2 b{a.x + width, a.y + height};
    ImGui::Dummy({b.x - a.x, height});
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const PlotFrame f = drawAxes(dl, a, b, x0, x1, left.lo, left.hi, rows, titles);
    p.timeFrameHeight = f.max.y - f.min.y;
    dl->PushClipRect(f.min, f.max, true);
    const std::size_t stride = strideFor(n - g.start, f.max.x - f.min.x);
    // The last series first and widest, the first on top and thinnest: a line hidden under
    // another (kinetic energy under the total, when there is no potential energy) still shows.
    for (int i = 2; i >= 0; --i) {
        if (!g.valid[i]) continue;
        const Range r = axis[i] == Axis::Left ? left : axis[i] == Axis::Right ? right : own[i];
        std::vector<Pixel> line;
        for (std::size_t k = g.start; k < n; k += stride) {
            const double v = f.y0 + (g.y[i][k] - r.lo) / (r.hi - r.lo) * (f.y1 - f.y0);
            const ImVec2 p = f.map(g.t[k], v);
            line.push_back({p.x, p.y});
        }
        drawLine(dl, line, kLineColors[i], 1.5f + 1.5f * float(i));
    }
    // The cursor: a line at the time under the mouse, a dot on each series, and what it reads.
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    if (ImGui::IsWindowHovered() && ImGui::IsMouseHoveringRect(f.min, f.max) && n >= 2) {
        const double t = x0 + (mouse.x - f.min.x) / (f.max.x - f.min.x) * (x1 - x0);
        dl->AddLine({mouse.x, f.min.y}, {mouse.x, f.max.y}, IM_COL32(200, 200, 200, 160));
        std::string text;
        char line[160];
        std::snprintf(line, sizeof line, "t = %.3f s", t);
        text = line;
        for (int i = 0; i < 3; ++i) {
            CursorReading c;
            if (!g.valid[i] || !readTimeGraph(g, i, t, x0, c)) continue;
            const Range r = axis[i] == Axis::Left ? left : axis[i] == Axis::Right ? right : own[i];
            const double v = f.y0 + (c.value - r.lo) / (r.hi - r.lo) * (f.y1 - f.y0);
            dl->AddCircleFilled(f.map(t, v), 4, kLineColors[i]);
            const std::string unit = unitOf(g.vars[i]);
            std::snprintf(line, sizeof line,
                          "\n%s: %.5g %s\n   slope %.5g %s   area %.5g %s (from %.2f s)",
                          g.names[i].c_str(), c.value, unit.c_str(), c.slope,
                          slopeUnit(unit).c_str(), c.area, areaUnit(unit).c_str(), c.from);
            text += line;
        }
        // Beside the graph, left of it, so that it hides neither the lines nor the dots.
        ImGui::SetNextWindowPos({f.min.x - 40, mouse.y}, ImGuiCond_Always, {1, 0.5f});
        ImGui::BeginTooltip();
        ImGui::TextUnformatted(text.c_str());
        ImGui::EndTooltip();
    }
    dl->PopClipRect();
    drawLegend(dl, f, shown, kLineColors, 3);
    if (scaledAny) ImGui::TextDisabled("A third unit: its line is scaled to fill the frame.");
    ImGui::PopID();
}

void xyGraphWidget(PlotState& p, const carom::World& world, float height) {
    XYGraph& g = p.xy;
    ImGui::PushID("xy");
    const float w = ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ItemSpacing.x;
    ImGui::SetNextItemWidth(w * 0.5f);
    bool changed = variableCombo("##x", g.xName, world);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(w * 0.5f);
    changed |= variableCombo("##y", g.yName, world);
    if (changed) {
        g.valid = parseVariable(g.xName, world, g.x) && parseVariable(g.yName, world, g.y);
        clearXYGraph(g);
    }
    ImGui::Checkbox("pause", &g.paused);
    tooltip("Stop recording (the simulation runs on).");
    ImGui::SameLine();
    if (ImGui::Button("clear")) clearXYGraph(g);
    tooltip("Forget the recorded points.");
    ImGui::SameLine();
    if (ImGui::Button("fit")) fitXYGraph(g);
    tooltip("Show every recorded point; the range then stays until \"follow\" is ticked again.");
    ImGui::SameLine();
    ImGui::Checkbox("follow", &g.follow);
    tooltip("The range follows the recent points: it grows at once and shrinks when they fill less "
            "than a third of it.");
    ImGui::SameLine();
    ImGui::Checkbox("equal", &g.equalScales);
    tooltip("Equal scales: a unit as long across as up, so that a path is not distorted (for two "
            "variables of the same unit, positions say).");
    ImGui::TextDisabled("%zu points", g.xs.size());

    const std::string xTitle = g.xName + " (" + unitOf(g.x) + ")";
    const std::string yTitle = g.yName + " (" + unitOf(g.y) + ")";
    AxisTitles titles;
    titles.x = xTitle.c_str();
    titles.y = yTitle.c_str();
    const float width = ImGui::GetContentRegionAvail().x;
    height = std::max(height, kMinGraphFrame + overhead(width, 0, titles));
    const ImVec2 a = ImGui::GetCursorScreenPos();
    const ImVec2 b{a.x + width, a.y + height};
    ImGui::Dummy({b.x - a.x, height});
    updateXYRange(g);
    Range x = g.shownX, y = g.shownY;
    if (g.xs.empty() || x.empty() || y.empty()) x = y = Range{-1, 1};
    if (g.equalScales) {
        const PlotFrame size = layoutFrame(a, b, 0, titles);
        equalScales(x, y, size.max.x - size.min.x, size.max.y - size.min.y);
    }
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const PlotFrame f = drawAxes(dl, a, b, x.lo, x.hi, y.lo, y.hi, 0, titles);
    p.xyFrameHeight = f.max.y - f.min.y;
    dl->PushClipRect(f.min, f.max, true);
    const std::size_t n = g.xs.size();
    const std::size_t stride = strideFor(n, 4 * (f.max.x - f.min.x));
    std::vector<Pixel> line;
    for (std::size_t k = 0; k < n; k += stride) {
        const ImVec2 p = f.map(g.xs[k], g.ys[k]);
        line.push_back({p.x, p.y});
    }
    drawLine(dl, line, kLineColors[0], 1.2f);
    if (n) dl->AddCircleFilled(f.map(g.xs.back(), g.ys.back()), 3.5f, kLineColors[1]);
    dl->PopClipRect();
    ImGui::PopID();
}

} // namespace app
