// Build mode's tools, keys, preview and window (build_mode.h).
#include "build_mode.h"

#include "edits.h"
#include "panels.h"
#include "tooltip.h"
#include <cmath>
#include <exception>
#include <string>

namespace app {
namespace {

namespace in = carom::input;
using Pickable = carom::World::Pickable;

// A press within this many pixels of a body picks it, as a grab does (input.h).
constexpr double kPickPixels = 12;
constexpr double kTurn = M_PI / 12; // Q and W turn the selected body by 15°

// Applies an edit; a refusal is shown in the Build window, not thrown.
bool tryEdit(BuildState& b, Session& s, const carom::Input& input) {
    try {
        edit(s, input);
        b.note.clear();
        return true;
    } catch (const std::exception& e) {
        b.note = e.what();
        return false;
    }
}

// "box12" -> "box": a copy is named after what it copies.
std::string stem(const std::string& name) {
    const std::size_t end = name.find_last_not_of("0123456789");
    return end == std::string::npos ? "body" : name.substr(0, end + 1);
}

// A copy of the selected body (or the clipboard's) at `at`, at rest, selected once added.
void paste(BuildState& b, Session& s, carom::BodyDef def, carom::Vec2 at) {
    def.name = freeBodyName(s.world, stem(def.name));
    def.position = b.snap ? onGrid(at) : at;
    def.velocity = {0, 0};
    def.angularVelocity = 0;
    if (tryEdit(b, s, in::AddBody{def})) s.selected = s.world.findBody(def.name);
}

std::optional<carom::BodyDef> selectedDefinition(BuildState& b, const Session& s) {
    if (!s.selected) return std::nullopt;
    try {
        return carom::bodyDefinition(s.world, *s.selected);
    } catch (const std::exception& e) {
        b.note = e.what();
        return std::nullopt;
    }
}

void pinSelected(BuildState& b, Session& s) {
    if (s.selected) tryEdit(b, s, in::Pin{*s.selected, s.world.body(*s.selected).isDynamic()});
}

void deleteSelected(BuildState& b, Session& s) {
    if (!s.selected) return;
    if (tryEdit(b, s, in::RemoveBody{*s.selected})) s.selected.reset();
}

void duplicateSelected(BuildState& b, Session& s) {
    if (auto def = selectedDefinition(b, s))
        paste(b, s, *def, def->position + carom::Vec2{0.5, 0.5});
}

void turnSelected(BuildState& b, Session& s, double by) {
    if (!s.selected) return;
    const carom::Body& body = s.world.body(*s.selected);
    tryEdit(b, s, in::Pose{*s.selected, body.xf().p, body.angle() + by});
}

DrawTool drawTool(Tool t) {
    switch (t) {
    case Tool::Circle:
        return DrawTool::Circle;
    case Tool::Polygon:
        return DrawTool::Polygon;
    case Tool::Capsule:
        return DrawTool::Capsule;
    default:
        return DrawTool::Box;
    }
}

const char* toolStem(Tool t) {
    switch (t) {
    case Tool::Circle:
        return "circle";
    case Tool::Polygon:
        return "polygon";
    case Tool::Capsule:
        return "capsule";
    default:
        return "box";
    }
}

// A body's outline, as the preview and the selection show it.
void outline(ImDrawList* dl, const Camera& cam, const carom::Shape& shape,
             const carom::Transform& xf, ImU32 color) {
    const float r = float(shape.radius() * cam.scale);
    if (shape.type() == carom::ShapeType::Circle) {
        dl->AddCircle(cam.toScreen(xf.p), r, color, 48, 2);
        return;
    }
    std::vector<ImVec2> points;
    for (carom::Vec2 v : shape.vertices())
        points.push_back(cam.toScreen(xf.apply(v)));
    if (shape.type() == carom::ShapeType::Capsule && points.size() == 2) {
        dl->AddCircle(points[0], r, color, 32, 2);
        dl->AddCircle(points[1], r, color, 32, 2);
        dl->AddLine(points[0], points[1], color, 2 * r);
        return;
    }
    dl->AddPolyline(points.data(), int(points.size()), color, ImDrawFlags_Closed, 2);
}

} // namespace

void toggleBuild(BuildState& b, Session& s) {
    b.on = !b.on;
    b.drawing = false;
    b.ropeFrom.reset();
    b.note.clear();
    if (b.on) s.stepper.paused = true; // edits are made on a still world
    // The selection is build mode's (its outline) while on: the inspector opens on a click after.
    s.selected.reset();
}

bool buildPress(BuildState& b, Session& s, carom::Vec2 p, double pixelMetres) {
    if (b.tool == Tool::Select) return false;
    b.drawing = true;
    if (b.tool == Tool::Rope) {
        const auto hit = s.world.bodyNear(p, kPickPixels * pixelMetres, Pickable::NotWalls);
        if (!hit) {
            b.note = "a rope begins on a body: press on one, release on another";
            b.drawing = false;
            return true;
        }
        b.ropeFrom = hit->body;
        b.from = b.to = hit->point;
        return true;
    }
    b.from = b.to = b.snap ? onGrid(p) : p;
    return true;
}

void buildMotion(BuildState& b, carom::Vec2 p) {
    if (b.drawing) b.to = b.snap && b.tool != Tool::Rope ? onGrid(p) : p;
}

void buildRelease(BuildState& b, Session& s, carom::Vec2 p, double pixelMetres) {
    if (!b.drawing) return;
    b.drawing = false;
    if (b.tool == Tool::Rope) {
        const auto hit = s.world.bodyNear(p, kPickPixels * pixelMetres, Pickable::NotWalls);
        const auto from = b.ropeFrom;
        b.ropeFrom.reset();
        if (!hit || !from || hit->body == *from) {
            b.note = "a rope ends on another body";
            return;
        }
        tryEdit(b, s, in::Rope{*from, hit->body, b.from, hit->point});
        return;
    }
    buildMotion(b, p);
    const std::string name = freeBodyName(s.world, toolStem(b.tool));
    try {
        if (auto def = drawnBody(drawTool(b.tool), b.from, b.to, b.sides, name))
            if (tryEdit(b, s, in::AddBody{*def})) s.selected = s.world.findBody(name);
    } catch (const std::exception& e) { // a shape the engine refuses (too thin a polygon)
        b.note = e.what();
    }
}

bool buildKey(BuildState& b, Session& s, const SDL_KeyboardEvent& e, carom::Vec2 cursor) {
    const bool ctrl = e.keysym.mod & KMOD_CTRL;
    const SDL_Keycode k = e.keysym.sym;
    if (!ctrl && k >= SDLK_1 && k <= SDLK_6) {
        b.tool = Tool(k - SDLK_1);
        b.drawing = false;
        return true;
    }
    switch (k) {
    case SDLK_g:
        if (ctrl) return false;
        b.snap = !b.snap;
        return true;
    case SDLK_p:
        if (ctrl) return false;
        pinSelected(b, s);
        return true;
    case SDLK_DELETE:
    case SDLK_BACKSPACE:
        deleteSelected(b, s);
        return true;
    case SDLK_c: // with Shift: the whole scene to the system's clipboard (panels.cpp)
        if (!ctrl || (e.keysym.mod & KMOD_SHIFT)) return false;
        if (auto def = selectedDefinition(b, s)) b.clipboard = def;
        return true;
    case SDLK_v:
        if (!ctrl || (e.keysym.mod & KMOD_SHIFT)) return false;
        if (b.clipboard) paste(b, s, *b.clipboard, cursor);
        return true;
    case SDLK_d:
        if (!ctrl) return false;
        duplicateSelected(b, s);
        return true;
    case SDLK_q:
    case SDLK_w:
        if (ctrl) return false;
        turnSelected(b, s, k == SDLK_q ? kTurn : -kTurn);
        return true;
    case SDLK_ESCAPE:
        b.drawing = false;
        b.ropeFrom.reset();
        b.tool = Tool::Select;
        return true;
    default:
        return false;
    }
}

void drawBuildOverlay(const BuildState& b, const Session& s, const Camera& cam, const Rect& view,
                      ImDrawList* dl) {
    const ImU32 accent = IM_COL32(255, 200, 60, 255);
    // The grid's points, where they are far enough apart to see.
    if (b.snap && kGrid * cam.scale >= 8) {
        const carom::Vec2 lo = onGrid(cam.toWorld({view.min.x, view.max.y}));
        const carom::Vec2 hi = cam.toWorld({view.max.x, view.min.y});
        for (double x = lo.x; x <= hi.x; x += kGrid)
            for (double y = lo.y; y <= hi.y; y += kGrid) {
                const ImVec2 at = cam.toScreen({x, y});
                dl->AddRectFilled(at, {at.x + 1.5f, at.y + 1.5f}, IM_COL32(128, 128, 128, 110));
            }
    }
    if (s.selected && *s.selected < s.world.bodies().size()) {
        const carom::Body& body = s.world.body(*s.selected);
        for (const carom::BodyShape& sh : body.shapes)
            outline(dl, cam, sh.shape, carom::placeShape(body.xf(), sh), accent);
        if (!body.isDynamic()) // a pin's mark at the centre
            dl->AddCircleFilled(cam.toScreen(body.xf().p), 4, accent);
    }
    if (!b.drawing) return;
    if (b.tool == Tool::Rope) {
        dl->AddLine(cam.toScreen(b.from), cam.toScreen(b.to), accent, 2);
        return;
    }
    if (auto def = drawnBody(drawTool(b.tool), b.from, b.to, b.sides, "")) {
        try {
            outline(dl, cam, def->shape, carom::Transform{def->position, carom::Rot(def->angle)},
                    accent);
        } catch (const std::exception&) { // drawnBody's shape refused: nothing to preview
        }
    }
}

void buildWindow(BuildState& b, Session& s, const Rect& view, float top, PanelState& panels) {
    // A bar under the energy bar, in the middle: over the walls' top at most, not over the bodies.
    ImGui::SetNextWindowPos({view.center().x, view.min.y + top + 4}, ImGuiCond_Always, {0.5f, 0});
    ImGui::SetNextWindowBgAlpha(0.85f);
    ImGui::Begin("Build", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                     ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                     ImGuiWindowFlags_NoNav);
    noteOverlay(panels, "build");
    static const char* names[] = {"Select", "Box", "Circle", "Polygon", "Capsule", "Rope"};
    static const char* tips[] = {
        "(1) Click a body to select it, drag to move it, Ctrl/Alt+drag or Q/W to turn it.",
        "(2) Press at a corner, drag to the opposite one, release.",
        "(3) Press at the centre, drag to the rim, release.",
        "(4) A regular polygon: press at the centre, drag to a vertex, release.",
        "(5) Press at one end, drag to the other, release.",
        "(6) Press on a body, release on another: a rope as long as the distance between the two "
        "points, slack when they come closer."};
    ImGui::TextDisabled("Build");
    for (int t = 0; t < 6; ++t) {
        ImGui::SameLine();
        if (ImGui::RadioButton(names[t], b.tool == Tool(t))) b.tool = Tool(t);
        tooltip(tips[t]);
    }
    if (b.tool == Tool::Polygon) {
        ImGui::SameLine();
        ImGui::SetNextItemWidth(4 * ImGui::GetFontSize());
        ImGui::SliderInt("sides", &b.sides, 3, 12);
    }
    ImGui::Checkbox("grid", &b.snap);
    tooltip("(G) Drawn points and moved bodies' centres go to a 0.25 m grid.");
    ImGui::BeginDisabled(!s.selected);
    const bool pinned = s.selected && !s.world.body(*s.selected).isDynamic();
    ImGui::SameLine();
    if (ImGui::Button(pinned ? "Unpin" : "Pin")) pinSelected(b, s);
    tooltip("(P) A pinned body is static: it stays where it is.");
    ImGui::SameLine();
    if (ImGui::Button("Duplicate")) duplicateSelected(b, s);
    tooltip("(Ctrl+D) A copy of the selected body beside it; Ctrl+C and Ctrl+V paste at the "
            "cursor.");
    ImGui::SameLine();
    if (ImGui::Button("Delete")) deleteSelected(b, s);
    tooltip("(Delete) The selected body, with its ropes and joints.");
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(s.undoStates.empty());
    if (ImGui::Button("Undo")) undo(s);
    tooltip("(Ctrl+Z) The last edit undone.");
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(s.redoStates.empty());
    if (ImGui::Button("Redo")) redo(s);
    tooltip("(Ctrl+Y) The last edit undone made again.");
    ImGui::EndDisabled();
    ImGui::SameLine();
    if (ImGui::Button("Empty box")) replaceScene(s, emptyScene(), "");
    tooltip("A new scene to build in: the walls alone, under gravity.");
    ImGui::SameLine();
    if (ImGui::Button("Done")) toggleBuild(b, s);
    tooltip("(B) Leave build mode; Space runs the simulation.");
    if (!b.note.empty()) ImGui::TextColored({1, 0.6f, 0.3f, 1}, "%s", b.note.c_str());
    ImGui::End();
}

} // namespace app
