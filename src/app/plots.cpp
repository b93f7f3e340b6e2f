// Graphs drawn with ImDrawList: recording, variable pickers, lines.
#include "plots.h"

#include "plot_axes.h"
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <imgui.h>

namespace app {
namespace {

const ImU32 kLineColors[3] = {IM_COL32(80, 170, 255, 255), IM_COL32(255, 150, 60, 255),
                              IM_COL32(110, 220, 110, 255)};

void resolve(PlotState& p, const carom::World& world) {
    for (int i = 0; i < 3; ++i)
        p.time.valid[i] = adoptVariable(p.time.names[i], world, p.time.vars[i]);
    p.xy.valid =
        adoptVariable(p.xy.xName, world, p.xy.x) && adoptVariable(p.xy.yName, world, p.xy.y);
    clearTimeGraph(p.time);
    clearXYGraph(p.xy);
}

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
            }
        ImGui::EndCombo();
    }
    return changed;
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

} // namespace

void clearTimeGraph(TimeGraph& g) {
    g.t.clear();
    for (auto& y : g.y)
        y.clear();
    g.start = 0;
}

void clearXYGraph(XYGraph& g) {
    g.xs.clear();
    g.ys.clear();
}

void updatePlots(PlotState& p, const carom::World& world, std::uint64_t generation,
                 const Sample& s) {
    if (p.generation != generation) {
        p.generation = generation;
        p.lastTime = -1;
        resolve(p, world);
    }
    if (s.time == p.lastTime) return;
    p.lastTime = s.time;
    TimeGraph& g = p.time;
    if (!g.paused) {
        g.t.push_back(s.time);
        for (int i = 0; i < 3; ++i)
            g.y[i].push_back(g.valid[i] ? evaluate(g.vars[i], world, s) : 0);
        while (g.start < g.t.size() && g.t[g.start] < s.time - g.window)
            ++g.start;
        if (g.start > 4096 && g.start > g.t.size() / 2) { // drop the old samples now and then
            g.t.erase(g.t.begin(), g.t.begin() + g.start);
            for (auto& y : g.y)
                y.erase(y.begin(), y.begin() + g.start);
            g.start = 0;
        }
    }
    XYGraph& xy = p.xy;
    if (!xy.paused && xy.valid) {
        if (xy.xs.size() >= xy.maxPoints) { // keep the newer half
            xy.xs.erase(xy.xs.begin(), xy.xs.begin() + xy.maxPoints / 2);
            xy.ys.erase(xy.ys.begin(), xy.ys.begin() + xy.maxPoints / 2);
        }
        const double x = evaluate(xy.x, world, s), y = evaluate(xy.y, world, s);
        const bool first = xy.xs.empty();
        xy.xs.push_back(x);
        xy.ys.push_back(y);
        expand(xy.xLo, xy.xHi, x, first);
        expand(xy.yLo, xy.yHi, y, first);
    }
}

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
            clearTimeGraph(g);
        }
        ImGui::PopID();
    }
    ImGui::Checkbox("pause", &g.paused);
    ImGui::SameLine();
    if (ImGui::Button("clear")) clearTimeGraph(g);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-1);
    float window = float(g.window);
    if (ImGui::SliderFloat("##window", &window, 2, 60, "window %.0f s",
                           ImGuiSliderFlags_AlwaysClamp))
        g.window = window;

    const ImVec2 a = ImGui::GetCursorScreenPos();
    const ImVec2 b{a.x + ImGui::GetContentRegionAvail().x, a.y + height};
    ImGui::Dummy({b.x - a.x, height});
    const std::size_t n = g.t.size();
    const double tEnd = n ? g.t.back() : 0;
    const double x1 = std::max(tEnd, g.window), x0 = x1 - g.window;
    double lo = 0, hi = 0;
    bool first = true;
    for (std::size_t k = g.start; k < n; ++k)
        for (int i = 0; i < 3; ++i)
            if (g.valid[i]) {
                expand(lo, hi, g.y[i][k], first);
                first = false;
            }
    niceRange(lo, hi);
    const char* names[3] = {g.names[0].c_str(), g.names[1].c_str(), g.names[2].c_str()};
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const PlotFrame f = drawAxes(dl, a, b, x0, x1, lo, hi, legendRows(names, 3, b.x - a.x - 60));
    dl->PushClipRect(f.min, f.max, true);
    const std::size_t stride = strideFor(n - g.start, f.max.x - f.min.x);
    ImVec2 pts[2048];
    for (int i = 0; i < 3; ++i) {
        if (!g.valid[i]) continue;
        int m = 0;
        for (std::size_t k = g.start; k < n; k += stride) {
            pts[m++] = f.map(g.t[k], g.y[i][k]);
            if (m == 2048) break;
        }
        if (m >= 2) dl->AddPolyline(pts, m, kLineColors[i], 0, 1.5f);
    }
    dl->PopClipRect();
    drawLegend(dl, f, names, kLineColors, 3);
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
    ImGui::SameLine();
    if (ImGui::Button("clear")) clearXYGraph(g);
    ImGui::SameLine();
    ImGui::TextDisabled("%zu points", g.xs.size());

    const ImVec2 a = ImGui::GetCursorScreenPos();
    const ImVec2 b{a.x + ImGui::GetContentRegionAvail().x, a.y + height};
    ImGui::Dummy({b.x - a.x, height});
    double x0 = g.xLo, x1 = g.xHi, y0 = g.yLo, y1 = g.yHi;
    if (g.xs.empty()) x0 = x1 = y0 = y1 = 0;
    niceRange(x0, x1);
    niceRange(y0, y1);
    char label[160];
    std::snprintf(label, sizeof label, "%s against %s", g.yName.c_str(), g.xName.c_str());
    const char* names[1] = {label};
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const PlotFrame f = drawAxes(dl, a, b, x0, x1, y0, y1, 1);
    dl->PushClipRect(f.min, f.max, true);
    const std::size_t n = g.xs.size();
    const std::size_t stride = strideFor(n, 4 * (f.max.x - f.min.x));
    ImVec2 pts[4096];
    int m = 0;
    for (std::size_t k = 0; k < n; k += stride) {
        pts[m++] = f.map(g.xs[k], g.ys[k]);
        if (m == 4096) {
            dl->AddPolyline(pts, m, kLineColors[0], 0, 1.2f);
            pts[0] = pts[m - 1];
            m = 1;
        }
    }
    if (m >= 2) dl->AddPolyline(pts, m, kLineColors[0], 0, 1.2f);
    if (n) dl->AddCircleFilled(f.map(g.xs.back(), g.ys.back()), 3.5f, kLineColors[1]);
    dl->PopClipRect();
    drawLegend(dl, f, names, kLineColors, 1);
    ImGui::PopID();
}

} // namespace app
