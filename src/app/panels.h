// The ImGui panels: controls (playback, scene, physics parameters, view), graphs, the body
// inspector, statistics and help. Their state lives in PanelState; the values they change live
// in the session's world, its stepper and the view options.
#pragma once

#include "camera.h"
#include "input.h"
#include "plots.h"
#include "scenes.h"
#include "session.h"
#include "view_options.h"
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace app {

// The collisions of the last frame that had any, from the world's running totals (a frame may
// take several steps).
struct CollisionReadout {
    std::uint64_t generation = 0; // the session's: a rebuilt world counts from zero again
    std::uint64_t total = 0;      // world.diagnostics().totalCollisions when last seen
    double totalEnergy = 0;       // world.diagnostics().totalCollisionEnergy when last seen
    int lastCount = 0;            // collisions in the last frame that had any
    double lastEnergy = 0;        // the kinetic energy they changed, J
    double lastTime = 0;          // simulated time at the end of that frame, s
};

struct Stats {
    double frameMs = 0;   // whole frame, smoothed
    double stepMs = 0;    // time in the stepper per frame, smoothed
    double msPerStep = 0; // per world step, smoothed
    int stepsLastFrame = 0;
    double fps = 0;
    CollisionReadout collisions;
};

// Takes the collisions of the steps since the last call into the readout.
void noteCollisions(CollisionReadout& r, const Session& s);

struct PanelState {
    std::string assetDir;
    std::vector<Preset> presets;
    carom::Scene blocksBase; // rigid-body-collisions as shipped: the base of "number of objects"
    int numObjects = 3;
    std::string openPath, savePath;
    std::string fileMessage; // last open/save result
    bool fileError = false;
    std::string paramError;     // a refused parameter
    std::string inspectorError; // a refused inspector value
    std::optional<carom::BodyId> inspectorBody; // the body the inspector showed last frame
    Rect inspectorRect{{0, 0}, {0, 0}};         // where it was then
    int inspectorFrame = -10;                   // ImGui's frame count when it was last shown
    std::vector<Rect> overlays; // the windows over the simulation view in the last frame
};

// The stats window sits bottom right in the view, or top right when the view is too narrow for
// it beside the clock; the inspector takes the other end of the left side.
bool statsOnTop(const Rect& view);

// How far below the top of the simulation view the windows placed there start: under the energy
// bar when it is shown.
float belowEnergyBar(const ViewOptions& view);

// Notes the current window (between ImGui::Begin and End) as one over the simulation view, whose
// clicks and wheel are not the view's.
void noteOverlay(PanelState& panels);

struct UiContext {
    Session& session;
    ViewOptions& view;
    PanelState& panels;
    PlotState& plots;
    Commands& commands;
    const Stats& stats;
    const Camera* camera = nullptr; // the view's: the inspector keeps clear of its body
};

// The side panels' widths: a quarter and a third of the window, within bounds that keep their
// labels and graphs readable, so that a small window still leaves room for the simulation.
inline float leftPanelWidth(ImVec2 display) {
    return std::clamp(0.25f * display.x, 260.0f, 310.0f);
}
inline float rightPanelWidth(ImVec2 display) {
    return std::clamp(0.33f * display.x, 300.0f, 420.0f);
}

// The part of the window that shows the simulation (not covered by the side panels).
Rect simViewRect(const ViewOptions& view, ImVec2 display);
void drawPanels(UiContext& ui);

// Loads a scene file into the session; on failure keeps the old scene and reports the error.
bool openSceneFile(UiContext& ui, const std::string& path);
void inspectorWindow(UiContext& ui, const Rect& simView); // inspector.cpp

} // namespace app
