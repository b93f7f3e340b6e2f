// The body inspector: the selected body's properties, editable through the World setters. A
// value is applied when Enter is pressed; a refused one (the setters check every value) leaves
// the body as it was and says why.
#include "panels.h"

#include <cstdio>
#include <imgui.h>
#include <stdexcept>

namespace app {
namespace {

// One of the body's numbers: shown, and on Enter given to the world through set, whose refusal
// ("mass: must be > 0, got -1") is reported until a value is taken.
template <class Set> void field(UiContext& ui, const char* label, double value, Set set) {
    if (!ImGui::InputDouble(label, &value, 0, 0, "%.4f", ImGuiInputTextFlags_EnterReturnsTrue))
        return;
    try {
        set(value);
        ui.panels.inspectorError.clear();
        if (ui.session.selected) noteInspectorEdit(ui.session, *ui.session.selected);
    } catch (const std::invalid_argument& e) {
        ui.panels.inspectorError = e.what();
    }
}

void edit(UiContext& ui, carom::BodyId id) {
    carom::World& w = ui.session.world;
    const carom::Body& b = w.body(id);
    field(ui, "mass (kg)", b.mass, [&](double v) { w.setMass(id, v); });
    field(ui, "restitution", w.restitutionOf(b), [&](double v) { w.setRestitution(id, v); });
    field(ui, "friction", w.frictionOf(b), [&](double v) { w.setFriction(id, v); });
    const carom::Vec2 p = b.xf().p;
    field(ui, "x (m)", p.x, [&](double v) { w.setPosition(id, {v, p.y}, b.angle()); });
    field(ui, "y (m)", p.y, [&](double v) { w.setPosition(id, {p.x, v}, b.angle()); });
    field(ui, "angle (rad)", b.angle(), [&](double v) { w.setPosition(id, p, v); });
    field(ui, "vx (m/s)", b.v.x, [&](double v) { w.setVelocity(id, {v, b.v.y}, b.w); });
    field(ui, "vy (m/s)", b.v.y, [&](double v) { w.setVelocity(id, {b.v.x, v}, b.w); });
    field(ui, "omega (rad/s)", b.w, [&](double v) { w.setVelocity(id, b.v, v); });
}

const char* shapeName(const carom::Shape& s) {
    switch (s.type()) {
    case carom::ShapeType::Circle:
        return "circle";
    case carom::ShapeType::Box:
        return "box";
    case carom::ShapeType::Polygon:
        return "polygon";
    }
    return "?";
}

} // namespace

void inspectorWindow(UiContext& ui, const Rect& view) {
    Session& s = ui.session;
    if (!s.selected || *s.selected >= s.world.bodies().size()) {
        s.selected.reset();
        return;
    }
    const carom::BodyId id = *s.selected;
    // On the left, at the other end from the stats (top, under the energy bar, or bottom).
    if (statsOnTop(view))
        ImGui::SetNextWindowPos({view.min.x + 10, view.max.y - 40}, ImGuiCond_Appearing, {0, 1});
    else
        ImGui::SetNextWindowPos({view.min.x + 10, view.min.y + belowEnergyBar(ui.view) + 10},
                                ImGuiCond_Appearing);
    bool open = true;
    char title[96];
    std::snprintf(title, sizeof title, "Inspector: %s###inspector", s.world.body(id).name.c_str());
    ImGui::Begin(title, &open,
                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_AlwaysAutoResize);
    noteOverlay(ui.panels);
    const carom::Body& b = s.world.body(id);
    ImGui::TextDisabled("%s, I = %.4g kg m², %s", shapeName(b.shape), b.inertia,
                        s.stepper.paused ? "paused" : "running");
    ImGui::PushItemWidth(150);
    edit(ui, id);
    ImGui::PopItemWidth();
    ImGui::TextDisabled("Enter applies a value.");
    const bool edited = s.inspectorEdits.count(b.name) > 0;
    if (ImGui::Button("apply to scene")) applyToScene(s, id);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Make this body's current state its start: Reset then returns here.");
    ImGui::SameLine();
    ImGui::TextDisabled("%s", edited ? "edited: Reset drops it unless applied" : "");
    if (!ui.panels.inspectorError.empty()) // wrapped at spaces: not inside "-1.000000"
        wrappedText("refused: " + ui.panels.inspectorError, {1, 0.4f, 0.4f, 1});
    ImGui::End();
    if (!open) {
        s.selected.reset();
        ui.panels.inspectorError.clear();
    }
}

} // namespace app
