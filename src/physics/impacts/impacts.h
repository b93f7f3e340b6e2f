// Impacts at one instant of the exact method: every contact touching at the time of contact,
// resolved with Hecker's Eq. 9 one after another (serial), all together (simultaneous), or each
// with its neighbours (hybrid).
// Internal to the engine.
#pragma once

#include "carom/world.h"
#include "solver/contact_math.h"
#include "tuning.h"
#include <vector>

namespace carom {

// The approach the forces produce at a point of A and B (normal n, from A to B) over a step of h:
// their relative acceleration along n, times h (at least 0). A body in contact with another too
// may be held by it while this point closes (in a pile, each body rests on the next), so where A
// is `held`, B's own acceleration towards A counts, and the other way round: a box settling onto
// another box that rests on the floor closes at what gravity gives it, not at zero. An approach
// slower than this is a resting contact.
struct Held {
    bool a, b;
};
double restingApproach(const Body& A, const Body& B, const Anchors& r, Vec2 n, double h, Held held);
// Whether a point a gap g ≥ 0 apart, at normal velocity vn (< 0 approaching), meets as a resting
// contact: no faster than `resting` (above), so that resolveImpacts would stop it without bounce.
// With the forces closing it at a = resting / h it meets at √(vn² + 2 a g) (uniformly accelerated
// motion; a separating point comes back at that speed); without, at its approach now, and one
// that does not approach never meets.
bool meetsAtRest(double resting, double vn, double gap, double h);
// How many of the manifolds each of the bodies is in.
std::vector<int> manifoldsPerBody(std::size_t bodies, const std::vector<Manifold>& manifolds);

// `touching`: the manifolds whose points are within the distance tolerance at this instant, anchors
// measured from the current poses. Bodies' force and torque must hold the forces of this instant:
// a point approaching slower than those forces push it in one step of length h (restingApproach,
// a body with another touching contact counting as held) is a resting contact: stopped without
// bounce (restitution 0) and not counted. Changes the bodies' velocities; returns the impacts
// struck, and whether a serial chain had to be stopped.
struct Impacts {
    int struck = 0;            // the points struck with an impact, each once
    bool chainStopped = false; // a serial chain did not settle: stopped together, without bounce
    int bounceMadePoisson = 0; // GuardCounts' two for impacts: Newton's bounce made energy
    int bounceCut = 0;         // and so did Poisson's
};
Impacts resolveImpacts(std::vector<Body>& bodies, std::vector<Manifold>& touching,
                       CollisionHandling handling, double h);

} // namespace carom
