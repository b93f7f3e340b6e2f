// Flights and their impacts in closed form, each impact struck at its time (the sequential-impulse
// methods, and the exact method's first stage: exact.cpp, flyFirst).
//
// The contact solver takes a step's impacts at the contacts found at its start: with the normals
// of then, stopping a pair at the gap between them. Fast bodies that only pass close by are
// stopped as if they met, a body struck in the step meets the next one with a stale normal, and an
// elastic scene loses energy at every such step; under gravity, the integrator's flight and the
// bounce taken at the gap only keep the energy on average. But a body under gravity alone (or no
// force at all) that is in contact with nothing the solver moves is in free flight: uniformly
// accelerated until it strikes something. So its impacts can be found at their true times, as
// the exact method finds them, pair by pair, and struck with Hecker's Eq. 9:
//
//   the bodies in free flight: dynamic, of one shape (a compound body, static or not, is the
//     solver's, as is whatever is in contact with it), under no force but gravity (no damping,
//     spring or thruster), not resting on anything (touching it within the slop, under gravity, at
//     a normal speed below the restitution threshold) or sunk into it, in no pair that cannot
//     bounce, and with no contact, touching or speculative, with a body the solver moves
//   a pair of restitution 0 is the solver's: its impact only stops the approach, which the
//     solver's speculative contact does at the gap as well, and nothing bounces whose energy its
//     time within the step would keep; struck here, a crowd that does not bounce (Box2D's smash:
//     9,600 boxes packed in zero gravity) was struck pair by pair along every chain of touching
//     boxes, over and over
//   each keeps a clock: its pose and velocity at its own time t within the step, uniformly
//     accelerated after t (p + v τ + ½ g τ², the angle at constant ω)
//   the pairs of the step's manifolds between two such bodies, or one and a static body: the time
//     each first touches (touchTime: conservative advancement; for two circles in uniform relative
//     motion, the closed form)
//   repeat: the earliest; both bodies brought to it and struck (resolveImpacts, impacts.cpp: an
//     approach slower than gravity adds in a step stops without bounce); the pairs of those two
//     predicted again from it, and a body the strike may send farther than the step's contacts
//     reached paired anew with the bodies it can now reach (findNewPairs); a pair that strikes too
//     often in the step (a chain that will not end, or sustained contact: kStrikesPerPair,
//     kSlowStrikesPerPair) is left to the solver
//   each body in free flight ends the step where its clock puts it, whatever the integrator (the
//     flight is in closed form, as in the exact method)
//   the manifolds of the pairs settled here (struck, or found not to touch in the step) are taken
//     from the step's contacts, so that the solver and the projection do not act on them again,
//     and given back after them (returnSettledContacts: the continuous checks, the events and the
//     drawing see every pair); a strike is a contact begun and ended within the step (two events)
//
// Resting contact, and everything in contact with it, stays the solver's.
#include "collision/body_grid.h"
#include "collision/collide.h"
#include "collision/time_of_impact.h"
#include "impacts/impacts.h"
#include "solver/contact_math.h"
#include "step/step_context.h"
#include "tuning.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <optional>
#include <utility>

namespace carom {
namespace {

// A body's motion in the step: at time t it is at (p, angle) with velocity (v, w), and it moves
// with the constant acceleration a after (gravity, or none for a static body). q is Rot(angle),
// the pose's: a body that does not turn keeps it, without a sine and cosine per pose.
struct Clock {
    Vec2 p;
    double angle;
    Rot q;
    Vec2 v;
    double w;
    double t;
    Vec2 a;
};

double angleAt(const Clock& k, double t) {
    return k.angle + (t - k.t) * k.w;
}
Vec2 positionAt(const Clock& k, double t) {
    const double dt = t - k.t;
    return k.p + dt * k.v + (0.5 * dt * dt) * k.a;
}
Transform poseAt(const Clock& k, double t) {
    return Transform{positionAt(k, t), k.w == 0 ? k.q : Rot(angleAt(k, t))};
}
Vec2 velocityAt(const Clock& k, double t) {
    return k.v + (t - k.t) * k.a;
}

bool underGravityAlone(const StepContext& c, BodyId id) {
    if (c.spring && c.spring->body == id) return false;
    for (const Thruster& t : c.thrusters)
        if (t.body == id && t.firing) return false;
    return true;
}

// The relative velocity along n at a point (world) of two bodies at poses xa, xb with velocities
// (va, wa), (vb, wb): contact_math.h's relativeVelocity, from clocks instead of the bodies.
double normalVelocity(Vec2 point, Vec2 n, const Transform& xa, Vec2 va, double wa,
                      const Transform& xb, Vec2 vb, double wb) {
    const Vec2 rA = point - xa.p, rB = point - xb.p;
    return glm::dot(vb + cross(wb, rB) - va - cross(wa, rA), n);
}

// Which bodies are in free flight (see the top). None in a world with damping.
std::vector<char> inFreeFlight(const StepContext& c) {
    const WorldSettings& s = c.settings;
    std::vector<char> free(c.bodies.size(), 0);
    if (s.damping != 0 || s.angularDamping != 0) return free;
    for (std::size_t i = 0; i < c.bodies.size(); ++i)
        free[i] = c.bodies[i].isDynamic() && !c.bodies[i].isCompound() && underGravityAlone(c, i);
    if (c.joints) // a joint holds its bodies: the solver's
        for (const Joint& j : *c.joints) {
            free[j.b] = 0;
            if (j.a) free[*j.a] = 0;
        }
    // Paired with a body it cannot bounce off (restitution 0), resting on something (gravity
    // pressing it there), or sunk into it: the solver's and the projection's. Velocities at the
    // start of the step (before the forces' change).
    const bool pressed = s.gravity != Vec2{0, 0};
    for (const Manifold& m : c.contacts) {
        if ((free[m.a] || free[m.b]) && m.restitution == 0) {
            free[m.a] = free[m.b] = 0;
            continue;
        }
        for (int i = 0; i < m.count && (free[m.a] || free[m.b]); ++i) {
            const ContactPoint& cp = m.points[i];
            if (cp.depth <= -s.linearSlop) continue;
            if (cp.depth <= s.linearSlop) { // touching: resting if it barely moves along n
                if (!pressed) continue;
                const Body& A = c.bodies[m.a];
                const Body& B = c.bodies[m.b];
                const double vn = normalVelocity(cp.point, m.normal, A.xf(), A.v - c.motion[m.a].dv,
                                                 A.w - c.motion[m.a].dw, B.xf(),
                                                 B.v - c.motion[m.b].dv, B.w - c.motion[m.b].dw);
                if (!(std::abs(vn) <= s.restitutionThreshold)) continue;
            }
            free[m.a] = free[m.b] = 0;
        }
    }
    // In contact with a body the solver will move: the solver's too, and so, in turn, whatever is
    // in contact with it. (Nothing to do when nothing is left in flight: a pile at rest.)
    if (std::find(free.begin(), free.end(), 1) == free.end()) return free;
    // A walk over the contacts from the held bodies (each body's contacts listed by a counting
    // sort: linear in the bodies and contacts, however long the chains).
    std::vector<std::size_t> first(c.bodies.size() + 1, 0), other(2 * c.contacts.size());
    for (const Manifold& m : c.contacts)
        ++first[m.a + 1], ++first[m.b + 1];
    for (std::size_t i = 0; i < c.bodies.size(); ++i)
        first[i + 1] += first[i];
    std::vector<std::size_t> fill(first.begin(), first.end() - 1);
    for (const Manifold& m : c.contacts)
        other[fill[m.a]++] = m.b, other[fill[m.b]++] = m.a;
    std::vector<BodyId> held;
    for (BodyId i = 0; i < c.bodies.size(); ++i)
        if (!free[i] && (c.bodies[i].type != BodyType::Static || c.bodies[i].isCompound()))
            held.push_back(i);
    while (!held.empty()) {
        const BodyId i = held.back();
        held.pop_back();
        for (std::size_t k = first[i]; k < first[i + 1]; ++k)
            if (free[other[k]]) free[other[k]] = 0, held.push_back(other[k]);
    }
    return free;
}

enum class Outcome { Touches, Never, Unsure };
struct Prediction {
    Outcome outcome;
    double t = 0;
};

// The pair's state at time t from the clocks.
struct PairAt {
    Transform xa, xb;
    Vec2 va, vb;
    double wa, wb;
};
PairAt pairAt(const std::vector<Clock>& clock, const Manifold& m, double t) {
    const Clock& a = clock[m.a];
    const Clock& b = clock[m.b];
    return {poseAt(a, t), poseAt(b, t), velocityAt(a, t), velocityAt(b, t), a.w, b.w};
}

// Whether the pair approaches at a point it touches at (within `reach`, as the strike will find
// it: touchingAt), faster than round-off: kApproaching, or a part in 10⁹ of the speed of its points
// (`speed`) when that is more. A point farther off may approach (a spinning box's other corner)
// but is no impact yet; and the points found here and those the strike measures (impacts.cpp)
// differ in the last digits, which at 14,000 rad/s is more than kApproaching. Either way a pair
// just struck apart seemed to approach still, to be struck again at the same time, with nothing to
// strike, until its strikes ran out.
bool approaches(const PairAt& q, const ShapeManifold& s, double reach, double speed) {
    const double roundOff = std::max(kApproaching, 1e-9 * speed);
    for (int i = 0; i < s.count; ++i)
        if (s.points[i].depth >= -reach && normalVelocity(s.points[i].point, s.normal, q.xa, q.va,
                                                          q.wa, q.xb, q.vb, q.wb) < -roundOff)
            return true;
    return false;
}

// How far a shape at pose xf reaches along the unit direction dir (its support).
double extentAlong(const Shape& shape, const Transform& xf, Vec2 dir) {
    if (shape.type() == ShapeType::Circle) return glm::dot(dir, xf.p) + shape.radius();
    double most = -INFINITY;
    for (Vec2 v : shape.vertices())
        most = std::max(most, glm::dot(dir, xf.apply(v)));
    return most + shape.radius(); // a capsule's rounding about its core; 0 for the others
}

// A pair touching at t0 without approaching is parting, grazing, or was just struck. Convex
// bodies part, but a turning one may come back before the step ends: a spinning triangle's next
// corner. (Left
// to the next step, one was a centimetre deep in a wall by then; the solver took that sunk pair,
// and 12% of an elastic gas's energy with it.) So the rest of the step is sampled, no more than
// kFlightSampleTravel of the smaller inner radius of relative motion apart, for a pose deeper than
// at t0 by the tolerance, and the time it first gets so deep is found by bisection (Hecker's
// Listing 1). Unless it parts along the normal n it touches along faster than turning and the
// forces can bring it back: the overlap of the shapes' extents along n shrinks at least as (n·Δv −
// turning) τ − ½ |Δa| τ² (the centres' relative motion, less how far each turning can carry its
// boundary forward), and no depth is more than the overlap along any direction, so the depth stays
// within the limit if that overlap is within it at t0.
Prediction comesBack(const StepContext& c, const std::vector<Clock>& clock, const Manifold& m,
                     double t0, double depthAtStart, double speed, Vec2 normal) {
    const Body& A = c.bodies[m.a];
    const Body& B = c.bodies[m.b];
    const double tol = c.settings.distanceTolerance;
    const double limit = std::max(depthAtStart, 0.0) + tol;
    const PairAt start = pairAt(clock, m, t0);
    const double overlapAlong =
        extentAlong(soleShape(A), start.xa, normal) + extentAlong(soleShape(B), start.xb, -normal);
    const double parting =
        glm::dot(start.vb - start.va, normal) - turning(A, start.wa) - turning(B, start.wb);
    if (overlapAlong <= limit &&
        parting >= 0.5 * glm::length(clock[m.b].a - clock[m.a].a) * (c.h - t0))
        return {Outcome::Never};
    auto deeper = [&](double t) {
        const PairAt q = pairAt(clock, m, t);
        return deepestDepth(collide(soleShape(A), q.xa, soleShape(B), q.xb, tol)) > limit;
    };
    const double travel = speed * (c.h - t0);
    const double step = kFlightSampleTravel * smallerInnerRadius(soleShape(A), soleShape(B));
    const int n = static_cast<int>(std::min(std::ceil(travel / step), double(kFlightMaxSamples)));
    double last = t0;
    for (int k = 1; k <= std::max(n, 1); ++k) {
        const double t = t0 + (c.h - t0) * k / std::max(n, 1);
        if (deeper(t))
            return {Outcome::Touches,
                    bisectContactTime(last, t, tol / std::max(speed, 1e-300), deeper)};
        last = t;
    }
    return {Outcome::Never};
}

// The first time in [t0, h] at which the pair's bounding circles (about each body's origin, which
// its shape turns about, of its bounding radius) can come within the tolerance of each other, or
// none: before it the shapes inside cannot touch, and no pose need be turned (two sines and
// cosines each) nor shape collided. The centres' offset moves as d(τ) = d0 + u τ + ½ a τ² (u, a:
// the differences of the velocities and of the accelerations), so |d(τ)| ≥ |d0 + u τ| − ½ |a| T²
// over the rest of the step T: the circles stay apart while |d0 + u τ| > R + tol + ½ |a| T², whose
// first root is the closed form of two circles in uniform motion (circleTimeOfImpact).
std::optional<double> boundsMeet(const StepContext& c, const std::vector<Clock>& clock,
                                 const Manifold& m, double t0) {
    const Clock& a = clock[m.a];
    const Clock& b = clock[m.b];
    const double rest = c.h - t0;
    const Vec2 d = positionAt(b, t0) - positionAt(a, t0);
    const Vec2 u = velocityAt(b, t0) - velocityAt(a, t0);
    const double reach = c.bodies[m.a].boundingRadius() + c.bodies[m.b].boundingRadius() +
                         c.settings.distanceTolerance + 0.5 * glm::length(b.a - a.a) * rest * rest;
    if (glm::dot(d, d) <= reach * reach) return t0;
    const auto tau = circleTimeOfImpact(d, u, reach);
    if (!tau || *tau > rest) return std::nullopt;
    return t0 + *tau;
}

// When the pair first touches (within the distance tolerance) and approaches, in [t0, h].
// Conservative advancement (Mirtich, "Impulse-based Dynamic Simulation of Rigid Body Systems",
// 1996): along the manifold's normal n the gap g closes, over the rest of the step, no faster
// than
//   u = −(vB − vA) · n + |aB − aA| (h − t) + |ωA| RA + |ωB| RB     (R: a body's bounding radius;
//                                                                  no term for a circle: turning),
// and the gap along any direction is at most the distance between the shapes, so they cannot
// touch before t + g / u. A pair touching without approaching (parting, just struck, or grazing)
// meets again within the step only by turning (comesBack). The advancement starts where the
// pair's bounding circles can first meet (boundsMeet), and pairs whose circles stay apart are let
// go at once.
Prediction touchTime(const StepContext& c, const std::vector<Clock>& clock, const Manifold& m,
                     double t0) {
    const std::optional<double> near = boundsMeet(c, clock, m, t0);
    if (!near) return {Outcome::Never};
    const Body& A = c.bodies[m.a];
    const Body& B = c.bodies[m.b];
    // Two circles apart with the same acceleration (gravity, or none) are in uniform relative
    // motion, their centres' distance |d + u τ|: they touch at its closed-form root
    // (time_of_impact.h), or never if they do not close or they pass each other. Touching
    // already, they take the general case below.
    if (soleShape(A).type() == ShapeType::Circle && soleShape(B).type() == ShapeType::Circle &&
        clock[m.a].a == clock[m.b].a) {
        const Vec2 d = positionAt(clock[m.b], t0) - positionAt(clock[m.a], t0);
        const Vec2 u = velocityAt(clock[m.b], t0) - velocityAt(clock[m.a], t0);
        const double radii = soleShape(A).radius() + soleShape(B).radius();
        if (glm::dot(d, d) > radii * radii) {
            const auto tau = circleTimeOfImpact(d, u, radii);
            if (!tau || t0 + *tau > c.h) return {Outcome::Never};
            return {Outcome::Touches, t0 + *tau};
        }
    }
    const double tol = c.settings.distanceTolerance;
    const double spin = turning(A, clock[m.a].w) + turning(B, clock[m.b].w);
    const double pull = glm::length(clock[m.b].a - clock[m.a].a);
    auto shapesAt = [&](const PairAt& q, double margin) {
        return collide(soleShape(A), q.xa, soleShape(B), q.xb, margin);
    };
    double t = *near, safe = *near;
    for (int k = 0; k < kFlightMaxAdvances; ++k) {
        PairAt q = pairAt(clock, m, t);
        const double reach = (glm::length(q.vb - q.va) + pull * (c.h - t) + spin) * (c.h - t);
        ShapeManifold s = shapesAt(q, reach + tol);
        if (s.count == 0) return {Outcome::Never}; // farther apart than they can close in the step
        if (deepestDepth(s) > tol && t > t0) {     // advanced past the contact: back to it
            auto penetrates = [&](double x) {
                return deepestDepth(shapesAt(pairAt(clock, m, x), tol)) > tol;
            };
            const double speed = glm::length(q.vb - q.va) + pull * (c.h - t0) + spin;
            const double resolution = tol / std::max(speed, 1e-300);
            t = bisectContactTime(safe, t, resolution, penetrates);
            q = pairAt(clock, m, t);
            s = shapesAt(q, 2 * tol);
            if (s.count == 0) {
                // Two corners passing each other: their clipped points jump from a gap of 0.1 mm
                // to as deep within the bisection's resolution, never touching on the way. They
                // are struck where they first overlap, the resolution later.
                t += resolution;
                q = pairAt(clock, m, t);
                s = shapesAt(q, 2 * tol);
                if (s.count == 0) return {Outcome::Unsure};
            }
        }
        const double gap = -deepestDepth(s);
        if (gap <= tol) {
            const double speed = glm::length(q.vb - q.va) + pull * (c.h - t) + spin;
            if (approaches(q, s, 2 * tol, speed)) return {Outcome::Touches, t};
            return comesBack(c, clock, m, t, -gap, speed, s.normal);
        }
        const double closing = -glm::dot(q.vb - q.va, s.normal) + pull * (c.h - t) + spin;
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
    const double tol = c.settings.distanceTolerance;
    const PairAt q = pairAt(clock, m, t);
    const ShapeManifold s =
        collide(soleShape(c.bodies[m.a]), q.xa, soleShape(c.bodies[m.b]), q.xb, 2 * tol);
    Manifold out = m;
    out.normal = s.normal;
    out.count = 0;
    for (int i = 0; i < s.count; ++i)
        if (s.points[i].depth > -2 * tol)
            out.points[out.count++] =
                ContactPoint{s.points[i].point, s.points[i].depth, s.points[i].id};
    return out;
}

// How fast the manifold's points approach at the bodies' poses and velocities now (m/s; 0 if
// none does).
double fastestApproach(const StepContext& c, const Manifold& m) {
    const Body& A = c.bodies[m.a];
    const Body& B = c.bodies[m.b];
    double fastest = 0;
    for (int i = 0; i < m.count; ++i)
        fastest = std::max(fastest, -normalVelocity(m.points[i].point, m.normal, A.xf(), A.v, A.w,
                                                    B.xf(), B.v, B.w));
    return fastest;
}

} // namespace

namespace {

// A pair the stage settles: its manifold (from the step's contacts, or found when a strike sent
// one of its bodies farther than the contacts reached), when it next touches, how often it struck.
struct Candidate {
    Manifold m;
    std::size_t contact; // its index in the step's contacts; kFound for a pair found here
    Prediction next;
    int strikes = 0, slowStrikes = 0;
    std::uint32_t version =
        0; // how often `next` was predicted: the queue's older entries are stale
};
bool struckTooOften(const Candidate& k) {
    return k.strikes >= kStrikesPerPair || k.slowStrikes >= kSlowStrikesPerPair;
}
constexpr std::size_t kFound = ~std::size_t{0};

// A predicted impact in the queue: the pair `index` touches at t, as predicted for the version.
struct Event {
    double t;
    std::size_t index;
    std::uint32_t version;
};
// The queue's order: the earliest first, and of impacts at the same time the pair listed first
// (the order of the step's contacts, then of the pairs found), so serial impacts at one instant
// (Newton's cradle) are struck in a fixed order.
bool later(const Event& x, const Event& y) {
    return x.t > y.t || (x.t == y.t && x.index > y.index);
}

// The pairs the stage settles, with each body's pairs and the queue of their impacts. Each
// strike predicts again only the pairs of its two bodies, and takes the next impact from the
// queue: a step's work grows with its strikes and their bodies' pairs, not with all its pairs.
struct Flights {
    std::vector<Candidate> candidates;
    std::vector<char> isSettled;                  // by the step's contacts
    std::vector<std::vector<std::size_t>> byBody; // each body in flight's pairs (indices)
    std::vector<Event> queue;                     // a heap by `later`
    std::optional<BodyGrid> grid;                 // the bodies new pairs are looked for among

    // Empty, for a step of a world of n bodies (the memory kept from the last step).
    void reset(std::size_t n) {
        candidates.clear();
        for (auto& pairs : byBody)
            pairs.clear();
        byBody.resize(n);
        queue.clear();
        grid.reset();
    }
    void add(Candidate k) {
        const std::size_t i = candidates.size();
        candidates.push_back(k);
        byBody[k.m.a].push_back(i);
        byBody[k.m.b].push_back(i);
        enqueue(i);
    }
    void predict(std::size_t i, Prediction next) {
        candidates[i].next = next;
        ++candidates[i].version;
        enqueue(i);
    }
    void enqueue(std::size_t i) {
        const Candidate& k = candidates[i];
        if (k.next.outcome != Outcome::Touches || struckTooOften(k)) return;
        queue.push_back(Event{k.next.t, i, k.version});
        std::push_heap(queue.begin(), queue.end(), later);
    }
    // The pair that strikes next, or none.
    Candidate* next() {
        while (!queue.empty()) {
            std::pop_heap(queue.begin(), queue.end(), later);
            const Event e = queue.back();
            queue.pop_back();
            Candidate& k = candidates[e.index];
            if (e.version == k.version) return &k;
        }
        return nullptr;
    }
};

// A box that holds the body over the rest of the step from its clock's time, grown by what
// findNewPairs' reach asks of the body's side at any later time t: with rest T = h − t_clock,
// its centre moves at most |v| T + ½ |a| T², and findNewPairs reaches (|v(t)| + |a| T + turning) T
// + R for it, |v(t)| ≤ |v| + |a| T; both within (2 |v| + 3 |a| T + turning) T + R.
Aabb reachBox(const StepContext& c, const Clock& k, BodyId id) {
    const double rest = c.h - k.t;
    const Body& b = c.bodies[id];
    const double r = b.boundingRadius() +
                     (2 * glm::length(k.v) + 3 * glm::length(k.a) * rest + turning(b, k.w)) * rest;
    return Aabb{k.p - Vec2{r, r}, k.p + Vec2{r, r}};
}

// The grid of the bodies that take part, in cells twice the median body's bounding diameter.
BodyGrid gridOf(const StepContext& c, const std::vector<Clock>& clock,
                const std::vector<char>& takesPart) {
    std::vector<double> sizes;
    for (BodyId i = 0; i < c.bodies.size(); ++i)
        if (takesPart[i]) sizes.push_back(c.bodies[i].boundingRadius());
    std::nth_element(sizes.begin(), sizes.begin() + sizes.size() / 2, sizes.end());
    BodyGrid grid(c.bodies.size(), 4 * sizes[sizes.size() / 2]);
    for (BodyId i = 0; i < c.bodies.size(); ++i)
        if (takesPart[i]) grid.insert(i, reachBox(c, clock[i], i));
    return grid;
}

// A body just struck at time t may now reach bodies that the step's contacts, found for the speeds
// at its start, did not pair it with: the pairs of it with every body in flight or static whose
// bounding circles the two can close within the rest of the step. Those bodies are among the ones
// the grid lists near its own reach (reachBox, the other side of the same bound).
void findNewPairs(const StepContext& c, const std::vector<Clock>& clock,
                  const std::vector<char>& takesPart, BodyId id, double t, Flights& f) {
    if (!f.grid) f.grid = gridOf(c, clock, takesPart);
    const Body& B = c.bodies[id];
    const double rest = c.h - t, tol = c.settings.distanceTolerance;
    const Vec2 p = positionAt(clock[id], t), v = velocityAt(clock[id], t);
    const double near =
        B.boundingRadius() +
        (glm::length(v) + glm::length(clock[id].a) * rest + turning(B, clock[id].w)) * rest + tol;
    // (Scratch kept from call to call: a cascade of strikes asks tens of thousands of times a
    // step.)
    static thread_local std::vector<BodyId> nearby, partners, unpaired;
    nearby.clear();
    partners.clear();
    unpaired.clear();
    f.grid->query(Aabb{p - Vec2{near, near}, p + Vec2{near, near}}, [&](BodyId j) {
        if (j != id && takesPart[j]) nearby.push_back(j);
    });
    // The bodies it is paired with already.
    for (std::size_t i : f.byBody[id]) {
        const Manifold& m = f.candidates[i].m;
        partners.push_back(m.a == id ? m.b : m.a);
    }
    std::sort(partners.begin(), partners.end());
    std::sort(nearby.begin(), nearby.end()); // pairs found in the bodies' order
    std::set_difference(nearby.begin(), nearby.end(), partners.begin(), partners.end(),
                        std::back_inserter(unpaired));
    for (BodyId j : unpaired) {
        const Body& O = c.bodies[j];
        if (sameGroup(B, O)) continue;
        const double reach = (glm::length(velocityAt(clock[j], t) - v) +
                              glm::length(clock[j].a - clock[id].a) * rest +
                              turning(O, clock[j].w) + turning(B, clock[id].w)) *
                                 rest +
                             tol;
        const double apart =
            glm::length(positionAt(clock[j], t) - p) - B.boundingRadius() - O.boundingRadius();
        if (apart > reach) continue;
        const BodyId a = std::min(id, j), b = std::max(id, j);
        const ShapeManifold sm = collide(soleShape(c.bodies[a]), poseAt(clock[a], t),
                                         soleShape(c.bodies[b]), poseAt(clock[b], t), reach);
        if (sm.count == 0) continue;
        Candidate k{manifoldOf(c.settings, ShapePairKey{a, b, 0, 0}, c.bodies[a], c.bodies[b], sm),
                    kFound,
                    {}};
        k.next = touchTime(c, clock, k.m, t);
        f.add(k);
    }
}

// Whether the pair's bodies keep their relative pose over the step: neither turns and they move
// alike. Such a pair meets nothing new (touching, it stays as it is; apart, it stays apart).
bool stillTogether(const std::vector<Clock>& clock, const Manifold& m) {
    const Clock& a = clock[m.a];
    const Clock& b = clock[m.b];
    return a.w == 0 && b.w == 0 && a.v == b.v && a.a == b.a;
}

} // namespace

void strikeImpactsInFlight(StepContext& c, std::vector<Manifold>& settled) {
    settled.clear();
    const std::vector<char> free = inFreeFlight(c);
    // Nothing to do without a body in flight, nor, without gravity, without pairs (the
    // integrator's flight is then exact).
    if (std::find(free.begin(), free.end(), 1) == free.end()) return;
    std::vector<char> takesPart(c.bodies.size());
    for (std::size_t i = 0; i < c.bodies.size(); ++i)
        takesPart[i] =
            free[i] || (c.bodies[i].type == BodyType::Static && !c.bodies[i].isCompound());
    const bool gravity = c.settings.gravity != Vec2{0, 0};
    // The stage's memory is kept from step to step: a crowd's tens of thousands of pairs would
    // otherwise be allocated, and their pages faulted in, anew each step.
    static thread_local Flights f;
    f.reset(c.bodies.size());
    for (std::size_t j = 0; j < c.contacts.size(); ++j) {
        const Manifold& m = c.contacts[j];
        if ((free[m.a] || free[m.b]) && takesPart[m.a] && takesPart[m.b])
            f.candidates.push_back(Candidate{m, j, {}});
    }
    if (f.candidates.empty() && !gravity) return;

    // Clocks at the start of the step: the velocities before the forces' change.
    const std::vector<Pose> start = save(c.bodies);
    std::vector<Clock> clock(c.bodies.size());
    for (std::size_t i = 0; i < c.bodies.size(); ++i) {
        const Body& b = c.bodies[i];
        const Vec2 v = free[i] ? b.v - c.motion[i].dv : b.v;
        const double w = free[i] ? b.w - c.motion[i].dw : b.w;
        const Vec2 a = free[i] ? c.settings.gravity : Vec2{0, 0};
        clock[i] = Clock{start[i].xf.p, start[i].angle, start[i].xf.q, v, w, 0, a};
    }
    for (std::size_t i = 0; i < f.candidates.size(); ++i) {
        Candidate& k = f.candidates[i];
        k.next =
            stillTogether(clock, k.m) ? Prediction{Outcome::Never} : touchTime(c, clock, k.m, 0);
        f.byBody[k.m.a].push_back(i);
        f.byBody[k.m.b].push_back(i);
        f.enqueue(i);
    }
    // The step's contacts pair each body with every body the two motions at the step's start could
    // bring within two slops of it (updateContacts: closingReach). A strike turns a body off that
    // motion: by the step's end, by at most |Δv| (h − t) + |Δω| R (h − t), added up over its
    // strikes (departed). Past the slop, its pairs with the bodies its motion now may reach are
    // looked for, at that strike and every later one.
    std::vector<double> departed(c.bodies.size(), 0.0);
    std::vector<char> struck(c.bodies.size(), 0);

    while (Candidate* first = f.next()) {
        const Manifold m = first->m;
        const double t = first->next.t;
        std::vector<Manifold> touching{touchingAt(c, clock, m, t)};
        // Both bodies to time t: resolveImpacts measures anchors from the bodies' poses and
        // changes their velocities.
        for (BodyId id : {m.a, m.b}) {
            if (!free[id]) continue;
            Body& b = c.bodies[id];
            b.setPose(positionAt(clock[id], t), angleAt(clock[id], t));
            b.v = velocityAt(clock[id], t);
            b.w = clock[id].w;
        }
        if (fastestApproach(c, touching[0]) < c.settings.restitutionThreshold) ++first->slowStrikes;
        const Impacts impacts =
            resolveImpacts(c.bodies, touching, c.settings.collisionHandling, c.h);
        const int struckPoints = impacts.struck;
        c.diagnostics.guards.bounceMadePoisson += impacts.bounceMadePoisson;
        c.diagnostics.guards.bounceCut += impacts.bounceCut;
        c.diagnostics.collisions += struckPoints;
        if (struckPoints > 0) { // touched and parted within the step; its manifold leaves below
            c.events.push_back(ContactEvent{m.a, m.b, true});
            c.events.push_back(ContactEvent{m.a, m.b, false});
        }
        ++first->strikes;
        for (BodyId id : {m.a, m.b}) {
            if (!free[id]) continue;
            const Body& b = c.bodies[id];
            departed[id] += (glm::length(b.v - velocityAt(clock[id], t)) +
                             std::abs(b.w - clock[id].w) * b.boundingRadius()) *
                            (c.h - t);
            clock[id] = Clock{b.xf().p, b.angle(), b.xf().q, b.v, b.w, t, clock[id].a};
            struck[id] = 1;
            if (f.grid) f.grid->insert(id, reachBox(c, clock[id], id)); // where it may go now
        }
        // The pairs of the struck bodies whose motion changed (a static body's does not: a wall's
        // other pairs stand as they were predicted); the pair of the two, once.
        for (BodyId id : {m.a, m.b}) {
            if (!free[id]) continue;
            for (std::size_t i : f.byBody[id]) {
                const Manifold& p = f.candidates[i].m;
                if (id == m.b && (p.a == m.a || p.b == m.a) && free[m.a]) continue;
                f.predict(i, touchTime(c, clock, p, t));
            }
        }
        for (BodyId id : {m.a, m.b})
            if (free[id] && departed[id] > c.settings.linearSlop)
                findNewPairs(c, clock, takesPart, id, t, f);
    }

    // Each body in flight from its start to where its clock puts it at the end of the step, as
    // its free motion (the solver's velocity changes are added to it by integratePositions).
    for (std::size_t i = 0; i < c.bodies.size(); ++i) {
        c.motion[i].flown = free[i];
        if (!free[i] || !(struck[i] || gravity)) continue;
        Body& b = c.bodies[i];
        b.v = velocityAt(clock[i], c.h);
        b.w = clock[i].w;
        Motion& motion = c.motion[i];
        motion.v = b.v;
        motion.w = b.w;
        motion.dx = positionAt(clock[i], c.h) - start[i].xf.p;
        motion.dAngle = angleAt(clock[i], c.h) - start[i].angle;
        if (struck[i]) b.setPose(start[i].xf.p, start[i].angle);
    }
    // The pairs settled here leave the step's contacts; those not settled stay with the solver.
    // (A pair found here and not settled is left to the next step, which finds it again.)
    f.isSettled.assign(c.contacts.size(), 0);
    for (const Candidate& k : f.candidates)
        if (k.contact != kFound)
            f.isSettled[k.contact] = k.next.outcome != Outcome::Unsure && !struckTooOften(k);
    std::size_t kept = 0;
    for (std::size_t j = 0; j < c.contacts.size(); ++j) {
        if (f.isSettled[j])
            settled.push_back(c.contacts[j]);
        else
            c.contacts[kept++] = c.contacts[j];
    }
    c.contacts.resize(kept);
}

void returnSettledContacts(StepContext& c, const std::vector<Manifold>& settled) {
    if (settled.empty()) return;
    // Both lists are in the order of their pairs; merged from the back into the contacts' own
    // memory (which held them all before the flights took some).
    auto before = [](const Manifold& x, const Manifold& y) { return pairBefore(x, y); };
    std::size_t i = c.contacts.size(), j = settled.size();
    c.contacts.resize(i + j);
    for (std::size_t out = i + j; j > 0;)
        c.contacts[--out] =
            i > 0 && before(settled[j - 1], c.contacts[i - 1]) ? c.contacts[--i] : settled[--j];
}

} // namespace carom
