// Projection: remove overlap by moving the bodies apart along the contact normals, the
// correction shared between them by inverse mass and inverse inertia (the non-linear
// Gauss-Seidel position pass of Box2D 2.x, Catto's "Modeling and Solving Constraints", 2009).
//
// For a contact with separation s (< 0 overlapping), C = clamp(β (s + slop), −max, 0) and the
// position impulse λ = −C / k with k = 1/mA + 1/mB + (rA × n)²/IA + (rB × n)²/IB moves
// A by −λ n / mA and B by +λ n / mB, turning each by ∓ (r × λ n) / I. The separation is measured
// again from the current poses before every correction, so successive passes converge.
//
// As the projection method proper (Correction::WithVelocities), β = 1: a partial correction
// would come back as a velocity and the bodies would bounce on each other like springs. The
// velocities follow the corrections, and the corrections' total position impulse Λ per point,
// an impulse Λ / h over the step, bounds Coulomb friction on the tangential velocity,
// |λ_t| ≤ μ Λ / h: without it nothing at rest on a slope or in a stack would stay put.
// The velocities follow only the correction of overlap this step made: an overlap the bodies
// already had at its start (deeper than the slop: they were placed so, or a stack's projection
// had not converged) is taken back by the positions alone, as the other methods do. Followed by
// the velocities, bodies that start overlapping would fly apart with energy they never had.
#include "collision/collide.h"
#include "solver/contact_math.h"
#include "solver/islands.h"
#include "step/step_context.h"
#include "tuning.h"

#include <algorithm>
#include <array>
#include <vector>

namespace carom {
namespace {

// A manifold as its bodies carry it, in their frames, from the poses it was found at: the normal
// in the frame of the body whose face it is (referenceBody), each point's surface points.
struct Carried {
    const BodyShape *shapeA, *shapeB; // the manifold's
    int count;
    Vec2 localNormal;
    SurfacePoints points[2];
};

// The manifolds as carried in the last projection (kept from step to step: a large scene's arrays
// are not allocated anew each step).
std::vector<Carried>& carriedScratch() {
    static thread_local std::vector<Carried> carried;
    return carried;
}

Carried carry(const Manifold& m, const Body& A, const Body& B, const std::vector<Pose>& found,
              double margin, bool refound) {
    Carried k;
    k.shapeA = &shapeA(m, A);
    k.shapeB = &shapeB(m, B);
    const BodyId reference = &referenceBody(m, A, B) == &A ? m.a : m.b;
    // A circle's surface point is found from the normal, whatever its angle (geometryNow).
    auto turned = [&](const Body& b, const BodyShape& shape, BodyId id) {
        return shape.shape.type() != ShapeType::Circle &&
               std::abs(b.angle() - found[id].angle) > kStaleTurn;
    };
    if (refound && (turned(A, *k.shapeA, m.a) || turned(B, *k.shapeB, m.b))) {
        const ShapeManifold now = collide(k.shapeA->shape, A.shapeXf(m.shapeA), k.shapeB->shape,
                                          B.shapeXf(m.shapeB), margin);
        k.count = now.count;
        k.localNormal = referenceBody(m, A, B).xf().q.applyInverse(now.normal);
        for (int i = 0; i < now.count; ++i)
            k.points[i] = surfacePointsOf(A.xf(), B.xf(), now.normal,
                                          ContactPoint{now.points[i].point, now.points[i].depth});
        return k;
    }
    k.count = m.count;
    k.localNormal = found[reference].xf.q.applyInverse(m.normal);
    for (int i = 0; i < m.count; ++i)
        k.points[i] = surfacePointsOf(found[m.a].xf, found[m.b].xf, m.normal, m.points[i]);
    return k;
}

// A contact point's geometry now, from the bodies' current poses (Box2D 2.x's position solver
// manifold): the normal n turns with the body whose face it is, and two circles' joins their
// centres; each surface point turns with its body, but a circle's is its centre pushed out along
// n, whatever the circle's angle (it may roll). The separation is
// measured along n, and the correction acts on the other (incident) body's surface point, moved
// halfway through the gap or overlap: the reference body's point may have slid along its face.
struct Geometry {
    Vec2 n;
    double separation;
    Vec2 point;
};

Geometry geometryNow(const Body& A, const Body& B, const Carried& k, int i) {
    const bool circleA = k.shapeA->shape.type() == ShapeType::Circle;
    const bool circleB = k.shapeB->shape.type() == ShapeType::Circle;
    Vec2 n = (circleA ? B : A).xf().q.apply(k.localNormal); // referenceBody's
    // A circle's centre: its body's, or where a compound body holds it.
    const Vec2 centreA = placeShape(A.xf(), *k.shapeA).p, centreB = placeShape(B.xf(), *k.shapeB).p;
    if (circleA && circleB && lengthSquared(centreB - centreA) > 0)
        n = glm::normalize(centreB - centreA);
    const Vec2 pA = circleA ? centreA + k.shapeA->shape.radius() * n : A.worldPoint(k.points[i].a);
    const Vec2 pB = circleB ? centreB - k.shapeB->shape.radius() * n : B.worldPoint(k.points[i].b);
    const double separation = glm::dot(pB - pA, n);
    const Vec2 point = circleA ? pA + 0.5 * separation * n : pB - 0.5 * separation * n;
    return {n, separation, point};
}

void move(Body& b, Vec2 dp, double dAngle) {
    b.setPose(b.xf().p + dp, b.angle() + dAngle);
}

// The velocities that follow a correction (dp, dAngle) made over the step of length h.
void follow(Body& b, Vec2 dp, double dAngle, double h) {
    b.v += dp / h;
    b.w += dAngle / h;
}

// Of a correction δ of a point's separation, the share its velocities follow: what is left of it
// after the overlap the point had at the start of the step (its budget, used up as it goes).
double followedShare(double delta, double& startOverlap) {
    const double old = std::min(delta, startOverlap);
    startOverlap -= old;
    return (delta - old) / delta;
}

// A following's energy. A correction's position impulse f ≥ 0 along n at (rA, rB), followed by the
// velocities over the step h, is the velocity impulse f / h, which changes the pair's kinetic
// energy by (f / h) v_n + (f / h)² k / 2 (v_n their normal velocity there before it,
// k = 1/m_eff): up to f = −2 v_n h / k it takes energy or gives back an elastic bounce's, and
// beyond that it makes energy. That happens when the geometry the correction used is stale (a box
// spinning at 500 rad/s turns 8 rad in a step of 1/60 s, its contact points with it): such a
// following is cut to what keeps the energy (stress scenes gained up to a third in a step before).
double withoutEnergyMade(const Body& A, const Body& B, Vec2 rA, Vec2 rB, Vec2 n, double f,
                         double h) {
    const double vn = glm::dot(relativeVelocity(A, B, rA, rB), n);
    return std::clamp(-2 * vn * h / impulseDenominator(A, B, rA, rB, n), 0.0, f);
}

// The same for the two points of a block correction, position impulses f = (f1, f2): the energy
// changes by α (f · v_n) / h + α² fᵀ K f / (2 h²) for the share α of f, which is ≤ 0 for
// α ≤ −2 h (f · v_n) / (fᵀ K f).
double shareWithoutEnergyMade(const Body& A, const Body& B, const Vec2 (&rA)[2],
                              const Vec2 (&rB)[2], Vec2 n, const BlockMatrix& K, double f1,
                              double f2, double h) {
    const double v1 = glm::dot(relativeVelocity(A, B, rA[0], rB[0]), n);
    const double v2 = glm::dot(relativeVelocity(A, B, rA[1], rB[1]), n);
    const double work = f1 * v1 + f2 * v2;
    const double quadratic = f1 * (K.k11 * f1 + K.k12 * f2) + f2 * (K.k12 * f1 + K.k22 * f2);
    return quadratic > 0 ? std::clamp(-2 * h * work / quadratic, 0.0, 1.0) : 1.0;
}

// The part of a correction's position impulse U that no velocity follows moves the bodies by
// ∓U/m and may lift one (overlap the bodies were placed with, parted under gravity): it pays for
// the potential energy from its kinetic energy (payForTheRise), so that it makes none. (A stress
// scene's first step gained 0.5% so.)
void payForTheMove(Body& A, Body& B, Vec2 U, Vec2 gravity) {
    payForTheRise(A, -A.invMass * U, gravity);
    payForTheRise(B, B.invMass * U, gravity);
}

void applyFriction(StepContext& c, const Manifold& m, const Carried& k,
                   const std::array<double, 2>& positionImpulse) {
    Body& A = c.bodies[m.a];
    Body& B = c.bodies[m.b];
    for (int i = 0; i < k.count; ++i) {
        if (positionImpulse[i] <= 0) continue;
        const Geometry g = geometryNow(A, B, k, i);
        const Vec2 t = tangentOf(g.n);
        Vec2 rA = g.point - A.xf().p, rB = g.point - B.xf().p;
        double vt = glm::dot(relativeVelocity(A, B, rA, rB), t);
        double limit = m.friction * positionImpulse[i] / c.h;
        double jt = std::clamp(-effectiveMass(A, B, rA, rB, t) * vt, -limit, limit);
        applyImpulse(A, B, rA, rB, jt * t);
    }
}

// Both points of a two-point manifold corrected together (the positional twin of the contact
// solver's block solver): impulses x ≥ 0 with K x = −C, K the 2×2 effective-mass matrix of the
// two points along n. Corrected one after the other instead, a column of boxes leans a little
// more at each step, and twenty boxes fall. False when K is singular or x is not ≥ 0.
bool correctBlock(Body& A, Body& B, const Geometry (&g)[2], const double (&C)[2], double h,
                  Vec2 gravity, Correction correction, std::array<double, 2>& total,
                  std::array<double, 2>& startOverlap) {
    const Vec2 n = g[0].n;
    const Vec2 rA1 = g[0].point - A.xf().p, rB1 = g[0].point - B.xf().p;
    const Vec2 rA2 = g[1].point - A.xf().p, rB2 = g[1].point - B.xf().p;
    const BlockMatrix K = blockMatrix(A, B, rA1, rB1, rA2, rB2, n);
    if (!K.invertible) return false;
    const double x1 = (-C[0] * K.k22 + C[1] * K.k12) / K.det;
    const double x2 = (-C[1] * K.k11 + C[0] * K.k12) / K.det;
    if (x1 < 0 || x2 < 0) return false;
    const Vec2 P1 = x1 * n, P2 = x2 * n;
    move(A, -A.invMass * (P1 + P2), -A.invInertia * (cross(rA1, P1) + cross(rA2, P2)));
    move(B, B.invMass * (P1 + P2), B.invInertia * (cross(rB1, P1) + cross(rB2, P2)));
    Vec2 followed{0, 0};
    if (correction == Correction::WithVelocities) {
        const double f1 = followedShare(-C[0], startOverlap[0]) * x1;
        const double f2 = followedShare(-C[1], startOverlap[1]) * x2;
        const double share = shareWithoutEnergyMade(A, B, {rA1, rA2}, {rB1, rB2}, n, K, f1, f2, h);
        const Vec2 F1 = share * f1 * n, F2 = share * f2 * n;
        follow(A, -A.invMass * (F1 + F2), -A.invInertia * (cross(rA1, F1) + cross(rA2, F2)), h);
        follow(B, B.invMass * (F1 + F2), B.invInertia * (cross(rB1, F1) + cross(rB2, F2)), h);
        followed = F1 + F2;
    }
    payForTheMove(A, B, P1 + P2 - followed, gravity);
    total[0] += x1;
    total[1] += x2;
    return true;
}

} // namespace

void projectContacts(StepContext& c, int iterations, Correction correction,
                     const std::vector<Pose>& found) {
    const WorldSettings& s = c.settings;
    const bool positionBased = correction == Correction::WithVelocities;
    const double factor = positionBased ? 1.0 : s.projectionFactor;
    // Scratch kept from step to step: a large scene's arrays are not allocated anew each step.
    std::vector<Carried>& carriedBy = carriedScratch();
    carriedBy.clear();
    for (const Manifold& m : c.contacts)
        carriedBy.push_back(
            carry(m, c.bodies[m.a], c.bodies[m.b], found, s.linearSlop, !positionBased));
    std::vector<std::array<double, 2>> total(c.contacts.size(), {0, 0}); // Λ per point
    // Per point, the overlap beyond the slop at the start of the step (followedShare).
    std::vector<std::array<double, 2>> startOverlap(c.contacts.size(), {0, 0});
    for (std::size_t j = 0; j < c.contacts.size(); ++j)
        for (int i = 0; i < c.contacts[j].count; ++i)
            startOverlap[j][i] = std::max(c.contacts[j].points[i].depth - s.linearSlop, 0.0);
    // An iteration that corrects nothing moves nothing: the ones after it would find the same.
    for (bool moved = true; moved && iterations-- > 0;) {
        moved = false;
        for (std::size_t j = 0; j < c.contacts.size(); ++j) {
            const Manifold& m = c.contacts[j];
            const Carried& carried = carriedBy[j];
            Body& A = c.bodies[m.a];
            Body& B = c.bodies[m.b];
            Geometry g[2];
            double C[2] = {0, 0};
            for (int i = 0; i < carried.count; ++i) {
                g[i] = geometryNow(A, B, carried, i);
                C[i] = std::clamp(factor * (g[i].separation + s.linearSlop), -s.maxProjection, 0.0);
            }
            if (carried.count == 2 && C[0] < 0 && C[1] < 0 &&
                correctBlock(A, B, g, C, c.h, s.gravity, correction, total[j], startOverlap[j])) {
                moved = true;
                continue;
            }
            for (int i = 0; i < carried.count; ++i) {
                const auto [n, separation, p] = i == 0 ? g[0] : geometryNow(A, B, carried, i);
                double Ci = std::clamp(factor * (separation + s.linearSlop), -s.maxProjection, 0.0);
                if (Ci >= 0) continue;
                Vec2 rA = p - A.xf().p, rB = p - B.xf().p;
                const double k = impulseDenominator(A, B, rA, rB, n);
                if (k <= 0) continue;
                moved = true;
                total[j][i] += -Ci / k;
                Vec2 P = (-Ci / k) * n;
                move(A, -A.invMass * P, -A.invInertia * cross(rA, P));
                move(B, B.invMass * P, B.invInertia * cross(rB, P));
                Vec2 followed{0, 0};
                if (positionBased) {
                    const double f = followedShare(-Ci, startOverlap[j][i]) * (-Ci / k);
                    followed = withoutEnergyMade(A, B, rA, rB, n, f, c.h) * n;
                    follow(A, -A.invMass * followed, -A.invInertia * cross(rA, followed), c.h);
                    follow(B, B.invMass * followed, B.invInertia * cross(rB, followed), c.h);
                }
                payForTheMove(A, B, P - followed, s.gravity);
            }
        }
    }
    if (positionBased)
        for (std::size_t j = 0; j < c.contacts.size(); ++j)
            applyFriction(c, c.contacts[j], carriedBy[j], total[j]);
}

void partOverlapsByPositions(StepContext& c, const std::vector<Pose>& found) {
    const double slop = c.settings.linearSlop;
    // Placed, not pressed: a pair found deep in each other with no manifold in the last step
    // (bodies placed so, or moved there by a user or by the last parting). A pair pressed deep by
    // the solver's own step (a crowd struck hard) was in contact before, and its push gives back
    // energy it was brought; so is a pair that cannot bounce (restitution 0, the solver's like
    // every such pair: flight_impacts.cpp) whose last step's relative motion, closingReach at the
    // velocities the step starts with, came as deep: the narrow phase pairs bodies only as far
    // as their own closing reaches, and in a crowd struck hard the solver's changes of velocity
    // bring such pairs in within a step (Box2D's smash: parted as placed, its impact steps took
    // 0.5 s). (Counting also points that no impulse held parts six piles placed in
    // one another without any rise of their energy, against a rise of a quarter in one of them
    // here, but triples the cost of Box2D's smash, whose crushed crowd has such points every step.)
    auto arrivedFrom = [&](const Manifold& m) { // the last step's closing, and two slops
        const Body& A = c.bodies[m.a];
        const Body& B = c.bodies[m.b];
        const Motion& ma = c.motion[m.a];
        const Motion& mb = c.motion[m.b];
        return closingReach(A, A.v - ma.dv, A.w - ma.dw, B, B.v - mb.dv, B.w - mb.dw, c.h) +
               2 * slop;
    };
    auto deep = [&](const Manifold& m) {
        if (!m.fresh) return false;
        const double arrived = m.restitution == 0 ? arrivedFrom(m) : 0;
        return std::any_of(m.points, m.points + m.count, [&](const ContactPoint& p) {
            return p.depth > kDeepOverlap * slop && p.depth > arrived;
        });
    };
    if (std::none_of(c.contacts.begin(), c.contacts.end(), deep)) return;
    // Only the islands that hold such a pair (islands.h: bodies joined by contacts, static ones
    // joining nothing): the others have nothing to part, and a crowd struck in one corner is not
    // projected everywhere.
    const std::vector<std::uint32_t> island =
        islands(c.contacts, c.bodies.size(), [&](BodyId id) { return c.bodies[id].isDynamic(); });
    auto islandOf = [&](const Manifold& m) {
        return island[c.bodies[m.a].isDynamic() ? m.a : m.b];
    };
    std::vector<char> parted(c.bodies.size(), 0);
    for (const Manifold& m : c.contacts)
        if (deep(m)) parted[islandOf(m)] = 1;
    std::vector<std::size_t> chosen;
    std::vector<Manifold> part;
    for (std::size_t j = 0; j < c.contacts.size(); ++j)
        if (parted[islandOf(c.contacts[j])]) {
            chosen.push_back(j);
            part.push_back(c.contacts[j]);
        }
    WorldSettings whole = c.settings; // every overlap parted to touching, not a share a pass
    whole.projectionFactor = 1;
    whole.maxProjection = 1e300;
    whole.linearSlop = -kPartedTo; // projectContacts leaves this much overlap: here, a gap
    StepContext all{whole,    c.bodies, c.thrusters,   c.spring, part,
                    c.motion, c.events, c.diagnostics, c.h};
    projectContacts(all, kPartingPasses, Correction::PositionsOnly, found);
    // The manifolds' depths as the corrections left them, for the solver that runs after; and a
    // point parted here keeps no impulse to warm start the solver with: its last impulse pushed
    // against an overlap that is gone.
    const std::vector<Carried>& carriedBy = carriedScratch();
    for (std::size_t k = 0; k < part.size(); ++k) {
        Manifold& m = part[k];
        const Carried& carried = carriedBy[k];
        for (int i = 0; i < m.count; ++i)
            if (m.points[i].depth > kDeepOverlap * slop)
                m.points[i].normalImpulse = m.points[i].tangentImpulse = 0;
        if (carried.count == m.count) // refound with another count: left as found
            for (int i = 0; i < m.count; ++i)
                m.points[i].depth =
                    -geometryNow(c.bodies[m.a], c.bodies[m.b], carried, i).separation;
        c.contacts[chosen[k]] = m;
    }
}

} // namespace carom
