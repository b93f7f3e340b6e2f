// Speculative contacts that would only pass by: set aside before the solvers.
//
// The step's contacts reach over each body's sweep (updateContacts: margins of the sweep plus the
// slop), so that a fast body meets whatever lies in its path. A point of such a contact, a gap g
// apart at the start, tells the solvers "the pair may close by g along n in this step, no more":
// true of the features that will meet, but the normal and the gap are the closest features' at the
// start, and the constraint holds them as if they were half-planes. A body whose path only passes
// a corner within its sweep (a ball flying 5 cm over a box) was stopped by it as if it struck the
// box's side, and knocked the box away without touching it; in the projection method the same
// point's overlap at the end of the step pushed the pair apart. Box2D v3 keeps its speculative
// contacts within 4 linear slops for this reason, and sweeps its fast bodies instead.
//
// A contact whose gap the pair's own motion cannot close, |u| + spin ≤ g − slop (the narrow
// phase reaches two slops past the pair's closing, contacts.cpp: closingReach), is set aside
// without more.
//
// Each other contact with a gap wider than kSpeculativeDistance is asked whether the pair meets at
// all: the two bodies' shapes swept along their
// motions of the step (positions and angles linear in t, from the start to where the free motion
// takes them: c.motion), by conservative advancement. For shapes that translate, the distance
// between two convex shapes is a convex function of t, so the Newton step gap / closing from the
// closest features never passes the time of contact (Mirtich, "Impulse-based Dynamic Simulation of
// Rigid Body Systems", 1996, §2.3; the turning adds |ω| r to the closing speed). A pair that
// comes no nearer than the linear slop in the whole step is set aside with the settled ones and
// given back after the solvers (returnSettledContacts); the others, and any the advance cannot
// decide within kMissAdvances, stay with the solvers as they were found.
#include "collision/collide.h"
#include "collision/time_of_impact.h"
#include "step/step_context.h"
#include "tuning.h"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace carom {
namespace {

// The pose of a body at t in [0, 1] of its motion in the step, from `xf` at the start.
Transform poseAt(const Transform& xf, double angle, const Motion& m, double t) {
    return Transform{xf.p + t * m.dx, m.dAngle == 0 ? xf.q : Rot(angle + t * m.dAngle)};
}

// How fast (per unit of t) turning can bring the pair's boundaries closer (time_of_impact.h).
double spinOf(const StepContext& c, const Manifold& m) {
    return turning(c.bodies[m.a], c.motion[m.a].dAngle) +
           turning(c.bodies[m.b], c.motion[m.b].dAngle);
}
// B's displacement relative to A over the step.
Vec2 relativeMotion(const StepContext& c, const Manifold& m) {
    return c.motion[m.b].dx - c.motion[m.a].dx;
}

// Whether the pair's shapes, moving as the step's free motion takes them, never come within
// `near` of each other (a gap at the start wider than near).
bool passesBy(const StepContext& c, const Manifold& m, double near) {
    const Body& A = c.bodies[m.a];
    const Body& B = c.bodies[m.b];
    const Motion& ma = c.motion[m.a];
    const Motion& mb = c.motion[m.b];
    const Vec2 u = relativeMotion(c, m);
    const double spin = spinOf(c, m);
    const BodyShape& sa = A.shapes[m.shapeA];
    const BodyShape& sb = B.shapes[m.shapeB];
    double t = 0;
    for (int k = 0; k < kMissAdvances; ++k) {
        const double reach = (glm::length(u) + spin) * (1 - t); // the most it can still close
        const ShapeManifold s =
            collide(sa.shape, placeShape(poseAt(A.xf(), A.angle(), ma, t), sa), sb.shape,
                    placeShape(poseAt(B.xf(), B.angle(), mb, t), sb), reach + near);
        if (s.count == 0) return true; // farther apart than the rest of the step can close
        const double gap = -deepestDepth(s);
        if (gap <= near) return false;
        const double closing = -glm::dot(u, s.normal) + spin;
        if (!(closing > 0)) return true; // moving apart, and a convex distance grows from here
        t += (gap - near) / closing;
        if (t >= 1) return true;
    }
    return false; // undecided: the solvers keep it
}

} // namespace

void setAsidePairsThatMiss(StepContext& c, std::vector<Manifold>& settled) {
    const double near = c.settings.linearSlop;
    const double speculative = kSpeculativeDistance * near;
    // The contacts asked about: wider apart than the speculative distance, neither body in flight
    // (the flights' pairs are settled there). A pile at rest has none, and costs one pass.
    auto asked = [&](const Manifold& m) {
        return -deepestDepth(m) > speculative && !c.motion[m.a].flown && !c.motion[m.b].flown;
    };
    if (std::none_of(c.contacts.begin(), c.contacts.end(), asked)) return;
    // Bodies the solvers will throw aside within the step: overlapping something by more than the
    // slop, they are pushed out of it. Their motion is not the free one, and a pair of theirs is
    // left to the solvers (a body pushed out of a pile into one it was passing made energy: stress
    // seed 525).
    std::vector<char> turned(c.bodies.size(), 0);
    for (const Manifold& m : c.contacts)
        if (deepestDepth(m) > near) turned[m.a] = turned[m.b] = 1;
    std::vector<Manifold> missed;
    std::size_t kept = 0;
    for (std::size_t j = 0; j < c.contacts.size(); ++j) {
        const Manifold& m = c.contacts[j];
        const bool miss =
            asked(m) && !turned[m.a] && !turned[m.b] &&
            (glm::length(relativeMotion(c, m)) + spinOf(c, m) <= -deepestDepth(m) - near ||
             passesBy(c, m, near));
        if (miss)
            missed.push_back(m);
        else
            c.contacts[kept++] = m;
    }
    c.contacts.resize(kept);
    if (missed.empty()) return;
    // Both lists in the order of their pairs, as returnSettledContacts expects.
    std::vector<Manifold> all;
    all.reserve(settled.size() + missed.size());
    std::merge(settled.begin(), settled.end(), missed.begin(), missed.end(),
               std::back_inserter(all),
               [](const Manifold& x, const Manifold& y) { return pairBefore(x, y); });
    settled.swap(all);
}

} // namespace carom
