// The bodies build mode draws: a press at `from` and a release at `to` (world points) make a box
// (corner to corner), a circle (centre to rim), a regular polygon (centre to a vertex) or a
// capsule (end to end). Plain geometry, without SDL or ImGui (tests/edits_test.cpp).
#pragma once

#include "carom/world.h"

#include <optional>

namespace app {

enum class DrawTool { Box, Circle, Polygon, Capsule };

// The smallest drag that draws, m: a shorter one is a click.
constexpr double kSmallestDrawn = 0.05;
// Build mode's grid, m.
constexpr double kGrid = 0.25;

// The body the drag draws (named `name`, dynamic, density 1), or none when it is too small.
// sides: the polygon's, 3 to 12.
std::optional<carom::BodyDef> drawnBody(DrawTool tool, carom::Vec2 from, carom::Vec2 to, int sides,
                                        const std::string& name);
// The point on the grid nearest to p.
carom::Vec2 onGrid(carom::Vec2 p);

} // namespace app
