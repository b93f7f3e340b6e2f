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
        const float r = float(b.shape.boundingRadius() * ui.camera->scale) + 6;
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
