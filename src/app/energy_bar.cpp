// The energy bar graph, drawn with ImDrawList.
#include "energy_bar.h"

#include "plot_axes.h"
#include <algorithm>
#include <cmath>
#include <cstdio>

namespace app {
namespace {

const ImU32 kPotential = IM_COL32(90, 160, 255, 255);
const ImU32 kRotational = IM_COL32(255, 120, 170, 255);
const ImU32 kTranslational = IM_COL32(250, 190, 60, 255);

// Auto-rescale: the scale must hold [lo, hi]; it jumps out at once and comes back in only when
// the data fill less than a third of it, so that it does not flicker.
void rescale(EnergyBar& bar, double lo, double hi) {
    if (hi - lo < 1e-9) hi = lo + 1; // nothing to show yet: a unit scale
    double nlo = lo, nhi = hi;
    niceRange(nlo, nhi);
    nlo = std::min(nlo, 0.0);
    nhi = std::max(nhi, 0.0);
    const bool outside = lo < bar.lo || hi > bar.hi;
    const bool unused = (hi - lo) < (bar.hi - bar.lo) / 3;
    if (outside || unused || !(bar.hi > bar.lo)) {
        bar.lo = nlo;
        bar.hi = nhi > nlo ? nhi : nlo + 1;
    }
}

} // namespace

void drawEnergyBar(ImDrawList* dl, ImVec2 min, ImVec2 max, EnergyBar& bar, const EnergyValues& e) {
    const double pe = e.potential, rot = std::max(0.0, e.rotational),
                 tr = std::max(0.0, e.translational);
    const double total = pe + rot + tr;
    // Stacking: PE from 0 (to the left when negative), then rotational, then translational.
    const double keStart = std::max(pe, 0.0);
    rescale(bar, std::min(pe, 0.0), keStart + rot + tr);

    const float fontH = ImGui::GetFontSize();
    // The panels' colours (dark, or light with the light background).
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
    dl->AddRectFilled(min, max, ImGui::GetColorU32(ImGuiCol_WindowBg, 0.8f), 4);
    const float x0 = min.x + 10, x1 = max.x - 10;
    auto X = [&](double v) { return float(x0 + (v - bar.lo) / (bar.hi - bar.lo) * (x1 - x0)); };

    // Legend line: three swatches and the total with its change (short names when narrow).
    char buf[96];
    const double change = total - e.initialTotal;
    std::snprintf(buf, sizeof buf, "total %.4g (%s%.3g)", total, change >= 0 ? "+" : "-",
                  std::abs(change));
    const char* longNames[3] = {"potential", "rotational", "translational"};
    const char* shortNames[3] = {"PE", "rot", "trans"};
    float need = ImGui::CalcTextSize(buf).x;
    for (const char* n : longNames)
        need += 26 + ImGui::CalcTextSize(n).x;
    const char* const* names = need < x1 - x0 ? longNames : shortNames;
    const ImU32 colors[3] = {kPotential, kRotational, kTranslational};
    float lx = x0;
    const float ly = min.y + 5;
    for (int i = 0; i < 3; ++i) {
        dl->AddRectFilled({lx, ly + 3}, {lx + 10, ly + fontH - 3}, colors[i]);
        dl->AddText({lx + 14, ly}, text, names[i]);
        lx += 14 + ImGui::CalcTextSize(names[i]).x + 12;
    }
    const ImVec2 totalAt{std::max(lx, x1 - ImGui::CalcTextSize(buf).x), ly};
    dl->AddText(totalAt, text, buf);
    // What the numbers mean, when the mouse rests on the legend line (not over a panel).
    const ImVec2 mouse = ImGui::GetMousePos();
    if (!ImGui::IsWindowHovered(ImGuiHoveredFlags_AnyWindow) && mouse.y >= ly &&
        mouse.y < ly + fontH && mouse.x >= x0 && mouse.x < x1) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(20 * fontH);
        if (mouse.x >= totalAt.x)
            ImGui::TextUnformatted(
                "The total energy now, and in brackets its drift: the change since "
                "the start (or the last Reset), from collisions, damping, friction, "
                "thrusters, the spring and the integrator's error.");
        else
            ImGui::TextUnformatted(
                "Potential energy (from its zero, moved by the PE offset), then the "
                "kinetic energy of rotation and of translation, stacked.");
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }

    // The bar.
    const float by0 = ly + fontH + 4, by1 = by0 + fontH;
    if (pe < 0)
        dl->AddRectFilled({X(pe), by0}, {X(0), by1}, kPotential);
    else if (pe > 0)
        dl->AddRectFilled({X(0), by0}, {X(pe), by1}, kPotential);
    dl->AddRectFilled({X(keStart), by0}, {X(keStart + rot), by1}, kRotational);
    dl->AddRectFilled({X(keStart + rot), by0}, {X(keStart + rot + tr), by1}, kTranslational);

    // The scale: ticks and numbers under the bar, a stronger line at zero.
    const double step = axisStep(bar.lo, bar.hi, x1 - x0);
    const float ty = by1 + 2;
    for (double v = std::ceil(bar.lo / step) * step; v <= bar.hi + step * 1e-6; v += step) {
        const float x = X(v);
        dl->AddLine({x, ty}, {x, ty + 4}, text);
        tickLabel(buf, sizeof buf, v, step);
        const float w = ImGui::CalcTextSize(buf).x;
        dl->AddText({std::clamp(x - w / 2, min.x + 2, max.x - w - 2), ty + 4}, text, buf);
    }
    dl->AddLine({X(0), by0 - 3}, {X(0), by1 + 3}, text, 1.5f);

    if (e.showMomentum) {
        std::snprintf(buf, sizeof buf,
                      "momentum (%.3g, %.3g) kg m/s    angular momentum %.3g kg m\u00b2/s",
                      e.momentumX + 0.0, e.momentumY + 0.0, e.angularMomentum + 0.0);
        dl->AddText({x0, ty + 4 + fontH + 4}, text, buf);
    }
}

} // namespace app
