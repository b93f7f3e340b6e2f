// The body inspector: the selected body's properties, editable through the World setters. A
// value is applied when Enter is pressed; a refused one leaves the body as it was and says why.
#include "panels.h"

#include <cmath>
#include <cstdio>
#include <imgui.h>
#include <stdexcept>
#include <string>

namespace app {
namespace {

// One editable number; returns true with the new value when the user pressed Enter.
bool field(const char* label, double value, double& out, const char* fmt = "%.4f") {
    out = value;
    return ImGui::InputDouble(label, &out, 0, 0, fmt, ImGuiInputTextFlags_EnterReturnsTrue);
}

// Checks a value where it enters: the message names the field and the bad value.
void require(bool ok, const char* what, double v) {
    if (!ok) throw std::invalid_argument(std::string(what) + " " + std::to_string(v));
}

void edit(UiContext& ui, carom::BodyId id) {
    carom::World& w = ui.session.world;
    const carom::Body& b = w.body(id);
    double v = 0;
    if (field("mass (kg)", b.mass, v)) {
        require(std::isfinite(v) && v > 0, "mass must be > 0, got", v);
        w.setMass(id, v);
    }
    if (field("restitution", w.restitutionOf(b), v)) {
        require(v >= 0 && v <= 1, "restitution must be in [0, 1], got", v);
        w.setRestitution(id, v);
    }
    if (field("friction", w.frictionOf(b), v)) {
        require(std::isfinite(v) && v >= 0, "friction must be >= 0, got", v);
        w.setFriction(id, v);
    }
    if (field("x (m)", b.xf().p.x, v)) {
        require(std::isfinite(v), "x must be a finite number, got", v);
        w.setPosition(id, {v, b.xf().p.y}, b.angle());
    }
    if (field("y (m)", b.xf().p.y, v)) {
        require(std::isfinite(v), "y must be a finite number, got", v);
        w.setPosition(id, {b.xf().p.x, v}, b.angle());
    }
    if (field("angle (rad)", b.angle(), v)) {
        require(std::isfinite(v), "angle must be a finite number, got", v);
        w.setPosition(id, b.xf().p, v);
    }
    if (field("vx (m/s)", b.v.x, v)) {
        require(std::isfinite(v), "vx must be a finite number, got", v);
        w.setVelocity(id, {v, b.v.y}, b.w);
    }
    if (field("vy (m/s)", b.v.y, v)) {
        require(std::isfinite(v), "vy must be a finite number, got", v);
        w.setVelocity(id, {b.v.x, v}, b.w);
    }
    if (field("omega (rad/s)", b.w, v)) {
        require(std::isfinite(v), "omega must be a finite number, got", v);
        w.setVelocity(id, b.v, v);
    }
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
    try {
        edit(ui, id);
        if (ImGui::IsItemDeactivatedAfterEdit()) ui.panels.inspectorError.clear();
    } catch (const std::invalid_argument& e) {
        ui.panels.inspectorError = e.what();
    }
    ImGui::PopItemWidth();
    ImGui::TextDisabled("Enter applies a value.");
    if (!ui.panels.inspectorError.empty()) {
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored({1, 0.4f, 0.4f, 1}, "refused: %s", ui.panels.inspectorError.c_str());
        ImGui::PopTextWrapPos();
    }
    ImGui::End();
    if (!open) {
        s.selected.reset();
        ui.panels.inspectorError.clear();
    }
}

} // namespace app
