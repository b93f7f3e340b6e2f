// The desktop app under a virtual X server: it starts, renders and quits cleanly (a screenshot
// of the right size that is not blank), refuses bad arguments with an "error:" line, and a
// scripted session (xdotool) that drags a body with the mouse spring and fires a thruster
// changes the state as it should, seen through --save-on-exit.
#include "app_driving.h"
#include "carom/recording.h"
#include "carom/scene.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <numeric>
#include <pwd.h>
#include <sstream>
#include <stdexcept>
#include <string>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

namespace fs = std::filesystem;

using carom::test::FirstView;
using carom::test::have;
using carom::test::readAll;

fs::path tempDir(const std::string& name) {
    return carom::test::tempDir("carom-app-test", name);
}

struct Outcome {
    int status = -1;
    std::string err;
};

Outcome run(const std::string& command, const fs::path& dir) {
    const fs::path errFile = dir / "stderr.txt";
    const std::string full = command + " 2>" + errFile.string();
    const int s = std::system(full.c_str());
    Outcome r;
    r.status = WIFEXITED(s) ? WEXITSTATUS(s) : -1;
    std::ifstream in(errFile);
    std::stringstream ss;
    ss << in.rdbuf();
    r.err = ss.str();
    return r;
}

const std::string kApp = CAROM_APP;

// carom-cli replays the recording `rec`, silently, and saves the same bytes as the app saved
// (`saved`) when it quit.
void expectReplaySavesTheSame(const fs::path& rec, const fs::path& saved, const fs::path& dir) {
    const fs::path replayed = dir / "a.json";
    const Outcome c = run(std::string(CAROM_CLI) + " replay " + rec.string() + " --save " +
                              replayed.string() + " >/dev/null",
                          dir);
    ASSERT_EQ(c.status, 0) << c.err;
    EXPECT_EQ(c.err, "");
    EXPECT_EQ(readAll(replayed), readAll(saved));
}

} // namespace

TEST(App, RefusesBadArgumentsWithAnErrorLine) {
    const fs::path dir = tempDir("args");
    const char* cases[] = {"--frames x --screenshot a.png",
                           "--no-such-option",
                           "/nonexistent/scene.json",
                           "--window 10x10",
                           "--save-on-exit /nonexistent/out.json",
                           "--drag 1,2,3",
                           "--drag 1,2,3,4,-1",
                           "--record",
                           "--record /nonexistent/run.rec",
                           "--replay /nonexistent/run.rec",
                           "--replay run.rec scene.json",
                           "--replay " CAROM_ASSET_DIR "/scenes/billiards.json",
                           "--replay run.rec --no-history"};
    for (const char* args : cases) {
        const Outcome r = run(kApp + " " + args, dir);
        EXPECT_NE(r.status, 0) << args;
        EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << args << " -> " << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    }
}

TEST(App, ScreenshotUnderXvfbHasTheWindowSizeAndIsNotBlank) {
    if (!have("xvfb-run") || !have("Xvfb")) GTEST_SKIP() << "Xvfb is not installed";
    const fs::path dir = tempDir("shot");
    const fs::path png = dir / "shot.png";
    const Outcome r =
        run("XDG_CONFIG_HOME=" + dir.string() + " xvfb-run -a -s '-screen 0 1280x800x24' " + kApp +
                " --window 1024x700 --screenshot " + png.string() + " --frames 30",
            dir);
    ASSERT_EQ(r.status, 0) << r.err;
    ASSERT_TRUE(fs::exists(png));
    // The PNG header: signature, then IHDR with the width and height (big-endian).
    const std::string bytes = readAll(png);
    ASSERT_GT(bytes.size(), 33u);
    EXPECT_EQ(bytes.substr(1, 3), "PNG");
    auto be32 = [&](std::size_t at) {
        return (unsigned(std::uint8_t(bytes[at])) << 24) |
               (unsigned(std::uint8_t(bytes[at + 1])) << 16) |
               (unsigned(std::uint8_t(bytes[at + 2])) << 8) | unsigned(std::uint8_t(bytes[at + 3]));
    };
    EXPECT_EQ(bytes.substr(12, 4), "IHDR");
    EXPECT_EQ(be32(16), 1024u);
    EXPECT_EQ(be32(20), 700u);
    // Not blank: an independent decoder (ImageMagick) counts the colours — panels, text, bodies.
    if (have("identify")) {
        const fs::path out = dir / "colors.txt";
        ASSERT_EQ(
            std::system(
                ("identify -format '%w %h %k' " + png.string() + " > " + out.string()).c_str()),
            0);
        int w = 0, h = 0, colors = 0;
        std::istringstream(readAll(out)) >> w >> h >> colors;
        EXPECT_EQ(w, 1024);
        EXPECT_EQ(h, 700);
        EXPECT_GT(colors, 50) << "the screenshot looks blank";
    }
}

// Without --window and with nothing remembered, the first window takes the screen's usable area:
// on a 1000×600 screen (smaller than the old 1280×800 default) it is 1000×600, not cut off.
TEST(App, FirstWindowFitsTheScreen) {
    if (!have("xvfb-run") || !have("Xvfb")) GTEST_SKIP() << "Xvfb is not installed";
    const fs::path dir = tempDir("fit");
    const fs::path png = dir / "shot.png";
    const Outcome r =
        run("XDG_CONFIG_HOME=" + dir.string() + " xvfb-run -a -s '-screen 0 1000x600x24' " + kApp +
                " --screenshot " + png.string() + " --frames 10",
            dir);
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string bytes = readAll(png);
    ASSERT_GT(bytes.size(), 24u);
    auto be32 = [&](std::size_t at) {
        return (unsigned(std::uint8_t(bytes[at])) << 24) |
               (unsigned(std::uint8_t(bytes[at + 1])) << 16) |
               (unsigned(std::uint8_t(bytes[at + 2])) << 8) | unsigned(std::uint8_t(bytes[at + 3]));
    };
    EXPECT_EQ(be32(16), 1000u);
    EXPECT_EQ(be32(20), 600u);
}

namespace {} // namespace

namespace {

// Runs the app on `scene` in dir (its settings remembered there) under Xvfb at 1280×800, saving the
// scene to `saved` when it quits, and drives it with the xdotool lines of `steps` once its window
// is up and focused ($wid is the window); then SIGTERM ends it.
Outcome runDriven(const fs::path& dir, const std::string& scene, const fs::path& saved,
                  const std::string& steps) {
    const fs::path script = dir / "script.sh";
    std::ofstream(script)
        << "set -u\n"
        << "cd " << dir.string() << "\n"
        << "XDG_CONFIG_HOME=" << dir.string() << " " << kApp << " " << scene
        << " --window 1280x800 --save-on-exit " << saved.string() << " &\n"
        << "pid=$!\n"
        << "wid=$(xdotool search --sync --onlyvisible --name '^Carom$' | head -1)\n"
        << "sleep 1\n"
        << "xdotool windowfocus --sync $wid 2>/dev/null || true\n"
        << steps << "kill -TERM $pid\n"
        << "wait $pid\n";
    return run("xvfb-run -a -s '-screen 0 1280x800x24' bash " + script.string(), dir);
}

} // namespace

// block1 and block2 at rest in free space (no gravity). The script presses on block1's centre
// and moves the cursor 2 m up while the simulation runs: the mouse spring pulls block1 up. It
// holds I (block2's up thruster): block2 gains upward velocity, thrust / m = 1.5 m/s² times the
// time held. SIGTERM ends the app, which saves the scene on the way out.
TEST(App, SlowScriptedDragAndThrusterChangeTheSavedState) {
    if (!have("xvfb-run") || !have("Xvfb") || !have("xdotool"))
        GTEST_SKIP() << "Xvfb or xdotool is not installed";
    const fs::path dir = tempDir("script");
    const fs::path scene = dir / "two-blocks.json", saved = dir / "saved.json";
    std::ofstream(scene) << R"({
  "format": 1, "name": "two blocks", "gravity": [0, 0],
  "walls": { "left": -6, "right": 6, "bottom": -6, "top": 6, "thickness": 1 },
  "bodies": [
    { "name": "block1", "shape": { "type": "box", "width": 1, "height": 3 },
      "position": [-3, 0], "mass": 1 },
    { "name": "block2", "shape": { "type": "box", "width": 1, "height": 3 },
      "position": [3, -2], "mass": 1 }
  ]
})";
    const FirstView v;
    auto sx = [&](double x) { return int(std::lround(v.sx(x))); };
    auto sy = [&](double y) { return int(std::lround(v.sy(y))); };

    std::ostringstream steps;
    steps << "xdotool mousemove --window $wid " << sx(-3) << " " << sy(0) << "\n"
          << "sleep 0.2\n"
          << "xdotool mousedown 1\n"
          << "sleep 0.1\n"
          << "xdotool mousemove --window $wid " << sx(-3) << " " << sy(2) << "\n"
          << "xdotool keydown i\n"
          << "sleep 0.8\n"
          << "xdotool keyup i\n"
          << "xdotool mouseup 1\n"
          << "sleep 0.2\n";
    const Outcome r = runDriven(dir, scene.string(), saved, steps.str());
    ASSERT_EQ(r.status, 0) << r.err;
    ASSERT_TRUE(fs::exists(saved)) << r.err;
    // The UI settings were remembered under XDG_CONFIG_HOME.
    EXPECT_TRUE(fs::exists(dir / "carom" / "carom.ini"));
    EXPECT_TRUE(fs::exists(dir / "carom" / "imgui.ini"));

    const carom::Scene s = carom::loadScene(saved.string());
    const carom::BodyDef* b1 = nullptr;
    const carom::BodyDef* b2 = nullptr;
    for (const carom::BodyDef& d : s.bodies) {
        if (d.name == "block1") b1 = &d;
        if (d.name == "block2") b2 = &d;
    }
    ASSERT_TRUE(b1 && b2);
    // The spring (k = 3 N/m, 2 m stretched) pulls block1 up for about a second: it rises and
    // barely moves sideways (the spring is vertical).
    EXPECT_GT(b1->position.y, 0.2);
    EXPECT_NEAR(b1->position.x, -3.0, 0.3);
    // block2: up thrust only, 1.5 N on 1 kg for ~0.8 s (a frame or two either way): vy ≈ 1.2 m/s.
    EXPECT_GT(b2->velocity.y, 0.5);
    EXPECT_LT(b2->velocity.y, 2.0);
    EXPECT_NEAR(b2->velocity.x, 0.0, 0.1);
}

// --frames N --report (docs/cli.md, version 2): N frames, then frame_ms, step_ms and
// sim_speed as the last three lines. A light scene keeps real time: its physics takes far less
// than a frame, and the simulated time follows the real time (sim_speed near 1).
TEST(App, SlowReportPrintsFrameStepAndSpeedLast) {
    if (!have("xvfb-run") || !have("Xvfb")) GTEST_SKIP() << "Xvfb is not installed";
    const fs::path dir = tempDir("report");
    const fs::path out = dir / "stdout.txt";
    const Outcome r =
        run("XDG_CONFIG_HOME=" + dir.string() + " xvfb-run -a -s '-screen 0 1280x800x24' " + kApp +
                " " + CAROM_ASSET_DIR +
                "/scenes/rigid-body-collisions.json --frames 240 --report"
                " --window 1024x700 >" +
                out.string(),
            dir);
    ASSERT_EQ(r.status, 0) << r.err;
    std::vector<std::string> lines;
    std::istringstream in(readAll(out));
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    ASSERT_GE(lines.size(), 3u);
    const std::string keys[3] = {"frame_ms: ", "step_ms: ", "sim_speed: "};
    double value[3] = {0, 0, 0};
    for (int i = 0; i < 3; ++i) {
        const std::string& line = lines[lines.size() - 3 + i];
        ASSERT_EQ(line.rfind(keys[i], 0), 0u) << line;
        value[i] = std::stod(line.substr(keys[i].size()));
    }
    EXPECT_GT(value[0], 0);
    EXPECT_GE(value[1], 0);
    EXPECT_LT(value[1], value[0]) << "the physics is part of the frame";
    EXPECT_GT(value[2], 0.5);
    EXPECT_LT(value[2], 1.1);
    EXPECT_EQ(run(kApp + " --report --frames 0", dir).status, 2);
}

// The file browser, driven as a person would: Ctrl+O opens it with the cursor in its name field
// (the folder shown is the current directory); a broken file typed there is refused with the
// current scene kept, then a good one opens. The scene saved on exit is the good one, and the
// remembered recent files hold it, by its whole path, and not the refused one.
TEST(App, SlowOpenThroughTheFileBrowser) {
    if (!have("xvfb-run") || !have("Xvfb") || !have("xdotool"))
        GTEST_SKIP() << "Xvfb or xdotool is not installed";
    const fs::path dir = tempDir("browser");
    const fs::path saved = dir / "saved.json";
    std::ofstream(dir / "other.json") << R"({
  "format": 1, "name": "the other scene", "gravity": [0, 0],
  "bodies": [ { "name": "ball", "shape": { "type": "circle", "radius": 0.5 }, "position": [0, 0],
                "mass": 1 } ]
})";
    std::ofstream(dir / "broken.json") << R"({ "format": 1, "bodies": [ { "name": 3 } ] })";
    const Outcome r = runDriven(dir, CAROM_ASSET_DIR "/scenes/billiards.json", saved,
                                "xdotool key ctrl+o\n"
                                "sleep 0.3\n"
                                "xdotool type --delay 20 broken.json\n"
                                "xdotool key Return\n"
                                "sleep 0.3\n"
                                "xdotool key ctrl+a\n"
                                "xdotool type --delay 20 other.json\n"
                                "xdotool key Return\n"
                                "sleep 0.5\n");
    ASSERT_EQ(r.status, 0) << r.err;
    ASSERT_TRUE(fs::exists(saved)) << r.err;
    EXPECT_EQ(carom::loadScene(saved.string()).name, "the other scene");
    const std::string ini = readAll(dir / "carom" / "carom.ini");
    EXPECT_NE(ini.find("recent_1 = " + (dir / "other.json").string()), std::string::npos) << ini;
    EXPECT_EQ(ini.find("broken.json"), std::string::npos) << ini;
}

// Issue 44, item 7: the Save dialog opened a second time has its name selected, so that typing
// replaces it (it made "my-demomy-demo.json"); the Open dialog after a save does not hold the
// saved name (typing there gives just what is typed). Save... opened with Ctrl+S.
TEST(App, SlowTheFileDialogsNameIsReplacedByTyping) {
    if (!have("xvfb-run") || !have("Xvfb") || !have("xdotool"))
        GTEST_SKIP() << "Xvfb or xdotool is not installed";
    const fs::path dir = tempDir("save-twice");
    const fs::path saved = dir / "saved.json";
    std::ofstream(dir / "other.json") << R"({
  "format": 1, "name": "the other scene", "gravity": [0, 0],
  "bodies": [ { "name": "ball", "shape": { "type": "circle", "radius": 0.5 }, "position": [0, 0],
                "mass": 1 } ]
})";
    const std::string save = "xdotool key ctrl+s\nsleep 0.4\n";
    const Outcome r = runDriven(dir, CAROM_ASSET_DIR "/scenes/billiards.json", saved,
                                save +
                                    "xdotool type --delay 20 my-demo\n"
                                    "xdotool key Return\n"
                                    "sleep 0.4\n" +
                                    save + "xdotool type --delay 20 my-demo2\n" +
                                    "xdotool key Return\n"
                                    "sleep 0.4\n"
                                    "xdotool key ctrl+o\n"
                                    "sleep 0.4\n"
                                    "xdotool type --delay 20 other.json\n"
                                    "xdotool key Return\n"
                                    "sleep 0.5\n");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(fs::exists(dir / "my-demo.json"));
    EXPECT_TRUE(fs::exists(dir / "my-demo2.json"));
    EXPECT_FALSE(fs::exists(dir / "my-demomy-demo2.json"));
    ASSERT_TRUE(fs::exists(saved)) << r.err;
    EXPECT_EQ(carom::loadScene(saved.string()).name, "the other scene");
}

namespace {

// Runs the app on `sceneJson` under Xvfb with the scripted drag `drag` (--drag, pixels) and
// returns the scene it saves on the way out.
carom::Scene runDrag(const std::string& name, const std::string& sceneJson,
                     const std::string& drag) {
    const fs::path dir = tempDir(name);
    const fs::path scene = dir / "scene.json", saved = dir / "saved.json";
    std::ofstream(scene) << sceneJson;
    const Outcome r =
        run("XDG_CONFIG_HOME=" + dir.string() + " xvfb-run -a -s '-screen 0 1280x800x24' " + kApp +
                " " + scene.string() + " --window 1280x800 --frames 20 --report --drag " + drag +
                " --save-on-exit " + saved.string() + " >/dev/null",
            dir);
    EXPECT_EQ(r.status, 0) << r.err;
    return carom::loadScene(saved.string());
}

const carom::BodyDef& bodyNamed(const carom::Scene& s, const std::string& name) {
    for (const carom::BodyDef& d : s.bodies)
        if (d.name == name) return d;
    throw std::runtime_error("no body " + name);
}

std::string dragArg(double x0, double y0, double x1, double y1, double seconds) {
    char buf[128];
    std::snprintf(buf, sizeof buf, "%ld,%ld,%ld,%ld,%g", std::lround(x0), std::lround(y0),
                  std::lround(x1), std::lround(y1), seconds);
    return buf;
}

} // namespace

// A press 8 px outside a ball 0.05 m in radius (under 2 px on screen) grabs it, as in
// myPhysicsLab (within 12 px), instead of panning the view. Free space, no gravity; the cursor
// goes 2 m up and holds for 1 s. The grab point is the ball's right edge and the spring pulls it
// (less the 8 px missed) towards (0.05, 2): the ball rises without overshooting (critically
// damped by default), its centre within a radius of the grab point's line x = 0.05 (it turns
// as it is pulled by its edge).
TEST(App, SlowNearMissPressGrabsTheThinBall) {
    if (!have("xvfb-run") || !have("Xvfb")) GTEST_SKIP() << "Xvfb is not installed";
    const FirstView v;
    const double r = 0.05;
    const double x0 = v.sx(r) + 8, y0 = v.sy(0);
    const carom::Scene s = runDrag("nearmiss", R"({
  "format": 1, "name": "thin ball", "gravity": [0, 0],
  "walls": { "left": -6, "right": 6, "bottom": -6, "top": 6, "thickness": 1 },
  "bodies": [
    { "name": "ball", "shape": { "type": "circle", "radius": 0.05 }, "position": [0, 0], "mass": 1 }
  ]
})",
                                   dragArg(x0, y0, x0, v.sy(2), 1.0));
    const carom::BodyDef& ball = bodyNamed(s, "ball");
    EXPECT_GT(ball.position.y, 0.5) << "the press did not grab the ball";
    // The grab point does not overshoot 2 m; the centre is within a radius of it, above it when
    // the turning ball holds its grab point under the centre (which way it turns depends on the
    // frames' real durations: a UI that draws faster or slower gave 1.94 or 2.04 here).
    EXPECT_LT(ball.position.y, 2.0 + r);
    EXPECT_NEAR(ball.position.x, r, r + 0.01);
}

// The mouse spring's default damping: a 1 kg block (1 m square, I = 1/6 kg m²) in free space is
// grabbed at its centre and the cursor held 3 m away for 2 s, then released. Undamped, the spring
// (k = 3 N/m) would swing it through the cursor and back, with up to ½ k d² = 13.5 J of kinetic
// energy at the release; critically damped (c = 2√(k m)) it closes in without overshoot and at
// 2 s has x(t) = d (1 + ωt) e^(−ωt) ≈ 0.4 m left and v ≈ 0.6 m/s (ω = √3): the energy at the
// release is well under a tenth of the spring's work and the block is between its start and
// the cursor.
TEST(App, SlowMouseSpringIsDampedByDefault) {
    if (!have("xvfb-run") || !have("Xvfb")) GTEST_SKIP() << "Xvfb is not installed";
    const FirstView v;
    const carom::Scene s = runDrag("spring", R"({
  "format": 1, "name": "one block", "gravity": [0, 0],
  "walls": { "left": -6, "right": 6, "bottom": -6, "top": 6, "thickness": 1 },
  "bodies": [
    { "name": "block", "shape": { "type": "box", "width": 1, "height": 1 }, "position": [0, 0],
      "mass": 1 }
  ]
})",
                                   dragArg(v.sx(0), v.sy(0), v.sx(3), v.sy(0), 2.0));
    const carom::BodyDef& b = bodyNamed(s, "block");
    const double ke = 0.5 * (b.velocity.x * b.velocity.x + b.velocity.y * b.velocity.y) +
                      0.5 * (1.0 / 6.0) * b.angularVelocity * b.angularVelocity;
    const double work = 0.5 * 3 * 3 * 3;
    EXPECT_LT(ke, 0.1 * work) << "vx " << b.velocity.x << " x " << b.position.x;
    EXPECT_GT(b.position.x, 1.5);
    EXPECT_LT(b.position.x, 3.05) << "overshoot: the spring is not damped";
    EXPECT_NEAR(b.position.y, 0.0, 0.1);
}

// The mouse spring grabs a soft body by its nearest particle: a soft ball in free space, pressed
// 6 px to the right of its rightmost particle (at (0.5, 0)) and pulled 2.5 m to the right for
// 1 s. The grabbed particle leads and the springs bring the rest: the whole body moves right.
TEST(App, SlowMouseSpringGrabsASoftBodysParticle) {
    if (!have("xvfb-run") || !have("Xvfb")) GTEST_SKIP() << "Xvfb is not installed";
    const FirstView v;
    const double x0 = v.sx(0.5) + 6, y0 = v.sy(0);
    const carom::Scene s = runDrag("softgrab", R"({
  "format": 1, "name": "soft ball", "gravity": [0, 0], "time_step": 0.004166666666666667,
  "walls": { "left": -6, "right": 6, "bottom": -6, "top": 6, "thickness": 1 },
  "bodies": [
    { "name": "ball", "type": "soft", "stiffness": 200, "damping": 0.2,
      "ring": { "position": [0, 0], "radius": 0.5, "count": 12, "mass": 1 } }
  ]
})",
                                   dragArg(x0, y0, v.sx(3), y0, 1.0));
    ASSERT_EQ(s.softBodies.size(), 1u);
    const carom::SoftBodyDef& ball = s.softBodies[0];
    double x = 0, m = 0;
    for (const carom::ParticleDef& p : ball.particles) {
        x += p.mass * p.position.x;
        m += p.mass;
    }
    EXPECT_GT(x / m, 0.3) << "the press did not grab the soft ball";
    EXPECT_GT(ball.particles[0].position.x, x / m); // the grabbed particle leads
}

namespace {

// `xdotool key` under Xvfb can be too quick for a frame to see the key down: down, wait, up.
std::string press(const std::string& key, int times = 1) {
    std::string s;
    for (int i = 0; i < times; ++i)
        s += "xdotool keydown " + key + "\nsleep 0.06\nxdotool keyup " + key + "\nsleep 0.06\n";
    return s;
}

const char* kTwoBlocks = R"({
  "format": 1, "name": "two blocks", "gravity": [0, 0],
  "walls": { "left": -6, "right": 6, "bottom": -6, "top": 6, "thickness": 1 },
  "bodies": [
    { "name": "block1", "shape": { "type": "box", "width": 1, "height": 3 },
      "position": [-3, 0], "mass": 1 },
    { "name": "block2", "shape": { "type": "box", "width": 1, "height": 3 },
      "position": [3, -2], "mass": 1, "restitution": 0.5 }
  ]
})";

} // namespace

// issue 10: a session recorded with --record (a drag with the mouse spring, a thruster held, the
// elasticity lowered twice with '[') and replayed by carom-cli replay ends in the state the app
// saved when it quit, bit for bit: the two scene files are the same text.
TEST(App, SlowRecordedSessionReplaysToTheSameBits) {
    if (!have("xvfb-run") || !have("Xvfb") || !have("xdotool"))
        GTEST_SKIP() << "Xvfb or xdotool is not installed";
    const fs::path dir = tempDir("record");
    const fs::path scene = dir / "two-blocks.json", saved = dir / "b.json", rec = dir / "run.rec";
    std::ofstream(scene) << kTwoBlocks;
    const FirstView v;
    auto sx = [&](double x) { return std::to_string(std::lround(v.sx(x))); };
    auto sy = [&](double y) { return std::to_string(std::lround(v.sy(y))); };
    const std::string steps = "xdotool mousemove --window $wid " + sx(-3) + " " + sy(0) +
                              "\nsleep 0.2\nxdotool mousedown 1\nsleep 0.1\n"
                              "xdotool mousemove --window $wid " +
                              sx(-3) + " " + sy(2) +
                              "\nxdotool keydown i\nsleep 0.6\nxdotool keyup i\n"
                              "xdotool mouseup 1\nsleep 0.2\n" +
                              press("bracketleft", 2) + "sleep 0.3\n";
    const Outcome r = runDriven(dir, scene.string() + " --record " + rec.string(), saved, steps);
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string recording = readAll(rec);
    for (const char* input :
         {"\"do\":\"spring\"", "\"do\":\"spring_target\"", "\"do\":\"thruster\"",
          "\"do\":\"settings\"", "\"do\":\"restitution\"", "\"do\":\"end\""})
        EXPECT_NE(recording.find(input), std::string::npos) << input;
    expectReplaySavesTheSame(rec, saved, dir);
    // The elasticity went 1 -> 0.8 for every body (block2's own 0.5 dropped, as the slider does).
    const carom::Scene s = carom::loadScene(saved.string());
    EXPECT_EQ(s.settings.restitution, 0.8);
    for (const carom::BodyDef& d : s.bodies)
        EXPECT_FALSE(d.restitution.has_value()) << d.name;
}

// issue 10: opened paused, 30 steps forward with '.' and 10 back with ',' leave the world as
// carom-cli run --steps 20 leaves it, number for number.
TEST(App, SlowStepsForwardAndBackMatchTheCommandLine) {
    if (!have("xvfb-run") || !have("Xvfb") || !have("xdotool"))
        GTEST_SKIP() << "Xvfb or xdotool is not installed";
    const fs::path dir = tempDir("stepback");
    const std::string scene = CAROM_ASSET_DIR "/scenes/rigid-body-collisions.json";
    const fs::path saved = dir / "b.json", expected = dir / "a.json";
    const Outcome r =
        runDriven(dir, "--paused " + scene, saved, press("period", 30) + press("comma", 10));
    ASSERT_EQ(r.status, 0) << r.err;
    const Outcome c = run(std::string(CAROM_CLI) + " run " + scene + " --steps 20 --save " +
                              expected.string() + " >/dev/null",
                          dir);
    ASSERT_EQ(c.status, 0) << c.err;
    EXPECT_EQ(readAll(saved), readAll(expected));
}

// issue 10: a recording played along in the app (--replay, stepped with '.') reaches the state the
// recorded session ended in and carom-cli replay reaches: the same three files. The session is
// made paused with keys only: block2's up thruster held over ten steps, the elasticity lowered.
TEST(App, SlowReplayInTheAppFollowsTheRecording) {
    if (!have("xvfb-run") || !have("Xvfb") || !have("xdotool"))
        GTEST_SKIP() << "Xvfb or xdotool is not installed";
    const fs::path dir = tempDir("replay");
    const fs::path scene = dir / "two-blocks.json", rec = dir / "run.rec";
    std::ofstream(scene) << kTwoBlocks;
    const std::string session = "xdotool keydown i\nsleep 0.1\n" + press("period", 10) +
                                "xdotool keyup i\nsleep 0.1\n" + press("period", 10) +
                                press("bracketleft") + press("period", 10);
    const Outcome r = runDriven(dir, "--paused " + scene.string() + " --record " + rec.string(),
                                dir / "recorded.json", session);
    ASSERT_EQ(r.status, 0) << r.err;
    const Outcome p = runDriven(dir, "--paused --replay " + rec.string(), dir / "played.json",
                                press("period", 30));
    ASSERT_EQ(p.status, 0) << p.err;
    const Outcome c = run(std::string(CAROM_CLI) + " replay " + rec.string() + " --save " +
                              (dir / "replayed.json").string() + " >/dev/null",
                          dir);
    ASSERT_EQ(c.status, 0) << c.err;
    const std::string recorded = readAll(dir / "recorded.json");
    EXPECT_EQ(readAll(dir / "played.json"), recorded);
    EXPECT_EQ(readAll(dir / "replayed.json"), recorded);
    EXPECT_EQ(carom::loadScene((dir / "recorded.json").string()).settings.restitution, 0.9);
}

namespace {

// A recording of the preset rigid-body-collisions: the world at step 0, ended at `end`.
void writeRecording(const fs::path& path, const std::string& last = R"({"at":5,"do":"end"})") {
    const carom::World start =
        carom::buildWorld(carom::loadScene(CAROM_ASSET_DIR "/scenes/rigid-body-collisions.json"));
    {
        carom::RecordingWriter rec(path.string());
        rec.write(0, carom::input::Replace{std::make_shared<carom::WorldState>(
                         carom::captureState(start, "Rigid Body Collisions"))});
    }
    std::ofstream(path, std::ios::app) << last << "\n";
}

// The files in dir but the captured stderr, sorted.
std::vector<std::string> filesIn(const fs::path& dir) {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().filename() != "stderr.txt") names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

std::string xvfb(const fs::path& dir) {
    return "XDG_CONFIG_HOME=" + dir.string() +
           " timeout 60 xvfb-run -a -s '-screen 0 1280x800x24' ";
}

} // namespace

// Issue 46: no output may be one of the app's inputs or another output, by file identity, not by
// string ("./s.json", a link, a hard link): each is refused at start with one line, and the
// inputs are left as they were.
TEST(App, RefusesOutputsThatAreItsInputs) {
    const fs::path dir = tempDir("inputs");
    fs::copy_file(CAROM_ASSET_DIR "/scenes/bouncing-ball.json", dir / "s.json");
    writeRecording(dir / "run.rec");
    fs::create_symlink("s.json", dir / "link.json");
    fs::create_hard_link(dir / "s.json", dir / "hard.json");
    const std::string scene = readAll(dir / "s.json"), rec = readAll(dir / "run.rec");
    const std::pair<const char*, const char*> cases[] = {
        {"s.json --screenshot s.json", "--screenshot: 's.json' is the input scene"},
        {"s.json --record ./s.json", "--record: './s.json' is the input scene"},
        {"s.json --save-on-exit link.json", "--save-on-exit: 'link.json' is the input scene"},
        {"s.json --save-on-exit hard.json", "--save-on-exit: 'hard.json' is the input scene"},
        {"--replay run.rec --record ./run.rec", "--record: './run.rec' is the recording"},
        {"--replay run.rec --screenshot run.rec", "--screenshot: 'run.rec' is the recording"},
        {"s.json --record x --save-on-exit x", "--save-on-exit and --record name the same file"},
        {"s.json --record x --save-on-exit ./x", "--save-on-exit and --record name the same file"}};
    for (const auto& [args, says] : cases) {
        SCOPED_TRACE(args);
        const Outcome r = run("cd " + dir.string() + " && timeout 20 " + kApp + " " + args, dir);
        EXPECT_EQ(r.status, 2);
        EXPECT_EQ(r.err.rfind(std::string("error: ") + says, 0), 0u) << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
        EXPECT_EQ(readAll(dir / "s.json"), scene);
        EXPECT_EQ(readAll(dir / "run.rec"), rec);
        EXPECT_EQ(filesIn(dir),
                  (std::vector<std::string>{"hard.json", "link.json", "run.rec", "s.json"}));
    }
    fs::remove_all(dir);
}

// Issue 46: at the path of --screenshot, --save-on-exit and --record, a link to a FIFO, to
// /dev/null or to a device node, and a FIFO, are refused at start with one line saying what is
// there, nothing blocking (under timeout); a regular file of another user's is replaced by a new
// file of ours, the planter's inode never written into.
TEST(App, PlantedOutputsAreRefusedOrReplaced) {
    const fs::path dir = tempDir("planted");
    const std::string scene = CAROM_ASSET_DIR "/scenes/bouncing-ball.json";
    const fs::path fifo = dir / "fifo", device = dir / "null", target = dir / "out";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0666), 0);
    const bool root = ::geteuid() == 0;
    if (root) { // a node like /dev/null's
        ASSERT_EQ(::mknod(device.c_str(), S_IFCHR | 0666, makedev(1, 3)), 0);
    }
    const std::pair<const char*, fs::path> links[] = {{"a link to a FIFO", fifo},
                                                      {"a link to /dev/null", "/dev/null"},
                                                      {"a link to a device", device}};
    for (const char* flag : {"--screenshot", "--save-on-exit", "--record"}) {
        for (const auto& [what, to] : links) {
            if (!root && to == device) continue;
            SCOPED_TRACE(std::string(flag) + ", " + what);
            fs::create_symlink(to, target);
            const Outcome r =
                run("timeout 20 " + kApp + " " + scene + " " + flag + " " + target.string(), dir);
            EXPECT_EQ(r.status, 2);
            EXPECT_EQ(r.err, std::string("error: ") + flag + ": " + target.string() +
                                 ": cannot write: is a symbolic link (not followed: name the "
                                 "file itself)\n");
            EXPECT_TRUE(fs::is_symlink(target));
            fs::remove(target);
        }
        SCOPED_TRACE(std::string(flag) + ", a FIFO");
        ASSERT_EQ(::mkfifo(target.c_str(), 0666), 0);
        const Outcome r =
            run("timeout 20 " + kApp + " " + scene + " " + flag + " " + target.string(), dir);
        EXPECT_EQ(r.status, 2);
        EXPECT_EQ(r.err.rfind(std::string("error: ") + flag + ": " + target.string() +
                                  ": cannot write: is a FIFO",
                              0),
                  0u)
            << r.err;
        EXPECT_TRUE(fs::is_fifo(target));
        fs::remove(target);
    }
    EXPECT_TRUE(fs::is_fifo(fifo));

    if (!root || !have("xvfb-run") || !have("Xvfb"))
        GTEST_SKIP() << "a file of another user's needs root (to plant it) and Xvfb (to write it)";
    const passwd* nobody = ::getpwnam("nobody");
    ASSERT_NE(nobody, nullptr);
    std::vector<struct stat> planted(3);
    const fs::path outputs[] = {dir / "shot.png", dir / "saved.json", dir / "run.rec"};
    for (std::size_t k = 0; k < 3; ++k) {
        std::ofstream(outputs[k]) << "planted";
        ASSERT_EQ(::chown(outputs[k].c_str(), nobody->pw_uid, nobody->pw_gid), 0);
        ASSERT_EQ(::chmod(outputs[k].c_str(), 0666), 0);
        fs::create_hard_link(outputs[k], outputs[k].string() + ".kept"); // the planter's hold
        ASSERT_EQ(::lstat(outputs[k].c_str(), &planted[k]), 0);
    }
    const Outcome r =
        run(xvfb(dir) + kApp + " " + scene + " --frames 5 --screenshot " + outputs[0].string() +
                " --save-on-exit " + outputs[1].string() + " --record " + outputs[2].string(),
            dir);
    ASSERT_EQ(r.status, 0) << r.err;
    for (std::size_t k = 0; k < 3; ++k) {
        SCOPED_TRACE(outputs[k].string());
        struct stat written;
        ASSERT_EQ(::lstat(outputs[k].c_str(), &written), 0);
        EXPECT_TRUE(S_ISREG(written.st_mode));
        EXPECT_NE(written.st_ino, planted[k].st_ino);
        EXPECT_EQ(written.st_uid, ::geteuid());
        EXPECT_EQ(readAll(outputs[k].string() + ".kept"), "planted");
        EXPECT_NE(readAll(outputs[k]), "planted");
    }
    fs::remove_all(dir);
}

// Issue 46: a screenshot that cannot be written (a name so long that its temporary's cannot be
// made) fails the run with status 1 and leaves no --save-on-exit file.
TEST(App, AFailedScreenshotLeavesNoSavedState) {
    if (!have("xvfb-run") || !have("Xvfb")) GTEST_SKIP() << "Xvfb is not installed";
    const fs::path dir = tempDir("failed-shot");
    const fs::path shot = dir / (std::string(250, 's') + ".png"), saved = dir / "saved.json";
    const Outcome r =
        run(xvfb(dir) + kApp + " " CAROM_ASSET_DIR "/scenes/bouncing-ball.json" +
                " --frames 3 --screenshot " + shot.string() + " --save-on-exit " + saved.string(),
            dir);
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("cannot write the screenshot"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(saved));
    EXPECT_FALSE(fs::exists(shot));
    fs::remove_all(dir);
}

// Issue 46: carom --replay of a recording whose end or an input is at 2^63 or more plays it up to
// that line with carom-cli replay's warning (it once aborted in the timeline slider); a world at
// steps 2^63 is refused as carom-cli refuses it.
TEST(App, ReplayOfAHugeStepCountIsBoundedAsTheCliBoundsIt) {
    if (!have("xvfb-run") || !have("Xvfb")) GTEST_SKIP() << "Xvfb is not installed";
    const fs::path dir = tempDir("huge-replay");
    for (const char* last : {R"({"at":18446744073709551615,"do":"end"})",
                             R"({"at":9223372036854775808,"do":"spring_off"})"}) {
        SCOPED_TRACE(last);
        writeRecording(dir / "huge.rec", last);
        const Outcome r = run(xvfb(dir) + kApp + " --replay " + (dir / "huge.rec").string() +
                                  " --frames 3 --report >/dev/null",
                              dir);
        EXPECT_EQ(r.status, 0) << r.err;
        EXPECT_NE(r.err.find("huge.rec: line 3: /at: must be at most 1000000000 steps"),
                  std::string::npos)
            << r.err;
        fs::remove(dir / "huge.rec");
    }
    writeRecording(dir / "huge.rec");
    std::string text = readAll(dir / "huge.rec");
    text.replace(text.find("\"steps\":0"), 9, "\"steps\":9223372036854775808");
    std::ofstream(dir / "huge.rec") << text;
    const Outcome r = run("timeout 20 " + kApp + " --replay " + (dir / "huge.rec").string(), dir);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err.rfind("error: " + (dir / "huge.rec").string() +
                              ": line 2: /steps: must be at most 1000000000 steps",
                          0),
              0u)
        << r.err;
    fs::remove_all(dir);
}

// issue 44: build mode driven with the mouse and keys, from an empty box: a box, a circle, a
// polygon, a capsule and a second box drawn (B, then the tools' keys 2 to 5), the second box
// selected (1, a click) and pinned (P), a rope from it to the capsule (6), the rope undone and
// redone (Ctrl+Z, Ctrl+Y), then run (B, Space). The recording holds the edits as inputs, and
// carom-cli replay ends in the state the app saved when it quit, bit for bit.
TEST(App, SlowBuildModeDrawsAPinnedRopeAndReplaysToTheSameBits) {
    if (!have("xvfb-run") || !have("Xvfb") || !have("xdotool"))
        GTEST_SKIP() << "Xvfb or xdotool is not installed";
    const fs::path dir = tempDir("build");
    const fs::path scene = dir / "empty.json", saved = dir / "b.json", rec = dir / "run.rec";
    std::ofstream(scene) << R"({"format": 1, "name": "built", "gravity": [0, -9.81],
  "walls": {"left": -6, "right": 6, "bottom": -6, "top": 6, "thickness": 1}, "bodies": []})";
    const FirstView v;
    auto at = [&](double x, double y) {
        return "xdotool mousemove --window $wid " + std::to_string(std::lround(v.sx(x))) + " " +
               std::to_string(std::lround(v.sy(y))) + "\n";
    };
    auto drag = [&](double x0, double y0, double x1, double y1) {
        return at(x0, y0) + "sleep 0.2\nxdotool mousedown 1\nsleep 0.1\n" +
               at((x0 + x1) / 2, (y0 + y1) / 2) + "sleep 0.1\n" + at(x1, y1) +
               "sleep 0.2\nxdotool mouseup 1\nsleep 0.3\n";
    };
    const std::string steps = press("b") + press("2") + drag(-4, -6, -1, -5) + press("3") +
                              drag(1, -5.25, 1.75, -5.25) + press("4") + drag(3.5, -3, 4.5, -3) +
                              press("5") + drag(-4, -2, -1, -1.5) + press("2") +
                              drag(-0.5, 3, 0.5, 3.5) + press("1") + at(0, 3.25) +
                              "sleep 0.2\nxdotool click 1\nsleep 0.3\n" + press("p") + press("6") +
                              drag(0, 3.1, -2.5, -1.75) + press("ctrl+z") + press("ctrl+y") +
                              press("b") + press("space") + "sleep 1\n";
    const Outcome r = runDriven(dir, scene.string() + " --record " + rec.string(), saved, steps);
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string recording = readAll(rec);
    for (const char* input : {"\"do\":\"add_body\"", "\"do\":\"pin\"", "\"do\":\"rope\""})
        EXPECT_NE(recording.find(input), std::string::npos) << input;
    const carom::Scene s = carom::loadScene(saved.string());
    ASSERT_EQ(s.bodies.size(), 5u);
    EXPECT_EQ(s.bodies[0].shape.type(), carom::ShapeType::Box);
    EXPECT_EQ(s.bodies[1].shape.type(), carom::ShapeType::Circle);
    EXPECT_EQ(s.bodies[2].shape.type(), carom::ShapeType::Polygon);
    EXPECT_EQ(s.bodies[3].shape.type(), carom::ShapeType::Capsule);
    EXPECT_EQ(s.bodies[4].type, carom::BodyType::Static); // pinned
    ASSERT_EQ(s.joints.size(), 1u);                       // the rope, undone and redone
    expectReplaySavesTheSame(rec, saved, dir);
    fs::remove_all(dir);
}

// issue 44 (share): Ctrl+Shift+C puts the scene as it is, with its settings, on the clipboard as a
// scene file's text, and Ctrl+Shift+V opens the clipboard's text. Opened paused, 10 steps, copied,
// 10 steps more, pasted: the world is as carom-cli run --steps 10 leaves it, number for number; and
// the copied text is that scene file. Text put there from outside (xclip) opens the same way, and
// text that is not a scene is refused, the scene open kept.
TEST(App, SlowSceneCopiedAsTextPastesBack) {
    if (!have("xvfb-run") || !have("Xvfb") || !have("xdotool") || !have("xclip"))
        GTEST_SKIP() << "Xvfb, xdotool or xclip is not installed";
    const fs::path dir = tempDir("clipboard");
    const std::string scene = CAROM_ASSET_DIR "/scenes/rigid-body-collisions.json";
    const fs::path saved = dir / "b.json", expected = dir / "a.json", copied = dir / "copied.json";
    const Outcome r = runDriven(dir, "--paused " + scene, saved,
                                press("period", 10) + press("ctrl+shift+c") + "sleep 0.3\n" +
                                    "xclip -selection clipboard -o > " + copied.string() + "\n" +
                                    press("period", 10) + press("ctrl+shift+v") + "sleep 0.3\n");
    ASSERT_EQ(r.status, 0) << r.err;
    const Outcome c = run(std::string(CAROM_CLI) + " run " + scene + " --steps 10 --save " +
                              expected.string() + " >/dev/null",
                          dir);
    ASSERT_EQ(c.status, 0) << c.err;
    EXPECT_EQ(readAll(saved), readAll(expected));
    EXPECT_EQ(readAll(copied), readAll(expected));

    // From outside: a scene's text opens; then text that is not a scene leaves it open.
    const fs::path blocks = dir / "two-blocks.json", fromOutside = dir / "c.json",
                   blocksSaved = dir / "d.json";
    std::ofstream(blocks) << kTwoBlocks;
    const Outcome o = runDriven(
        dir, "--paused " + scene, fromOutside,
        "xclip -selection clipboard -i < " + blocks.string() + "\n" + press("ctrl+shift+v") +
            "sleep 0.3\nprintf 'not a scene' | xclip -selection clipboard -i\n" +
            press("ctrl+shift+v") + "sleep 0.3\n");
    ASSERT_EQ(o.status, 0) << o.err;
    const Outcome d = run(std::string(CAROM_CLI) + " run " + blocks.string() +
                              " --steps 0 --save " + blocksSaved.string() + " >/dev/null",
                          dir);
    ASSERT_EQ(d.status, 0) << d.err;
    EXPECT_EQ(readAll(fromOutside), readAll(blocksSaved));
}

// issue 44 (Export): Ctrl+E exports the run so far as CSV, a row a step with carom-cli run --csv's
// columns: opened paused and stepped 30 times, the file typed "out" is carom-cli run --steps 30
// --csv's, byte for byte.
TEST(App, SlowExportedCsvIsTheCommandLines) {
    if (!have("xvfb-run") || !have("Xvfb") || !have("xdotool"))
        GTEST_SKIP() << "Xvfb or xdotool is not installed";
    const fs::path dir = tempDir("export");
    const std::string scene = CAROM_ASSET_DIR "/scenes/rigid-body-collisions.json";
    const fs::path saved = dir / "b.json", expected = dir / "expected.csv";
    const Outcome r = runDriven(dir, "--paused " + scene, saved,
                                press("period", 30) + press("ctrl+e") +
                                    "sleep 0.3\nxdotool type --delay 60 out\nsleep 0.2\n" +
                                    press("Return") + "sleep 0.5\n");
    ASSERT_EQ(r.status, 0) << r.err;
    const Outcome c = run(std::string(CAROM_CLI) + " run " + scene + " --steps 30 --csv " +
                              expected.string() + " >/dev/null",
                          dir);
    ASSERT_EQ(c.status, 0) << c.err;
    ASSERT_TRUE(fs::exists(dir / "out.csv"));
    EXPECT_EQ(readAll(dir / "out.csv"), readAll(expected));
}

// issue 44 (the ruler): M shows it across the view, 5 m long and level (the round length below a
// third of the view's 16.7 m); its ends dragged with the mouse to (0, 0) and (3, 4) (a press on an
// end takes it, not the body or the view under it) it reads 5 m at 53.1°, each end within a
// pixel and a half of where the cursor let it go. The ends from --report's ruler line.
TEST(App, SlowRulerDraggedReadsTheDistance) {
    if (!have("xvfb-run") || !have("Xvfb") || !have("xdotool"))
        GTEST_SKIP() << "Xvfb or xdotool is not installed";
    const fs::path dir = tempDir("ruler");
    const fs::path scene = dir / "box.json", saved = dir / "b.json", out = dir / "out.txt";
    std::ofstream(scene) << R"({
  "format": 1, "name": "box", "gravity": [0, 0],
  "walls": { "left": -6, "right": 6, "bottom": -6, "top": 6, "thickness": 1 },
  "bodies": [ { "name": "block1", "shape": { "type": "box", "width": 1, "height": 1 },
                "position": [0, 0], "mass": 1 } ]
})";
    auto rulerEnds = [&](const std::string& steps, double e[4]) {
        const Outcome r = runDriven(
            dir, "--paused --report --frames 100000 " + scene.string() + " >" + out.string(), saved,
            press("m") + steps);
        ASSERT_EQ(r.status, 0) << r.err;
        const std::string text = readAll(out);
        const std::size_t at = text.find("ruler: ");
        ASSERT_NE(at, std::string::npos) << text;
        std::istringstream line(text.substr(at + 7));
        line >> e[0] >> e[1] >> e[2] >> e[3];
    };
    double e[4];
    rulerEnds("sleep 0.3\n", e);
    EXPECT_DOUBLE_EQ(e[2] - e[0], 5);
    EXPECT_EQ(e[1], e[3]);

    const FirstView v;
    auto at = [&](double x, double y) {
        return "xdotool mousemove --window $wid " + std::to_string(std::lround(v.sx(x))) + " " +
               std::to_string(std::lround(v.sy(y))) + "\nsleep 0.2\n";
    };
    auto drag = [&](double x0, double y0, double x1, double y1) {
        return at(x0, y0) + "xdotool mousedown 1\nsleep 0.1\n" + at((x0 + x1) / 2, (y0 + y1) / 2) +
               at(x1, y1) + "xdotool mouseup 1\nsleep 0.2\n";
    };
    double moved[4];
    rulerEnds(drag(e[0], e[1], 0, 0) + drag(e[2], e[3], 3, 4), moved);
    const double pixel = 1 / v.scale;
    EXPECT_NEAR(moved[0], 0, 1.5 * pixel);
    EXPECT_NEAR(moved[1], 0, 1.5 * pixel);
    EXPECT_NEAR(moved[2], 3, 1.5 * pixel);
    EXPECT_NEAR(moved[3], 4, 1.5 * pixel);
    const std::string text = readAll(out);
    char reading[64];
    std::snprintf(reading, sizeof reading, ": %.3f m",
                  std::hypot(moved[2] - moved[0], moved[3] - moved[1]));
    EXPECT_NE(text.find(reading), std::string::npos) << text;
}

// issue 44 (the Record button beside the timeline, Save run...; Export... to a .rec name): the
// timeline from its start to the moment shown as a recording. 20 steps, the elasticity lowered
// to 0.9 ('[', an input), 10 steps, 5 back: carom-cli replay plays the file to the state the app
// saves on exit at that moment, byte for byte, the input included and the 5 steps after it left
// out.
TEST(App, SlowTimelineSavedAsARecordingReplaysToTheMomentShown) {
    if (!have("xvfb-run") || !have("Xvfb") || !have("xdotool"))
        GTEST_SKIP() << "Xvfb or xdotool is not installed";
    const fs::path dir = tempDir("export-rec");
    const std::string scene = CAROM_ASSET_DIR "/scenes/rigid-body-collisions.json";
    const fs::path saved = dir / "b.json", replayed = dir / "a.json";
    const Outcome r = runDriven(dir, "--paused " + scene, saved,
                                press("period", 20) + press("bracketleft") + press("period", 10) +
                                    press("comma", 5) + press("ctrl+e") +
                                    "sleep 0.3\nxdotool type --delay 60 run.rec\nsleep 0.2\n" +
                                    press("Return") + "sleep 0.5\n");
    ASSERT_EQ(r.status, 0) << r.err;
    ASSERT_TRUE(fs::exists(dir / "run.rec"));
    const Outcome c = run(std::string(CAROM_CLI) + " replay " + (dir / "run.rec").string() +
                              " --save " + replayed.string() + " >/dev/null",
                          dir);
    ASSERT_EQ(c.status, 0) << c.err;
    EXPECT_EQ(readAll(replayed), readAll(saved));
    EXPECT_NE(readAll(saved).find("\"restitution\": 0.9,"), std::string::npos) << readAll(saved);
}

// A driven script's wait for a file the app writes whole (renamed into place when done), at most a
// minute: an export of many frames takes its time under the sanitizers.
namespace {
std::string untilWritten(const std::string& name) {
    return "for i in $(seq 600); do [ -e " + name + " ] && break; sleep 0.1; done\nsleep 0.3\n";
}
} // namespace

// issue 44 (Export): a name ending in .gif makes an animation of the view from the timeline's
// start to the moment shown: 30 steps at 60 Hz, a frame every other step (30 a simulated second),
// 16 frames whose delays add up to the span's 0.5 s; ImageMagick reads it, every frame on a canvas
// of the view's size. The moment shown is given back: the state saved on exit is the command
// line's after 30 steps.
TEST(App, SlowTimelineExportedAsGif) {
    if (!have("xvfb-run") || !have("Xvfb") || !have("xdotool") || !have("identify"))
        GTEST_SKIP() << "Xvfb, xdotool or ImageMagick is not installed";
    const fs::path dir = tempDir("export-gif");
    const std::string scene = CAROM_ASSET_DIR "/scenes/rigid-body-collisions.json";
    const fs::path saved = dir / "b.json", expected = dir / "a.json", gif = dir / "run.gif",
                   frames = dir / "frames.txt";
    const Outcome r = runDriven(dir, "--paused " + scene, saved,
                                press("period", 30) + press("ctrl+e") +
                                    "sleep 0.3\nxdotool type --delay 60 run.gif\nsleep 0.2\n" +
                                    press("Return") + untilWritten("run.gif"));
    ASSERT_EQ(r.status, 0) << r.err;
    ASSERT_TRUE(fs::exists(gif));
    ASSERT_EQ(
        std::system(
            ("identify -format '%W %H %T\\n' " + gif.string() + " > " + frames.string()).c_str()),
        0);
    std::istringstream lines(readAll(frames));
    std::vector<int> delays;
    std::string first;
    for (std::string line; std::getline(lines, line);) {
        std::istringstream f(line);
        int w = 0, h = 0, delay = 0;
        f >> w >> h >> delay;
        const std::string canvas = std::to_string(w) + " " + std::to_string(h);
        if (first.empty()) first = canvas;
        EXPECT_EQ(canvas, first);
        delays.push_back(delay);
    }
    ASSERT_EQ(delays.size(), 16u);
    EXPECT_EQ(std::accumulate(delays.begin(), delays.end() - 1, 0), 50);
    const Outcome c = run(std::string(CAROM_CLI) + " run " + scene + " --steps 30 --save " +
                              expected.string() + " >/dev/null",
                          dir);
    ASSERT_EQ(c.status, 0) << c.err;
    EXPECT_EQ(readAll(saved), readAll(expected));
}

// issue 44 (Export): F12 exports the window as a PNG (written by libpng after a frame without the
// dialog): ImageMagick reads it at the window's size.
TEST(App, SlowWindowExportedAsPng) {
    if (!have("xvfb-run") || !have("Xvfb") || !have("xdotool") || !have("identify"))
        GTEST_SKIP() << "Xvfb, xdotool or ImageMagick is not installed";
    const fs::path dir = tempDir("export-png");
    const std::string scene = CAROM_ASSET_DIR "/scenes/polygons.json";
    const fs::path saved = dir / "b.json", png = dir / "shot.png", size = dir / "size.txt";
    const Outcome r = runDriven(dir, scene, saved,
                                press("F12") + "sleep 0.3\nxdotool type --delay 60 shot.png\n" +
                                    "sleep 0.2\n" + press("Return") + "sleep 0.8\n");
    ASSERT_EQ(r.status, 0) << r.err;
    ASSERT_TRUE(fs::exists(png));
    ASSERT_EQ(
        std::system(("identify -format '%w %h' " + png.string() + " > " + size.string()).c_str()),
        0);
    EXPECT_EQ(readAll(size), "1280 800");
}
