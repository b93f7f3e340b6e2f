// Window, GL context, ImGui and the frame loop.
#include "app.h"

#include "draw_cache.h"
#include "font_ranges.h"
#include "gif_write.h"
#include "input.h"
#include "panels.h"
#include "plots.h"
#include "png_write.h"
#include "prefs.h"
#include "renderer.h"
#include "worker.h"
#include <SDL.h>
#include <SDL_opengl.h>
#include <algorithm>
#include <array>
#include <backends/imgui_impl_opengl3.h>
#include <backends/imgui_impl_sdl.h>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <imgui.h>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace app {
namespace {

// An animated GIF being made (Export... to a name ending in .gif, issue 44): the timeline from
// its first step to the moment shown, a frame about every 1/30 s of simulated time (further apart
// for a long span: at most kMaxFrames), each the simulation view as drawn, read back and added.
// The moment shown and the pause are given back at the end. While it runs the app takes no input
// but Esc, which stops it and leaves no file, and closing the window.
struct GifCapture {
    static constexpr std::uint64_t kMaxFrames = 600;
    std::string path;
    std::unique_ptr<GifWriter> writer;
    std::uint64_t first = 0, last = 0, stride = 1; // the frames: first + i stride, and last
    std::uint64_t frame = 0, frames = 0;           // the frame drawn, of how many
    bool wasPaused = false, stop = false;
};

// Everything the running app holds, in one place.
struct AppState {
    SDL_Window* window = nullptr;
    SDL_GLContext gl = nullptr;
    std::string configDir, iniPath;
    Prefs prefs;
    Session session;
    Camera camera;
    Camera lastFit; // the camera as the last fit left it: still equal means "not moved by hand"
    InputState input;
    PanelState panels;
    PlotState plots;
    RenderState render;
    DrawCache drawCache; // the side panels as drawn last, copied while they stay the same
    Stats stats;
    Rect lastView{{0, 0}, {0, 0}};     // the simulation view of the last frame
    std::vector<SDL_Event> heldKeyUps; // key releases kept for the next frame (buildFrame)
    std::optional<GifCapture> gif;     // an animation being exported
};

// The first window's size and place: --window as given; else the remembered size cut down to
// the usable area of the screen it opens on (without the panel bars and docks), centred there;
// else, on the first start, that whole area.
struct Placement {
    int x = SDL_WINDOWPOS_CENTERED, y = SDL_WINDOWPOS_CENTERED, w = 1280, h = 800;
    bool fill = false;
};

Placement placeWindow(int width, int height, bool given) {
    Placement p;
    SDL_Rect usable{0, 0, 0, 0};
    const bool known = SDL_GetDisplayUsableBounds(0, &usable) == 0 && usable.w > 0 && usable.h > 0;
    if (given || !known) {
        p.w = width > 0 ? width : 1280;
        p.h = height > 0 ? height : 800;
        return p;
    }
    if (width <= 0 || height <= 0) {
        p.x = usable.x;
        p.y = usable.y;
        p.w = usable.w;
        p.h = usable.h;
        p.fill = true;
        return p;
    }
    p.w = std::min(width, usable.w);
    p.h = std::min(height, usable.h);
    p.x = usable.x + (usable.w - p.w) / 2;
    p.y = usable.y + (usable.h - p.h) / 2;
    return p;
}

bool initWindow(AppState& a, int width, int height, bool given) {
    if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_TIMER) != 0) {
        std::fprintf(stderr, "error: cannot start SDL video: %s\n", SDL_GetError());
        return false;
    }
    SDL_EventState(SDL_DROPFILE, SDL_ENABLE); // a scene file dropped on the window opens
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_FLAGS, SDL_GL_CONTEXT_FORWARD_COMPATIBLE_FLAG);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
    SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 0);
    SDL_GL_SetAttribute(SDL_GL_STENCIL_SIZE, 0);
    const Placement place = placeWindow(width, height, given);
    a.window = SDL_CreateWindow("Carom", place.x, place.y, place.w, place.h,
                                SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE |
                                    (place.fill ? SDL_WINDOW_MAXIMIZED : 0));
    if (!a.window) {
        std::fprintf(stderr, "error: cannot open a window: %s\n", SDL_GetError());
        return false;
    }
    a.gl = SDL_GL_CreateContext(a.window);
    if (!a.gl) {
        std::fprintf(stderr, "error: cannot create an OpenGL 3.3 core context: %s\n",
                     SDL_GetError());
        return false;
    }
    // Room for the panels and the view, unless the screen itself is smaller.
    SDL_SetWindowMinimumSize(a.window, std::min(800, place.w), std::min(500, place.h));
    SDL_GL_MakeCurrent(a.window, a.gl);
    SDL_GL_SetSwapInterval(1); // vsync where there is one; the loop also caps at 60 fps
    return true;
}

// A clear sans-serif font: assets/fonts/ui.ttf if the project ships one, else Debian's DejaVu
// Sans (fonts-dejavu-core), else ImGui's built-in bitmap font. Its glyphs one texel to a pixel,
// at whole pixels (as the built-in font's are), so that the atlas is sampled without filtering
// (initImGui).
void loadFont(ImGuiIO& io, const std::string& assetDir) {
    const std::string candidates[] = {assetDir + "/fonts/ui.ttf",
                                      "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"};
    ImFontConfig pixelExact;
    pixelExact.OversampleH = pixelExact.OversampleV = 1;
    pixelExact.PixelSnapH = true;
    // The characters the texts use beyond ASCII (font_ranges.h), as ImGui's zero-ended ranges.
    static const auto ranges = [] {
        std::array<ImWchar, std::size(kFontRanges) + 1> r{};
        for (std::size_t i = 0; i < std::size(kFontRanges); ++i)
            r[i] = ImWchar(kFontRanges[i]);
        return r;
    }();
    std::error_code ec;
    for (const std::string& path : candidates)
        if (std::filesystem::is_regular_file(path, ec) &&
            io.Fonts->AddFontFromFileTTF(path.c_str(), 15.0f, &pixelExact, ranges.data()))
            return;
    io.Fonts->AddFontDefault();
}

// ImGui's dark or light colours, following the view's background; the panels opaque so that the
// scene does not show through them.
void applyColors(PanelState& panels, bool light) {
    if (light)
        ImGui::StyleColorsLight();
    else
        ImGui::StyleColorsDark();
    ImGui::GetStyle().Colors[ImGuiCol_WindowBg].w = 1;
    panels.lightStyle = light;
}

void initImGui(AppState& a) {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = a.iniPath.empty() ? nullptr : a.iniPath.c_str();
    loadFont(io, a.panels.assetDir);
    ImGuiStyle& style = ImGui::GetStyle();
    style.WindowRounding = 0;
    style.FrameRounding = 3;
    style.GrabRounding = 3;
    style.WindowBorderSize = 0;
    applyColors(a.panels, a.prefs.view.lightBackground);
    ImGui_ImplSDL2_InitForOpenGL(a.window, a.gl);
    ImGui_ImplOpenGL3_Init("#version 330 core");
    // The atlas sampled at the nearest texel: the glyphs fall on whole texels (loadFont), and so
    // do the solid fills (its white texel). Mesa's software rasterizer (Xvfb) shades a pixel in a
    // third less time so: 1.3 ms a frame at 1920x1080 (10.3-10.5 ms a paused frame against
    // 11.6-11.9, three runs A B). The anti-aliased lines are then made of triangles, not of the
    // atlas's filtered line texels.
    style.AntiAliasedLinesUseTex = false;
    ImGui_ImplOpenGL3_CreateDeviceObjects();
    glBindTexture(GL_TEXTURE_2D, GLuint(intptr_t(io.Fonts->TexID)));
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
}

void fitCamera(AppState& a, ImVec2 display) {
    carom::Vec2 lo, hi;
    sceneBounds(a.session.world, lo, hi);
    a.camera.fit(lo, hi, fitViewRect(a.prefs.view, display));
    a.lastFit = a.camera;
}

bool sameCamera(const Camera& x, const Camera& y) {
    return x.scale == y.scale && x.origin.x == y.origin.x && x.origin.y == y.origin.y;
}

// A new window size or panel layout: refit if the user has not moved the view, otherwise keep
// the view's centre where it was.
void followLayout(AppState& a, ImVec2 display) {
    const Rect now = fitViewRect(a.prefs.view, display);
    const Rect& before = a.lastView;
    if (now.min.x == before.min.x && now.min.y == before.min.y && now.max.x == before.max.x &&
        now.max.y == before.max.y)
        return;
    if (sameCamera(a.camera, a.lastFit) || before.max.x == 0)
        fitCamera(a, display);
    else
        a.camera.pan({now.center().x - before.center().x, now.center().y - before.center().y});
    a.lastView = now;
}

// A width in ImGui's units as pixels of the drawable, w pixels wide.
GLsizei pixels(float width, int w) {
    return GLsizei(std::lround(width * w / std::max(ImGui::GetIO().DisplaySize.x, 1.0f)));
}

// The simulation view in the drawable's pixels (w x h), GL's rows (from the bottom).
struct PixelRect {
    int x, y, w, h;
};
PixelRect viewPixels(const AppState& a, int w, int h) {
    const Rect v = simViewRect(a.prefs.view, ImGui::GetIO().DisplaySize);
    const int x0 = std::clamp(int(pixels(v.min.x, w)), 0, w);
    const int x1 = std::clamp(int(pixels(v.max.x, w)), 0, w);
    const int y0 = std::clamp(h - int(pixels(v.max.y, w)), 0, h);
    const int y1 = std::clamp(h - int(pixels(v.min.y, w)), 0, h);
    return {x0, y0, x1 - x0, y1 - y0};
}

// Pixels of the back buffer, rows top to bottom, 8-bit RGB.
std::vector<std::uint8_t> readPixels(const PixelRect& r) {
    std::vector<std::uint8_t> pixels(std::size_t(r.w) * r.h * 3), flipped(pixels.size());
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadBuffer(GL_BACK);
    glReadPixels(r.x, r.y, r.w, r.h, GL_RGB, GL_UNSIGNED_BYTE, pixels.data());
    const std::size_t row = std::size_t(r.w) * 3;
    for (int y = 0; y < r.h; ++y) // GL rows go bottom to top
        std::copy_n(pixels.begin() + std::size_t(r.h - 1 - y) * row, row,
                    flipped.begin() + std::size_t(y) * row);
    return flipped;
}

bool writeScreenshot(AppState& a, const std::string& path) {
    int w = 0, h = 0;
    SDL_GL_GetDrawableSize(a.window, &w, &h);
    if (!writePng(path, w, h, readPixels({0, 0, w, h}))) {
        std::fprintf(stderr, "error: %s: cannot write the screenshot\n", path.c_str());
        return false;
    }
    return true;
}

bool saveOnExit(AppState& a, const std::string& path) {
    try {
        carom::saveScene(sceneNow(a.session), path);
        return true;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "error: --save-on-exit: %s\n", e.what());
        return false;
    }
}

// Shows the world at step n of its history, the graphs with it: the states re-simulated on the
// way are sampled as frames would have (a seek forward fills them in), then the samples after
// the moment reached are dropped (a seek back).
void seekTo(AppState& a, std::uint64_t n) {
    Session& s = a.session;
    seek(s, n, [&](const carom::World& w) {
        if (w.time() > a.plots.lastTime)
            updatePlots(a.plots, w, s.generation,
                        Sample{w.time(), carom::measure(w), a.prefs.view.peOffset});
    });
    rewindPlots(a.plots, s.world.time());
}

void smooth(double& avg, double sample) {
    avg = avg == 0 ? sample : 0.9 * avg + 0.1 * sample;
}

// The physics of one frame: the stepper's advance by the frame's real time (at most one
// advance), and what the stats panel shows of it. Returns the physics time, ms.
struct Advance {
    int steps = 0;
    double ms = 0;
};

Advance advance(Session& s, double dt) {
    const Uint64 t0 = SDL_GetPerformanceCounter();
    Advance r;
    r.steps = s.stepper.advance(s.world, dt, [&] { stepSession(s); });
    r.ms =
        1000.0 * double(SDL_GetPerformanceCounter() - t0) / double(SDL_GetPerformanceFrequency());
    return r;
}

void noteAdvance(AppState& a, const Advance& r, double dt) {
    Session& s = a.session;
    if (!s.stepper.paused) s.realTime += dt;
    a.stats.stepsLastFrame = r.steps;
    if (r.steps > 0 && guardFinite(s)) s.halted.clear();
    // --replay: the recording's next world, once this one has played out; after a branch, back
    // along the timeline, the graphs with it.
    if (!a.gif && followRecording(s) && s.world.time() < a.plots.lastTime)
        rewindPlots(a.plots, s.world.time());
    noteCollisions(a.stats.collisions, s);
    smooth(a.stats.stepMs, r.ms);
    if (r.steps > 0) smooth(a.stats.msPerStep, r.ms / r.steps);
    s.history.stepSeconds = a.stats.msPerStep / 1000; // keyframes a quick replay apart
}

// Esc stops an export; closing the window quits; the window's own events and the keys let go
// (none held in ImGui's state after) pass; nothing else is taken while the frames are drawn: the
// world is at a past moment, where an input would take another path and drop the rest.
bool capturingMaySee(AppState& a, const SDL_Event& e) {
    if (e.type == SDL_KEYDOWN && e.key.keysym.sym == SDLK_ESCAPE) a.gif->stop = true;
    return e.type == SDL_QUIT || e.type == SDL_WINDOWEVENT || e.type == SDL_KEYUP;
}

// The frame i's step.
std::uint64_t gifStep(const GifCapture& g, std::uint64_t i) {
    return std::min(g.first + i * g.stride, g.last);
}

// Export... asked for an animation (PanelState::animation): its frames chosen, its file begun and
// the world brought to its first step, which this frame draws.
void startGif(AppState& a) {
    Session& s = a.session;
    GifCapture g;
    g.path = std::exchange(a.panels.animation, "");
    a.panels.fileError = true;
    if (!s.historyOn || s.history.empty()) {
        a.panels.fileMessage = g.path + ": no timeline to export (started with --no-history)";
        return;
    }
    g.first = s.history.first();
    g.last = s.world.stepCount();
    if (g.last <= g.first) {
        a.panels.fileMessage = g.path + ": the timeline holds one moment: run the scene first";
        return;
    }
    const double h = s.world.settings().timeStep;
    const std::uint64_t span = g.last - g.first;
    g.stride = std::max<std::uint64_t>(1, std::uint64_t(std::lround(1 / (30 * h))));
    g.stride =
        std::max(g.stride, (span + GifCapture::kMaxFrames - 2) / (GifCapture::kMaxFrames - 1));
    g.frames = (span + g.stride - 1) / g.stride + 1;
    int w = 0, hp = 0;
    SDL_GL_GetDrawableSize(a.window, &w, &hp);
    const PixelRect view = viewPixels(a, w, hp);
    try {
        g.writer = std::make_unique<GifWriter>(g.path, view.w, view.h);
    } catch (const std::exception& e) {
        a.panels.fileMessage = e.what();
        return;
    }
    g.wasPaused = s.stepper.paused;
    a.panels.fileError = false;
    a.gif = std::move(g);
    seekTo(a, a.gif->first);
}

// After a frame is drawn: the view read back and added, shown for the simulated time to the next
// frame (GIF's hundredths of a second, rounded so that the delays add up to the span's time).
void addGifFrame(AppState& a) {
    GifCapture& g = *a.gif;
    int w = 0, h = 0;
    SDL_GL_GetDrawableSize(a.window, &w, &h);
    const PixelRect view = viewPixels(a, w, h);
    const double step = a.session.world.settings().timeStep;
    auto centiseconds = [&](std::uint64_t i) {
        return std::llround(100 * double(gifStep(g, i) - g.first) * step);
    };
    const long long delay = g.frame + 1 < g.frames
                                ? centiseconds(g.frame + 1) - centiseconds(g.frame)
                                : std::llround(100 * double(g.stride) * step);
    try {
        g.writer->add(readPixels(view), int(delay));
    } catch (const std::exception& e) {
        a.panels.fileMessage = e.what(); // the window changed size: no file
        a.panels.fileError = true;
        g.writer.reset();
        g.stop = true;
    }
}

// Before a frame: the world brought to the next frame's step (along the history, the graphs
// sampled on the way as a seek does), or the export ended, written or stopped, and the moment
// shown given back.
void moveGifOn(AppState& a) {
    GifCapture& g = *a.gif;
    Session& s = a.session;
    if (!g.stop && ++g.frame < g.frames) {
        while (s.world.stepCount() < gifStep(g, g.frame)) {
            stepSession(s);
            updatePlots(a.plots, s.world, s.generation,
                        Sample{s.world.time(), carom::measure(s.world), a.prefs.view.peOffset});
        }
        a.panels.fileMessage = "exporting " + g.path + ": frame " + std::to_string(g.frame + 1) +
                               " of " + std::to_string(g.frames) + " (Esc stops)";
        return;
    }
    if (g.writer && !g.stop) {
        try {
            g.writer->commit();
            const double seconds = double(g.last - g.first) * s.world.settings().timeStep;
            char text[64];
            std::snprintf(text, sizeof text, ": %llu frames, %.2f s", (unsigned long long)g.frames,
                          seconds);
            a.panels.fileMessage = "exported the run to " + g.path + text;
        } catch (const std::exception& e) {
            a.panels.fileMessage = e.what();
            a.panels.fileError = true;
        }
    } else if (!a.panels.fileError) {
        a.panels.fileMessage = "stopped: " + g.path + " not written";
    }
    const std::uint64_t back = g.last;
    const bool paused = g.wasPaused;
    a.gif.reset();
    seekTo(a, back);
    s.stepper.paused = paused;
}

// The first half of a frame, on the world as the last advance left it: events, the UI, and the
// drawing into ImGui's lists (ImGui::Render). Nothing after it reads the world until the next
// frame, so the next advance may run while OpenGL draws the lists (renderFrame).
void buildFrame(AppState& a, bool& quit) {
    Session& s = a.session;
    ViewOptions& view = a.prefs.view;
    const Rect simView = simViewRect(view, ImGui::GetIO().DisplaySize); // as the last frame drew it
    // ImGui 1.86 reads the keys' state once a frame: a key pressed and released between two
    // frames (a quick tap, xdotool's "key Return", a fast Ctrl+O) would never be seen down. So
    // once a key has gone down in this frame's events, the releases after it wait for the next
    // frame.
    std::vector<SDL_Event> events;
    events.swap(a.heldKeyUps);
    bool keyWentDown = false;
    for (SDL_Event e; SDL_PollEvent(&e);) {
        keyWentDown |= e.type == SDL_KEYDOWN;
        if (e.type == SDL_KEYUP && keyWentDown)
            a.heldKeyUps.push_back(e);
        else
            events.push_back(e);
    }
    for (SDL_Event& e : events) {
        if (a.gif && !capturingMaySee(a, e)) continue;
        ImGui_ImplSDL2_ProcessEvent(&e); // ImGui sees every event
        if (e.type == SDL_KEYDOWN || e.type == SDL_KEYUP) {
            // The modifiers as they were at this key (the back end asks SDL for them now, after
            // every pending event: a quick Ctrl+A would reach ImGui as a plain A).
            ImGuiIO& io = ImGui::GetIO();
            const Uint16 mod = e.key.keysym.mod;
            io.KeyCtrl = mod & KMOD_CTRL;
            io.KeyShift = mod & KMOD_SHIFT;
            io.KeyAlt = mod & KMOD_ALT;
            io.KeySuper = mod & KMOD_GUI;
        }
        if (e.type == SDL_QUIT) quit = true;
        if (e.type == SDL_WINDOWEVENT && e.window.event == SDL_WINDOWEVENT_CLOSE &&
            e.window.windowID == SDL_GetWindowID(a.window))
            quit = true;
        if (e.type == SDL_DROPFILE) {
            if (e.drop.file) a.panels.droppedPath = e.drop.file; // drawPanels opens it
            SDL_free(e.drop.file);
        }
        handleEvent(a.input, e, s, a.camera, view, simView, a.panels.overlays);
    }
    if (view.lightBackground != a.panels.lightStyle) applyColors(a.panels, view.lightBackground);
    const ImGuiIO& io = ImGui::GetIO();
    if (!a.gif) // building: keys edit; exporting: the world is at a past moment (GifCapture)
        updateThrusters(s, !io.WantCaptureKeyboard && !a.input.build.on);
    s.world.setProfiling(view.showProfile); // the profile window reads the steps' stage times

    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplSDL2_NewFrame();
    // The pointer where SDL's events left it while it is over the window. The back end reads
    // SDL's global mouse state, which SDL 2.26 on X11 caches until XInput2 reports raw motion,
    // and a pointer moved by XTest (xdotool under Xvfb) reports none: ImGui saw no hover there.
    if (SDL_GetMouseFocus() == a.window) {
        int x = 0, y = 0;
        SDL_GetMouseState(&x, &y);
        ImGui::GetIO().MousePos = {float(x), float(y)};
    }
    ImGui::NewFrame();
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    followLayout(a, display);

    Commands& cmd = a.input.commands;
    UiContext ui{s, view, a.panels, a.plots, cmd, a.stats};
    ui.camera = &a.camera;
    ui.build = &a.input.build;
    drawPanels(ui);
    if (cmd.toggleBuild) toggleBuild(a.input.build, s);
    if (cmd.stepsBack > 0) {
        const std::uint64_t n = s.world.stepCount();
        const std::uint64_t back = std::uint64_t(cmd.stepsBack);
        cmd.seekTo = n > s.history.first() + back ? n - back : s.history.first();
    }
    if (cmd.seekTo) seekTo(a, *cmd.seekTo);
    if (cmd.reset) reset(s);
    if (cmd.fitView || cmd.reset) fitCamera(a, display);
    if (cmd.quit) quit = true;
    cmd = Commands{};
    syncDrag(a.input, s);

    // A time graph series changed: its past from the history, re-simulated within about a
    // quarter of a second of the app's measured step time.
    if (a.plots.time.refill) {
        const double stepSeconds = std::max(s.history.stepSeconds, 1e-6);
        refillTimeGraph(a.plots, s.history, s.world, view.peOffset,
                        std::uint64_t(std::min(0.25 / stepSeconds, 1e6)));
    }
    const Sample sample{s.world.time(), carom::measure(s.world), view.peOffset};
    updatePlots(a.plots, s.world, s.generation, sample);
    drawScene(a.render, DrawInputs{s, a.camera, view, simViewRect(view, display)},
              ImGui::GetBackgroundDrawList());
    // The ruler over the scene, placed anew across the view each time it is shown.
    Ruler& ruler = a.input.ruler;
    if (!view.showRuler) ruler.placed = false;
    if (view.showRuler && !ruler.placed) {
        const Rect v = simViewRect(view, display);
        placeRuler(ruler, a.camera.toWorld(v.center()), v.size().x / a.camera.scale);
    }
    if (view.showRuler) drawRuler(ruler, a.camera, ImGui::GetBackgroundDrawList());
    if (a.input.build.on)
        drawBuildOverlay(a.input.build, s, a.camera, simViewRect(view, display),
                         ImGui::GetBackgroundDrawList());
    ImGui::Render();
}

// The second half: OpenGL draws ImGui's lists into the back buffer.
void renderFrame(AppState& a) {
    int w = 0, h = 0;
    SDL_GL_GetDrawableSize(a.window, &w, &h);
    glViewport(0, 0, w, h);
    const ImVec4 bg = ImGui::ColorConvertU32ToFloat4(backgroundColor(a.prefs.view.lightBackground));
    glClearColor(bg.x, bg.y, bg.z, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    // The side panels: their backgrounds cleared in the window colour (opaque: applyColors), as
    // ImGui draws none, and each copied from its last drawing where it may be (draw_cache.h). Not
    // the scene: the large pyramid's 10,400 triangles draw in about the time a copy of its million
    // pixels takes.
    const int left = pixels(a.panels.drawn.left, w), right = w - pixels(a.panels.drawn.right, w);
    const ImVec4 panelBg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    const std::vector<CachedList> panels = {{a.panels.controlsList, 0, left, panelBg},
                                            {a.panels.graphsList, right, w, panelBg}};
    for (const CachedList& p : panels)
        clearColumns(p, h);
    a.drawCache.render(ImGui::GetDrawData(), panels, w, h);
}

double median(std::vector<double> x) {
    if (x.empty()) return 0;
    std::nth_element(x.begin(), x.begin() + x.size() / 2, x.end());
    return x[x.size() / 2];
}

// --report: what the run measured, as the command-line contract's last three lines; before
// them the history's memory (keyframes and inputs) per simulated second.
void printReport(const std::vector<double>& frameMs, const std::vector<double>& stepMs,
                 double simulated, double real, const Session& s, const PanelState& p,
                 const PlotState& plots, const ViewOptions& view, const Ruler& ruler) {
    // The last frame's layout, for the tests: each window over the view (left, top, width,
    // height in pixels), how far the controls scroll, and how tall the graphs' data areas are
    // (time graph, X-Y graph; 0 when not shown).
    for (std::size_t i = 0; i < p.overlays.size(); ++i) {
        const Rect& r = p.overlays[i];
        std::printf("window %s: %.0f %.0f %.0f %.0f\n", p.overlayNames[i].c_str(), r.min.x, r.min.y,
                    r.size().x, r.size().y);
    }
    std::printf("controls_scroll: %.0f\n", p.controlsScroll);
    if (view.showRuler) // its ends (m) and what it reads
        std::printf("ruler: %.6f %.6f %.6f %.6f: %s\n", ruler.a.x, ruler.a.y, ruler.b.x, ruler.b.y,
                    rulerReading(ruler).c_str());
    std::printf("graph_heights: %.0f %.0f\n", plots.timeFrameHeight, plots.xyFrameHeight);
    if (s.historyOn) {
        const double span =
            double(s.history.last() - s.history.first()) * s.world.settings().timeStep;
        std::printf("history: %zu keyframes, %zu bytes over %.2f s\n", s.history.keyframes(),
                    s.history.bytes(), span);
        std::printf("history_bytes_per_s: %.0f\n", span > 0 ? s.history.bytes() / span : 0.0);
    }
    std::printf("frames: %zu\n", frameMs.size());
    std::printf("frame_ms: %.3f\n", median(frameMs));
    std::printf("step_ms: %.3f\n", median(stepMs));
    std::printf("sim_speed: %.4f\n", real > 0 ? simulated / real : 0);
}

} // namespace

int runApp(AppOptions opt) {
    AppState a;
    const bool screenshotRun = !opt.screenshot.empty();
    // A screenshot or a report shows the defaults, not the remembered settings.
    a.configDir = screenshotRun || opt.report ? "" : configDir();
    if (!a.configDir.empty())
        a.iniPath = (std::filesystem::path(a.configDir) / "imgui.ini").string();
    a.prefs = loadPrefs(a.configDir);
    const int width = opt.width > 0 ? opt.width : a.prefs.windowWidth;
    const int height = opt.height > 0 ? opt.height : a.prefs.windowHeight;

    // The physics gets at most two thirds of a 60 Hz frame; a slower scene (the exact method on
    // a pyramid) then runs behind real time, and the window still answers.
    a.session.stepper.budgetSeconds = 0.011;
    a.panels.assetDir = findAssetDir();
    a.panels.presets = listPresets(a.panels.assetDir);
    a.panels.blocksBase = defaultBlocksBase();
    a.session.historyOn = opt.history;
    try {
        for (const Preset& p : a.panels.presets)
            if (p.name == kDefaultPreset) a.panels.blocksBase = carom::loadScene(p.path);
        if (!opt.record.empty())
            a.session.recorder = std::make_shared<carom::RecordingWriter>(opt.record);
        if (opt.replay) { // its inputs move into the session: one copy of a large recording
            openRecording(a.session, std::move(*opt.replay), resolvePath(opt.replayPath));
            opt.replay.reset();
        } else {
            replaceScene(a.session, opt.scene, resolvePath(opt.scenePath));
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 1;
    }
    a.session.stepper.paused = opt.paused;
    a.panels.numObjects = std::clamp(countBlocks(a.session.scene), 1, 6);
    a.plots.time.names = a.prefs.timeVars;
    a.plots.time.window = a.prefs.timeWindow;
    a.plots.xy.xName = a.prefs.xyX;
    a.plots.xy.yName = a.prefs.xyY;

    for (const std::string& r : a.prefs.recentFiles)
        if (!r.empty()) a.panels.recent.push_back(r);
    a.panels.browser.folder = a.prefs.browserFolder;
    // A scene file given on the command line is a recent file too (the presets have their list).
    if (!opt.scenePath.empty() &&
        std::none_of(a.panels.presets.begin(), a.panels.presets.end(),
                     [&](const Preset& p) { return resolvePath(p.path) == a.session.path; }))
        addRecent(a.panels.recent, a.session.path);

    if (!initWindow(a, width, height, opt.width > 0)) return 1;
    initImGui(a);

    const double freq = double(SDL_GetPerformanceFrequency());
    Uint64 last = SDL_GetPerformanceCounter();
    bool quit = false;
    int status = 0;
    std::vector<double> frameMs, stepMs; // --report
    const Uint64 first = last;
    const double simStart = a.session.world.time();
    Worker physicsThread;
    DragScriptRun script;
    if (opt.drag) script.script = *opt.drag;
    for (int n = 1; !quit; ++n) {
        const Uint64 start = SDL_GetPerformanceCounter();
        const double dt = std::min(double(start - last) / freq, 0.25); // a stall is not a jump
        last = start;
        if (opt.drag) feedDragScript(script, a.session, dt);
        if (a.gif)
            moveGifOn(a);
        else if (!a.panels.animation.empty())
            startGif(a);
        buildFrame(a, quit);
        // The physics on a second thread while OpenGL (software rendering, under Xvfb) draws.
        Advance physics;
        physicsThread.start([&] { physics = advance(a.session, dt); });
        renderFrame(a);
        if (a.gif) addGifFrame(a);
        if (screenshotRun && n >= opt.frames) {
            if (!writeScreenshot(a, opt.screenshot)) status = 1;
            quit = true;
        }
        if (!a.panels.screenshot.empty() && a.panels.screenshotFrames-- <= 0) {
            const std::string path = a.panels.screenshot;
            a.panels.screenshot.clear();
            a.panels.fileError = !writeScreenshot(a, path);
            a.panels.fileMessage = a.panels.fileError ? path + ": cannot write the picture"
                                                      : "saved the window as " + path;
        }
        SDL_GL_SwapWindow(a.window);
        physicsThread.wait();
        noteAdvance(a, physics, dt);
        const double physicsMs = physics.ms;
        // Cap at 60 fps where vsync does not (software GL under Xvfb): leave the CPU to others.
        const double used = double(SDL_GetPerformanceCounter() - start) / freq;
        if (opt.report) {
            frameMs.push_back(1000 * used);
            stepMs.push_back(physicsMs);
            if (n >= opt.frames && (!opt.drag || script.done())) quit = true;
        }
        smooth(a.stats.frameMs, 1000 * used);
        if (used < 1.0 / 60) SDL_Delay(Uint32((1.0 / 60 - used) * 1000));
        smooth(a.stats.fps, freq / double(SDL_GetPerformanceCounter() - start));
    }

    if (opt.report)
        printReport(frameMs, stepMs, a.session.world.time() - simStart,
                    double(SDL_GetPerformanceCounter() - first) / freq, a.session, a.panels,
                    a.plots, a.prefs.view, a.input.ruler);
    try {
        finishRecording(a.session);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "error: --record: %s\n", e.what());
        status = 1;
    }
    // A run that failed (its screenshot or its recording not written) leaves no saved state.
    if (!opt.saveOnExit.empty() && status == 0 && !saveOnExit(a, opt.saveOnExit)) status = 1;
    a.prefs.timeVars = a.plots.time.names;
    a.prefs.timeWindow = a.plots.time.window;
    a.prefs.xyX = a.plots.xy.xName;
    a.prefs.xyY = a.plots.xy.yName;
    a.prefs.recentFiles = {};
    std::copy_n(a.panels.recent.begin(),
                std::min(a.panels.recent.size(), a.prefs.recentFiles.size()),
                a.prefs.recentFiles.begin());
    a.prefs.browserFolder = a.panels.browser.folder;
    if (opt.width == 0) SDL_GetWindowSize(a.window, &a.prefs.windowWidth, &a.prefs.windowHeight);
    savePrefs(a.configDir, a.prefs);

    a.drawCache.release();
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplSDL2_Shutdown();
    ImGui::DestroyContext(); // writes imgui.ini
    SDL_GL_DeleteContext(a.gl);
    SDL_DestroyWindow(a.window);
    SDL_Quit();
    return status;
}

} // namespace app
