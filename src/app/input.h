// Mouse and keyboard in the simulation view: the mouse spring, direct dragging and rotating
// while paused, pan and zoom, the thruster keys and the shortcuts. ImGui sees every event first;
// this code acts only when ImGui does not want the mouse or keyboard.
#pragma once

#include "camera.h"
#include "session.h"
#include "view_options.h"
#include <SDL.h>
#include <cstdint>
#include <vector>

namespace app {

struct DragState {
    enum class Mode { None, Spring, Move, Rotate, Pan };
    Mode mode = Mode::None;
    carom::BodyId body = 0;
    carom::Vec2 grabLocal{0, 0}; // the body point under the cursor when pressed (body frame)
    double startAngle = 0;       // body angle when a rotation began
    double startCursorAngle = 0; // direction from the centre to the cursor then
    int button = 0;
    bool moved = false;
    std::uint64_t generation = 0; // the world the drag belongs to
};

// What the input asks of the app, beyond changing the session and camera directly.
struct Commands {
    bool quit = false;
    bool reset = false;
    bool fitView = false;
};

struct InputState {
    DragState drag;
    Commands commands; // cleared by the app after acting on them
};

// simView and overlays: the part of the window that shows the simulation, and the windows over
// it, as the last frame drew them; presses and the wheel count for the view only there.
void handleEvent(InputState& in, const SDL_Event& e, Session& s, Camera& cam, ViewOptions& view,
                 const Rect& simView, const std::vector<Rect>& overlays);
// Sets the thrusters from the keys held now (all off when ImGui has the keyboard).
void updateThrusters(Session& s, bool keyboardFree);
// Ends a drag that belonged to a world that has since been rebuilt.
void syncDrag(InputState& in, const Session& s);

} // namespace app
