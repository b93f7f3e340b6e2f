// Impacts at one instant of the exact method.
//
// The impulse of a single contact is Hecker's Eq. 9 ("Collision Response", 1997) in 2D:
//   j = −(1 + e) v_n / (1/mA + 1/mB + (rA × n)²/IA + (rB × n)²/IB),
// applied +j n to B and −j n to A (contact_math.h: v_n < 0 approaching; static bodies have zero
// inverse mass and inertia). With e = 1 it leaves the kinetic energy unchanged whatever the point
// and normal: ΔKE = j v_n + j²k/2 = 0 for j = −2 v_n / k.
//
// Several points touching at once (a block landing flat, a ball hitting two touching balls,
// Newton's cradle) form collision groups: the bodies linked by touching contacts. Three ways to
// resolve them, as myPhysicsLab offers (Neumann, "Multiple Simultaneous Collisions"):
// - serial: strike the most approaching contact (the points of one manifold together, as
//   below), then the next, until no point approaches. In Newton's cradle the impulse runs down
//   the row and only the last ball leaves: the classic answer, hence the default. Once the most
//   approaching point is a resting contact, so are all the others: they are stopped together, as
//   below with no bounce (striking a stack's points one at a time converges far too slowly).
// - hybrid: as serial, but the most approaching contact is struck together with every other
//   contact of its two (moving) bodies, solved simultaneously as below. In Newton's cradle the
//   first ball bounces back at −1/3 of its speed and the last two leave together at 2/3 of it.
// - simultaneous: find impulses λ ≥ 0 together so that every point that was approaching at v_n
//   leaves at ≥ −e v_n and no other point approaches: a linear complementarity problem, solved by
//   projected Gauss-Seidel (Catto's sequential impulses run to convergence).
// Both act on all groups at once: an impulse in one group never changes a velocity in another,
// so this is the same as solving group by group.
//
// Impacts take Coulomb friction too, as the contact solver does: each point's tangential impulse
// opposes its sliding, clamped to μ times its normal impulse (the cone).
#include "impacts/impacts.h"
#include "tuning.h"

#include "solver/contact_math.h"

#include <algorithm>
#include <cmath>

namespace carom {
namespace {

struct Point {
    Manifold* m;
    Anchors r;          // the point relative to each body's centre of mass
    double mass;        // effective mass along the normal, 1/k of Eq. 9
    double tangentMass; // the same along the tangent
    double resting;     // m/s: approach the forces alone produce in a step; slower = resting
};

double velocityAlong(const std::vector<Body>& bodies, const Point& p, Vec2 d) {
    const Body& A = bodies[p.m->a];
    const Body& B = bodies[p.m->b];
    return glm::dot(relativeVelocity(A, B, p.r.a, p.r.b), d);
}

double normalVelocity(const std::vector<Body>& bodies, const Point& p) {
    return velocityAlong(bodies, p, p.m->normal);
}

// A bound on the speeds of the two bodies' material points at p: |vA| + |ωA| |rA| + |vB| + |ωB|
// |rB|.
double speedAt(const std::vector<Body>& bodies, const Point& p) {
    return speedScale(bodies[p.m->a], bodies[p.m->b], p.r.a, p.r.b);
}

void push(std::vector<Body>& bodies, const Point& p, Vec2 impulse) {
    applyImpulse(bodies[p.m->a], bodies[p.m->b], p.r.a, p.r.b, impulse);
}

void push(std::vector<Body>& bodies, const Point& p, double j) {
    push(bodies, p, j * p.m->normal);
}

} // namespace

double restingApproach(const Body& A, const Body& B, const Anchors& r, Vec2 n, double h,
                       Held held) {
    auto accel = [](const Body& b, Vec2 arm) {
        return b.invMass * b.force + cross(b.invInertia * b.torque, arm);
    };
    const Vec2 aA = accel(A, r.a), aB = accel(B, r.b);
    double approach = -glm::dot(aB - aA, n);
    if (held.a) approach = std::max(approach, -glm::dot(aB, n));
    if (held.b) approach = std::max(approach, glm::dot(aA, n));
    return std::max(0.0, approach * h);
}

bool meetsAtRest(double resting, double vn, double gap, double h) {
    const double a = resting / h;          // the forces' normal acceleration towards each other
    if (!(a > 0) && vn >= 0) return false; // they never meet
    const double meeting2 = a > 0 ? vn * vn + 2 * a * gap : vn * vn;
    const double limit = std::max(resting, kApproaching);
    return meeting2 <= limit * limit;
}

std::vector<int> manifoldsPerBody(std::size_t bodies, const std::vector<Manifold>& manifolds) {
    std::vector<int> count(bodies, 0);
    for (const Manifold& m : manifolds) {
        ++count[m.a];
        ++count[m.b];
    }
    return count;
}

namespace {

bool approaching(double vn) {
    return vn < -kApproaching;
}

// An impact bounces; a slower approach is a resting contact and stops dead (restitution 0), so
// that the solver holding it during the advance only has the forces of the interval to cancel.
bool isImpact(double vn, const Point& p) {
    return vn < -std::max(p.resting, kApproaching);
}

double restitutionOf(double vn, const Point& p) {
    return isImpact(vn, p) ? p.m->restitution : 0.0;
}

// The impulses accumulated at each point, normal and tangential (N·s).
struct Accumulated {
    std::vector<double> normal, tangent;
    explicit Accumulated(std::size_t n) : normal(n, 0.0), tangent(n, 0.0) {}
};

// Projected Gauss-Seidel on the accumulated impulses (Catto's sequential impulses, one point at a
// time as the contact solver does it: contact_math.h), per point Coulomb friction clamped to the
// cone, then the normal impulse, until a pass changes no velocity by more than `tolerance` (m/s).
// Without `friction`, only the normal impulses. The two points of one manifold (a serial strike's
// group) have their normal impulses found together, exactly (Catto's block solver: solveBlockLcp):
// one after the other, two points of an edge, whose constraints are nearly the same, converged by
// a few parts in a thousand a pass (hundreds of passes per strike, most of a crowded scene's step).
void solveTogether(std::vector<Body>& bodies, const std::vector<Point>& points,
                   const std::vector<double>& target, double tolerance, bool friction,
                   Accumulated& acc, int maxPasses = kImpactMaxPasses) {
    std::vector<double>& lambda = acc.normal;
    std::vector<double>& lambdaT = acc.tangent;
    // Points i and i + 1 of one manifold are a pair, and blocks[i] is their K.
    auto paired = [&](std::size_t i) {
        return i + 1 < points.size() && points[i].m == points[i + 1].m;
    };
    std::vector<BlockMatrix> blocks(points.size());
    for (std::size_t i = 0; i + 1 < points.size(); ++i)
        if (const Point& p = points[i], &q = points[i + 1]; paired(i))
            blocks[i] = blockMatrix(bodies[p.m->a], bodies[p.m->b], p.r.a, p.r.b, q.r.a, q.r.b,
                                    p.m->normal);
    double least = INFINITY;
    for (int it = 0, stalled = 0; it < maxPasses && stalled < kStalledPasses; ++it) {
        double change = 0; // largest velocity change of the pass, m/s
        auto setNormal = [&](std::size_t i, double next) {
            push(bodies, points[i], next - lambda[i]);
            change = std::max(change, std::abs(next - lambda[i]) / points[i].mass);
            lambda[i] = next;
        };
        for (std::size_t i = 0; i < points.size();) {
            const std::size_t n = paired(i) ? 2 : 1;
            for (std::size_t k = i; k < i + n && friction; ++k) {
                const Point& p = points[k];
                if (p.m->friction <= 0 || p.tangentMass <= 0) continue;
                const Vec2 t = tangentOf(p.m->normal);
                const double limit = p.m->friction * lambda[k];
                const double next = nextTangentImpulse(lambdaT[k], p.tangentMass,
                                                       velocityAlong(bodies, p, t), limit);
                push(bodies, p, (next - lambdaT[k]) * t);
                change = std::max(change, std::abs(next - lambdaT[k]) / p.tangentMass);
                lambdaT[k] = next;
            }
            // b of the block: the velocities short of their targets, the accumulated impulses
            // taken back out.
            const BlockMatrix& K = blocks[i];
            double x1 = 0, x2 = 0;
            if (n == 2 && solveBlockLcp(K,
                                        normalVelocity(bodies, points[i]) - target[i] -
                                            (K.k11 * lambda[i] + K.k12 * lambda[i + 1]),
                                        normalVelocity(bodies, points[i + 1]) - target[i + 1] -
                                            (K.k12 * lambda[i] + K.k22 * lambda[i + 1]),
                                        x1, x2)) {
                setNormal(i, x1);
                setNormal(i + 1, x2);
            } else {
                for (std::size_t k = i; k < i + n; ++k)
                    setNormal(k, nextNormalImpulse(lambda[k], points[k].mass, target[k],
                                                   normalVelocity(bodies, points[k])));
            }
            i += n;
        }
        if (change <= tolerance) break;
        stalled = change < least ? 0 : stalled + 1;
        least = std::min(least, change);
    }
}

// The bodies the points join, each once.
std::vector<BodyId> bodiesOf(const std::vector<Point>& points) {
    std::vector<BodyId> ids;
    for (const Point& p : points)
        for (BodyId id : {p.m->a, p.m->b})
            if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
    return ids;
}

// Their velocities, to put back.
struct Velocities {
    std::vector<BodyId> ids;
    std::vector<Vec2> v;
    std::vector<double> w;
};
Velocities velocitiesOf(const std::vector<Body>& bodies, const std::vector<BodyId>& ids) {
    Velocities s{ids, {}, {}};
    for (BodyId id : ids) {
        s.v.push_back(bodies[id].v);
        s.w.push_back(bodies[id].w);
    }
    return s;
}
void putBack(std::vector<Body>& bodies, const Velocities& s) {
    for (std::size_t k = 0; k < s.ids.size(); ++k) {
        bodies[s.ids[k]].v = s.v[k];
        bodies[s.ids[k]].w = s.w[k];
    }
}
double kineticEnergyOf(const std::vector<Body>& bodies, const Velocities& s) {
    double e = 0;
    for (BodyId id : s.ids)
        e += bodies[id].kineticEnergy();
    return e;
}

// The bounce from `held` to the bodies' velocities now, cut to the fraction s that leaves the
// kinetic energy at `ke`: along the bounce Δ, KE(s) = KE(held) + b s + a s² with
// a = ½ Σ (m |Δv|² + I Δω²) and b = Σ (m v·Δv + I ω Δω), solved for its positive root. Poisson's
// bounce keeps the energy only as exactly as the hold converged: two points a few micrometres
// apart on one edge, nearly the same constraint twice, left a 50 J spin 1 J richer.
void bounceNoMoreThan(std::vector<Body>& bodies, const Velocities& held, double ke) {
    double a = 0, b = 0, c = -ke;
    for (std::size_t k = 0; k < held.ids.size(); ++k) {
        const Body& body = bodies[held.ids[k]];
        const Vec2 dv = body.v - held.v[k];
        const double dw = body.w - held.w[k];
        a += 0.5 * (body.mass * lengthSquared(dv) + body.inertia * dw * dw);
        b += body.mass * glm::dot(held.v[k], dv) + body.inertia * held.w[k] * dw;
        c += 0.5 * (body.mass * lengthSquared(held.v[k]) + body.inertia * held.w[k] * held.w[k]);
    }
    const double disc = b * b - 4 * a * c;
    const double s =
        a > 0 && disc >= 0 ? std::clamp(2 * -c / (b + std::sqrt(disc)), 0.0, 1.0) : 0.0;
    for (std::size_t k = 0; k < held.ids.size(); ++k) {
        Body& body = bodies[held.ids[k]];
        body.v = held.v[k] + s * (body.v - held.v[k]);
        body.w = held.w[k] + s * (body.w - held.w[k]);
    }
}

int simultaneous(std::vector<Body>& bodies, const std::vector<Point>& points, Impacts& guards) {
    int impacts = 0;
    bool any = false;
    std::vector<double> target(points.size(), 0.0), restitution(points.size(), 0.0);
    for (std::size_t i = 0; i < points.size(); ++i) {
        double vn = normalVelocity(bodies, points[i]);
        if (!approaching(vn)) continue;
        restitution[i] = restitutionOf(vn, points[i]);
        target[i] = -restitution[i] * vn;
        any = true;
        if (isImpact(vn, points[i])) ++impacts;
    }
    if (!any) return impacts;
    // Impacts converge to round-off of the largest speed: of a target, or of the bodies at a point,
    // whose normal velocity is known to round-off of it (a point of a box 50 m across spinning at
    // 500 rad/s moves at 25,000 m/s: its v_n wanders by 1e-12 m/s from pass to pass, and a
    // tolerance scaled by the targets alone, 1e-13 at rest, ran every such strike 10,000 passes).
    double scale = 1;
    for (std::size_t i = 0; i < points.size(); ++i)
        scale = std::max({scale, std::abs(target[i]), speedAt(bodies, points[i])});
    // As the contact solver does it: first the contacts hold, their approach stopped, with
    // friction; then restitution drives the impacts apart, normal impulses only. For one point
    // without friction that is Eq. 9; with friction, bouncing on a friction impulse computed for
    // the bounce could give back more energy than the impact brought.
    // A restitution gives back what the impact took, no more; but Newton's law at several points
    // at once does not bound the energy: a polygon striking a wall on one corner while its other
    // corner, sunk a little, is kept from approaching, left with 658 J more than it brought (an
    // elastic gas, flight_impacts.cpp). Then the bounce is Poisson's instead: each point's
    // compression impulse λ (the holding solve's) given again, e times. Without friction that
    // never makes energy: with A = J M⁻¹ Jᵀ and λ·(J v0 + A λ) = 0 (the hold's complementarity),
    //   ΔKE = (1 + e) λ·J v0 + ½ (1 + e)² λ·A λ = −½ (1 − e²) λ·A λ ≤ 0,
    // and keeps it exactly at e = 1 (Poisson's hypothesis: Stronge, "Impact Mechanics", 2000).
    // If that makes energy too (a hold converged only so far, friction, or restitutions that
    // differ from point to point), the bounce is cut to what keeps the energy. A kinematic body
    // brings energy of its own: with one, the bounce is kept.
    const std::vector<BodyId> ids = bodiesOf(points);
    const Velocities before = velocitiesOf(bodies, ids);
    const double ke = kineticEnergyOf(bodies, before);
    Accumulated acc(points.size());
    const std::vector<double> hold(points.size(), 0.0);
    solveTogether(bodies, points, hold, kImpactConvergence * scale, true, acc);
    const Velocities held = velocitiesOf(bodies, ids);
    const std::vector<double> compression = acc.normal;
    solveTogether(bodies, points, target, kImpactConvergence * scale, false, acc);
    const bool driven = std::any_of(
        ids.begin(), ids.end(), [&](BodyId id) { return bodies[id].type == BodyType::Kinematic; });
    auto madeEnergy = [&] { return !driven && kineticEnergyOf(bodies, before) > ke * (1 + 1e-12); };
    if (madeEnergy()) {
        ++guards.bounceMadePoisson;
        putBack(bodies, held);
        for (std::size_t i = 0; i < points.size(); ++i)
            push(bodies, points[i], restitution[i] * compression[i]);
        if (madeEnergy()) {
            ++guards.bounceCut;
            bounceNoMoreThan(bodies, held, ke);
        }
    }
    return impacts;
}

// The points struck together with the worst one. Serial: its manifold's points, so that a block
// landing flat on two corners, or two boxes meeting face to face, do not spin. Hybrid
// (myPhysicsLab's): every point on either of its two bodies that can move, the focus collision
// and its neighbours solved simultaneously.
std::vector<std::size_t> strikeGroup(const std::vector<Body>& bodies,
                                     const std::vector<Point>& points, std::size_t worst,
                                     CollisionHandling handling) {
    const Manifold& focus = *points[worst].m;
    auto joins = [&](const Manifold& m, BodyId id) {
        return bodies[id].isDynamic() && (m.a == id || m.b == id);
    };
    std::vector<std::size_t> group;
    for (std::size_t i = 0; i < points.size(); ++i) {
        const Manifold& m = *points[i].m;
        const bool neighbour =
            handling == CollisionHandling::Hybrid && (joins(m, focus.a) || joins(m, focus.b));
        if (&m == &focus || neighbour) group.push_back(i);
    }
    return group;
}

// Strikes the most approaching point with its group, then the next, until none approaches.
// Counts the points that had an impact, each once however often the chain strikes it.
Impacts serial(std::vector<Body>& bodies, const std::vector<Point>& points,
               CollisionHandling handling) {
    Impacts impacts;
    std::vector<bool> struck(points.size(), false);
    const int limit =
        std::min(kStrikesPerPoint * (static_cast<int>(points.size()) + 1), kMaxStrikesPerInstant);
    // Each point's normal velocity, kept up to date: a strike changes the velocities of its
    // group's bodies only, so only their points are measured again (an instant of a crowd has
    // hundreds of points and up to kMaxStrikesPerInstant strikes). byBody: (body, point), sorted;
    // made at the first strike (a pile at rest strikes nothing).
    std::vector<double> vn(points.size());
    for (std::size_t i = 0; i < points.size(); ++i)
        vn[i] = normalVelocity(bodies, points[i]);
    std::vector<std::pair<BodyId, std::size_t>> byBody;
    int strikes = 0;
    double resting = 0; // the fastest resting approach left, m/s
    for (; strikes < limit; ++strikes) {
        std::size_t worst = points.size();
        for (std::size_t i = 0; i < points.size(); ++i)
            if (approaching(vn[i]) && (worst == points.size() || vn[i] < vn[worst])) worst = i;
        if (worst == points.size()) return impacts;
        if (!isImpact(vn[worst], points[worst])) { // only resting approaches are left
            resting = -vn[worst];
            break;
        }
        std::vector<Point> group;
        for (std::size_t i : strikeGroup(bodies, points, worst, handling)) {
            if (!struck[i] && isImpact(vn[i], points[i])) {
                struck[i] = true;
                ++impacts.struck;
            }
            group.push_back(points[i]);
        }
        simultaneous(bodies, group, impacts);
        if (byBody.empty()) {
            for (std::size_t i = 0; i < points.size(); ++i) {
                byBody.push_back({points[i].m->a, i});
                byBody.push_back({points[i].m->b, i});
            }
            std::sort(byBody.begin(), byBody.end());
        }
        for (BodyId id : bodiesOf(group))
            for (auto it =
                     std::lower_bound(byBody.begin(), byBody.end(), std::pair{id, std::size_t{0}});
                 it != byBody.end() && it->first == id; ++it)
                vn[it->second] = normalVelocity(bodies, points[it->second]);
    }
    // Resting contacts (a stack), or a chain that will not settle: no point may approach, none
    // bounces. Resting approaches already within the tolerance the solve brings them to need none
    // (a stack at rest after each advance: its first pass changed no velocity by more, 15% of the
    // pyramid of base 20's step for its setup).
    impacts.chainStopped = strikes == limit;
    if (!impacts.chainStopped && resting <= kRestingTolerance) return impacts;
    std::vector<double> zero(points.size(), 0.0);
    Accumulated acc(points.size());
    solveTogether(bodies, points, zero, kRestingTolerance, false, acc, kRestingPasses);
    return impacts;
}

} // namespace

Impacts resolveImpacts(std::vector<Body>& bodies, std::vector<Manifold>& touching,
                       CollisionHandling handling, double h) {
    std::vector<Point> points;
    const std::vector<int> contacts = manifoldsPerBody(bodies.size(), touching);
    for (Manifold& m : touching) {
        const Body& A = bodies[m.a];
        const Body& B = bodies[m.b];
        const Held held{contacts[m.a] > 1, contacts[m.b] > 1};
        for (int i = 0; i < m.count; ++i) {
            const Anchors r = anchorsOf(A, B, m.points[i]);
            double mass = effectiveMass(A, B, r.a, r.b, m.normal);
            if (mass <= 0) continue;
            double tangentMass = effectiveMass(A, B, r.a, r.b, tangentOf(m.normal));
            points.push_back(
                Point{&m, r, mass, tangentMass, restingApproach(A, B, r, m.normal, h, held)});
        }
    }
    if (points.empty()) return {};
    if (handling == CollisionHandling::Simultaneous) {
        Impacts impacts;
        impacts.struck = simultaneous(bodies, points, impacts);
        return impacts;
    }
    return serial(bodies, points, handling);
}

} // namespace carom
