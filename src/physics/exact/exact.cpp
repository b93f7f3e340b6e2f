// The exact method: every collision found at its time of contact and resolved there.
//
// Its contract: every collision is found at its time of contact, to the distance tolerance, and
// struck there, the flight between collisions in closed form, and its intervals make no energy
// (the holds do no work: solveHolds; the bounces are Newton's, or Poisson's where Newton's would
// make energy: impacts.cpp). A step that will not finish within its work takes the rest of itself
// as the default method does, counted (Diagnostics::stepsFinishedHeld), and the next steps wait
// (backOff).
//
// The step, after Hecker ("Physics, Part 4: The Third Dimension", 1997, Listing 1) and
// myPhysicsLab's ImpulseSim:
//   the bodies in free flight fly the step first, striking their impacts pair by pair at their
//     times (flyFirst: the default method's flights, flight_impacts.cpp), and wait at its end;
//     the rest of the world, which they do not reach in the step, takes the intervals:
//   t = 0
//   while t < h:
//     contacts touching now (within the distance tolerance): strike the approaching ones
//       (strikeTouching; impacts.cpp: Hecker's Eq. 9, serial, hybrid or simultaneous)
//     advance the world by the rest of the step, or less (advanceWithinReach, see below), under
//       its forces (in closed form: advance); the touching contacts, and those a little apart
//       that will meet at rest, are held by the contact solver meanwhile
//     if some pair now overlaps deeper than the tolerance (overlapBeyondAllowance), and not only
//       slow arrivals in a pile (onlySlowArrivalsInAPile: struck where they are found): go back,
//       and find the time of contact by bisection, its cuts placed by Newton or secant steps
//       (timeOfContact; or in closed form for two circles in uniform relative motion,
//       circleContacts); advance to it
//     t = the time reached
//   (past kExactMaxAdvances advances, or kSearchesPerStep searches, the rest of the step is taken
//   as the default method takes a step: finishAsTheDefaultMethod) the contacts after the step, and
//   the overlap left projected away (finishExactStep)
//
// Compound bodies: not handled (World refuses them in this method): every body here has one shape
// at its centre of mass (soleShape), and a pair of bodies one manifold.
//
// Resting contact: a touching point is always given to the sequential-impulse solver
// (sequential_impulses.cpp: solveHolds, restitution 0, warm started from the last step) for the
// advance, which stops it from approaching but never pulls, its passes going on until the holds
// do no work over the advance (a resting contact does none: converged, the stack's solve makes
// no energy, so no net takes any back); a point approaching slower than its forces push it
// in one step is stopped without bounce (impacts.cpp). So a bouncing ball's bounces shrink until
// gravity wins and it rests, instead of an endless series of ever smaller bounces (Zeno;
// myPhysicsLab's "stuck" objects). In a pile, a body resting on others counts as held by them:
// a box settling onto it closes at what gravity gives the box (impacts.h: restingApproach).
//
// No tunnelling: no advance moves any point of a body farther than kExactMaxTravel of its inner
// radius, or farther than its share of the distance to whatever it could meet (its clearance, see
// clearances), so two bodies cannot pass through each other between two checks; the bisection
// then finds the earliest overlap.
#include "collision/broad_phase.h"
#include "collision/collide.h"
#include "collision/time_of_impact.h"
#include "impacts/impacts.h"
#include "solver/contact_math.h"
#include "step/step_context.h"
#include "tuning.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <utility>

namespace carom {
namespace {

// Bound on how fast the body's boundary moves: |v| + |ω| r_max, without the turning of a circle
// (time_of_impact.h: turning).
double pointSpeed(const Body& b, Vec2 v, double w) {
    return glm::length(v) + turning(b, w);
}

// A point's normal velocity now: (v_B + ω_B × r_B − v_A − ω_A × r_A) · n, negative approaching.
double normalVelocity(const StepContext& c, const Manifold& m, const ContactPoint& cp) {
    const Body& A = c.bodies[m.a];
    const Body& B = c.bodies[m.b];
    const Anchors r = anchorsOf(A, B, cp);
    return glm::dot(relativeVelocity(A, B, r.a, r.b), m.normal);
}

// The manifolds' points that `keep` (m, point) keeps; manifolds left with none are dropped.
template <class Keep> std::vector<Manifold> pointsKept(std::vector<Manifold> out, Keep keep) {
    std::size_t kept = 0;
    for (Manifold& m : out) {
        int n = 0;
        for (int i = 0; i < m.count; ++i)
            if (keep(m, m.points[i])) m.points[n++] = m.points[i];
        m.count = n;
        if (n > 0) out[kept++] = m;
    }
    out.resize(kept);
    return out;
}

std::vector<Manifold> contactsWithin(const StepContext& c, double gap) {
    // Each box grows by half the gap, so pairs within it are found; collide keeps points whose
    // gap is below the sum of the two margins, and we keep those below it.
    return pointsKept(findManifolds(c, std::vector<double>(c.bodies.size(), gap / 2)),
                      [&](const Manifold&, const ContactPoint& cp) { return cp.depth > -gap; });
}

std::vector<Manifold> touchingContacts(const StepContext& c) {
    return contactsWithin(c, c.settings.distanceTolerance);
}

// The contacts an interval starts from: within the linear slop (or the tolerance, if larger).
// Found once at each pose of the bodies: where an advance ends without overlap, the check for
// overlap (which needs only those within the tolerance, a subset: the narrow phase keeps the same
// points of a pair whatever its margin, and the pairs come out in order) finds these, and the
// next interval, or the end of the step, takes them.
std::vector<Manifold> nearContacts(const StepContext& c) {
    return contactsWithin(c, std::max(c.settings.linearSlop, c.settings.distanceTolerance));
}

// What the penetration test allows, from the contacts touching at the start of an interval.
// A new point must be within the tolerance. A point held by the solver (the same place on body A,
// to within a quarter of the smaller body's inner radius: feature ids may change as a resting
// face slides) may sink up to the linear slop, which the projection at the end of the step takes
// back: the solver does not converge exactly in a stack, and that is not a collision to search
// for. A pair that already overlapped may not sink a tolerance deeper.
struct HeldPoint {
    Vec2 localA; // on body A's surface, in A's frame
    double depth;
};

// A contact point's place on body A's surface, in A's frame (found at the current poses).
Vec2 onA(const StepContext& c, const Manifold& m, const ContactPoint& cp) {
    return surfacePointsOf(c.bodies[m.a].xf(), c.bodies[m.b].xf(), m.normal, cp).a;
}
// The touching pairs at the start of an interval, sorted by pair: each pair's deepest depth and
// its points.
struct PairAllowance {
    PairKey pair;
    double depth;
    HeldPoint points[2];
    int count;
};
using Allowance = std::vector<PairAllowance>;

// `touching`: sorted by pair, as the narrow phase gives its manifolds.
Allowance allowanceOf(const StepContext& c, const std::vector<Manifold>& touching) {
    Allowance a;
    a.reserve(touching.size());
    for (const Manifold& m : touching) {
        PairAllowance p{{m.a, m.b}, deepestDepth(m), {}, m.count};
        for (int i = 0; i < m.count; ++i)
            p.points[i] = HeldPoint{onA(c, m, m.points[i]), m.points[i].depth};
        a.push_back(p);
    }
    return a;
}

const PairAllowance* find(const Allowance& a, PairKey pair) {
    auto it = std::lower_bound(a.begin(), a.end(), pair,
                               [](const PairAllowance& x, PairKey k) { return x.pair < k; });
    return it != a.end() && it->pair == pair ? &*it : nullptr;
}

// Looks up the allowances of pairs asked in increasing order (as the contacts list them): one walk
// along the list rather than a search per pair.
class AllowanceFinder {
  public:
    explicit AllowanceFinder(const Allowance& a) : next_(a.begin()), end_(a.end()) {}

    const PairAllowance* find(PairKey pair) {
        while (next_ != end_ && next_->pair < pair)
            ++next_;
        return next_ != end_ && next_->pair == pair ? &*next_ : nullptr;
    }

  private:
    Allowance::const_iterator next_, end_;
};

// How deep a point may sink: the tolerance, or more if it is held (see above); and whether it is
// held (a point touching at the interval's start) rather than arriving.
struct Allowed {
    double depth;
    bool held;
};
Allowed allowedSink(const StepContext& c, const PairAllowance* pair, const Manifold& m,
                    const ContactPoint& cp) {
    const double tol = c.settings.distanceTolerance;
    if (!pair) return {tol, false};
    const double near =
        kHeldReach * smallerInnerRadius(soleShape(c.bodies[m.a]), soleShape(c.bodies[m.b]));
    const Vec2 localA = onA(c, m, cp);
    Allowed allowed{std::max(tol, pair->depth + tol), false};
    for (int j = 0; j < pair->count; ++j)
        if (const HeldPoint& hp = pair->points[j]; glm::length(localA - hp.localA) < near)
            allowed = {std::max({allowed.depth, hp.depth + tol, c.settings.linearSlop}), true};
    return allowed;
}

// Each touching point of `contacts` (within the distance tolerance), with how deep it may sink
// and how far past that it is: f(m, cp, allowed, excess).
template <class F>
void eachTouchingPoint(const StepContext& c, const Allowance& start,
                       const std::vector<Manifold>& contacts, F f) {
    AllowanceFinder allowed(start);
    for (const Manifold& m : contacts) {
        const PairAllowance* pair = allowed.find({m.a, m.b});
        for (int i = 0; i < m.count; ++i) {
            const ContactPoint& cp = m.points[i];
            if (!(cp.depth > -c.settings.distanceTolerance)) continue; // not touching
            const Allowed limit = allowedSink(c, pair, m, cp);
            f(m, cp, limit, cp.depth - limit.depth);
        }
    }
}

// The deepest overlap beyond what is allowed among the touching points, how fast that point
// approaches, and which point it is.
Overlap overlapBeyondAllowance(const StepContext& c, const Allowance& start,
                               const std::vector<Manifold>& contacts) {
    Overlap worst{-INFINITY, 0, {}};
    eachTouchingPoint(
        c, start, contacts,
        [&](const Manifold& m, const ContactPoint& cp, const Allowed&, double excess) {
            if (excess > worst.excess)
                worst = Overlap{excess, -normalVelocity(c, m, cp), {{m.a, m.b}, cp.id}};
        });
    return worst;
}

// A slow arrival in a pile: a point approaching at `approach`, slower than the restitution
// threshold (below which the default method does not bounce), between two bodies that each touch
// something else (`contacts`: manifolds per body, manifoldsPerBody): a pile settling, and the
// creeping of a stack's neighbours. Each was searched for like any impact, and each advance cut
// short where one would arrive (closingLimit): with the searches already held to three a step, 579
// of the 858 advances of a pile of 150 bodies landing in a box (300 steps) ended at such an
// arrival. Such a point may sink kArrivalSink past the surface without a search: the advance that
// brings it lets it sink half of that (closingLimit), and the next interval strikes it where it is
// found (onlySlowArrivalsInAPile; impacts.cpp: a bounce of at most e times the threshold, or
// stopped dead if its forces alone bring it), no more than the interval late.
bool slowArrivalInAPile(const StepContext& c, const std::vector<int>& contacts, const Manifold& m,
                        double approach) {
    return approach < c.settings.restitutionThreshold && contacts[m.a] > 1 && contacts[m.b] > 1;
}

// How far past the surface a point may sink without a search for its time of contact: kArrivalSink
// of the linear slop for a slow arrival in a pile, nothing for any other.
double arrivalSink(const StepContext& c, const std::vector<int>& contacts, const Manifold& m,
                   double approach) {
    return slowArrivalInAPile(c, contacts, m, approach) ? kArrivalSink * c.settings.linearSlop : 0;
}

// How far past its allowance a slow arrival in a pile may be found after an advance without a
// search: its arrivalSink; or, between two bodies that do not bounce (restitution 0), the whole
// linear slop. Without a bounce to time, the strike that stops such a point late leaves the
// velocities it would have left at its time of contact, but for what the forces changed meanwhile
// (under the restitution threshold a step), and only its depth differs: within the slop, a resting
// contact's. The pyramids' rows, settling at first, arrived at 1-5 cm/s and sank 0.25-0.5 mm in an
// advance: each such step searched two or three times, at 5-40 times the default method's step.
double unsearchedSink(const StepContext& c, const std::vector<int>& contacts, const Manifold& m,
                      double approach) {
    if (m.restitution != 0) return arrivalSink(c, contacts, m, approach);
    return slowArrivalInAPile(c, contacts, m, approach) ? c.settings.linearSlop : 0;
}

// Whether every point overlapping beyond its allowance after an advance is a slow arrival in a
// pile sunk less than its unsearchedSink past its allowance, none of them a point held from the
// interval's start (a stack's resting contacts sinking are searched for, as before): then no time
// of contact is searched for, and the interval ends where the advance did. The strike that follows
// makes no energy, and nothing moves the point out: it stays within the slop, as a resting
// contact's overlap does.
bool onlySlowArrivalsInAPile(const StepContext& c, const Allowance& start,
                             const std::vector<Manifold>& contacts) {
    const std::vector<int> perBody = manifoldsPerBody(c.bodies.size(), contacts);
    bool only = true;
    eachTouchingPoint(
        c, start, contacts,
        [&](const Manifold& m, const ContactPoint& cp, const Allowed& limit, double excess) {
            if (only && excess > 0)
                only = !limit.held &&
                       excess < unsearchedSink(c, perBody, m, -normalVelocity(c, m, cp));
        });
    return only;
}

// How far one point overlaps beyond what is allowed: negative up to the linear slop apart, −∞
// farther (or when its features no longer touch).
double overlapOf(const StepContext& c, const Allowance& start, PointKey point) {
    const auto [a, b] = point.first;
    const Body& A = c.bodies[a];
    const Body& B = c.bodies[b];
    const ShapeManifold sm =
        collide(soleShape(A), A.xf(), soleShape(B), B.xf(), c.settings.linearSlop);
    const Manifold m = manifoldOf(c.settings, ShapePairKey{a, b, 0, 0}, A, B, sm);
    for (int i = 0; i < m.count; ++i)
        if (m.points[i].id == point.second)
            return m.points[i].depth - allowedSink(c, find(start, {a, b}), m, m.points[i]).depth;
    return -INFINITY;
}

// The resting solver's impulses per contact point, summed over a step. Kept in the world's
// contacts after the step, so that the next step starts from them (warm starting, as the default
// method does; a stack needs it), scaled to each interval's length.
struct Impulses {
    double normal = 0, tangent = 0;
};
struct PointImpulses {
    PointKey point;
    Impulses impulses;
};
using ImpulseList = std::vector<PointImpulses>;

// The contacts' impulses, appended.
void addImpulses(ImpulseList& list, const std::vector<Manifold>& contacts) {
    if (list.empty()) list.reserve(2 * contacts.size()); // then grown as push_back grows it
    for (const Manifold& m : contacts)
        for (int i = 0; i < m.count; ++i)
            list.push_back(
                PointImpulses{{{m.a, m.b}, m.points[i].id},
                              Impulses{m.points[i].normalImpulse, m.points[i].tangentImpulse}});
}

// Sorted by point, in the order they were added among equals (a stable sort).
ImpulseList sortedByPoint(ImpulseList list) {
    std::stable_sort(list.begin(), list.end(), [](const PointImpulses& x, const PointImpulses& y) {
        return x.point < y.point;
    });
    return list;
}

// Whether the list is sorted by pair and names each point once, as the impulses of one list of
// contacts do (sorted by pair, a manifold's points with distinct feature ids): ImpulseFinder reads
// it as it is, and a step of one interval has nothing to add up (sorting took a tenth of the
// pyramid of base 20's step).
bool eachPointOnceByPair(const ImpulseList& list) {
    for (std::size_t i = 1; i < list.size(); ++i) {
        const PointKey& point = list[i].point;
        if (point.first < list[i - 1].point.first) return false;
        for (std::size_t j = i; j-- > 0 && list[j].point.first == point.first;)
            if (list[j].point.second == point.second) return false;
    }
    return true;
}

// Each point's impulses added up, from zero, in the order they were added.
ImpulseList summed(ImpulseList list) {
    if (eachPointOnceByPair(list)) {
        for (PointImpulses& e : list) // from zero: 0 + (−0) is +0, as the sum below
            e.impulses = Impulses{0.0 + e.impulses.normal, 0.0 + e.impulses.tangent};
        return list;
    }
    ImpulseList out;
    for (const PointImpulses& e : sortedByPoint(std::move(list))) {
        if (out.empty() || out.back().point != e.point) out.push_back(PointImpulses{e.point, {}});
        out.back().impulses.normal += e.impulses.normal;
        out.back().impulses.tangent += e.impulses.tangent;
    }
    return out;
}

// The contacts' impulses, one entry a point (a manifold's points have distinct feature ids), for
// ImpulseFinder.
ImpulseList impulsesOf(const std::vector<Manifold>& contacts) {
    ImpulseList list;
    addImpulses(list, contacts);
    return eachPointOnceByPair(list) ? list : sortedByPoint(std::move(list));
}

// Looks up the impulses of a list sorted by pair (by point, or as eachPointOnceByPair), for pairs
// asked in increasing order (as the contacts list them): one walk along the list, as
// contacts.cpp's ManifoldFinder.
class ImpulseFinder {
  public:
    explicit ImpulseFinder(const ImpulseList& sorted) : next_(sorted.begin()), end_(sorted.end()) {}

    Impulses find(PairKey pair, std::uint32_t id) {
        while (next_ != end_ && next_->point.first < pair)
            ++next_;
        for (auto it = next_; it != end_ && it->point.first == pair; ++it)
            if (it->point.second == id) return it->impulses;
        return {};
    }

  private:
    ImpulseList::const_iterator next_, end_;
};

// The depth the solver is given for a held point with a gap g = max(−depth, 0), so that the
// advance closes no more than the gap. The solver lets a gap's normal velocity end the advance
// no lower than depth / dt (sequential_impulses.cpp: bias), and advance() moves the bodies by ½ dt
// of the solver's velocity change, so over the advance the point's separation changes by ½ (v0 +
// v_end) dt, v0 its normal velocity now (to first order in the bodies' turning; exactly for
// uniformly accelerated motion). Closing at most g asks v_end ≥ −(2 g / dt + v0): the depth −(2 g +
// v0 dt), or 0 (stopped) where the point would close its gap even so. Given −g instead, a slow
// arrival sank by ½ (u dt − g) past the surface, and each was searched for. A touching point (g =
// 0) moving apart at v0 may come back as fast, v_end ≥ −v0: its separation over the advance
// does not shrink, and the hold that stops it there does no work (λ ½ (v0 + v_end) = 0;
// solveHolds). Held to v_end ≥ 0 instead, the hold pushed it on apart: work, energy made.
double depthToClose(const StepContext& c, const Manifold& m, const ContactPoint& cp, double dt) {
    return std::min(2 * std::min(cp.depth, 0.0) - normalVelocity(c, m, cp) * dt, 0.0);
}

// The longest advance over which every held point across a gap closes it no faster than
// depthToClose can hold it to: a point approaching at u across a gap g, given −(2g − u dt), is
// stopped at the advance's end if u dt ≥ 2g, and then its bodies move ½ u dt towards each other,
// past the surface, and was searched for (83 of 91 searches for held points on the polygons). So
// the advance ends no later than 2g / u, where the point arrives at the surface and stops; past it
// the point sinks ½ u dt − g. A slow arrival in a pile may sink s, half its arrivalSink, so its
// advance ends no later than 2 (g + s) / u, and the next interval strikes it where it is
// (onlySlowArrivalsInAPile, which allows the whole arrivalSink: the solver's error on top of s is
// not searched for).
double closingLimit(const StepContext& c, const std::vector<Manifold>& held) {
    const std::vector<int> perBody = manifoldsPerBody(c.bodies.size(), held);
    double dt = std::numeric_limits<double>::infinity();
    for (const Manifold& m : held)
        for (int i = 0; i < m.count; ++i) {
            const ContactPoint& cp = m.points[i];
            if (cp.depth > -c.settings.distanceTolerance) continue; // touching
            const double u = -normalVelocity(c, m, cp);
            if (u > 0) dt = std::min(dt, 2 * (0.5 * arrivalSink(c, perBody, m, u) - cp.depth) / u);
        }
    return dt;
}

// Free motion over dt under the forces, the `held` contacts kept from approaching by the
// sequential-impulse solver (restitution 0: impacts are struck before, in impacts.cpp; a gap
// closed no more than its width, depthToClose), warm started from `last` (the last step's
// impulses, × dt/h). Returns the contacts with the impulses the solver applied. The flight is in
// closed form under gravity and damping (integrate.cpp), and by RK4 for a body under the spring
// or a thruster, whichever integrator is chosen: collisions found at their exact times are only
// as exact as the flight between them.
std::vector<Manifold> advance(StepContext& c, const std::vector<Manifold>& held,
                              const ImpulseList& last, double dt) {
    std::vector<Manifold> contacts = held;
    ImpulseFinder lastOf(last);
    for (Manifold& m : contacts) {
        m.restitution = 0;
        for (int i = 0; i < m.count; ++i) {
            ContactPoint& cp = m.points[i];
            const Impulses warm = lastOf.find({m.a, m.b}, cp.id);
            cp.normalImpulse = warm.normal * dt / c.h;
            cp.tangentImpulse = warm.tangent * dt / c.h;
            cp.depth = depthToClose(c, m, cp, dt);
        }
    }
    std::vector<BodyVelocity> atStart(c.bodies.size());
    for (std::size_t i = 0; i < c.bodies.size(); ++i)
        atStart[i] = {c.bodies[i].v, c.bodies[i].w};
    WorldSettings flight = c.settings;
    flight.integrator = Integrator::RK4;
    std::vector<ContactEvent> events;
    Diagnostics solve; // the holds' cut solves, counted in c's
    StepContext sub{flight, c.bodies, c.thrusters, c.spring, contacts, c.motion, events, solve, dt};
    integrateFreeFlight(sub);
    if (!contacts.empty()) solveHolds(sub, atStart);
    c.diagnostics.holdSolvesCut += solve.holdSolvesCut;
    // integratePositions moves each body by its free displacement plus h times the solver's
    // velocity change. The solver's impulses here stand for a contact force spread over the
    // interval, and the free displacement holds ½ a dt² of the forces (closed form and RK4 alike),
    // so the solver's share is ½ dt Δv (a body resting under gravity stays put).
    sub.h = dt / 2;
    integratePositions(sub);
    return contacts;
}

// How far each moving body may go in an advance of up to dt from now without touching anything:
// its share of the distance to each body it could reach. A body whose points would go farther
// than kExactMaxTravel of its inner radius in dt (at its speed now) reaches as far as they go, and
// the distance d of two bodies is shared in proportion to their reaches (a static body's is zero:
// the moving one has all of it), so that two bodies that each keep within their shares cannot
// meet. The distance is the gap along the normal of the pair's manifold, as the flights'
// conservative advancement takes it (flight_impacts.cpp: touchTime); bodies whose boxes stay
// farther apart than their reaches are farther than either's reach. Zero for the others: a body
// that goes no farther than kExactMaxTravel of its inner radius needs no clearance.
//
// A body within its clearance meets nothing; one within kExactMaxTravel of its radius meets a body
// within its clearance, if at all, without passing through it (it would have to go its own width
// and the other's past their distance). So a small fast body is not held to half its radius a
// trial while nothing is near it (a 9 cm ball at 550 m/s allowed 8e-5 s, 200 advances a step).
std::vector<double> clearances(const StepContext& c, double dt) {
    const std::size_t n = c.bodies.size();
    std::vector<double> reach(n, 0.0), clear(n, 0.0);
    bool any = false;
    for (std::size_t i = 0; i < n; ++i) {
        const Body& b = c.bodies[i];
        if (b.type == BodyType::Static) continue;
        const double go = pointSpeed(b, b.v, b.w) * dt;
        if (go > kExactMaxTravel * soleShape(b).innerRadius()) reach[i] = clear[i] = go, any = true;
    }
    if (!any) return clear;
    std::vector<BodyPair> pairs;
    findPairs(c.bodies, reach, pairs);
    for (const BodyPair& p : pairs) {
        const double margin = reach[p.a] + reach[p.b];
        if (margin == 0) continue;
        const Body& A = c.bodies[p.a];
        const Body& B = c.bodies[p.b];
        const ShapeManifold s = collide(soleShape(A), A.xf(), soleShape(B), B.xf(), margin);
        const double d = s.count == 0 ? margin : std::max(0.0, -deepestDepth(s));
        clear[p.a] = std::min(clear[p.a], d * (reach[p.a] / margin));
        clear[p.b] = std::min(clear[p.b], d * (reach[p.b] / margin));
    }
    return clear;
}

// The longest advance in which every point of every moving body keeps within kExactMaxTravel of the
// body's inner radius or within the body's clearance (above), at the speeds of `start` and, after
// a trial, at the speeds it ended with (`now`: the speed between is at most the larger of the
// two, the velocities changing at a constant rate over an advance).
double travelLimit(const StepContext& c, const std::vector<Pose>& start,
                   const std::vector<double>& clear, bool now) {
    double dt = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < c.bodies.size(); ++i) {
        const Body& b = c.bodies[i];
        if (b.type == BodyType::Static) continue;
        double speed = pointSpeed(b, start[i].v, start[i].w);
        if (now) speed = std::max(speed, pointSpeed(b, b.v, b.w));
        if (speed > 0)
            dt = std::min(dt,
                          std::max(kExactMaxTravel * soleShape(b).innerRadius(), clear[i]) / speed);
    }
    return dt;
}

double fastestPoint(const StepContext& c, const std::vector<Pose>& start) {
    double fastest = 0;
    for (std::size_t i = 0; i < c.bodies.size(); ++i) {
        const Body& b = c.bodies[i];
        if (b.type == BodyType::Static) continue;
        fastest =
            std::max({fastest, pointSpeed(b, start[i].v, start[i].w), pointSpeed(b, b.v, b.w)});
    }
    return fastest;
}

// Does the body move uniformly over the interval (no force that changes with time): no spring,
// no thruster, no damping? Then two such circles with equal accelerations (gravity) close their
// distance as |Δp + Δv t|, whichever integrator moves them.
bool movesUniformly(const StepContext& c, BodyId id) {
    if (c.spring && !c.spring->particle && c.spring->body == id) return false;
    for (const Thruster& t : c.thrusters)
        if (t.body == id && t.firing) return false;
    return c.settings.damping == 0;
}

// Whether the solver holds the pair over the interval: it is in `held`, sorted by pair.
bool isHeld(const std::vector<Manifold>& held, BodyId a, BodyId b) {
    const auto it =
        std::lower_bound(held.begin(), held.end(), PairKey{a, b}, [](const Manifold& m, PairKey k) {
            return PairKey{m.a, m.b} < k;
        });
    return it != held.end() && it->a == a && it->b == b;
}

// The earliest closed-form contact time of two circles in uniform relative motion within dt. Not
// of a pair the solver holds (touching, or a gap it closes as a resting contact meets: `held`,
// strikeTouching): closingLimit bounds the advance for those, as for any other shapes. Cut short
// at their closed-form times, a pile with balls in it took 1,586 intervals where it needed 149.
double circleContacts(const StepContext& c, double dt, const std::vector<Manifold>& held) {
    // None without two circles (a pile of boxes: no broad phase for nothing).
    if (std::count_if(c.bodies.begin(), c.bodies.end(),
                      [](const Body& b) { return soleShape(b).type() == ShapeType::Circle; }) < 2)
        return dt;
    std::vector<double> margins(c.bodies.size());
    for (std::size_t i = 0; i < c.bodies.size(); ++i) {
        const Body& b = c.bodies[i];
        margins[i] = (glm::length(b.v) + glm::length(b.invMass * b.force) * dt) * dt;
    }
    std::vector<BodyPair> pairs;
    findPairs(c.bodies, margins, pairs);
    double earliest = dt;
    for (const BodyPair& p : pairs) {
        const Body& A = c.bodies[p.a];
        const Body& B = c.bodies[p.b];
        if (soleShape(A).type() != ShapeType::Circle || soleShape(B).type() != ShapeType::Circle)
            continue;
        if (!movesUniformly(c, p.a) || !movesUniformly(c, p.b) || isHeld(held, p.a, p.b)) continue;
        Vec2 aA = A.invMass * A.force, aB = B.invMass * B.force;
        if (glm::length(aB - aA) > kSameAcceleration * (glm::length(aA) + glm::length(aB)))
            continue;
        auto t = circleTimeOfImpact(B.xf().p - A.xf().p, B.v - A.v,
                                    soleShape(A).radius() + soleShape(B).radius());
        if (t && *t > 0) earliest = std::min(earliest, *t);
    }
    return earliest;
}

// The way out of a step that will not finish (a contact that keeps sinking in, endless tiny
// intervals, bodies overlapping from the start): the rest of the step, dt, taken as the default
// method takes a step (world.cpp). The bodies in free flight fly in closed form and strike their
// impacts at their times with Hecker's Eq. 9, so an elastic body still bounces elastically (held
// by the solver, fast balls bouncing between thin walls lost 9% of their energy in a minute); the
// rest is held by the substep solver, whose contacts reach over each body's sweep, so still nothing
// passes through anything. Without the flights where the world has soft bodies (their collisions,
// after the step, strike rigid bodies where the flights' clocks do not see it). The contacts'
// impulses, a step's, are scaled to the rest of it to warm start; returns the contacts (c's) with
// the impulses the rest of the step applied.
const std::vector<Manifold>& finishAsTheDefaultMethod(StepContext& c, double dt, bool flights) {
    for (Manifold& m : c.contacts)
        for (int i = 0; i < m.count; ++i) {
            m.points[i].normalImpulse *= dt / c.h;
            m.points[i].tangentImpulse *= dt / c.h;
        }
    StepContext rest = c;
    rest.h = dt;
    integrateVelocities(rest);
    updateContacts(rest);
    std::vector<Manifold> settled;
    if (flights) strikeImpactsInFlight(rest, settled);
    setAsidePairsThatMiss(rest, settled);
    stepSubsteps(rest);
    returnSettledContacts(rest, settled);
    ++c.diagnostics.stepsFinishedHeld;
    return c.contacts;
}

// The touching contacts now (of `near`, nearContacts at the poses now), their approaching points
// struck (impacts.cpp); the forces of this instant say which slow contacts are resting. Returns
// them, and the contacts the solver holds over the interval that follows: the touching ones, and
// the points up to the linear slop apart that will meet as a resting contact does (impacts.h:
// meetsAtRest), as speculative contacts (the solver lets them close the gap, no more). Those would
// be stopped dead when they met, so holding them takes nothing from a bounce; without it, a pile
// whose contacts open by micrometres as it settles searched for a time of contact each time gravity
// closed one again (18 polygons: three a step, four or five trial advances of the whole world each,
// 17 times the default method's cost). Only the touching points are allowed to sink (allowanceOf):
// one held across a gap is searched for if it sinks, so a ball comes to rest on the floor, not in
// it.
struct Interval {
    std::vector<Manifold> touching, held;
};
Interval strikeTouching(StepContext& c, const std::vector<Manifold>& near) {
    accumulateForces(c);
    const double tol = c.settings.distanceTolerance;
    std::vector<Manifold> touching =
        pointsKept(near, [&](const Manifold&, const ContactPoint& cp) { return cp.depth > -tol; });
    const double ke = kineticEnergy(c.bodies);
    const Impacts impacts = resolveImpacts(c.bodies, touching, c.settings.collisionHandling, c.h);
    if (impacts.struck > 0) c.diagnostics.collisionEnergy += kineticEnergy(c.bodies) - ke;
    c.diagnostics.collisions += impacts.struck;
    c.diagnostics.stoppedChains += impacts.chainStopped;
    c.diagnostics.guards.bounceMadePoisson += impacts.bounceMadePoisson;
    c.diagnostics.guards.bounceCut += impacts.bounceCut;
    const std::vector<int> contacts = manifoldsPerBody(c.bodies.size(), near);
    std::vector<Manifold> held = pointsKept(near, [&](const Manifold& m, const ContactPoint& cp) {
        if (cp.depth > -tol) return true;
        const Body& A = c.bodies[m.a];
        const Body& B = c.bodies[m.b];
        const Anchors r = anchorsOf(A, B, cp);
        const double vn = glm::dot(relativeVelocity(A, B, r.a, r.b), m.normal);
        const Held others{contacts[m.a] > 1, contacts[m.b] > 1};
        return meetsAtRest(restingApproach(A, B, r, m.normal, c.h, others), vn, -cp.depth, c.h);
    });
    return {std::move(touching), std::move(held)};
}

// An advance tried from `start`: its length and the contacts the solver held over it.
struct Trial {
    double dt;
    std::vector<Manifold> held;
};

// Advance by `remaining`, or less, the `held` contacts held by the solver: cut to the first
// closed-form circle contact and to the travel limit at the speeds of now, then halved until
// every body keeps within the limit at the speeds it ends with too.
Trial advanceWithinReach(StepContext& c, const std::vector<Pose>& start,
                         const std::vector<Manifold>& held, const ImpulseList& last,
                         double remaining, int& advances) {
    const double reach =
        std::min({remaining, circleContacts(c, remaining, held), closingLimit(c, held)});
    const std::vector<double> clear = clearances(c, reach);
    Trial trial{std::min(reach, travelLimit(c, start, clear, false)), {}};
    for (int i = 0; i < kMaxHalvings; ++i) {
        ++advances;
        trial.held = advance(c, held, last, trial.dt);
        const double limit = travelLimit(c, start, clear, true);
        if (trial.dt <= limit) break;
        restore(c.bodies, start);
        trial.dt = std::min(0.5 * trial.dt, limit);
    }
    return trial;
}

// The time of contact within [0, dt] from `start`, where the trial to dt overlapped by `atDt`:
// Hecker's bisection, its cuts placed by Newton or secant steps (time_of_impact.h), until some
// point touches within the distance tolerance, or to within that tolerance of the fastest
// closing speed (two points each at most `fastest`). Returns the advance to it, and leaves the
// bodies there: the search's last advance that did not overlap, kept rather than done again (at
// `start` and 0 if none did).
Trial timeOfContact(StepContext& c, const std::vector<Pose>& start,
                    const std::vector<Manifold>& held, const ImpulseList& last,
                    const Allowance& allowance, double dt, Overlap atDt, int& advances) {
    const double fastest = fastestPoint(c, start);
    const double tol = c.settings.distanceTolerance;
    const double tolerance = fastest > 0 ? tol / (4 * fastest) : 0.0;
    Trial found{0, {}};
    std::vector<Pose> atFound = start;
    searchContactTime(0, dt, atDt, tolerance, tol, [&](double t, PointKey point) {
        ++advances;
        restore(c.bodies, start);
        std::vector<Manifold> heldToT = advance(c, held, last, t);
        const OverlapAt f{overlapBeyondAllowance(c, allowance, touchingContacts(c)),
                          overlapOf(c, allowance, point)};
        if (!(f.worst.excess > 0)) { // the search's new lower end, and the time it will return
            found = Trial{t, std::move(heldToT)};
            atFound = save(c.bodies);
        }
        return f;
    });
    restore(c.bodies, atFound);
    return found;
}

// Each body's position and angle, in a row: where the contacts were found (foundAt below).
std::vector<double> posesOf(const std::vector<Body>& bodies) {
    std::vector<double> out;
    out.reserve(3 * bodies.size());
    for (const Body& b : bodies)
        out.insert(out.end(), {b.xf().p.x, b.xf().p.y, b.angle()});
    return out;
}

// Whether the bodies are where posesOf found them, to the bit (a −0 angle is not a +0 one).
bool stillAt(const std::vector<double>& poses, const std::vector<Body>& bodies) {
    const std::vector<double> now = posesOf(bodies);
    return !poses.empty() && poses.size() == now.size() &&
           std::memcmp(poses.data(), now.data(), poses.size() * sizeof(double)) == 0;
}

// The world's contacts as nearContacts finds them: without the impulses the step left in them.
std::vector<Manifold> withoutImpulses(std::vector<Manifold> contacts) {
    for (Manifold& m : contacts)
        for (ContactPoint& cp : m.points)
            cp.normalImpulse = cp.tangentImpulse = 0;
    return contacts;
}

// After the last interval: the forces of the last instant cleared (they were not a step's), the
// contacts found again (drawing, events, diagnostics; `near` if the last interval found them at
// the poses the step ends with) carrying this step's resting impulses for the next, and the overlap
// a stack's solver let through projected away as in the default method (nothing to do for points
// within the linear slop). A step cut short (a chain of impacts that will not end, or bodies
// overlapping from the start: finishAsTheDefaultMethod) moved its bodies without the travel limit:
// as in the other methods, none may end through a static body or buried in one (continuous.cpp; in
// a step that kept the limit neither changes anything). `foundAt`: the poses at which `near` was
// found, if none of that moved a body (in a pile at rest, nothing does), so that the next step may
// start from these contacts; empty otherwise.
void finishExactStep(StepContext& c, const ImpulseList& applied, const std::vector<Pose>& start,
                     std::optional<std::vector<Manifold>> near, std::vector<double>& foundAt) {
    for (Body& b : c.bodies) {
        b.force = {0, 0};
        b.torque = 0;
    }
    std::vector<double> at;
    if (near) {
        at = posesOf(c.bodies);
        setContacts(c, std::move(*near));
    } else {
        updateContacts(c);
    }
    ImpulseFinder appliedTo(applied);
    for (Manifold& m : c.contacts)
        for (int i = 0; i < m.count; ++i) {
            const Impulses sum = appliedTo.find({m.a, m.b}, m.points[i].id);
            m.points[i].normalImpulse = sum.normal;
            m.points[i].tangentImpulse = sum.tangent;
        }
    // The projection moves only points deeper than the slop (a stack at rest has none: its one
    // iteration, which found that, was 8% of the pyramid of base 20's step).
    if (std::any_of(c.contacts.begin(), c.contacts.end(),
                    [&](const Manifold& m) { return deepestDepth(m) > c.settings.linearSlop; }))
        projectContacts(c, c.settings.positionIterations, Correction::PositionsOnly,
                        save(c.bodies));
    stopAtStaticBodies(c, start, Correction::PositionsOnly);
    keepOutOfStaticBodies(c, Correction::PositionsOnly);
    foundAt = stillAt(at, c.bodies) ? std::move(at) : std::vector<double>{};
}

// A step waited after one that could not finish (backOff): the default method's step, whose
// contacts, found at its start and carrying its impulses, it keeps, as the default method keeps
// them (finishExactStep's second narrow phase and projection made such a step cost twice the
// default method's: 0.9-1.2 ms against 0.44 on a pyramid of base 40; now 0.6-0.75).
void waitAsTheDefaultMethod(StepContext& c, bool flights, const std::vector<Pose>& start,
                            std::vector<double>& foundAt) {
    finishAsTheDefaultMethod(c, c.h, flights);
    stopAtStaticBodies(c, start, Correction::PositionsOnly);
    keepOutOfStaticBodies(c, Correction::PositionsOnly);
    foundAt.clear(); // the contacts were found before the step moved the bodies
}

// After a step that could not finish (finishAsTheDefaultMethod), the steps that follow are taken
// as the default method steps without trying: the same pile usually stalls again (a crowd pressed
// into a small box at mass ratios of 1e6, whose resting solve does not converge: every step of
// stress seed 12 spent 10-25 advances of the whole world, and a simultaneous solve of the pile at
// each interval, before it gave up at 0.1% of the step, at 13 times the default method's cost). One
// step, then two, four, eight after each stall in a row; a step finished exactly starts over.
void backOff(ExactBackoff& backoff, bool stalled) {
    if (!stalled) {
        backoff.wait = 1;
        return;
    }
    backoff.stepsLeft = backoff.wait;
    backoff.wait = std::min(2 * backoff.wait, kMaxBackoff);
}

// A body that flew its step (flyFirst), as it was before it was fixed in place.
struct Flown {
    BodyId id;
    BodyType type;
    double invMass, invInertia;
    Vec2 v;
    double w;
};

// Whether every moving body touched something (within the linear slop) at the end of the last
// step, by the contacts the world kept from it: a pile, whose bodies rest on one another, has
// none in free flight, and the flights would find that only after a narrow phase of the whole
// world (the pyramid of base 20: 7% of its step). A body that touched something may still be in
// flight (bouncing off it): then the intervals take it, as exactly.
bool allTouching(const StepContext& c) {
    std::vector<char> touches(c.bodies.size(), 0);
    for (const Manifold& m : c.contacts)
        for (int i = 0; i < m.count; ++i)
            if (m.points[i].depth > -c.settings.linearSlop) touches[m.a] = touches[m.b] = 1;
    for (std::size_t i = 0; i < c.bodies.size(); ++i)
        if (c.bodies[i].isDynamic() && !touches[i]) return false;
    return true;
}

// Flights first: the bodies in free flight (flight_impacts.cpp: under gravity alone, resting on
// nothing, and with no contact, touching or within the bodies' sweeps, with a body anything else
// moves) fly the whole step on their own clocks and strike their impacts at their times, pair by
// pair, with Hecker's Eq. 9: the closed-form flight and the impacts of the intervals below, without
// stopping the whole world at each impact (a gas of 45 fast bodies strikes about 46 times a step,
// each a search of 20-30 advances of every body). Nothing the intervals move comes within reach of
// them in the step, so they wait at their poses of the step's end, fixed (static: no mass, no
// speed), while the intervals take the rest of the world through it; the others are put back as
// they were at the step's start. Only with serial collision handling: the flights strike one pair
// at a time, and hybrid and simultaneous handling strike together the pairs that meet together.
std::vector<Flown> flyFirst(StepContext& c, const std::vector<Pose>& stepStart) {
    if (c.settings.collisionHandling != CollisionHandling::Serial || allTouching(c)) return {};
    Diagnostics flights; // their strikes; the contacts are counted after the step (finishExactStep)
    StepContext f{c.settings, c.bodies, c.thrusters, c.spring, c.contacts,
                  c.motion,   c.events, flights,     c.h};
    integrateVelocities(f);
    updateContacts(f);
    const double ke = kineticEnergy(c.bodies);
    const std::size_t events = c.events.size();
    std::vector<Manifold> settled; // not given back: after flights the intervals find contacts anew
    strikeImpactsInFlight(f, settled);
    // A pair the flights left unsettled (a strike unsure, or a pair that struck too often: a chain
    // that will not end) is the intervals' to take, with its bodies' whole step: none flies.
    if (std::any_of(c.contacts.begin(), c.contacts.end(), [&](const Manifold& m) {
            return c.motion[m.a].flown || c.motion[m.b].flown;
        })) {
        restore(c.bodies, stepStart);
        c.events.resize(events);
        return {};
    }
    c.diagnostics.collisions += flights.collisions;
    c.diagnostics.guards += flights.guards;
    if (flights.collisions > 0) c.diagnostics.collisionEnergy += kineticEnergy(c.bodies) - ke;
    restore(c.bodies, stepStart);
    std::vector<Flown> flown;
    for (std::size_t i = 0; i < c.bodies.size(); ++i) {
        const Motion& m = c.motion[i];
        if (!m.flown) continue;
        Body& b = c.bodies[i];
        flown.push_back(Flown{i, b.type, b.invMass, b.invInertia, m.v, m.w});
        b.setPose(stepStart[i].xf.p + m.dx, stepStart[i].angle + m.dAngle);
        b.type = BodyType::Static;
        b.invMass = b.invInertia = 0;
        b.v = {0, 0};
        b.w = 0;
    }
    return flown;
}

// The flown bodies given back their mass and their motion at the step's end.
void land(StepContext& c, const std::vector<Flown>& flown) {
    for (const Flown& f : flown) {
        Body& b = c.bodies[f.id];
        b.type = f.type;
        b.invMass = f.invMass;
        b.invInertia = f.invInertia;
        b.v = f.v;
        b.w = f.w;
    }
}

} // namespace

// The pseudocode at the top of this file, line for line.
void stepExact(StepContext& c, bool flights, ExactBackoff& backoff, std::vector<double>& foundAt) {
    const double h = c.h;
    const std::vector<Pose> stepStart = save(c.bodies);
    if (backoff.stepsLeft > 0) { // waiting after a step that could not finish (backOff)
        --backoff.stepsLeft;
        waitAsTheDefaultMethod(c, flights, stepStart, foundAt);
        return;
    }
    const ImpulseList last = impulsesOf(c.contacts);
    ImpulseList applied; // the resting solver's impulses over this step, added up at its end
    const std::vector<Flown> flown = flights ? flyFirst(c, stepStart) : std::vector<Flown>{};
    double t = 0;
    int advances = 0, tiny = 0;
    std::optional<std::vector<Manifold>> near; // nearContacts at the poses now, once found
    if (flown.empty() && stillAt(foundAt, c.bodies)) near = withoutImpulses(c.contacts);
    while (h - t > kTimeEpsilon * h) {
        const double remaining = h - t;
        if (!near) near = nearContacts(c);
        const auto [touching, held] = strikeTouching(c, *near);
        if (advances >= kExactMaxAdvances || tiny >= kTinyIntervals ||
            c.diagnostics.contactSearches >= kSearchesPerStep) {
            addImpulses(applied, finishAsTheDefaultMethod(c, remaining, flights));
            near.reset();
            break;
        }
        const Allowance allowance = allowanceOf(c, touching);
        const std::vector<Pose> start = save(c.bodies);
        const Trial trial = advanceWithinReach(c, start, held, last, remaining, advances);
        near = nearContacts(c);
        const Overlap overlap = overlapBeyondAllowance(c, allowance, *near);
        if (!(overlap.excess > 0) || onlySlowArrivalsInAPile(c, allowance, *near)) {
            addImpulses(applied, trial.held);
            t = trial.dt == remaining ? h : t + trial.dt;
            continue;
        }
        near.reset(); // the search moves the bodies
        ++c.diagnostics.contactSearches;
        const Trial contact =
            timeOfContact(c, start, held, last, allowance, trial.dt, overlap, advances);
        if (contact.dt <= kTimeEpsilon * h) { // no progress: overlapping from the start
            restore(c.bodies, start);
            addImpulses(applied, finishAsTheDefaultMethod(c, remaining, flights));
            break;
        }
        addImpulses(applied, contact.held);
        t += contact.dt;
        tiny = contact.dt < kTinyInterval * h ? tiny + 1 : 0;
    }
    land(c, flown);
    const bool stalled = c.diagnostics.stepsFinishedHeld > 0;
    // A stalled step's impulses (the intervals' holds and the substep solver's, which pushes
    // overlap out) are not kept to warm start the next, a step of the substep solver: they threw a
    // settling pyramid of base 30 upward after a stall, 0.4% of its energy made in three steps, and
    // it stalls no more often started cold.
    if (stalled) applied.clear();
    backOff(backoff, stalled);
    // The flown bodies waited as static ones, whose pairs with one another and with the walls the
    // intervals did not look for: with any, the contacts are found anew.
    finishExactStep(c, summed(std::move(applied)), stepStart,
                    flown.empty() ? std::move(near) : std::nullopt, foundAt);
}

} // namespace carom
