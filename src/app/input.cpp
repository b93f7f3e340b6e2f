// Mouse and keyboard handling for the simulation view.
#include "input.h"

#include <algorithm>
#include <cmath>
#include <imgui.h>

namespace app {
namespace {

using Mode = DragState::Mode;

carom::Vec2 mouseWorld(const Camera& cam, int x, int y) {
    return cam.toWorld({float(x), float(y)});
}

void press(InputState& in, const SDL_MouseButtonEvent& e, Session& s, const Camera& cam) {
    DragState& d = in.drag;
    d = DragState{};
    d.button = e.button;
    d.generation = s.generation;
    const bool shift = SDL_GetModState() & KMOD_SHIFT;
    const bool rotateMod = SDL_GetModState() & (KMOD_CTRL | KMOD_ALT);
    if (e.button != SDL_BUTTON_LEFT || shift) {
        d.mode = Mode::Pan; // middle or right button, or Shift + left (as myPhysicsLab)
        return;
    }
    const carom::Vec2 p = mouseWorld(cam, e.x, e.y);
    const auto id = s.world.bodyAt(p);
    if (!id) {
        d.mode = Mode::Pan;
        return;
    }
    const carom::Body& b = s.world.body(*id);
    s.selected = *id;
    d.body = *id;
    d.grabLocal = b.localPoint(p);
    if (!s.stepper.paused) {
        // Running: a zero-length spring from the picked body point to the cursor.
        s.world.setMouseSpring(*id, d.grabLocal, p);
        d.mode = Mode::Spring;
    } else if (rotateMod) {
        d.mode = Mode::Rotate;
        d.startAngle = b.angle();
        const carom::Vec2 r = p - b.xf().p;
        d.startCursorAngle = std::atan2(r.y, r.x);
    } else {
        d.mode = Mode::Move;
    }
}

void motion(InputState& in, const SDL_MouseMotionEvent& e, Session& s, Camera& cam) {
    DragState& d = in.drag;
    if (d.mode == Mode::None) return;
    d.moved = true;
    const carom::Vec2 p = mouseWorld(cam, e.x, e.y);
    switch (d.mode) {
    case Mode::Pan:
        cam.pan({float(e.xrel), float(e.yrel)});
        break;
    case Mode::Spring:
        s.world.moveMouseSpring(p);
        break;
    case Mode::Move: {
        // Keep the grabbed body point under the cursor: c = p − R(θ) r_local.
        const carom::Body& b = s.world.body(d.body);
        s.world.setPosition(d.body, p - b.xf().q.apply(d.grabLocal), b.angle());
        break;
    }
    case Mode::Rotate: {
        // Turn about the centre by as much as the cursor turned about it.
        const carom::Body& b = s.world.body(d.body);
        const carom::Vec2 r = p - b.xf().p;
        if (glm::length(r) < 1e-9) break;
        const double angle = d.startAngle + std::atan2(r.y, r.x) - d.startCursorAngle;
        s.world.setPosition(d.body, b.xf().p, angle);
        break;
    }
    case Mode::None:
        break;
    }
}

void release(InputState& in, const SDL_MouseButtonEvent& e, Session& s) {
    DragState& d = in.drag;
    if (d.mode == Mode::None || e.button != d.button) return;
    if (d.mode == Mode::Spring) s.world.clearMouseSpring();
    // A click (no drag) on empty space clears the selection.
    if (d.mode == Mode::Pan && !d.moved && d.button == SDL_BUTTON_LEFT) s.selected.reset();
    d.mode = Mode::None;
}

void key(InputState& in, const SDL_KeyboardEvent& e, Session& s, ViewOptions& view) {
    const bool ctrl = e.keysym.mod & KMOD_CTRL;
    switch (e.keysym.sym) {
    case SDLK_SPACE:
        s.stepper.paused = !s.stepper.paused;
        break;
    case SDLK_r:
        if (!ctrl) in.commands.reset = true;
        break;
    case SDLK_PERIOD:
        s.stepper.paused = true;
        s.stepper.requestSingleStep();
        break;
    case SDLK_HOME:
        in.commands.fitView = true;
        break;
    case SDLK_TAB:
        view.showUi = !view.showUi;
        break;
    case SDLK_h:
    case SDLK_F1:
        view.showHelp = !view.showHelp;
        break;
    case SDLK_q:
        if (ctrl) in.commands.quit = true;
        break;
    default:
        break;
    }
}

} // namespace

void handleEvent(InputState& in, const SDL_Event& e, Session& s, Camera& cam, ViewOptions& view,
                 const Rect& simView, const std::vector<Rect>& overlays) {
    const ImGuiIO& io = ImGui::GetIO();
    syncDrag(in, s);
    // ImGui's capture flag follows the mouse as of the last frame: a press that comes with the
    // move onto a panel would slip past it, so where the mouse is must be in the view, and not
    // on a window over it, too.
    auto forView = [&](int x, int y) {
        const ImVec2 p{float(x), float(y)};
        return !io.WantCaptureMouse && simView.contains(p) &&
               std::none_of(overlays.begin(), overlays.end(),
                            [&](const Rect& r) { return r.contains(p); });
    };
    switch (e.type) {
    case SDL_MOUSEBUTTONDOWN:
        if (forView(e.button.x, e.button.y) && in.drag.mode == Mode::None)
            press(in, e.button, s, cam);
        break;
    case SDL_MOUSEMOTION:
        motion(in, e.motion, s, cam); // a drag that began in the view goes on over the panels
        break;
    case SDL_MOUSEBUTTONUP:
        release(in, e.button, s);
        break;
    case SDL_MOUSEWHEEL: {
        int x = 0, y = 0;
        SDL_GetMouseState(&x, &y);
        if (e.wheel.y != 0 && forView(x, y))
            cam.zoomAbout({float(x), float(y)}, std::pow(1.15, e.wheel.y));
        break;
    }
    case SDL_KEYDOWN:
        if (!io.WantCaptureKeyboard && !e.key.repeat) key(in, e.key, s, view);
        break;
    default:
        break;
    }
}

void syncDrag(InputState& in, const Session& s) {
    if (in.drag.mode != Mode::None && in.drag.generation != s.generation &&
        in.drag.mode != Mode::Pan)
        in.drag.mode = Mode::None;
}

void updateThrusters(Session& s, bool keyboardFree) {
    const Uint8* k = SDL_GetKeyboardState(nullptr);
    const bool shift = keyboardFree && (SDL_GetModState() & KMOD_SHIFT);
    auto held = [&](SDL_Scancode a, SDL_Scancode b = SDL_SCANCODE_UNKNOWN) {
        return keyboardFree && (k[a] || (b != SDL_SCANCODE_UNKNOWN && k[b]));
    };
    struct Keys {
        bool left, right, up, down;
    };
    const Keys keys[2] = {
        {held(SDL_SCANCODE_S), held(SDL_SCANCODE_F), held(SDL_SCANCODE_E), held(SDL_SCANCODE_D)},
        {held(SDL_SCANCODE_J, SDL_SCANCODE_LEFT), held(SDL_SCANCODE_L, SDL_SCANCODE_RIGHT),
         held(SDL_SCANCODE_I, SDL_SCANCODE_UP), held(SDL_SCANCODE_K, SDL_SCANCODE_DOWN)}};
    for (int i = 0; i < 2; ++i) {
        const BlockThrusters& t = s.thrusters[i];
        if (!t.body) continue;
        const Keys& q = keys[i];
        bool fire[SlotCount] = {};
        fire[Up] = q.up;
        fire[Down] = q.down;
        // Left: both left-pointing side thrusters push; with Shift the pair becomes a couple
        // (top pushes left, bottom right) that spins the body counter-clockwise. Right mirrors.
        fire[TopLeft] = q.left;
        fire[TopRight] = q.right;
        fire[BottomLeft] = (q.left && !shift) || (q.right && shift);
        fire[BottomRight] = (q.right && !shift) || (q.left && shift);
        for (int slot = 0; slot < SlotCount; ++slot)
            s.world.setThrusterFiring(t.ids[slot], fire[slot]);
    }
}

} // namespace app
