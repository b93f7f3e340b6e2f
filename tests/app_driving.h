// What the tests that drive the app under a virtual X server share (app_test.cpp,
// app_layout_test.cpp): the tools they need, a scratch directory, a file read whole, and where
// the first view of a 1280×800 window puts a world point.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

namespace carom::test {

inline bool have(const char* tool) {
    return std::system((std::string("command -v ") + tool + " >/dev/null 2>&1").c_str()) == 0;
}

// A fresh directory for one test (also the app's XDG_CONFIG_HOME, so no remembered settings
// from the user's own runs change the window): PREFIX-NAME-PID in the temporary folder.
inline std::filesystem::path tempDir(const std::string& prefix, const std::string& name) {
    std::filesystem::path d = std::filesystem::temp_directory_path() /
                              (prefix + "-" + name + "-" + std::to_string(getpid()));
    std::filesystem::remove_all(d);
    std::filesystem::create_directories(d);
    return d;
}

inline std::string readAll(const std::filesystem::path& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// Where the first view of a 1280×800 window puts the world point (x, y) for a scene whose walls
// make a 14 m square box (left −6, right 6, bottom −6, top 6, thickness 1; app/camera.cpp fit,
// app/panels.cpp layout): the box fitted with a 0.94 margin into the part of the window between
// the controls (22% of the width) and the graphs (26%), below the energy bar (8 + 3 × 15 + 26 px,
// and 4 more) and above the stats box (5 lines of 15 + 4 px, 2 × 8 px of padding, 14 px of
// margin).
struct FirstView {
    double viewLeft = 0.22 * 1280, viewRight = 1280 - 0.26 * 1280;
    double viewTop = 8 + 3 * 15 + 26 + 4, viewBottom = 800 - (5 * 19 + 16 + 14);
    double scale = 0.94 * std::min((viewRight - viewLeft) / 14.0, (viewBottom - viewTop) / 14.0);
    double cx = (viewLeft + viewRight) / 2, cy = (viewTop + viewBottom) / 2;
    double sx(double x) const { return cx + x * scale; }
    double sy(double y) const { return cy - y * scale; }
};

} // namespace carom::test
