// carom: the desktop sandbox. Arguments as in docs/cli.md:
//   carom [SCENE.json] [--screenshot OUT.png --frames N] [--frames N --report]
//         [--save-on-exit OUT.json] [--window WxH] [--drag X0,Y0,X1,Y1,SECONDS]
//         [--paused] [--record RUN] [--replay RUN] [--no-history]
#include "app.h"
#include "scenes.h"

#include "carom/file_identity.h"
#include "carom/output_file.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iterator>
#include <stdexcept>
#include <string>
#include <utility>

namespace {

const char* kUsage =
    "usage: carom [SCENE.json] [--screenshot OUT.png --frames N] [--frames N --report]\n"
    "             [--save-on-exit OUT.json] [--window WxH] [--drag X0,Y0,X1,Y1,SECONDS]\n"
    "             [--paused] [--record RUN] [--replay RUN] [--no-history]\n"
    "  SCENE.json          the scene to open (default: assets/scenes/rigid-body-collisions.json)\n"
    "  --screenshot FILE   render N frames (the simulation running), save the window as PNG, quit\n"
    "  --frames N          frames before the screenshot or the report (default 60)\n"
    "  --report            run N frames and quit, printing as the last three lines frame_ms (the\n"
    "                      median time a frame took, not counting the wait for the 60 Hz cap),\n"
    "                      step_ms (the median physics time of a frame) and sim_speed (simulated\n"
    "                      seconds per real second over the run)\n"
    "  --save-on-exit FILE save the state as a scene file when the app quits\n"
    "  --window WxH        window size in pixels, at least 800x500 (default: the last size,\n"
    "                      cut down to fit the screen; the first time, the screen's usable area)\n"
    "  --drag X0,Y0,X1,Y1,SECONDS\n"
    "                      scripted mouse (for tests): on the third frame press the left button\n"
    "                      at window pixel (X0,Y0), move to (X1,Y1) over ten frames, hold there\n"
    "                      SECONDS of simulated time, release; --report then runs until the\n"
    "                      release has been read, and at least N frames\n"
    "  --paused            open paused, at step 0\n"
    "  --record RUN        write the session into RUN as it goes: the world at the start and\n"
    "                      every input that changed it, at its step (docs/recording-format.md)\n"
    "  --replay RUN        open a recording, to play along its timeline (no SCENE.json then)\n"
    "  --no-history        keep no history: no timeline, no stepping back with ','\n";

int fail(const std::string& message) {
    std::fprintf(stderr, "error: %s\n", message.c_str());
    return 2;
}

// A whole positive integer, or false.
bool parseCount(const char* s, int& out) {
    char* end = nullptr;
    const long v = std::strtol(s, &end, 10);
    if (end == s || *end != '\0' || v < 1 || v > 1000000) return false;
    out = int(v);
    return true;
}

bool parseSize(const std::string& s, int& w, int& h) {
    const auto x = s.find('x');
    return x != std::string::npos && parseCount(s.substr(0, x).c_str(), w) &&
           parseCount(s.substr(x + 1).c_str(), h) && w >= 800 && h >= 500 && w <= 10000 &&
           h <= 10000;
}

} // namespace

int main(int argc, char** argv) {
    app::AppOptions opt;
    bool framesGiven = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&](std::string& out) {
            if (i + 1 >= argc) return false;
            out = argv[++i];
            return true;
        };
        std::string v;
        if (a == "--help" || a == "-h") {
            std::fputs(kUsage, stdout);
            return 0;
        } else if (a == "--screenshot") {
            if (!value(opt.screenshot) || opt.screenshot.empty())
                return fail("--screenshot: needs a file name");
        } else if (a == "--frames") {
            if (!value(v)) return fail("--frames: needs a number");
            if (!parseCount(v.c_str(), opt.frames))
                return fail("--frames: expected a whole number >= 1, got '" + v + "'");
            framesGiven = true;
        } else if (a == "--report") {
            opt.report = true;
        } else if (a == "--save-on-exit") {
            if (!value(opt.saveOnExit) || opt.saveOnExit.empty())
                return fail("--save-on-exit: needs a file name");
        } else if (a == "--window") {
            if (!value(v) || !parseSize(v, opt.width, opt.height))
                return fail("--window: expected WIDTHxHEIGHT such as 1280x800 (at least 800x500), "
                            "got '" +
                            v + "'");
        } else if (a == "--drag") {
            app::DragScript d;
            if (!value(v) || !app::parseDragScript(v, d))
                return fail("--drag: expected X0,Y0,X1,Y1,SECONDS such as 600,400,700,300,1.5 "
                            "(pixels >= 0, seconds >= 0), got '" +
                            v + "'");
            opt.drag = d;
        } else if (a == "--paused") {
            opt.paused = true;
        } else if (a == "--no-history") {
            opt.history = false;
        } else if (a == "--record") {
            if (!value(opt.record) || opt.record.empty())
                return fail("--record: needs a file name");
        } else if (a == "--replay") {
            if (!value(opt.replayPath) || opt.replayPath.empty())
                return fail("--replay: needs a recording's file name");
        } else if (!a.empty() && a[0] == '-') {
            return fail("unknown option '" + a + "' (try --help)");
        } else if (!opt.scenePath.empty()) {
            return fail("more than one scene given: '" + opt.scenePath + "' and '" + a + "'");
        } else {
            opt.scenePath = a;
        }
    }
    if (framesGiven && opt.screenshot.empty() && !opt.report)
        return fail("--frames: needs --screenshot or --report");
    if (!opt.replayPath.empty() && !opt.scenePath.empty())
        return fail("--replay: the recording holds its scene; give no scene file with it");
    if (!opt.replayPath.empty() && !opt.history)
        return fail("--replay: needs the history (not with --no-history)");
    // No output may overwrite an input or another output, by file identity ("./s.json", links).
    const std::pair<const char*, std::string> outputs[] = {{"--screenshot", opt.screenshot},
                                                           {"--save-on-exit", opt.saveOnExit},
                                                           {"--record", opt.record}};
    for (std::size_t i = 0; i < std::size(outputs); ++i) {
        const auto& [flag, path] = outputs[i];
        if (carom::sameFile(path, opt.scenePath))
            return fail(std::string(flag) + ": '" + path +
                        "' is the input scene; write the output to another file");
        if (carom::sameFile(path, opt.replayPath))
            return fail(std::string(flag) + ": '" + path +
                        "' is the recording; write the output to another file");
        for (std::size_t k = i + 1; k < std::size(outputs); ++k)
            if (carom::sameFile(path, outputs[k].second))
                return fail(std::string(flag) + " and " + outputs[k].first +
                            " name the same file '" + path + "'");
    }
    // Output files are written at the end: check now that their folders exist and that nothing
    // planted is at their paths.
    for (const auto& [flag, path] : outputs) {
        if (path.empty()) continue;
        const std::filesystem::path dir = std::filesystem::path(path).parent_path();
        std::error_code ec;
        if (!dir.empty() && !std::filesystem::is_directory(dir, ec))
            return fail(std::string(flag) + ": no such directory '" + dir.string() + "'");
        try { // a link or a FIFO planted there is refused now, not after the run
            carom::checkOutputTarget(path);
        } catch (const std::runtime_error& e) {
            return fail(std::string(flag) + ": " + e.what());
        }
    }

    try {
        if (!opt.replayPath.empty()) {
            opt.replay = carom::loadRecording(opt.replayPath);
            if (!opt.replay->damage.empty())
                std::fprintf(stderr, "warning: %s; replayed up to there\n",
                             opt.replay->damage.c_str());
            else if (!opt.replay->end)
                std::fprintf(stderr,
                             "warning: %s: no end line (the app did not quit "
                             "normally); replayed to its last input\n",
                             opt.replayPath.c_str());
            return app::runApp(std::move(opt));
        }
        if (opt.scenePath.empty()) {
            // The default scene; if the presets are missing the built-in one of three blocks.
            for (const app::Preset& p : app::listPresets(app::findAssetDir()))
                if (p.name == app::kDefaultPreset) opt.scenePath = p.path;
            opt.scene = opt.scenePath.empty() ? app::blocksScene(app::defaultBlocksBase(), 3)
                                              : carom::loadScene(opt.scenePath);
        } else {
            opt.scene = carom::loadScene(opt.scenePath);
        }
        carom::buildWorld(opt.scene); // a scene the engine refuses fails here, before the window
    } catch (const std::exception& e) {
        return fail(e.what());
    }
    return app::runApp(std::move(opt));
}
