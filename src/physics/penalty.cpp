// Penalty method: each overlapping contact point pushes with a spring-damper force
//   F_n = m_r (k d − c v_n),  F_n ≥ 0,
// with d the depth, v_n the normal relative velocity and m_r the point's effective mass
// (contact_math.h), so that k and c are per kilogram and every pair rings at ω = √k. Friction is
// a Coulomb force that at most stops the sliding within the step: |F_t| ≤ μ F_n. The forces act
// over the step, i.e. as the impulses F h. There are no impulses beyond these. A collision is a
// point that starts to overlap (it pushed nothing in the last step) faster than the restitution
// threshold.
#include "contact_math.h"
#include "step_context.h"

#include <algorithm>

namespace carom {

void applyPenaltyForces(StepContext& c) {
    const WorldSettings& s = c.settings;
    for (Manifold& m : c.contacts) {
        Body& A = c.bodies[m.a];
        Body& B = c.bodies[m.b];
        const Vec2 n = m.normal, t = tangentOf(n);
        for (int i = 0; i < m.count; ++i) {
            ContactPoint& cp = m.points[i];
            const bool pushedBefore = cp.normalImpulse > 0; // carried over from the last step
            cp.normalImpulse = cp.tangentImpulse = 0;
            if (cp.depth <= 0) continue;
            const auto [rA, rB] = anchorsOf(A, B, cp);
            Vec2 v = relativeVelocity(A, B, rA, rB);
            if (!pushedBefore && glm::dot(v, n) < -s.restitutionThreshold)
                ++c.diagnostics.collisions;
            double mn = effectiveMass(A, B, rA, rB, n);
            double fn = std::max(
                mn * (s.penaltyStiffness * cp.depth - s.penaltyDamping * glm::dot(v, n)), 0.0);
            double mt = effectiveMass(A, B, rA, rB, t);
            double limit = m.friction * fn * c.h;
            cp.normalImpulse = fn * c.h;
            cp.tangentImpulse = std::clamp(-mt * glm::dot(v, t), -limit, limit);
            applyImpulse(A, B, rA, rB, cp.normalImpulse * n + cp.tangentImpulse * t);
        }
    }
}

} // namespace carom
