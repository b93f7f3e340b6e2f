// The body inspector: the selected body's properties, editable through the World setters. A
// value is applied when Enter is pressed; a refused one (the setters check every value) leaves
// the body as it was and says why, until the next edit begins or another body is shown. The
// window hides no body: it opens at a corner of the view, or in a gap between the bodies, that
// none of them covers (placement.h), and stays there while it is open, unless the user drags it.
#include "panels.h"
#include "placement.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <imgui.h>
#include <stdexcept>
#include <string>
#include <vector>

namespace app {
namespace {

// One of the body's numbers: shown, and on Enter given to the world through set, whose refusal
// ("mass: must be > 0, got -1") is reported until a value is taken.
template <class Set> void field(UiContext& ui, const char* label, double value, Set set) {
    const bool entered =
        ImGui::InputDouble(label, &value, 0, 0, "%.4f", ImGuiInputTextFlags_EnterReturnsTrue);
    if (ImGui::IsItemActivated()) ui.panels.inspectorError.clear(); // a new edit begins
    if (!entered) return;
    try {
        set(value);
        ui.panels.inspectorError.clear();
        if (ui.session.selected) noteInspectorEdit(ui.session, *ui.session.selected);
    } catch (const std::invalid_argument& e) {
        ui.panels.inspectorError = e.what();
    }
}

// Each value goes to the world through the session's door (apply), which logs it.
void edit(UiContext& ui, carom::BodyId id) {
    Session& s = ui.session;
    const carom::World& w = s.world;
    const carom::Body b = w.body(id); // a copy: a seek inside apply may replace the world
    using namespace carom::input;
    field(ui, "mass (kg)", b.mass, [&](double v) { apply(s, Mass{id, v}); });
    field(ui, "restitution", w.restitutionOf(b), [&](double v) { apply(s, Restitution{id, v}); });
    field(ui, "friction", w.frictionOf(b), [&](double v) { apply(s, Friction{id, v}); });
    const carom::Vec2 p = b.xf().p;
    field(ui, "x (m)", p.x, [&](double v) { apply(s, Pose{id, {v, p.y}, b.angle()}); });
    field(ui, "y (m)", p.y, [&](double v) { apply(s, Pose{id, {p.x, v}, b.angle()}); });
    field(ui, "angle (rad)", b.angle(), [&](double v) { apply(s, Pose{id, p, v}); });
    field(ui, "vx (m/s)", b.v.x, [&](double v) { apply(s, Velocity{id, {v, b.v.y}, b.w}); });
    field(ui, "vy (m/s)", b.v.y, [&](double v) { apply(s, Velocity{id, {b.v.x, v}, b.w}); });
    field(ui, "omega (rad/s)", b.w, [&](double v) { apply(s, Velocity{id, b.v, v}); });
}

// One of a joint's numbers, unset when its box is unticked (a motor, a limit, a rope's ends): on
// a change the joint's whole tuning goes to the world, whose refusal is reported as above.
void optionalField(UiContext& ui, const char* label, std::optional<double>& value,
                   double whenTicked, bool& changed) {
    ImGui::PushID(label);
    bool on = value.has_value();
    if (ImGui::Checkbox("##on", &on)) {
        value = on ? std::optional<double>(whenTicked) : std::nullopt;
        changed = true;
    }
    ImGui::SameLine();
    double v = value.value_or(whenTicked);
    if (!on) ImGui::BeginDisabled();
    if (ImGui::InputDouble(label, &v, 0, 0, "%.4f", ImGuiInputTextFlags_EnterReturnsTrue)) {
        value = v;
        changed = true;
    }
    if (ImGui::IsItemActivated()) ui.panels.inspectorError.clear();
    if (!on) ImGui::EndDisabled();
    ImGui::PopID();
}

const char* jointName(const carom::Joint& j) {
    switch (j.type) {
    case carom::JointType::Revolute:
        return "pin";
    case carom::JointType::Weld:
        return "weld";
    case carom::JointType::Prismatic:
        return "slider";
    case carom::JointType::Distance:
        break;
    }
    return j.kind == carom::DistanceKind::Rod    ? "rod"
           : j.kind == carom::DistanceKind::Rope ? "rope"
                                                 : "spring";
}

// The joints of body `id`, each with what it does, editable: a motor's speed and strength, the
// limits, a distance joint's lengths, stiffness and damping (World::tuneJoint).
void editJoints(UiContext& ui, carom::BodyId id) {
    Session& s = ui.session;
    for (carom::JointId k = 0; k < s.world.joints().size(); ++k) {
        const carom::Joint j = s.world.joints()[k]; // a copy: apply may replace the world
        if (j.b != id && j.a != id) continue;
        ImGui::PushID(int(k));
        const std::string other = j.a == id ? s.world.body(j.b).name
                                  : j.a     ? s.world.body(*j.a).name
                                            : std::string("the world");
        ImGui::Separator();
        ImGui::Text("%s: %s to %s", j.name.c_str(), jointName(j), other.c_str());
        carom::input::JointTune t = carom::input::tuningOf(s.world, k);
        bool changed = false;
        const bool angular = j.type == carom::JointType::Revolute;
        if (angular || j.type == carom::JointType::Prismatic) {
            optionalField(ui, angular ? "motor (rad/s)" : "motor (m/s)", t.motorSpeed, 1, changed);
            if (t.motorSpeed) {
                double most = t.maxMotor.value_or(10);
                if (ImGui::InputDouble(angular ? "max torque (N m)" : "max force (N)", &most, 0, 0,
                                       "%.4f", ImGuiInputTextFlags_EnterReturnsTrue))
                    t.maxMotor = most, changed = true;
                if (!t.maxMotor) t.maxMotor = most;
            }
            optionalField(ui, angular ? "lower (rad)" : "lower (m)", t.lower, -1, changed);
            optionalField(ui, angular ? "upper (rad)" : "upper (m)", t.upper, 1, changed);
        }
        if (j.type == carom::JointType::Distance) {
            const double now = [&] {
                const auto [a, b] = s.world.jointAnchors(k);
                return glm::length(b - a);
            }();
            ImGui::TextDisabled("length now %.4f m, force %.4g N", now, glm::length(j.force));
            if (j.kind != carom::DistanceKind::Rope) {
                double length = j.length;
                if (ImGui::InputDouble("length (m)", &length, 0, 0, "%.4f",
                                       ImGuiInputTextFlags_EnterReturnsTrue))
                    t.length = length, changed = true;
            }
            if (j.kind == carom::DistanceKind::Spring) {
                double k2 = j.stiffness, c = j.damping;
                if (ImGui::InputDouble("stiffness (N/m)", &k2, 0, 0, "%.4f",
                                       ImGuiInputTextFlags_EnterReturnsTrue))
                    t.stiffness = k2, changed = true;
                if (ImGui::InputDouble("damping (N s/m)", &c, 0, 0, "%.4f",
                                       ImGuiInputTextFlags_EnterReturnsTrue))
                    t.damping = c, changed = true;
            }
            if (j.kind != carom::DistanceKind::Rod) {
                optionalField(ui, "min length (m)", t.minLength, 0, changed);
                optionalField(ui, "max length (m)", t.maxLength, now, changed);
            }
        }
        if (changed) try {
                apply(s, t);
                ui.panels.inspectorError.clear();
            } catch (const std::invalid_argument& e) {
                ui.panels.inspectorError = e.what();
            }
        ImGui::PopID();
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
    case carom::ShapeType::Capsule:
        return "capsule";
    case carom::ShapeType::Segment:
        return "segment";
    }
    return "?";
}

Box boxOf(const Rect& r) {
    return {r.min.x, r.min.y, r.max.x, r.max.y};
}

// The body's box on the screen: its shapes' vertices (a circle's centre), widened by their
// rounding.
Box screenBox(const carom::Body& b, const Camera& cam) {
    Box box{INFINITY, INFINITY, -INFINITY, -INFINITY};
    auto add = [&](carom::Vec2 p, double r) {
        const ImVec2 s = cam.toScreen(p);
        const float rs = float(r * cam.scale);
        box = {std::min(box.x0, s.x - rs), std::min(box.y0, s.y - rs), std::max(box.x1, s.x + rs),
               std::max(box.y1, s.y + rs)};
    };
    for (std::size_t i = 0; i < b.shapes.size(); ++i) {
        const carom::Transform xf = b.shapeXf(i);
        const carom::Shape& shape = b.shapes[i].shape;
        if (shape.vertices().empty()) add(xf.p, shape.radius());
        for (const carom::Vec2& v : shape.vertices())
            add(xf.apply(v), shape.radius());
    }
    return box;
}

Box screenBox(const carom::SoftBody& b, const Camera& cam) {
    Box box{INFINITY, INFINITY, -INFINITY, -INFINITY};
    for (const carom::Particle& p : b.particles) {
        const ImVec2 s = cam.toScreen(p.x);
        box = {std::min(box.x0, s.x - 3), std::min(box.y0, s.y - 3), std::max(box.x1, s.x + 3),
               std::max(box.y1, s.y + 3)};
    }
    return box;
}

// Puts the next window (an inspector, about `estimate` in size before it is first measured)
// where it hides no body: chosen over the view below the energy bar (placement.h) among the
// moving bodies and the soft ones, then the windows already there and the static bodies; chosen
// again until its size is known, then kept (WindowPlace). Call before ImGui::Begin.
void placeNextWindow(const UiContext& ui, WindowPlace& place, const Rect& view, ImVec2 estimate) {
    if (place.moved) return;
    if (place.framesShown < 4 && ui.camera) {
        const carom::World& w = ui.session.world;
        std::vector<Box> bodies, others;
        for (const carom::Body& b : w.bodies())
            (b.isDynamic() ? bodies : others).push_back(screenBox(b, *ui.camera));
        for (const carom::SoftBody& b : w.softBodies())
            bodies.push_back(screenBox(b, *ui.camera));
        for (const Rect& o : ui.panels.overlays)
            others.push_back(boxOf(o));
        const float margin = 10;
        const Box area{view.min.x + margin, view.min.y + belowEnergyBar(ui.view) + margin,
                       view.max.x - margin, view.max.y - margin};
        const ImVec2 size = place.size.x > 0 ? place.size : estimate;
        const Box at = placeClear(area, size.x, size.y, bodies, others);
        const Pivot pivot = pivotFor(area, at);
        place.pivot = {pivot.x, pivot.y};
        place.anchor = {pivot.x > 0 ? at.x1 : at.x0, pivot.y > 0 ? at.y1 : at.y0};
    }
    // Set only while it is placed or has changed size: between, a drag by its title bar moves it.
    if (place.framesShown < 4 || place.resized)
        ImGui::SetNextWindowPos(place.anchor, ImGuiCond_Always, place.pivot);
}

// After ImGui::Begin: the window's size, measured. An auto-resized window is hidden in its first
// frame and takes its content's size over the next two; its place is kept from the fourth. A
// window of the same size away from its anchor was dragged there.
void measureWindow(WindowPlace& place) {
    const ImVec2 size = ImGui::GetWindowSize(), at = ImGui::GetWindowPos();
    place.resized = size.x != place.size.x || size.y != place.size.y;
    if (place.framesShown >= 4 && !place.resized) {
        const float x = place.anchor.x - place.pivot.x * size.x;
        const float y = place.anchor.y - place.pivot.y * size.y;
        place.moved |= std::abs(at.x - x) > 1 || std::abs(at.y - y) > 1;
    }
    place.size = size;
    place.frame = ImGui::GetFrameCount();
    ++place.framesShown;
}

// A window shown again after a frame or more without it is placed anew.
void reopenIfClosed(WindowPlace& place) {
    if (place.frame != ImGui::GetFrameCount() - 1) place = WindowPlace{};
}

} // namespace

void inspectorWindow(UiContext& ui, const Rect& view) {
    Session& s = ui.session;
    if (!s.selected || *s.selected >= s.world.bodies().size()) {
        s.selected.reset();
        return;
    }
    const carom::BodyId id = *s.selected;
    PanelState& ps = ui.panels;
    // Shown again, or another body: the messages were about something else. Another body keeps
    // the window where it is; shown again, it is placed anew where it hides no body.
    const bool reopened = ps.inspectorPlace.frame != ImGui::GetFrameCount() - 1;
    if (reopened || ps.inspectorBody != id) ps.inspectorError.clear();
    ps.inspectorBody = id;
    reopenIfClosed(ps.inspectorPlace);
    placeNextWindow(ui, ps.inspectorPlace, view, {330, 330});
    bool open = true;
    char title[96];
    std::snprintf(title, sizeof title, "Inspector: %s###inspector", s.world.body(id).name.c_str());
    ImGui::Begin(title, &open,
                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_AlwaysAutoResize);
    noteOverlay(ui.panels, "inspector");
    measureWindow(ps.inspectorPlace);
    const carom::Body& b = s.world.body(id);
    if (b.isCompound())
        ImGui::TextDisabled("compound of %zu shapes, I = %.4g kg m², %s", b.shapes.size(),
                            b.inertia, s.stepper.paused ? "paused" : "running");
    else
        ImGui::TextDisabled("%s, I = %.4g kg m², %s", shapeName(carom::soleShape(b)), b.inertia,
                            s.stepper.paused ? "paused" : "running");
    ImGui::PushItemWidth(150);
    edit(ui, id);
    editJoints(ui, id);
    ImGui::PopItemWidth();
    ImGui::TextDisabled("Enter applies a value.");
    const bool edited = s.inspectorEdits.count(b.name) > 0;
    if (ImGui::Button("apply to scene")) applyToScene(s, id);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Make this body's current state its start: Reset then returns here.");
    // On a line of its own, there whether edited or not: the window keeps its size.
    ImGui::TextDisabled("%s", edited ? "edited: Reset drops it unless applied" : " ");
    if (!ui.panels.inspectorError.empty()) // wrapped at spaces: not inside "-1.000000"
        wrappedText("refused: " + ui.panels.inspectorError, {1, 0.4f, 0.4f, 1});
    ImGui::End();
    if (!open) {
        s.selected.reset();
        ps.inspectorError.clear();
        ps.inspectorBody.reset();
    }
}

void softInspectorWindow(UiContext& ui, const Rect& view) {
    Session& s = ui.session;
    if (!s.selectedSoft || *s.selectedSoft >= s.world.softBodies().size()) {
        s.selectedSoft.reset();
        return;
    }
    const carom::SoftBody& b = s.world.softBodies()[*s.selectedSoft];
    reopenIfClosed(ui.panels.softInspectorPlace);
    placeNextWindow(ui, ui.panels.softInspectorPlace, view, {300, 170});
    bool open = true;
    char title[96];
    std::snprintf(title, sizeof title, "Inspector: %s###softInspector", b.name.c_str());
    ImGui::Begin(title, &open,
                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_AlwaysAutoResize);
    noteOverlay(ui.panels, "soft inspector");
    measureWindow(ui.panels.softInspectorPlace);
    ImGui::TextDisabled("soft body, %s", s.stepper.paused ? "paused" : "running");
    ImGui::Text("particles     %zu (%zu on the boundary, %s)", b.particles.size(),
                b.boundary.size(), b.closed ? "closed" : "open");
    ImGui::Text("springs       %zu", b.springs.size());
    ImGui::Text("total mass    %.4g kg", b.mass());
    ImGui::Text("stiffness     %.4g N/m", b.stiffness);
    ImGui::Text("damping       %.4g N s/m", b.damping);
    ImGui::Text("spring energy %.4g J", b.springEnergy());
    ImGui::TextDisabled("stiffness and damping: the defaults of its springs");
    ImGui::End();
    if (!open) s.selectedSoft.reset();
}

} // namespace app
