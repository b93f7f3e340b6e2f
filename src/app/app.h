// The desktop app: an SDL2 window with an OpenGL 3.3 core context, Dear ImGui's SDL2 and OpenGL3
// back ends, and the frame loop that drives the stepper with real elapsed time.
#pragma once

#include "carom/recording.h"
#include "carom/scene.h"
#include "input.h"
#include <optional>
#include <string>

namespace app {

struct AppOptions {
    carom::Scene scene;     // already loaded and checked by main
    std::string scenePath;  // where it came from ("" for the built-in default)
    std::string screenshot; // --screenshot: write a PNG after `frames` frames and quit
    int frames = 60;
    bool report = false;       // --report: run `frames` frames, print frame_ms, step_ms, sim_speed
    std::string saveOnExit;    // --save-on-exit
    int width = 0, height = 0; // --window; 0 = the remembered size
    std::optional<DragScript> drag;         // --drag: a scripted press, move and release (input.h)
    bool paused = false;                    // --paused: open paused, at step 0
    std::string record;                     // --record RUN: write the session there as it goes
    std::optional<carom::Recording> replay; // --replay RUN: loaded and checked by main
    std::string replayPath;
    bool history = true; // --no-history: no timeline, no stepping back (to measure its cost)
};

// Runs until the window is closed, SIGTERM (SDL turns it into SDL_QUIT), Ctrl+Q or the end of a
// screenshot run. Returns the process exit status; errors are printed as one "error:" line.
int runApp(AppOptions options); // a recording given is moved into the session

} // namespace app
