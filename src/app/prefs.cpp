// Reading and writing the remembered UI preferences (prefs.h).
#include "prefs.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <type_traits>

namespace app {
namespace fs = std::filesystem;

std::string configDir() {
    fs::path base;
    if (const char* x = std::getenv("XDG_CONFIG_HOME"); x && *x)
        base = x;
    else if (const char* h = std::getenv("HOME"); h && *h)
        base = fs::path(h) / ".config";
    else
        return "";
    std::error_code ec;
    const fs::path dir = base / "carom";
    fs::create_directories(dir, ec);
    return fs::is_directory(dir, ec) ? dir.string() : "";
}

namespace {

// The values a remembered number may take, so that a hand-edited file cannot make the app
// unusable: min <= x <= max, or min < x < max when open. Others leave the default.
struct Limits {
    double min = -HUGE_VAL, max = HUGE_VAL;
    bool open = false;
    bool allow(double x) const { return open ? min < x && x < max : min <= x && x <= max; }
};

// Every remembered field: its key and, for some numbers, their limits.
template <class F> void visit(Prefs& p, F&& f) {
    ViewOptions& v = p.view;
    f("show_forces", v.showForces);
    f("show_contacts", v.showContacts);
    f("show_clock", v.showClock);
    f("show_energy", v.showEnergy);
    f("show_trails", v.showTrails);
    f("show_names", v.showNames);
    f("light_background", v.lightBackground);
    f("trail_length", v.trailLength, Limits{2, 5000});
    f("force_scale", v.forceScale, Limits{0, 100, true});
    f("show_controls", v.showControls);
    f("show_graphs", v.showGraphs);
    f("show_help", v.showHelp);
    f("show_stats", v.showStats);
    f("show_profile", v.showProfile);
    f("show_momentum", v.showMomentum);
    f("show_velocities", v.showVelocities);
    f("show_centre_of_mass", v.showCentreOfMass);
    f("show_ruler", v.showRuler);
    f("show_stopwatch", v.showStopwatch);
    f("first_start_hint", v.showHint);
    f("window_width", p.windowWidth, Limits{320, 10000});
    f("window_height", p.windowHeight, Limits{240, 10000});
    f("time_graph_1", p.timeVars[0]);
    f("time_graph_2", p.timeVars[1]);
    f("time_graph_3", p.timeVars[2]);
    f("time_graph_window", p.timeWindow, Limits{1, 600});
    f("xy_graph_x", p.xyX);
    f("xy_graph_y", p.xyY);
    static const char* const recentKeys[] = {"recent_1", "recent_2", "recent_3", "recent_4",
                                             "recent_5", "recent_6", "recent_7", "recent_8"};
    static_assert(std::size(recentKeys) == std::tuple_size_v<decltype(p.recentFiles)>);
    for (std::size_t i = 0; i < p.recentFiles.size(); ++i)
        f(recentKeys[i], p.recentFiles[i]);
    f("browser_folder", p.browserFolder);
}

template <class T> void parseInto(const std::string& text, T& out, Limits limits) {
    std::istringstream is(text);
    T value{};
    if (is >> value && limits.allow(value)) out = value;
}
void parseInto(const std::string& text, std::string& out, Limits) {
    out = text;
}
void parseInto(const std::string& text, bool& out, Limits) {
    if (text == "true" || text == "1") out = true;
    if (text == "false" || text == "0") out = false;
}

std::string trim(const std::string& s) {
    const auto a = s.find_first_not_of(" \t\r"), b = s.find_last_not_of(" \t\r");
    return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

} // namespace

Prefs loadPrefs(const std::string& dir) {
    Prefs p;
    if (dir.empty()) return p;
    std::ifstream in(fs::path(dir) / "carom.ini");
    std::map<std::string, std::string> kv;
    for (std::string line; std::getline(in, line);) {
        const auto eq = line.find('=');
        if (line.empty() || line[0] == '#' || eq == std::string::npos) continue;
        kv[trim(line.substr(0, eq))] = trim(line.substr(eq + 1));
    }
    visit(p, [&](const char* key, auto& field, Limits limits = {}) {
        if (auto it = kv.find(key); it != kv.end()) parseInto(it->second, field, limits);
    });
    return p;
}

void savePrefs(const std::string& dir, const Prefs& prefs) {
    if (dir.empty()) return;
    Prefs p = prefs;
    std::ostringstream out;
    out << "# carom UI settings (written on exit)\n";
    visit(p, [&](const char* key, auto& field, Limits = {}) {
        if constexpr (std::is_same_v<std::decay_t<decltype(field)>, bool>)
            out << key << " = " << (field ? "true" : "false") << "\n";
        else
            out << key << " = " << field << "\n";
    });
    const fs::path path = fs::path(dir) / "carom.ini", tmp = fs::path(dir) / "carom.ini.tmp";
    std::ofstream f(tmp);
    if (!(f << out.str())) return;
    f.close();
    std::error_code ec;
    fs::rename(tmp, path, ec);
    if (ec) fs::remove(tmp, ec);
}

} // namespace app
