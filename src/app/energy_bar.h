// myPhysicsLab's energy bar: one horizontal bar stacking potential, rotational and translational
// energy on a numeric scale, negative potential drawn left of zero, a legend, and the total with
// its change since the start.
#pragma once

#include <imgui.h>

namespace app {

struct EnergyBar {
    double lo = 0, hi = 1; // the scale shown; grows at once, shrinks when mostly unused
};

struct EnergyValues {
    double potential = 0, rotational = 0, translational = 0;
    double initialTotal = 0;   // for "total … (±change)"
    bool showMomentum = false; // a row with the momentum and the angular momentum
    double momentumX = 0, momentumY = 0, angularMomentum = 0;
};

constexpr float kEnergyBarTop = 8; // pixels from the top of the simulation view

// The bar's height: a legend row, the bar, its numbers, and the momentum row when shown.
inline float energyBarHeight(bool momentum = false) {
    return (momentum ? 4 : 3) * ImGui::GetFontSize() + (momentum ? 30 : 26);
}

// Draws into `dl` in the box [min, max] (the bar, its scale and legend); the mouse resting on
// the total or the legend shows what they mean.
void drawEnergyBar(ImDrawList* dl, ImVec2 min, ImVec2 max, EnergyBar& bar, const EnergyValues& e);

} // namespace app
