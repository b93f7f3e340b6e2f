// Impacts in free flight, struck at their times of impact (the sequential-impulse methods).
//
// The contact solver takes a step's impacts at the contacts found at its start: with the normals
// of then, stopping a pair at the gap between them. Fast bodies that only pass close by are
// stopped as if they met, a body struck in the step meets the next one with a stale normal, and an
// elastic scene loses energy at every such step. But a body under no force at all, touching
// nothing at rest, moves uniformly until it strikes something, so its impacts can be found at
// their true times, as the exact method finds them, pair by pair, and struck with Hecker's Eq. 9:
//
//   the bodies in free flight: dynamic, no force on them (no gravity, damping, spring or
//     thruster: nothing presses them on anything, so nothing rests), not sunk into another body
//     deeper than the slop, and touching no body that the solver moves
//   each keeps a clock: its pose at its own time t within the step, moving uniformly after t
//   the pairs of the step's manifolds between two such bodies, or one and a static body: the time
//     each first touches (touchTime: conservative advancement)
//   repeat: the earliest; both bodies brought to it and struck (resolveImpacts, impacts.cpp, with
//     no force: every approach bounces); the pairs of those two predicted again from it
//   each body struck ends the step where its uniform motion since its last strike puts it
//   the manifolds of the pairs settled here (struck, or found not to touch in the step) leave the
//     step's contacts, so that the solver and the projection do not act on them again
//
// Scenes with gravity or damping have no body in free flight, and the step is as before.
#include "collide.h"
#include "contact_math.h"
#include "impacts.h"
#include "step_context.h"
#include "time_of_impact.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace carom {
namespace {

// Conservative advances per prediction; a pair not settled by then is left to the solver.
constexpr int kMaxAdvances = 64;
// Strikes of one pair in a step (a body between two others strikes each a few times); past that
// the rest of the pair's step is left to the solver.
constexpr int kStrikesPerPair = 10;
constexpr double kApproaching = 1e-10; // m/s: slower approaches are round-off, not impacts

// A body's motion in the step: at time t it is at (p, angle), and it moves uniformly after.
struct Clock {
    Vec2 p;
    double angle;
    double t;
};

Transform poseAt(const Body& b, const Clock& k, double t) {
    return Transform{k.p + (t - k.t) * b.v, Rot(k.angle + (t - k.t) * b.w)};
}

bool underNoForce(const StepContext& c, BodyId id) {
    if (c.spring && c.spring->body == id) return false;
    for (const Thruster& t : c.thrusters)
        if (t.body == id && t.firing) return false;
    return true;
}

double normalVelocity(const Body& A, const Body& B, Vec2 pA, Vec2 pB, Vec2 point, Vec2 n) {
    return glm::dot(relativeVelocity(A, B, point - pA, point - pB), n);
}

// Which bodies are in free flight (see the top). None in a world with gravity or damping.
std::vector<char> inFreeFlight(const StepContext& c) {
    const WorldSettings& s = c.settings;
    std::vector<char> free(c.bodies.size(), 0);
    if (s.gravity != Vec2{0, 0} || s.damping != 0 || s.angularDamping != 0) return free;
    for (std::size_t i = 0; i < c.bodies.size(); ++i)
        free[i] = c.bodies[i].isDynamic() && underNoForce(c, i);
    auto touching = [&](const Manifold& m) {
        for (int i = 0; i < m.count; ++i)
            if (m.points[i].depth > -s.linearSlop) return true;
        return false;
    };
    // Sunk into another body: the projection's to part them.
    for (const Manifold& m : c.contacts)
        for (int i = 0; i < m.count; ++i)
            if (m.points[i].depth > s.linearSlop) free[m.a] = free[m.b] = 0;
    // Touching a body the solver will move (pushed by the spring, say): the solver's too, and so,
    // in turn, whatever touches it.
    for (bool changed = true; changed;) {
        changed = false;
        for (const Manifold& m : c.contacts) {
            if (!touching(m)) continue;
            const bool heldA = !free[m.a] && c.bodies[m.a].type != BodyType::Static;
            const bool heldB = !free[m.b] && c.bodies[m.b].type != BodyType::Static;
            if (heldA && free[m.b]) free[m.b] = 0, changed = true;
            if (heldB && free[m.a]) free[m.a] = 0, changed = true;
        }
    }
    return free;
}

enum class Outcome { Touches, Never, Unsure };
struct Prediction {
    Outcome outcome;
    double t = 0;
};

double deepest(const ShapeManifold& s) {
    double d = -INFINITY;
    for (int i = 0; i < s.count; ++i)
        d = std::max(d, s.points[i].depth);
    return d;
}

bool approaches(const Body& A, const Transform& xa, const Body& B, const Transform& xb,
                const ShapeManifold& s) {
    for (int i = 0; i < s.count; ++i)
        if (normalVelocity(A, B, xa.p, xb.p, s.points[i].point, s.normal) < -kApproaching)
            return true;
    return false;
}

// When the pair first touches (within the distance tolerance) and approaches, in [t0, h].
// Conservative advancement (Mirtich, "Impulse-based Dynamic Simulation of Rigid Body Systems",
// 1996): along the manifold's normal n the gap g closes no faster than
//   u = −(vB − vA) · n + |ωA| RA + |ωB| RB     (R: a body's bounding radius),
// and the gap along any direction is at most the distance between the shapes, so they cannot
// touch before t + g / u. A pair touching at t0 without approaching is parting (or was just
// struck) and, convex and moving uniformly, does not meet again in the step.
Prediction touchTime(const StepContext& c, const std::vector<Clock>& clock, const Manifold& m,
                     double t0) {
    const Body& A = c.bodies[m.a];
    const Body& B = c.bodies[m.b];
    const double tol = c.settings.distanceTolerance;
    const double spin =
        std::abs(A.w) * A.shape.boundingRadius() + std::abs(B.w) * B.shape.boundingRadius();
    const double bound = glm::length(B.v - A.v) + spin; // on the speed of any point of B from A
    double t = t0, safe = t0;
    for (int k = 0; k < kMaxAdvances; ++k) {
        Transform xa = poseAt(A, clock[m.a], t), xb = poseAt(B, clock[m.b], t);
        ShapeManifold s = collide(A.shape, xa, B.shape, xb, bound * (c.h - t) + tol);
        if (s.count == 0) return {Outcome::Never}; // farther apart than they can close in the step
        if (deepest(s) > tol && t > t0) { // advanced past the contact: back to it
            auto penetrates = [&](double x) {
                return deepest(collide(A.shape, poseAt(A, clock[m.a], x), B.shape,
                                       poseAt(B, clock[m.b], x), tol)) > tol;
            };
            t = bisectContactTime(safe, t, tol / std::max(bound, 1e-300), penetrates);
            xa = poseAt(A, clock[m.a], t);
            xb = poseAt(B, clock[m.b], t);
            s = collide(A.shape, xa, B.shape, xb, 2 * tol);
            if (s.count == 0) return {Outcome::Unsure};
        }
        const double gap = -deepest(s);
        if (gap <= tol) {
            if (approaches(A, xa, B, xb, s)) return {Outcome::Touches, t};
            return {t == t0 ? Outcome::Never : Outcome::Unsure};
        }
        const double closing = -glm::dot(B.v - A.v, s.normal) + spin;
        if (closing <= 0) return {Outcome::Never};
        safe = t;
        t += gap / closing;
        if (t > c.h) return {Outcome::Never};
    }
    return {Outcome::Unsure};
}

// The manifold of the pair touching now, at the poses the clocks give for time t.
Manifold touchingAt(const StepContext& c, const std::vector<Clock>& clock, const Manifold& m,
                    double t) {
    const Body& A = c.bodies[m.a];
    const Body& B = c.bodies[m.b];
    const double tol = c.settings.distanceTolerance;
    const ShapeManifold s =
        collide(A.shape, poseAt(A, clock[m.a], t), B.shape, poseAt(B, clock[m.b], t), 2 * tol);
    Manifold out = m;
    out.normal = s.normal;
    out.count = 0;
    for (int i = 0; i < s.count; ++i)
        if (s.points[i].depth > -2 * tol)
            out.points[out.count++] = ContactPoint{s.points[i].point, s.points[i].depth, s.points[i].id};
    return out;
}

} // namespace

void strikeImpactsInFlight(StepContext& c) {
    const std::vector<char> free = inFreeFlight(c);
    auto takesPart = [&](BodyId id) { return free[id] || c.bodies[id].type == BodyType::Static; };
    std::vector<std::size_t> pairs; // the manifolds whose pairs are settled here
    for (std::size_t j = 0; j < c.contacts.size(); ++j) {
        const Manifold& m = c.contacts[j];
        if ((free[m.a] || free[m.b]) && takesPart(m.a) && takesPart(m.b)) pairs.push_back(j);
    }
    if (pairs.empty()) return;

    const std::vector<Pose> start = save(c.bodies);
    std::vector<Clock> clock(c.bodies.size());
    for (std::size_t i = 0; i < c.bodies.size(); ++i)
        clock[i] = Clock{start[i].xf.p, start[i].angle, 0};
    std::vector<Prediction> next(pairs.size());
    std::vector<int> strikes(pairs.size(), 0);
    for (std::size_t k = 0; k < pairs.size(); ++k)
        next[k] = touchTime(c, clock, c.contacts[pairs[k]], 0);
    std::vector<char> struck(c.bodies.size(), 0);

    for (;;) {
        std::size_t first = pairs.size();
        for (std::size_t k = 0; k < pairs.size(); ++k)
            if (next[k].outcome == Outcome::Touches && strikes[k] < kStrikesPerPair &&
                (first == pairs.size() || next[k].t < next[first].t))
                first = k;
        if (first == pairs.size()) break;
        const Manifold& m = c.contacts[pairs[first]];
        const double t = next[first].t;
        // Both bodies to time t (anchors for the impulse are measured from the bodies' poses).
        for (BodyId id : {m.a, m.b}) {
            if (!free[id]) continue;
            Body& b = c.bodies[id];
            const Transform x = poseAt(b, clock[id], t);
            const double angle = clock[id].angle + (t - clock[id].t) * b.w;
            b.setPose(x.p, angle);
            clock[id] = Clock{x.p, angle, t};
            struck[id] = 1;
        }
        std::vector<Manifold> touching{touchingAt(c, clock, m, t)};
        c.diagnostics.collisions +=
            resolveImpacts(c.bodies, touching, c.settings.collisionHandling, c.h).struck;
        ++strikes[first];
        for (std::size_t k = 0; k < pairs.size(); ++k) {
            const Manifold& other = c.contacts[pairs[k]];
            if (other.a == m.a || other.a == m.b || other.b == m.a || other.b == m.b)
                next[k] = touchTime(c, clock, other, t);
        }
    }

    // Each struck body from its start to where its last strike sends it by the end of the step,
    // as its free motion: the solver's velocity changes are added to it (integratePositions).
    for (std::size_t i = 0; i < c.bodies.size(); ++i) {
        if (!struck[i]) continue;
        Body& b = c.bodies[i];
        const Transform end = poseAt(b, clock[i], c.h);
        Motion& motion = c.motion[i];
        motion.v = b.v;
        motion.w = b.w;
        motion.dx = end.p - start[i].xf.p;
        motion.dAngle = clock[i].angle + (c.h - clock[i].t) * b.w - start[i].angle;
        b.setPose(start[i].xf.p, start[i].angle);
    }
    // The pairs settled here leave the step's contacts; those not settled stay with the solver.
    std::vector<char> settled(c.contacts.size(), 0);
    for (std::size_t k = 0; k < pairs.size(); ++k)
        settled[pairs[k]] = next[k].outcome != Outcome::Unsure && strikes[k] < kStrikesPerPair;
    std::size_t kept = 0;
    for (std::size_t j = 0; j < c.contacts.size(); ++j)
        if (!settled[j]) c.contacts[kept++] = c.contacts[j];
    c.contacts.resize(kept);
}

} // namespace carom
