// What the stages of a step work on: the world's internals, handed over by World::step.
// Internal to the engine; each stage lives in the file named beside it.
#pragma once

#include "carom/world.h"
#include "collision/broad_phase.h"
#include "collision/collide.h"
#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

namespace carom {

class Crew;

// A body's free motion over one step under its forces (before contacts), from the integrator.
struct Motion {
    Vec2 v{0, 0};       // velocity at the end of the step
    double w = 0;       // angular velocity at the end of the step
    Vec2 dx{0, 0};      // displacement over the step
    double dAngle = 0;  // rotation over the step
    Vec2 dv{0, 0};      // velocity change over the step (v minus the velocity at its start)
    double dw = 0;      // angular velocity change over the step
    bool flown = false; // in free flight (flight_impacts.cpp), whose pairs are the flights'
                        // and, when they leave one unsettled, the impulse method's solver's
};

// Whether a correction of the positions changes the velocities too: in the projection method the
// velocities follow the positions (position-based dynamics); in the others positions alone move.
enum class Correction { PositionsOnly, WithVelocities };

struct StepContext {
    const WorldSettings& settings;
    std::vector<Body>& bodies;
    const std::vector<Thruster>& thrusters;
    const std::optional<MouseSpring>& spring;
    std::vector<Manifold>& contacts;
    std::vector<Motion>& motion;
    std::vector<ContactEvent>& events;
    Diagnostics& diagnostics;
    double h; // the step, s
    // The world's joints, and the pairs of bodies they keep from touching (a < b, sorted); none in
    // the contexts a stage makes for a part of its work.
    std::vector<Joint>* joints = nullptr;
    const std::vector<std::pair<BodyId, BodyId>>* apart = nullptr;
    // The threads that share the stages cut among them (parallel/crew.h); none: this one alone.
    Crew* crew = nullptr;
};

// Whether bodies a and b may touch: not when a joint joins them without "collide".
inline bool mayTouch(const StepContext& c, BodyId a, BodyId b) {
    if (!c.apart || c.apart->empty()) return true;
    const auto pair = a < b ? std::pair{a, b} : std::pair{b, a};
    return !std::binary_search(c.apart->begin(), c.apart->end(), pair);
}

// Every body's pose and velocity, to go back to (the exact method, the continuous check).
struct Pose {
    Transform xf;
    double angle;
    Vec2 v;
    double w;
};
inline std::vector<Pose> save(const std::vector<Body>& bodies) {
    std::vector<Pose> s;
    s.reserve(bodies.size());
    for (const Body& b : bodies)
        s.push_back(Pose{b.xf(), b.angle(), b.v, b.w});
    return s;
}
inline void restore(std::vector<Body>& bodies, const std::vector<Pose>& s) {
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        bodies[i].setPose(s[i].xf.p, s[i].angle);
        bodies[i].v = s[i].v;
        bodies[i].w = s[i].w;
    }
}

// diagnostics.cpp: Σ ½ m |v|² + ½ I ω² over the dynamic bodies.
double kineticEnergy(const std::vector<Body>& bodies);

// forces.cpp: gravity, damping, thrusters and the mouse spring into each body's force and torque.
void accumulateForces(const StepContext& c);

// integrate.cpp: free motion under the forces (semi-implicit Euler or RK4) into c.motion,
// velocities set to the free ones; then the positions, moved by the free displacement plus whatever
// the contact solver changed in the velocities.
void integrateVelocities(StepContext& c);
void integratePositions(StepContext& c);
// One body's part of integratePositions: its free displacement plus h times what the contacts
// changed in its velocity.
void moveFreely(StepContext& c, BodyId i);
// The exact method's free flight: in closed form for the bodies under gravity and linear damping
// alone (uniformly accelerated motion, exponentially damped), which any integrator only
// approximates; with the chosen integrator for the others (under the spring or a thruster).
void integrateFreeFlight(StepContext& c);

// contacts.cpp: broad phase + narrow phase; manifolds kept from the last step carry their
// impulses over (warm starting). With `found` (the default method's: where the last step found its
// manifolds, sorted by pair), a pair whose bodies have barely moved relative to each other since
// keeps its manifold, carried by the bodies, without a narrow phase (recycling), and `found` is
// brought up to date. After the step, begin/end events from the pairs touching before and after
// it (both lists sorted by pair).
void updateContacts(StepContext& c, std::vector<FoundAt>* found = nullptr);
// How much nearer two bodies' surfaces may come in a time h, moving at velocities (vA, wA) and
// (vB, wB): the narrow phase of updateContacts reports a pair's points within this plus two slops.
double closingReach(const Body& A, Vec2 vA, double wA, const Body& B, Vec2 vB, double wB, double h);
// The same with the manifolds given (found at the current poses, sorted by pair).
void setContacts(StepContext& c, std::vector<Manifold> next);
// The manifolds of the pairs closer than the sum of their bodies' margins, from the current
// poses, without impulses (updateContacts carries the last step's over); recycled with `found`.
std::vector<Manifold> findManifolds(const StepContext& c, const std::vector<double>& margins,
                                    std::vector<FoundAt>* found = nullptr);
// Whether the narrow phase, with B at f's pose relative to A, finds f's points again (to
// round-off).
bool foundAgain(const FoundAt& f, const Body& A, const Body& B);
// The manifold of the pair of shapes `key` of bodies A and B from their contacts: friction and
// restitution mixed from the two bodies' and the settings'.
Manifold manifoldOf(const WorldSettings& s, const ShapePairKey& key, const Body& A, const Body& B,
                    const ShapeManifold& sm);
void queueContactEvents(const std::vector<Manifold>& contacts,
                        const std::vector<Manifold>& previous, double slop,
                        std::vector<ContactEvent>& events);

// flight_impacts.cpp: the flights of bodies under gravity alone and in contact with nothing the
// solver moves, in closed form, and their impacts struck at their times, pair by pair. Fills
// `settled` with the manifolds of the pairs settled there, taken out of c.contacts until
// returnSettledContacts puts them back (in the order of c.contacts: by pair).
void strikeImpactsInFlight(StepContext& c, std::vector<Manifold>& settled);
void returnSettledContacts(StepContext& c, const std::vector<Manifold>& settled);

// misses.cpp: the contacts wider apart than a few linear slops whose bodies' motion in the step
// never brings them together, moved from c.contacts into `settled` (kept in the order of pairs),
// so that no solver stops a body at a corner it only passes.
void setAsidePairsThatMiss(StepContext& c, std::vector<Manifold>& settled);

// sequential_impulses.cpp: sequential impulses with friction and restitution (Catto; Hecker's Eq.
// 9).
void solveImpulses(StepContext& c);

// A body's velocity and turning.
struct BodyVelocity {
    Vec2 v;
    double w;
};

// sequential_impulses.cpp: the exact method's holds over an interval c.h (its advance: restitution
// 0, each body moved by its free displacement plus ½ c.h of the solver's velocity change), solved
// until they do no work over it beyond round-off (resting contacts do none, friction only takes):
// passes past the velocity iterations, up to kHoldWork point updates (then counted in
// Diagnostics::holdSolvesCut). `atStart`: the bodies' velocities when the interval began.
void solveHolds(StepContext& c, const std::vector<BodyVelocity>& atStart);

// substep_solver.cpp: the default method's contacts and positions in one: sequential impulses on
// spring-damped contacts over substeps; the positions moved, the forces cleared.
void stepSubsteps(StepContext& c);

// projection.cpp: move bodies apart along the normals, shared by inverse mass.
// `found`: the bodies' poses when the contacts were found (before the positions moved).
void projectContacts(StepContext& c, int iterations, Correction correction,
                     const std::vector<Pose>& found);
// The overlap the step starts with deeper than twice the slop, parted by the positions alone
// (projectContacts, positions only) before the default method's solver, which would otherwise
// push it out with a velocity no one paid for; the contacts' depths then as the bodies are.
void partOverlapsByPositions(StepContext& c, const std::vector<Pose>& found);

// penalty.cpp: spring-damper contact forces, applied as impulses over the step.
void applyPenaltyForces(StepContext& c);

// exact.cpp: the step with each collision found at its time of contact; a step that will not
// finish so is finished as the default method steps, with its flights where `flights`, and so are
// the steps `backoff` says to wait after it. `foundAt`: where the step found the contacts it
// leaves in the world, each body's x, y and angle, or empty (see World::exactContactsAt_).
void stepExact(StepContext& c, bool flights, ExactBackoff& backoff, std::vector<double>& foundAt);

// softbody/soft_step.cpp: the soft bodies' step, after the rigid stages: their forces (springs,
// gravity, damping, the mouse spring on a particle) by velocity Verlet over substeps chosen from
// the stiffest spring, and in each substep their collisions, vertex against edge (with each other,
// with themselves and with the rigid bodies, which move from `start` to their poses now), and
// their positions.
void stepSoftBodies(StepContext& c, std::vector<SoftBody>& soft, const std::vector<Pose>& start);

// joints/joints_over_the_step.cpp: the impulse, projection and penalty methods' joints, solved
// over the step with position feedback before the positions move, then relaxed after them (from
// the poses at `start`).
void solveJoints(StepContext& c);
void relaxJoints(StepContext& c, const std::vector<Pose>& start);

// continuous.cpp: a body that moved far in the step is put back where it would have entered a
// static body it was not stopped at (its velocity following, with Correction::WithVelocities).
void stopAtStaticBodies(StepContext& c, const std::vector<Pose>& start, Correction correction);
// continuous.cpp: a body in contact with a static one and deeper in it than half its inner
// radius is pushed back out along the contact normal (its velocity following, as above).
void keepOutOfStaticBodies(StepContext& c, Correction correction);
// continuous.cpp: a body moved by dp by the positions alone pays for the potential energy it
// gained, −m g · dp, from its kinetic energy (to rest at most): such a move makes no energy.
void payForTheRise(Body& b, Vec2 dp, Vec2 gravity);

} // namespace carom
