// Impacts at one instant of the exact method: every contact touching at the time of contact,
// resolved with Hecker's Eq. 9 one after another (serial), all together (simultaneous), or each
// with its neighbours (hybrid).
// Internal to the engine.
#pragma once

#include "carom/world.h"
#include <vector>

namespace carom {

// `touching`: the manifolds whose points are within the distance tolerance at this instant, anchors
// measured from the current poses. Bodies' force and torque must hold the forces of this instant:
// a point approaching slower than those forces push it in one step of length h is a resting
// contact: stopped without bounce (restitution 0) and not counted. Changes the bodies'
// velocities; returns the impacts struck, and whether a serial chain had to be stopped.
struct Impacts {
    int struck = 0;           // the points struck with an impact, each once
    bool chainStopped = false; // a serial chain did not settle: stopped together, without bounce
};
Impacts resolveImpacts(std::vector<Body>& bodies, std::vector<Manifold>& touching,
                       CollisionHandling handling, double h);

} // namespace carom
