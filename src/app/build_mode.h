// Build mode (B, or the Build button): the simulation paused while the user draws bodies with the
// mouse (box, circle, polygon, capsule), joins two with a rope, selects, moves and turns, pins,
// copies and deletes them, on a grid or not. Every change goes through edits.h (undo, redo, the
// recording); this file holds the tools, their keys and mouse, the preview and the Build window.
#pragma once

#include "camera.h"
#include "drawn_shape.h"
#include "session.h"
#include <SDL.h>
#include <imgui.h>
#include <optional>
#include <string>

namespace app {

struct PanelState; // panels.h

enum class Tool { Select, Box, Circle, Polygon, Capsule, Rope };

struct BuildState {
    bool on = false;
    Tool tool = Tool::Select;
    bool snap = true; // drawn points and moved bodies' centres on the grid (kGrid)
    int sides = 5;    // the polygon tool's
    std::optional<carom::BodyDef> clipboard; // Ctrl+C's body
    // A shape or a rope being drawn: the press's world point (on the grid when snapping), the
    // cursor's, and for a rope the body pressed on.
    bool drawing = false;
    carom::Vec2 from{0, 0}, to{0, 0};
    std::optional<carom::BodyId> ropeFrom;
    std::string note; // why the last edit was refused, shown in the Build window
};

// Enters build mode (pausing the simulation) or leaves it.
void toggleBuild(BuildState& b, Session& s);
// The drawing tools' presses, moves and releases (the select tool's are input.cpp's drags).
// Returns whether the event was the tool's.
bool buildPress(BuildState& b, Session& s, carom::Vec2 p, double pixelMetres);
void buildMotion(BuildState& b, carom::Vec2 p);
void buildRelease(BuildState& b, Session& s, carom::Vec2 p, double pixelMetres);
// Build mode's keys (docs in README's controls); cursor: the mouse's world point, where a pasted
// body goes. Returns whether the key was build mode's.
bool buildKey(BuildState& b, Session& s, const SDL_KeyboardEvent& e, carom::Vec2 cursor);
// The grid, the selection and the shape or rope being drawn, over the scene.
void drawBuildOverlay(const BuildState& b, const Session& s, const Camera& cam, const Rect& view,
                      ImDrawList* dl);
// The Build bar: the tools, the grid, pin, copy, delete, undo and redo as buttons, `top` pixels
// below the view's top (under the energy bar).
void buildWindow(BuildState& b, Session& s, const Rect& view, float top, PanelState& panels);

} // namespace app
