// Sequential impulses (Catto, "Iterative Dynamics with Temporal Coherence", GDC 2005; Box2D).
//
// The normal solve (λ stops the approach) followed by the restitution pass (λ adds e times the
// approach speed) gives, for a single contact, exactly Hecker's Eq. 9:
//   j = −(1 + e) v_n / (1/mA + 1/mB + (rA × n)²/IA + (rB × n)²/IB).
// Sign conventions and the effective mass: contact_math.h.
#include "contact_math.h"
#include "step_context.h"

#include <algorithm>

namespace carom {
namespace {

Vec2 velocityAt(const Body& A, const Body& B, const ContactPoint& cp) {
    return relativeVelocity(A, B, cp.anchorA, cp.anchorB);
}

void push(Body& A, Body& B, const ContactPoint& cp, Vec2 P) {
    applyImpulse(A, B, cp.anchorA, cp.anchorB, P);
}

void prepare(StepContext& c, Manifold& m) {
    Body& A = c.bodies[m.a];
    Body& B = c.bodies[m.b];
    const Vec2 n = m.normal, t = tangentOf(n);
    for (int i = 0; i < m.count; ++i) {
        ContactPoint& cp = m.points[i];
        cp.normalMass = effectiveMass(A, B, cp.anchorA, cp.anchorB, n);
        cp.tangentMass = effectiveMass(A, B, cp.anchorA, cp.anchorB, t);
        cp.relativeVelocity = glm::dot(velocityAt(A, B, cp), n);
        if (!c.settings.warmStarting) cp.normalImpulse = cp.tangentImpulse = 0;
        push(A, B, cp, cp.normalImpulse * n + cp.tangentImpulse * t);
    }
}

// One Gauss-Seidel pass over a manifold: friction first (its bound uses the normal impulse of
// the last pass), then the non-penetration constraint v_n ≥ bias.
void solve(StepContext& c, Manifold& m) {
    Body& A = c.bodies[m.a];
    Body& B = c.bodies[m.b];
    const Vec2 n = m.normal, t = tangentOf(n);
    for (int i = 0; i < m.count; ++i) {
        // Coulomb friction: |λ_t| ≤ μ λ_n, the accumulated impulse clamped to the cone.
        ContactPoint& cp = m.points[i];
        double vt = glm::dot(velocityAt(A, B, cp), t);
        double limit = m.friction * cp.normalImpulse;
        double total = std::clamp(cp.tangentImpulse - cp.tangentMass * vt, -limit, limit);
        push(A, B, cp, (total - cp.tangentImpulse) * t);
        cp.tangentImpulse = total;
    }
    for (int i = 0; i < m.count; ++i) {
        // A gap (depth < 0) may close within the step: allow approaching at −depth/h
        // (speculative contact), so fast bodies stop at the surface instead of tunnelling.
        ContactPoint& cp = m.points[i];
        double bias = cp.depth < 0 ? cp.depth / c.h : 0;
        double vn = glm::dot(velocityAt(A, B, cp), n);
        double total = std::max(cp.normalImpulse + cp.normalMass * (bias - vn), 0.0);
        push(A, B, cp, (total - cp.normalImpulse) * n);
        cp.normalImpulse = total;
    }
}

bool bounces(const ContactPoint& cp, double threshold) {
    return cp.relativeVelocity < -threshold && cp.normalImpulse > 0;
}

// Restitution, after the contacts hold: where an impact happened (approach faster than the
// threshold and a pushing impulse), drive v_n to −e times the approach speed before the solve.
void restitute(StepContext& c, Manifold& m) {
    Body& A = c.bodies[m.a];
    Body& B = c.bodies[m.b];
    for (int i = 0; i < m.count; ++i) {
        ContactPoint& cp = m.points[i];
        if (!bounces(cp, c.settings.restitutionThreshold)) continue;
        double vn = glm::dot(velocityAt(A, B, cp), m.normal);
        double target = -m.restitution * cp.relativeVelocity;
        double total = std::max(cp.normalImpulse + cp.normalMass * (target - vn), 0.0);
        push(A, B, cp, (total - cp.normalImpulse) * m.normal);
        cp.normalImpulse = total;
    }
}

} // namespace

void solveImpulses(StepContext& c) {
    for (Manifold& m : c.contacts)
        prepare(c, m);
    for (int it = 0; it < c.settings.velocityIterations; ++it)
        for (Manifold& m : c.contacts)
            solve(c, m);
    for (int it = 0; it < c.settings.velocityIterations; ++it)
        for (Manifold& m : c.contacts)
            if (m.restitution > 0) restitute(c, m);
    for (const Manifold& m : c.contacts)
        for (int i = 0; i < m.count; ++i)
            if (bounces(m.points[i], c.settings.restitutionThreshold)) ++c.diagnostics.collisions;
}

} // namespace carom
