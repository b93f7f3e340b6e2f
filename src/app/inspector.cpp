// The body inspector: the selected body's properties, editable through the World setters. A
// value is applied when Enter is pressed; a refused one (the setters check every value) leaves
// the body as it was and says why, until the next edit begins or another body is shown. The
// window keeps clear of the body it shows: it takes the corner of the view farthest from it.
#include "panels.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <imgui.h>
#include <stdexcept>
#include <string>

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

bool overlaps(const Rect& r, ImVec2 c, float radius) {
    const float x = std::clamp(c.x, r.min.x, r.max.x), y = std::clamp(c.y, r.min.y, r.max.y);
    return (x - c.x) * (x - c.x) + (y - c.y) * (y - c.y) < radius * radius;
}

bool overlaps(const Rect& a, const Rect& b) {
    return a.min.x < b.max.x && b.min.x < a.max.x && a.min.y < b.max.y && b.min.y < a.max.y;
}

// Where a window of `size` keeps clear of the body's circle on screen (centre c, radius r): of the
// view's four corners and the four places beside the body, the one that does not cover the body,
// covers the fewest other windows, stays in the view as far as it can (a small window's view may
// be narrower than the inspector) and is farthest from the body. Returns the top-left corner.
ImVec2 placeAwayFrom(const UiContext& ui, const Rect& view, ImVec2 size, ImVec2 c, float r) {
    const float margin = 10;
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    const float top = view.min.y + belowEnergyBar(ui.view) + margin;
    const float bottom = view.max.y - 40 - size.y; // above the clock
    const float left = view.min.x + margin, right = view.max.x - margin - size.x;
    const ImVec2 candidates[8] = {{left, top},
                                  {right, top},
                                  {left, bottom},
                                  {right, bottom},
                                  {c.x + r + margin, c.y - size.y / 2},
                                  {c.x - r - margin - size.x, c.y - size.y / 2},
                                  {c.x - size.x / 2, c.y - r - margin - size.y},
                                  {c.x - size.x / 2, c.y + r + margin}};
    ImVec2 best = candidates[0];
    double bestScore = -INFINITY;
    for (ImVec2 at : candidates) {
        at.x = std::clamp(at.x, 0.0f, std::max(0.0f, display.x - size.x));
        at.y = std::clamp(at.y, 0.0f, std::max(0.0f, display.y - size.y));
        const Rect rect{at, {at.x + size.x, at.y + size.y}};
        const ImVec2 mid = rect.center();
        double score = std::hypot(mid.x - c.x, mid.y - c.y);
        if (overlaps(rect, c, r)) score -= 1e6;
        for (const Rect& o : ui.panels.overlays)
            if (overlaps(rect, o)) score -= 1e4;
        const float inX =
            std::max(0.0f, std::min(rect.max.x, view.max.x) - std::max(rect.min.x, view.min.x));
        const float inY =
            std::max(0.0f, std::min(rect.max.y, view.max.y) - std::max(rect.min.y, view.min.y));
        score -= 1e3 * (1 - double(inX) * inY / (double(size.x) * size.y));
        if (score > bestScore) {
            bestScore = score;
            best = at;
        }
    }
    return best;
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
    // Shown again, or another body: the messages were about something else.
    const bool fresh = ps.inspectorBody != id || ps.inspectorFrame != ImGui::GetFrameCount() - 1 ||
                       ps.inspectorRect.size().x <= 0;
    if (fresh) ps.inspectorError.clear();
    ps.inspectorBody = id;
    ps.inspectorFrame = ImGui::GetFrameCount();
    // Keep clear of the body: on a new body, or when the body (a circle about its centre that
    // holds it, on screen) has come under the window, move to the corner farthest from it. The
    // user may move the window anywhere else.
    if (ui.camera) {
        const carom::Body& b = s.world.body(id);
        const ImVec2 c = ui.camera->toScreen(b.xf().p);
        const float r = float(b.boundingRadius() * ui.camera->scale) + 6;
        const ImVec2 size =
            ps.inspectorRect.size().x <= 0 ? ImVec2{330, 330} : ps.inspectorRect.size();
        if (fresh || overlaps(ps.inspectorRect, c, r))
            ImGui::SetNextWindowPos(placeAwayFrom(ui, view, size, c, r), ImGuiCond_Always);
    }
    bool open = true;
    char title[96];
    std::snprintf(title, sizeof title, "Inspector: %s###inspector", s.world.body(id).name.c_str());
    ImGui::Begin(title, &open,
                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_AlwaysAutoResize);
    noteOverlay(ui.panels);
    {
        const ImVec2 at = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
        ps.inspectorRect = Rect{at, {at.x + size.x, at.y + size.y}};
    }
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
    ImGui::SameLine();
    ImGui::TextDisabled("%s", edited ? "edited: Reset drops it unless applied" : "");
    if (!ui.panels.inspectorError.empty()) // wrapped at spaces: not inside "-1.000000"
        wrappedText("refused: " + ui.panels.inspectorError, {1, 0.4f, 0.4f, 1});
    ImGui::End();
    if (!open) {
        s.selected.reset();
        ps.inspectorError.clear();
        ps.inspectorBody.reset();
        ps.inspectorRect = Rect{{0, 0}, {0, 0}};
    }
}

void softInspectorWindow(UiContext& ui, const Rect& view) {
    Session& s = ui.session;
    if (!s.selectedSoft || *s.selectedSoft >= s.world.softBodies().size()) {
        s.selectedSoft.reset();
        return;
    }
    const carom::SoftBody& b = s.world.softBodies()[*s.selectedSoft];
    if (ui.camera) {
        const ImVec2 c = ui.camera->toScreen(b.centreOfMass());
        ImGui::SetNextWindowPos(placeAwayFrom(ui, view, {300, 170}, c, 60), ImGuiCond_Appearing);
    }
    bool open = true;
    char title[96];
    std::snprintf(title, sizeof title, "Inspector: %s###softInspector", b.name.c_str());
    ImGui::Begin(title, &open,
                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_AlwaysAutoResize);
    noteOverlay(ui.panels);
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
