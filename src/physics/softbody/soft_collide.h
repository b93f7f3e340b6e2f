// Soft bodies' collisions, vertex against edge over the step (CS5643, "Collision response").
// Internal to the engine; the stage itself is declared in step_context.h.
#pragma once

#include "carom/math.h"

namespace carom {

// The roots of a2 τ² + a1 τ + a0 in [0, T], ascending, into out; returns how many (0, 1 or 2).
// Written to lose no digits when a2 or a1 is small (the stable form of the quadratic formula).
int quadraticRootsIn(double a2, double a1, double a0, double T, double out[2]);

} // namespace carom
