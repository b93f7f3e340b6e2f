// Projection: remove overlap by moving the bodies apart along the contact normals, the
// correction shared between them by inverse mass and inverse inertia (the non-linear
// Gauss-Seidel position pass of Box2D 2.x, Catto's "Modeling and Solving Constraints", 2009).
//
// For a contact with separation s (< 0 overlapping), C = clamp(β (s + slop), −max, 0) and the
// position impulse λ = −C / k with k = 1/mA + 1/mB + (rA × n)²/IA + (rB × n)²/IB moves
// A by −λ n / mA and B by +λ n / mB, turning each by ∓ (r × λ n) / I. The separation is measured
// again from the current poses before every correction, so successive passes converge.
//
// As the projection method proper (updateVelocities), β = 1: a partial correction would come back
// as a velocity and the bodies would bounce on each other like springs. The velocities follow
// the corrections, and
// the corrections' total position impulse Λ per point, an impulse Λ / h over the step, bounds
// Coulomb friction on the tangential velocity, |λ_t| ≤ μ Λ / h: without it nothing at rest on a
// slope or in a stack would stay put.
#include "contact_math.h"
#include "step_context.h"

#include <algorithm>
#include <array>
#include <vector>

namespace carom {
namespace {

void move(Body& b, Vec2 dp, double dAngle, double h, bool updateVelocity) {
    b.xf.p += dp;
    b.angle += dAngle;
    b.xf.q = Rot(b.angle);
    if (updateVelocity) { // position-based: the velocity follows the corrected position
        b.v += dp / h;
        b.w += dAngle / h;
    }
}

void applyFriction(StepContext& c, const Manifold& m,
                   const std::array<double, 2>& positionImpulse) {
    Body& A = c.bodies[m.a];
    Body& B = c.bodies[m.b];
    const Vec2 n = A.xf.q.apply(m.localNormal), t = tangentOf(n);
    for (int i = 0; i < m.count; ++i) {
        if (positionImpulse[i] <= 0) continue;
        const ContactPoint& cp = m.points[i];
        Vec2 p = 0.5 * (A.worldPoint(cp.localA) + B.worldPoint(cp.localB));
        Vec2 rA = p - A.xf.p, rB = p - B.xf.p;
        double vt = glm::dot(relativeVelocity(A, B, rA, rB), t);
        double limit = m.friction * positionImpulse[i] / c.h;
        double jt = std::clamp(-effectiveMass(A, B, rA, rB, t) * vt, -limit, limit);
        applyImpulse(A, B, rA, rB, jt * t);
    }
}

} // namespace

void projectContacts(StepContext& c, int iterations, bool updateVelocities) {
    const WorldSettings& s = c.settings;
    const double factor = updateVelocities ? 1.0 : s.projectionFactor;
    std::vector<std::array<double, 2>> total(c.contacts.size(), {0, 0}); // Λ per point
    for (int it = 0; it < iterations; ++it) {
        for (std::size_t j = 0; j < c.contacts.size(); ++j) {
            const Manifold& m = c.contacts[j];
            Body& A = c.bodies[m.a];
            Body& B = c.bodies[m.b];
            for (int i = 0; i < m.count; ++i) {
                const ContactPoint& cp = m.points[i];
                Vec2 n = A.xf.q.apply(m.localNormal);
                Vec2 pA = A.worldPoint(cp.localA), pB = B.worldPoint(cp.localB);
                double separation = glm::dot(pB - pA, n);
                double C = std::clamp(factor * (separation + s.linearSlop), -s.maxProjection, 0.0);
                if (C >= 0) continue;
                Vec2 p = 0.5 * (pA + pB);
                Vec2 rA = p - A.xf.p, rB = p - B.xf.p;
                double ra = cross(rA, n), rb = cross(rB, n);
                double k = A.invMass + B.invMass + A.invInertia * ra * ra + B.invInertia * rb * rb;
                if (k <= 0) continue;
                total[j][i] += -C / k;
                Vec2 P = (-C / k) * n;
                move(A, -A.invMass * P, -A.invInertia * cross(rA, P), c.h, updateVelocities);
                move(B, B.invMass * P, B.invInertia * cross(rB, P), c.h, updateVelocities);
            }
        }
    }
    if (updateVelocities)
        for (std::size_t j = 0; j < c.contacts.size(); ++j)
            applyFriction(c, c.contacts[j], total[j]);
}

} // namespace carom
