// The CSV of `carom-cli run --csv` and of the app's Export (docs/cli.md): the columns t,
// ke_linear, ke_angular, pe, energy, px, py, angular_momentum, then NAME.x, NAME.y, NAME.angle,
// NAME.vx, NAME.vy, NAME.omega for each non-static body in scene order (a soft body's centre and
// particles in its place), then the joints'; numbers with 17 significant digits.
#pragma once

#include "carom/world.h"
#include <string>

namespace carom {

// The header line and a row (each ending in a line break), for the world's bodies and joints.
std::string csvHeader(const World& world);
std::string csvRow(const World& world, double t, const Diagnostics& d);

} // namespace carom
