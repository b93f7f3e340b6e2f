// World (metres, y up) <-> screen (pixels, y down): a scale and the screen point of the origin.
#pragma once

#include "carom/world.h"
#include <imgui.h>

namespace app {

struct Rect {
    ImVec2 min, max;
    ImVec2 size() const { return {max.x - min.x, max.y - min.y}; }
    ImVec2 center() const { return {(min.x + max.x) / 2, (min.y + max.y) / 2}; }
    bool contains(ImVec2 p) const {
        return p.x >= min.x && p.x < max.x && p.y >= min.y && p.y < max.y;
    }
};

struct Camera {
    double scale = 40;       // pixels per metre
    ImVec2 origin{640, 400}; // where the world origin is drawn

    ImVec2 toScreen(carom::Vec2 w) const {
        return {float(origin.x + w.x * scale), float(origin.y - w.y * scale)};
    }
    carom::Vec2 toWorld(ImVec2 s) const {
        return {(s.x - origin.x) / scale, (origin.y - s.y) / scale};
    }
    void pan(ImVec2 deltaPixels);
    // Zooms by `factor` keeping the world point under `screenPoint` where it is.
    void zoomAbout(ImVec2 screenPoint, double factor);
    // Shows the world box [lo, hi] centred in `view` with a small margin.
    void fit(carom::Vec2 lo, carom::Vec2 hi, const Rect& view);
};

// The box around the walls (outer faces included), the moving bodies, and the static bodies as
// far as they lie near the moving ones.
void sceneBounds(const carom::World& world, carom::Vec2& lo, carom::Vec2& hi);

} // namespace app
