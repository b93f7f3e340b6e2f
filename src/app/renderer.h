// Draws the world with ImGui's background draw list: walls, bodies, trails, contacts and normals,
// forces as arrows, thruster flames, the mouse spring, and the overlays (energy bar, clock).
#pragma once

#include "camera.h"
#include "energy_bar.h"
#include "session.h"
#include "view_options.h"
#include <cstdint>
#include <vector>

namespace app {

struct Trails {
    std::uint64_t generation = ~std::uint64_t(0);
    std::uint64_t jumps = 0;                      // Session::jumps when the trails began
    std::vector<std::vector<carom::Vec2>> points; // per body, a ring of recent centres
    std::size_t head = 0, count = 0;              // ring position, shared by all bodies
    double lastTime = -1;
    std::vector<ImVec2> scratch; // screen points, reused: an idle frame allocates nothing
};

struct RenderState {
    Trails trails;
    EnergyBar energyBar;
    std::vector<carom::Transform> poses; // the bodies' poses as drawn (Stepper::drawPoses)
};

struct DrawInputs {
    const Session& session;
    const Camera& camera;
    const ViewOptions& view;
    Rect simView; // the part of the window not under the side panels
};

void drawScene(RenderState& rs, const DrawInputs& in, ImDrawList* dl);
ImU32 backgroundColor(bool light);

} // namespace app
