// The profile window (issue 44; Box2D's samples have one): where the step's time goes, stage by
// stage (carom::StepProfile, timed by the world while the window is open), the mean over the steps
// of the last half second of frames, and what the step works on: bodies, contacts, the solver's
// colours, substeps and threads.
#include "panels.h"
#include "session.h"
#include "tooltip.h"

#include <algorithm>
#include <cstdio>
#include <imgui.h>
#include <string>

namespace app {
namespace {

// The mean of the profiles of the steps taken, over about half a second of frames.
void follow(ProfileMean& mean, const carom::World& w) {
    if (w.stepCount() == mean.step) return;
    mean.step = w.stepCount();
    const carom::StepProfile& p = w.diagnostics().profile;
    const double keep = mean.seen ? 0.97 : 0.0; // about 30 steps' memory
    for (const carom::ProfileStage& s : carom::kProfileStages)
        mean.profile.*s.time = keep * (mean.profile.*s.time) + (1 - keep) * (p.*s.time);
    mean.profile.colours = p.colours;
    mean.profile.substeps = p.substeps;
    mean.seen = true;
}

} // namespace

void profileWindow(UiContext& ui, const Rect& view) {
    const carom::World& w = ui.session.world;
    ProfileMean& mean = ui.panels.profile;
    follow(mean, w);
    ImGui::SetNextWindowPos({view.max.x - 10, view.min.y + belowEnergyBar(ui.view) + 10},
                            ImGuiCond_Appearing, {1, 0});
    ImGui::SetNextWindowBgAlpha(0.75f);
    ImGui::Begin("Profile", &ui.view.showProfile,
                 ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings |
                     ImGuiWindowFlags_NoFocusOnAppearing);
    noteOverlay(ui.panels, "profile");
    const carom::StepProfile& p = mean.profile;
    const double total = p.total();
    ImGui::Text("step %.4f ms (a mean of the last steps)", 1e3 * total);
    if (ImGui::BeginTable("stages", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
        for (const carom::ProfileStage& s : carom::kProfileStages) {
            std::string name = s.name; // "static_checks" shown as "static checks"
            std::replace(name.begin(), name.end(), '_', ' ');
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(name.c_str());
            tooltip(s.what);
            ImGui::TableNextColumn();
            ImGui::Text("%8.4f ms", 1e3 * (p.*s.time));
            ImGui::TableNextColumn();
            ImGui::Text("%5.1f%%", total > 0 ? 100 * (p.*s.time) / total : 0.0);
        }
        ImGui::EndTable();
    }
    std::size_t moving = 0;
    for (const carom::Body& b : w.bodies())
        moving += b.isDynamic() ? 1 : 0;
    ImGui::Text("bodies %zu (%zu moving), soft %zu", w.bodies().size(), moving,
                w.softBodies().size());
    ImGui::Text("contacts %zu (%d points), joints %zu", w.contacts().size(),
                w.diagnostics().contactPoints, w.joints().size());
    if (p.substeps > 0)
        ImGui::Text("colours %d, substeps %d, threads %d", p.colours, p.substeps, w.threads());
    else
        ImGui::Text("threads %d", w.threads());
    ImGui::End();
}

} // namespace app
