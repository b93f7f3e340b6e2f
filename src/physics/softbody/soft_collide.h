// Soft bodies' collisions, vertex against edge over a substep (CS5643, "Collision response").
// Internal to the engine; the stage itself (soft_step.cpp) is declared in step_context.h.
#pragma once

#include "carom/math.h"
#include "step/step_context.h"

namespace carom {

// The roots of a2 τ² + a1 τ + a0 in [0, T], ascending, into out; returns how many (0, 1 or 2).
// Written to lose no digits when a2 or a1 is small (the stable form of the quadratic formula).
int quadraticRootsIn(double a2, double a1, double a0, double T, double out[2]);

struct SoftCollisionCounts {
    int impacts = 0, contacts = 0;
};

// The soft bodies' collisions over one substep hs, vertex against edge, and their positions
// moved to its end: each particle from x along its velocity v (the substep's drift), the rigid
// bodies from their poses `from` towards their poses now (those of the step's end, untilEnd
// away) in a line. `forced`: each particle's velocity change by the forces since the last drift
// (the bodies' particles one after another), which tells an impact from a resting contact.
// Rigid bodies struck keep the change to their velocity and to their pose at the step's end;
// `from` becomes their poses at the substep's end.
void collideSoftSubstep(StepContext& c, std::vector<SoftBody>& soft, std::vector<Pose>& from,
                        double hs, double untilEnd, const std::vector<Vec2>& forced,
                        SoftCollisionCounts& counts);

} // namespace carom
