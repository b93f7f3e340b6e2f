// The ImGui panels: controls (playback, scene, physics parameters, view), graphs, the body
// inspector, statistics and help. Their state lives in PanelState; the values they change live
// in the session's world, its stepper and the view options.
#pragma once

#include "camera.h"
#include "collision_readout.h"
#include "file_browser.h"
#include "input.h"
#include "plots.h"
#include "scenes.h"
#include "session.h"
#include "stopwatch.h"
#include "view_options.h"
#include <algorithm>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace app {

struct Stats {
    double frameMs = 0;   // whole frame, smoothed
    double stepMs = 0;    // time in the stepper per frame, smoothed
    double msPerStep = 0; // per world step, smoothed
    int stepsLastFrame = 0;
    double fps = 0;
    CollisionReadout collisions;
};

// Where the side panels go. Controls on the left and graphs on the right, each at most a little
// over a quarter of the window so that the simulation keeps at least half of it; when the two
// would take more than half (a window narrower than about 1100 px), they collapse into one panel
// on the left with a tab for each.
struct PanelLayout {
    float left = 0, right = 0; // widths, 0 for none
    bool tabbed = false;       // the left panel holds both, as tabs
};

// Where a floating window (an inspector) was put so that it hides no body (placement.h): chosen
// when it opens, once its size is known, and kept while it stays open (unless the user drags it).
// It grows away from the side of the view it is nearest to, so that an edit that adds a line does
// not move it.
struct WindowPlace {
    int framesShown = 0;  // since it opened: its place is chosen again over the first few,
                          // until ImGui has measured its content
    ImVec2 anchor{0, 0};  // the point of the window held fixed, in pixels
    ImVec2 pivot{0, 0};   // which point of it that is: (0, 0) its top left, (1, 1) bottom right
    ImVec2 size{0, 0};    // its size last frame
    int frame = -10;      // ImGui's frame count when it was last shown
    bool resized = false; // its size changed last frame: it is put back at its anchor
    bool moved = false;   // the user dragged it: it stays where they left it
};

// The profile window's mean of the steps' profiles (profile_window.cpp).
struct ProfileMean {
    carom::StepProfile profile;
    std::uint64_t step = 0; // the world's step it last took in
    bool seen = false;
};

struct PanelState {
    std::string assetDir;
    std::vector<Preset> presets;
    carom::Scene blocksBase; // rigid-body-collisions as shipped: the base of "number of objects"
    int numObjects = 3;
    std::string openPath, savePath;
    std::string fileMessage; // last open/save result
    bool fileError = false;
    std::string paramError;                         // a refused parameter
    std::string inspectorError;                     // a refused inspector value
    std::optional<carom::BodyId> inspectorBody;     // the body the inspector showed last frame
    WindowPlace inspectorPlace, softInspectorPlace; // where the inspectors were put
    std::vector<Rect> overlays;            // the windows over the simulation view in the last frame
    std::vector<std::string> overlayNames; // their names, for --report's layout lines
    float controlsScroll = 0;              // how far the controls could scroll, pixels
    std::vector<std::string> recent; // recent scene files, newest first (remembered in the prefs)
    std::string droppedPath;         // a file dropped on the window, opened by the next drawPanels
    std::string screenshot;          // a picture of the window asked for (exportFile), or empty
    int screenshotFrames = 0;        // frames to draw before it: the dialog gone from the window
    std::string animation;           // an animated GIF of the timeline asked for (exportFile)
    ProfileMean profile;
    Stopwatch stopwatch;
    std::uint64_t stopwatchGeneration = 0; // the world it timed (a new one: it starts again)
    FileBrowser browser;
    bool lightStyle = false; // the ImGui colours in use are the light ones
    PanelLayout drawn;       // the side panels of the last frame, whose backgrounds renderFrame
                             // clears (they have none of ImGui's)
    // The side panels' draw lists in the last frame, where each is a window of its own (not
    // tabbed): renderFrame copies a panel from its drawing in a texture while it stays the same
    // (draw_cache.h). Null where there is none.
    const ImDrawList* controlsList = nullptr;
    const ImDrawList* graphsList = nullptr;
};

// Whether the stats window sits at the top of the view (it no longer does: it keeps to the bottom
// right, beside or above the clock); the inspector takes the other end of the left side.
bool statsOnTop(const Rect& view);

// How far below the top of the simulation view the windows placed there start: under the energy
// bar when it is shown.
float belowEnergyBar(const ViewOptions& view);

// Notes the current window (between ImGui::Begin and End) as one over the simulation view, whose
// clicks and wheel are not the view's; `name` is what --report calls it.
void noteOverlay(PanelState& panels, const char* name);

struct UiContext {
    Session& session;
    ViewOptions& view;
    PanelState& panels;
    PlotState& plots;
    Commands& commands;
    const Stats& stats;
    const Camera* camera = nullptr; // the view's: the inspector keeps clear of its body
    BuildState* build = nullptr;    // build mode: its window while on, the Build button
};

PanelLayout panelLayout(const ViewOptions& view, ImVec2 display);

// The part of the window that shows the simulation (not covered by the side panels).
Rect simViewRect(const ViewOptions& view, ImVec2 display);
// The part of the view the camera fits the scene into (Home, Fit): the view without the energy
// bar's strip at the top and the clock's line at the bottom.
Rect fitViewRect(const ViewOptions& view, ImVec2 display);
void drawPanels(UiContext& ui);

// Text wrapped at spaces and after a '/' only (ImGui's own wrapping also breaks after '.', which
// splits "-1.000000"), in `color` (or disabled text when alpha is 0).
void wrappedText(const std::string& text, ImVec4 color = {0, 0, 0, 0});

// Runs a file action (open, save, copy, paste, export) and reports it in the Scene section: the
// message it returns, or on failure the exception's. Returns whether it succeeded.
bool reportFileAction(UiContext& ui, const std::function<std::string()>& action);
// Loads a scene file into the session; on failure keeps the old scene and reports the error.
// The path is resolved against the current directory first, and the message says it whole; a
// file opened or saved goes to the front of the recent files (the presets do not).
bool openSceneFile(UiContext& ui, const std::string& path);
// Saves the world as a scene file; reports the result like openSceneFile.
bool saveSceneFile(UiContext& ui, const std::string& path);
// The scene as text to the system's clipboard, and the clipboard's text opened as a scene
// (Ctrl+Shift+C / Ctrl+Shift+V, the Copy and Paste buttons); reported like openSceneFile.
bool copySceneToClipboard(UiContext& ui);
bool pasteSceneFromClipboard(UiContext& ui);
// The run from the history's first step to the moment shown as a CSV file with carom-cli run's
// columns (export_file.cpp); reported like openSceneFile.
bool exportCsvFile(UiContext& ui, const std::string& path);
// Export... (Ctrl+E, F12): a path ending in .png asks for a picture of the window, written after
// the next frame is drawn without the dialog (PanelState::screenshot; the app writes it and
// reports it); one ending in .gif an animation of the view over the same span as the CSV
// (PanelState::animation: the app draws it frame by frame); one ending in .rec the same span as a
// recording (docs/recording-format.md); any other, the CSV above.
bool exportFile(UiContext& ui, const std::string& path);
void fileBrowserWindow(UiContext& ui, const Rect& simView);   // file_browser.cpp
void profileWindow(UiContext& ui, const Rect& simView);       // profile_window.cpp
void stopwatchWindow(UiContext& ui, const Rect& simView);     // stopwatch_window.cpp
void inspectorWindow(UiContext& ui, const Rect& simView);     // inspector.cpp
void softInspectorWindow(UiContext& ui, const Rect& simView); // inspector.cpp: a soft body's

} // namespace app
