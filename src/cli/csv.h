// The CSV of `carom-cli run --csv` (docs/cli.md): the columns t, ke_linear, ke_angular,
// pe, energy, px, py, angular_momentum, then NAME.x, NAME.y, NAME.angle, NAME.vx, NAME.vy,
// NAME.omega for each non-static body in scene order; numbers with 17 significant digits.
#pragma once

#include "carom/world.h"
#include <cstdio>

namespace cli {

void writeCsvHeader(std::FILE* out, const carom::World& world);
void writeCsvRow(std::FILE* out, const carom::World& world, double t, const carom::Diagnostics& d);

} // namespace cli
