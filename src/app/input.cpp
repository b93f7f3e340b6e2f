// Mouse and keyboard handling for the simulation view.
#include "input.h"

#include "edits.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
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
    d.pressAt = {float(e.x), float(e.y)};
    d.pressTicks = SDL_GetTicks();
    const bool shift = SDL_GetModState() & KMOD_SHIFT;
    const bool rotateMod = SDL_GetModState() & (KMOD_CTRL | KMOD_ALT);
    if (e.button != SDL_BUTTON_LEFT || shift) {
        d.mode = Mode::Pan; // middle or right button, or Shift + left (as myPhysicsLab)
        return;
    }
    const carom::Vec2 p = mouseWorld(cam, e.x, e.y);
    d.cursor = p;
    // The nearest body within a few pixels, as myPhysicsLab: a thin ball needs no exact aim.
    // A soft body is grabbed by its nearest particle, when that is nearer than any rigid body.
    // Build mode picks pinned bodies too, to move, unpin or delete them.
    const auto hit = s.world.bodyNear(p, kGrabPixels / cam.scale,
                                      in.build.on ? carom::World::Pickable::NotWalls
                                                  : carom::World::Pickable::Dynamic);
    const auto particle = s.world.particleNear(p, kGrabPixels / cam.scale);
    if (particle && (!hit || particle->distance < hit->distance)) {
        d.body = particle->body;
        d.particle = particle->particle;
        d.grabOffset = p - s.world.softBodies()[particle->body].particles[particle->particle].x;
        d.mode = s.stepper.paused ? Mode::Move : Mode::Spring;
        return;
    }
    if (!hit) {
        d.mode = Mode::Pan;
        return;
    }
    const carom::Body& b = s.world.body(hit->body);
    d.body = hit->body;
    d.grabLocal = b.localPoint(hit->point);
    d.grabOffset = p - hit->point;
    d.edit = in.build.on;
    if (!s.stepper.paused) {
        // Running: a zero-length spring from the grabbed body point to the cursor (less the few
        // pixels it missed the body by), once the press is more than a click (attachSpring).
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

void attachSpring(DragState& d, Session& s) {
    if (d.springAttached) return;
    apply(s, carom::input::SpringOn{d.body, d.grabLocal, d.cursor - d.grabOffset,
                                    grabDampingRatio(s.world.settings()), d.particle});
    d.springAttached = s.springHeld = true;
}

void motion(InputState& in, const SDL_MouseMotionEvent& e, Session& s, Camera& cam) {
    DragState& d = in.drag;
    if (d.mode == Mode::None) return;
    if (std::hypot(e.x - d.pressAt.x, e.y - d.pressAt.y) > kClickPixels) d.moved = true;
    const carom::Vec2 p = mouseWorld(cam, e.x, e.y);
    d.cursor = p;
    switch (d.mode) {
    case Mode::Pan:
        cam.pan({float(e.xrel), float(e.yrel)});
        break;
    case Mode::Spring:
        if (d.moved) attachSpring(d, s);
        if (d.springAttached && s.world.mouseSpring())
            apply(s, carom::input::SpringTarget{p - d.grabOffset});
        break;
    case Mode::Move: {
        if (d.edit && !d.editBegun && d.moved) {
            beginEdit(s);
            d.editBegun = true;
        }
        if (d.edit && !d.editBegun) break; // not a drag yet: a click selects
        if (d.particle) {                  // a soft body's particle follows the cursor alone
            apply(s, carom::input::ParticlePosition{d.body, *d.particle, p - d.grabOffset});
            break;
        }
        // Keep the grabbed body point where it was from the cursor: c = p − offset − R(θ) r_local.
        const carom::Body& b = s.world.body(d.body);
        const carom::Vec2 centre = p - d.grabOffset - b.xf().q.apply(d.grabLocal);
        apply(s, carom::input::Pose{d.body, in.build.on && in.build.snap ? onGrid(centre) : centre,
                                    b.angle()});
        break;
    }
    case Mode::Rotate: {
        if (d.edit && !d.editBegun) {
            beginEdit(s);
            d.editBegun = true;
        }
        // Turn about the centre by as much as the cursor turned about it.
        const carom::Body& b = s.world.body(d.body);
        const carom::Vec2 r = p - b.xf().p;
        if (glm::length(r) < 1e-9) break;
        const double angle = d.startAngle + std::atan2(r.y, r.x) - d.startCursorAngle;
        apply(s, carom::input::Pose{d.body, b.xf().p, angle});
        break;
    }
    case Mode::None:
        break;
    }
}

void release(InputState& in, const SDL_MouseButtonEvent& e, Session& s) {
    DragState& d = in.drag;
    if (d.mode == Mode::None || e.button != d.button) return;
    if (d.mode == Mode::Spring && d.springAttached && s.world.mouseSpring())
        apply(s, carom::input::SpringOff{});
    s.springHeld = false;
    if (d.editBegun) endEdit(s);
    // A click (no drag) on a body opens it in the inspector; on empty space it closes it.
    if (!d.moved && d.button == SDL_BUTTON_LEFT) {
        s.selected.reset();
        s.selectedSoft.reset();
        if (d.mode != Mode::Pan && d.particle)
            s.selectedSoft = d.body;
        else if (d.mode != Mode::Pan)
            s.selected = d.body;
    }
    d.mode = Mode::None;
}

void key(InputState& in, const SDL_KeyboardEvent& e, Session& s, ViewOptions& view,
         const Camera& cam) {
    const bool ctrl = e.keysym.mod & KMOD_CTRL;
    if (in.build.on) {
        int x = 0, y = 0;
        SDL_GetMouseState(&x, &y);
        if (buildKey(in.build, s, e, mouseWorld(cam, x, y))) return;
    }
    switch (e.keysym.sym) {
    case SDLK_SPACE: // play leaves build mode
        if (in.build.on) toggleBuild(in.build, s);
        s.stepper.paused = !s.stepper.paused;
        break;
    case SDLK_b:
        if (!ctrl) toggleBuild(in.build, s);
        break;
    case SDLK_z: // undo and redo the edits (build mode's, edits.h), in build mode or after it
        if (ctrl && ((e.keysym.mod & KMOD_SHIFT) ? redo(s) : undo(s))) s.stepper.paused = true;
        break;
    case SDLK_y:
        if (ctrl && redo(s)) s.stepper.paused = true;
        break;
    case SDLK_r:
        if (!ctrl) in.commands.reset = true;
        break;
    case SDLK_PERIOD:
        s.stepper.paused = true;
        s.stepper.requestSingleStep();
        break;
    case SDLK_COMMA: // one step back along the history (the app seeks: its plots follow)
        s.stepper.paused = true;
        ++in.commands.stepsBack;
        break;
    case SDLK_LEFTBRACKET: // elasticity down or up by 0.1, as the slider would set it
    case SDLK_RIGHTBRACKET: {
        const double step = e.keysym.sym == SDLK_LEFTBRACKET ? -0.1 : 0.1;
        carom::WorldSettings w = s.world.settings();
        const double now =
            commonCoefficient(s.world, Coefficient::Restitution).value_or(w.restitution);
        w.restitution = std::clamp(std::round((now + step) * 10) / 10, 0.0, 1.0);
        apply(s, carom::input::Settings{w});
        dropOwnCoefficients(s, Coefficient::Restitution);
        break;
    }
    case SDLK_HOME:
        in.commands.fitView = true;
        break;
    case SDLK_m: // the ruler (placed anew across the view each time it is shown: app.cpp)
        view.showRuler = !view.showRuler;
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
    // Build mode's drawing tools take the left button (Shift+drag still pans).
    const bool drawPress = in.build.on && e.type == SDL_MOUSEBUTTONDOWN &&
                           e.button.button == SDL_BUTTON_LEFT && !(SDL_GetModState() & KMOD_SHIFT);
    Ruler& ruler = in.ruler;
    switch (e.type) {
    case SDL_MOUSEBUTTONDOWN:
        if (!forView(e.button.x, e.button.y) || in.drag.mode != Mode::None) break;
        // The ruler over the bodies: a press on an end or the tape takes it.
        if (view.showRuler && ruler.placed && e.button.button == SDL_BUTTON_LEFT) {
            ruler.cursor = mouseWorld(cam, e.button.x, e.button.y);
            ruler.held = rulerPartAt(ruler, ruler.cursor, kGrabPixels / cam.scale);
            if (ruler.held != Ruler::Part::None) break;
        }
        if (drawPress &&
            buildPress(in.build, s, mouseWorld(cam, e.button.x, e.button.y), 1 / cam.scale))
            break;
        press(in, e.button, s, cam);
        break;
    case SDL_MOUSEMOTION:
        if (ruler.held != Ruler::Part::None) {
            dragRuler(ruler, mouseWorld(cam, e.motion.x, e.motion.y));
            break;
        }
        if (in.build.drawing) {
            buildMotion(in.build, mouseWorld(cam, e.motion.x, e.motion.y));
            break;
        }
        motion(in, e.motion, s, cam); // a drag that began in the view goes on over the panels
        break;
    case SDL_MOUSEBUTTONUP:
        if (ruler.held != Ruler::Part::None && e.button.button == SDL_BUTTON_LEFT) {
            ruler.held = Ruler::Part::None;
            break;
        }
        if (in.build.drawing && e.button.button == SDL_BUTTON_LEFT) {
            buildRelease(in.build, s, mouseWorld(cam, e.button.x, e.button.y), 1 / cam.scale);
            break;
        }
        release(in, e.button, s);
        break;
    case SDL_MOUSEWHEEL: {
        int x = 0, y = 0;
        SDL_GetMouseState(&x, &y);
        if (e.wheel.y != 0 && forView(x, y))
            cam.zoomAbout({float(x), float(y)}, std::pow(1.15, e.wheel.y));
        break;
    }
    case SDL_KEYDOWN: {
        // Held, the step keys repeat (SDL's key repeat); the others act once a press.
        const bool repeats = e.key.keysym.sym == SDLK_PERIOD || e.key.keysym.sym == SDLK_COMMA;
        if (!io.WantCaptureKeyboard && (!e.key.repeat || repeats)) key(in, e.key, s, view, cam);
        break;
    }
    default:
        break;
    }
}

void syncDrag(InputState& in, Session& s) {
    DragState& d = in.drag;
    if (d.mode != Mode::None && d.generation != s.generation && d.mode != Mode::Pan) {
        d.mode = Mode::None;
        return;
    }
    if (d.mode == Mode::Spring && !d.springAttached && SDL_GetTicks() - d.pressTicks >= kHoldMs)
        attachSpring(d, s);
}

std::optional<double> grabDampingRatio(const carom::WorldSettings& settings) {
    if (settings.springDamping > 0) return std::nullopt;
    return 1.0;
}

bool parseDragScript(const std::string& text, DragScript& out) {
    double v[5];
    const char* at = text.c_str();
    for (int i = 0; i < 5; ++i) {
        char* end = nullptr;
        v[i] = std::strtod(at, &end);
        if (end == at || !std::isfinite(v[i])) return false;
        at = end;
        if (i < 4) {
            if (*at != ',') return false;
            ++at;
        }
    }
    if (*at != '\0' || v[4] < 0 || v[4] > 3600) return false;
    for (int i = 0; i < 4; ++i)
        if (v[i] < 0 || v[i] > 10000) return false;
    out = DragScript{float(v[0]), float(v[1]), float(v[2]), float(v[3]), v[4]};
    return true;
}

bool DragScriptRun::done() const {
    return stage == 4;
}

namespace {

constexpr int kScriptStartFrame = 3;  // the layout of the first frames is known by then
constexpr int kScriptMoveFrames = 10; // the cursor goes from (x0, y0) to (x1, y1) in these

void pushMouse(Uint32 type, float x, float y, float xrel = 0, float yrel = 0) {
    SDL_Event e{};
    e.type = type;
    SDL_Window* window = SDL_GL_GetCurrentWindow();
    const Uint32 id = window ? SDL_GetWindowID(window) : 0;
    if (type == SDL_MOUSEMOTION) {
        e.motion.windowID = id;
        e.motion.x = int(std::lround(x));
        e.motion.y = int(std::lround(y));
        e.motion.xrel = int(std::lround(xrel));
        e.motion.yrel = int(std::lround(yrel));
        e.motion.state = SDL_BUTTON_LMASK;
    } else {
        e.button.windowID = id;
        e.button.button = SDL_BUTTON_LEFT;
        e.button.state = type == SDL_MOUSEBUTTONDOWN ? SDL_PRESSED : SDL_RELEASED;
        e.button.clicks = 1;
        e.button.x = int(std::lround(x));
        e.button.y = int(std::lround(y));
    }
    SDL_PushEvent(&e);
}

} // namespace

void feedDragScript(DragScriptRun& run, const Session& s, double frameSeconds) {
    const DragScript& d = run.script;
    ++run.frame;
    switch (run.stage) {
    case 0: // wait for the layout, then press at (x0, y0)
        if (run.frame < kScriptStartFrame) return;
        pushMouse(SDL_MOUSEMOTION, d.x0, d.y0);
        pushMouse(SDL_MOUSEBUTTONDOWN, d.x0, d.y0);
        run.stage = 1;
        run.frame = 0;
        return;
    case 1: { // move in a straight line over a few frames
        const float f0 = float(run.frame - 1) / kScriptMoveFrames;
        const float f1 = float(run.frame) / kScriptMoveFrames;
        const float ax = d.x0 + (d.x1 - d.x0) * f0, ay = d.y0 + (d.y1 - d.y0) * f0;
        const float bx = d.x0 + (d.x1 - d.x0) * f1, by = d.y0 + (d.y1 - d.y0) * f1;
        pushMouse(SDL_MOUSEMOTION, bx, by, bx - ax, by - ay);
        if (run.frame >= kScriptMoveFrames) {
            run.stage = 2;
            run.heldSim = s.world.time();
            run.heldReal = 0;
        }
        return;
    }
    case 2: // hold, then release
        run.heldReal += frameSeconds;
        if ((s.stepper.paused ? run.heldReal : s.world.time() - run.heldSim) < d.seconds) return;
        pushMouse(SDL_MOUSEBUTTONUP, d.x1, d.y1);
        run.stage = 3;
        return;
    case 3: // the release has been read
        run.stage = 4;
        return;
    default:
        return;
    }
}

void updateThrusters(Session& s, bool keyboardFree) {
    const Uint8* k = SDL_GetKeyboardState(nullptr);
    // A key with Ctrl or Alt is a command (Ctrl+E, Ctrl+S, Ctrl+D...), not a thruster.
    keyboardFree = keyboardFree && !(SDL_GetModState() & (KMOD_CTRL | KMOD_ALT));
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
        // Along the history the recorded thrusters fire; the keys take over when they change.
        // At its end the keys rule: a thruster that differs from them is set.
        const bool along = s.historyOn && !s.history.atEnd(s.world);
        for (int slot = 0; slot < SlotCount; ++slot) {
            const bool changed = fire[slot] != s.thrustKeys[i][slot];
            s.thrustKeys[i][slot] = fire[slot];
            // Along the history past a build edit that took block1 out, the world has fewer
            // thrusters than the ids from before it point into: those are left alone.
            if (t.ids[slot] >= s.world.thrusters().size()) continue;
            if ((along && !changed) || s.world.thrusters()[t.ids[slot]].firing == fire[slot])
                continue;
            apply(s, carom::input::Thrust{t.ids[slot], fire[slot]});
        }
    }
}

} // namespace app
