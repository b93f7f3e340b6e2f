// UI preferences (struct Prefs) remembered between runs: what is shown, the graphs' variables, the
// window size. (Not the world's settings: those are carom::WorldSettings, saved in scene files.)
// Kept as "key = value" lines in $XDG_CONFIG_HOME/carom/carom.ini (or ~/.config/carom/), next to
// ImGui's own imgui.ini. Unreadable or unwritable files are never an error: defaults are used.
#pragma once

#include "plots.h"
#include "view_options.h"
#include <array>
#include <string>

namespace app {

struct Prefs {
    ViewOptions view;
    // The window's size when it last closed; 0 until then: the first window fills the screen's
    // usable area (app.cpp), and a remembered size is cut down to fit the screen.
    int windowWidth = 0, windowHeight = 0;
    std::array<std::string, 8> recentFiles; // newest first, "" for none
    std::string browserFolder;              // where the file browser was last
    std::array<std::string, 3> timeVars{"kinetic energy", "potential energy", "total energy"};
    std::string xyX = "block1.x", xyY = "block1.vx";
    double timeWindow = 10;
};

std::string configDir(); // created if missing; empty when there is no usable place
Prefs loadPrefs(const std::string& dir);
void savePrefs(const std::string& dir, const Prefs& p); // best effort, silent on failure

} // namespace app
