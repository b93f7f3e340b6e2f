// Mouse and keyboard in the simulation view: the mouse spring, direct dragging and rotating
// while paused, pan and zoom, the thruster keys and the shortcuts. ImGui sees every event first;
// this code acts only when ImGui does not want the mouse or keyboard.
#pragma once

#include "build_mode.h"
#include "camera.h"
#include "ruler.h"
#include "session.h"
#include "view_options.h"
#include <SDL.h>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace app {

// A press grabs the dynamic body nearest to the cursor within kGrabPixels (on screen), at its
// point nearest to the cursor; a press that moves less than kClickPixels before the release is a
// click, which opens the body in the inspector (a grab does not). While the simulation runs, the
// mouse spring takes hold once the cursor has moved that far or the button has been held
// kHoldMs, so that a click to inspect a body does not tug at it.
constexpr double kGrabPixels = 12;
constexpr double kClickPixels = 4;
constexpr Uint32 kHoldMs = 200;

struct DragState {
    enum class Mode { None, Spring, Move, Rotate, Pan };
    Mode mode = Mode::None;
    carom::BodyId body = 0;
    std::optional<std::size_t> particle; // set: body is a soft body and this its grabbed particle
    carom::Vec2 grabLocal{0, 0};         // the grabbed body point (body frame)
    carom::Vec2 grabOffset{0, 0}; // cursor minus grabbed point when pressed (world, for Move)
    ImVec2 pressAt{0, 0};         // where the press was, pixels
    double startAngle = 0;        // body angle when a rotation began
    double startCursorAngle = 0;  // direction from the centre to the cursor then
    int button = 0;
    bool moved = false;           // the cursor went more than kClickPixels from pressAt
    Uint32 pressTicks = 0;        // SDL_GetTicks() at the press
    bool springAttached = false;  // Mode::Spring: the world's mouse spring is on
    carom::Vec2 cursor{0, 0};     // the cursor's last world point
    std::uint64_t generation = 0; // the world the drag belongs to
    bool edit = false;            // build mode: the move or turn is an edit (undo, edits.h)
    bool editBegun = false;       // the edit's undo state kept (at the first move)
};

// What the input asks of the app, beyond changing the session and camera directly.
struct Commands {
    bool quit = false;
    bool reset = false;
    bool fitView = false;
    int stepsBack = 0;                   // `,` pressed this many times
    std::optional<std::uint64_t> seekTo; // the timeline's handle moved there (a step)
    bool toggleBuild = false;            // the Build button
};

struct InputState {
    DragState drag;
    BuildState build;
    Ruler ruler;
    Commands commands; // cleared by the app after acting on them
};

// simView and overlays: the part of the window that shows the simulation, and the windows over
// it, as the last frame drew them; presses and the wheel count for the view only there.
void handleEvent(InputState& in, const SDL_Event& e, Session& s, Camera& cam, ViewOptions& view,
                 const Rect& simView, const std::vector<Rect>& overlays);
// Sets the thrusters from the keys held now (all off when ImGui has the keyboard).
void updateThrusters(Session& s, bool keyboardFree);
// Once a frame: ends a drag that belonged to a world that has since been rebuilt; puts the mouse
// spring on once the button has been held kHoldMs.
void syncDrag(InputState& in, Session& s);

// The mouse spring's damping ratio for a grab: critical (1) while the world's spring_damping is
// 0 (the default), so that c = 2√(k m) for the grabbed body; none (the setting is used as it is)
// once the user has set a damping.
std::optional<double> grabDampingRatio(const carom::WorldSettings& settings);

// --drag (docs/cli.md): a scripted press, move and release of the left button, in window pixels,
// fed to the app as SDL mouse events (SDL_PushEvent), so that they take the path real ones take.
struct DragScript {
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    double seconds = 0; // held at (x1, y1): simulated seconds (real ones while paused)
};
// Parses "X0,Y0,X1,Y1,SECONDS"; false when it is not that.
bool parseDragScript(const std::string& text, DragScript& out);
struct DragScriptRun {
    DragScript script;
    int stage = 0, frame = 0;
    double heldSim = 0;  // simulated time when the cursor reached (x1, y1)
    double heldReal = 0; // real seconds held so far
    bool done() const;
};
// Called once a frame before the events are read: pushes the script's next events.
void feedDragScript(DragScriptRun& run, const Session& s, double frameSeconds);

} // namespace app
