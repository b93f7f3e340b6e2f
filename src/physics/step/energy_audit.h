// The energy audit: one rule for energy, checked around every step whatever the method.
//
// A step may not end with more energy than it began with plus the work done on the world from
// outside. The energy is E = Σ ½ m |v|² + ½ I ω² − m g·p (soft bodies' particles and springs
// too: measure, diagnostics.cpp); gravity is in it as potential energy, and damping only takes
// energy away, so for a step under gravity and damping alone the allowance is exactly E at the
// step's start. What a step ends with beyond that, past round-off, is energy made: a fault of the
// method, reported in the diagnostics (energyMade, totalEnergyMade) and by `carom-cli run`.
//
// Steps in which the user's thrusters or mouse spring act, or a kinematic body moves, do work on
// the world that the audit does not measure: they are counted as not audited
// (stepsNotAudited) rather than judged.
#pragma once

#include "carom/world.h"

namespace carom {

struct EnergyAudit {
    bool applies = false; // false: outside work in the step (see above)
    double energy = 0;    // at the step's start, J
    double scale = 0;     // the sum of the energy's terms' sizes, for the round-off allowance
};

// The audit of the step `world` is about to take (its settings, bodies and inputs now).
EnergyAudit auditStart(const World& world);

// The energy the step made, J: what `end` (the world measured after the step) has beyond the
// start's, past round-off; 0 when it made none.
double energyMade(const EnergyAudit& start, const World& world, const Diagnostics& end);

} // namespace carom
