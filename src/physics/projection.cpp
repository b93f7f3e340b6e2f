// Projection: remove overlap by moving the bodies apart along the contact normals, the
// correction shared between them by inverse mass and inverse inertia (the non-linear
// Gauss-Seidel position pass of Box2D 2.x, Catto's "Modeling and Solving Constraints", 2009).
//
// For a contact with separation s (< 0 overlapping), C = clamp(β (s + slop), −max, 0) and the
// position impulse λ = −C / k with k = 1/mA + 1/mB + (rA × n)²/IA + (rB × n)²/IB moves
// A by −λ n / mA and B by +λ n / mB, turning each by ∓ (r × λ n) / I. The separation is measured
// again from the current poses before every correction, so successive passes converge.
#include "step_context.h"

#include <algorithm>

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

} // namespace

void projectContacts(StepContext& c, int iterations, bool updateVelocities) {
    const WorldSettings& s = c.settings;
    for (int it = 0; it < iterations; ++it) {
        for (const Manifold& m : c.contacts) {
            Body& A = c.bodies[m.a];
            Body& B = c.bodies[m.b];
            for (int i = 0; i < m.count; ++i) {
                const ContactPoint& cp = m.points[i];
                Vec2 n = A.xf.q.apply(m.localNormal);
                Vec2 pA = A.worldPoint(cp.localA), pB = B.worldPoint(cp.localB);
                double separation = glm::dot(pB - pA, n);
                double C = std::clamp(s.projectionFactor * (separation + s.linearSlop),
                                      -s.maxProjection, 0.0);
                if (C >= 0) continue;
                Vec2 p = 0.5 * (pA + pB);
                Vec2 rA = p - A.xf.p, rB = p - B.xf.p;
                double ra = cross(rA, n), rb = cross(rB, n);
                double k = A.invMass + B.invMass + A.invInertia * ra * ra + B.invInertia * rb * rb;
                if (k <= 0) continue;
                Vec2 P = (-C / k) * n;
                move(A, -A.invMass * P, -A.invInertia * cross(rA, P), c.h, updateVelocities);
                move(B, B.invMass * P, B.invInertia * cross(rB, P), c.h, updateVelocities);
            }
        }
    }
}

} // namespace carom
