// The stopwatch's window (stopwatch.h): the simulated time it reads, in large digits, and its
// buttons. A world rebuilt (a scene opened, a reset) starts it again from 0.
#include "panels.h"
#include "tooltip.h"

#include <imgui.h>

namespace app {

void stopwatchWindow(UiContext& ui, const Rect& view) {
    Stopwatch& watch = ui.panels.stopwatch;
    const double now = ui.session.world.time();
    if (ui.panels.stopwatchGeneration != ui.session.generation) {
        ui.panels.stopwatchGeneration = ui.session.generation;
        watch.reset(now);
    }
    ImGui::SetNextWindowPos({view.min.x + 10, view.min.y + belowEnergyBar(ui.view) + 10},
                            ImGuiCond_Appearing);
    ImGui::SetNextWindowBgAlpha(0.75f);
    ImGui::Begin("Stopwatch", &ui.view.showStopwatch,
                 ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings |
                     ImGuiWindowFlags_NoFocusOnAppearing);
    noteOverlay(ui.panels, "stopwatch");
    ImGui::SetWindowFontScale(2);
    ImGui::Text("%8.3f s", watch.reading(now));
    ImGui::SetWindowFontScale(1);
    const float w = ImGui::GetItemRectSize().x / 2 - ImGui::GetStyle().ItemSpacing.x / 2;
    if (ImGui::Button(watch.running ? "Stop" : "Start", {w, 0})) {
        if (watch.running)
            watch.stop(now);
        else
            watch.start(now);
    }
    tooltip("The stopwatch times simulated time: it runs while the simulation does.");
    ImGui::SameLine();
    if (ImGui::Button("Reset", {w, 0})) watch.reset(now);
    ImGui::End();
}

} // namespace app
