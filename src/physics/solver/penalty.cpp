// Penalty method: each overlapping contact point pushes with a spring-damper force
//   F_n = m_r (k d − c v_n),  F_n ≥ 0,
// with d the depth, v_n the normal relative velocity and m_r the point's effective mass
// (contact_math.h), so that k and c are per kilogram and every pair rings at ω = √k.
//
// The springs are integrated implicitly (backward Euler): the force is the one at the end of the
// step, where the depth is d' = d − h v_n' and the velocity v_n'. For one point,
//   v_n' = v_n + h (k d' − c v_n')   ⇒   v_n' = (v_n + h k d) / (1 + h c + h² k),
// and for many, coupled through the bodies they share, the same equations are solved together by
// projected Gauss-Seidel on the accumulated impulses λ (Catto's soft constraints, "Solver2D",
// 2024): with a = h c + h² k, each pass adds to a point's λ
//   Δλ = m_r (h k d − a v_n) / (1 + a) − λ / (1 + a),
// which for one point and λ = 0 is the formula above, and is zero where it holds. Taken
// explicitly, from the depth and velocity at the start of the step, the springs gain energy once
// ω h nears 2 (a box resting on a floor went from −0.2 J to 3e11 J at h = 0.05 s); backward Euler
// damps every ringing, for any h, and rests at the same depth, d = g / k under gravity.
// Friction is a Coulomb impulse that at most stops the sliding: |λ_t| ≤ μ λ_n. There are no
// impulses beyond these. A collision is a point that starts to overlap (it pushed nothing in the
// last step) faster than the restitution threshold.
//
// A spring stores what the approach that pressed it in gave it, and gives it back. But bodies
// placed overlapping (a scene that starts so, or one set down by the user) have springs pressed in
// by no approach: let go, they would throw the bodies apart with energy they never had (stress
// scenes gained up to a fifth in the first step). So the overlap a new contact has beyond what its
// approach in this step explains, −v_n h, is taken back by the positions alone, shared by inverse
// mass (paying for any potential energy it adds, payForTheRise), and its springs press only by
// the rest.
#include "solver/contact_math.h"
#include "step/step_context.h"

#include <algorithm>

namespace carom {
namespace {

struct ContactSpring {
    ContactPoint* cp;
    BodyId a, b;
    Vec2 n;
    double friction;
    Anchors r;
    double normalMass, tangentMass;
};

// The overlap of a new contact (it pushed nothing in the last step) that this step's approach does
// not explain, parted by the positions alone (see the top).
void partPlacedOverlap(StepContext& c, Manifold& m) {
    Body& A = c.bodies[m.a];
    Body& B = c.bodies[m.b];
    const double share = A.invMass + B.invMass;
    if (share <= 0) return;
    double placed = 0;
    for (int i = 0; i < m.count; ++i) {
        const ContactPoint& cp = m.points[i];
        if (cp.normalImpulse > 0) return; // pressed before: its spring holds what it stored
        const Anchors r = anchorsOf(A, B, cp);
        const double vn = glm::dot(relativeVelocity(A, B, r.a, r.b), m.normal);
        placed = std::max(placed, cp.depth - std::max(-vn * c.h, 0.0));
    }
    if (!(placed > 0)) return;
    const Vec2 dpA = -(placed * A.invMass / share) * m.normal;
    const Vec2 dpB = (placed * B.invMass / share) * m.normal;
    payForTheRise(A, dpA, c.settings.gravity);
    payForTheRise(B, dpB, c.settings.gravity);
    A.setPose(A.xf().p + dpA, A.angle());
    B.setPose(B.xf().p + dpB, B.angle());
    for (int i = 0; i < m.count; ++i)
        m.points[i].depth -= placed;
}

} // namespace

void applyPenaltyForces(StepContext& c) {
    const WorldSettings& s = c.settings;
    const double h = c.h, k = s.penaltyStiffness;
    const double a = h * s.penaltyDamping + h * h * k;
    static thread_local std::vector<ContactSpring> springs; // kept from step to step
    springs.clear();
    for (Manifold& m : c.contacts) {
        partPlacedOverlap(c, m);
        const Body& A = c.bodies[m.a];
        const Body& B = c.bodies[m.b];
        for (int i = 0; i < m.count; ++i) {
            ContactPoint& cp = m.points[i];
            const bool pushedBefore = cp.normalImpulse > 0; // carried over from the last step
            cp.normalImpulse = cp.tangentImpulse = 0;
            if (cp.depth <= 0) continue;
            const Anchors r = anchorsOf(A, B, cp);
            if (!pushedBefore &&
                glm::dot(relativeVelocity(A, B, r.a, r.b), m.normal) < -s.restitutionThreshold)
                ++c.diagnostics.collisions;
            springs.push_back(ContactSpring{&cp, m.a, m.b, m.normal, m.friction, r,
                                            effectiveMass(A, B, r.a, r.b, m.normal),
                                            effectiveMass(A, B, r.a, r.b, tangentOf(m.normal))});
        }
    }
    for (int pass = 0; pass < s.velocityIterations; ++pass)
        for (const ContactSpring& p : springs) {
            Body& A = c.bodies[p.a];
            Body& B = c.bodies[p.b];
            ContactPoint& cp = *p.cp;
            const Vec2 t = tangentOf(p.n);
            const double limit = p.friction * cp.normalImpulse;
            const double vt = glm::dot(relativeVelocity(A, B, p.r.a, p.r.b), t);
            const double jt = nextTangentImpulse(cp.tangentImpulse, p.tangentMass, vt, limit);
            applyImpulse(A, B, p.r.a, p.r.b, (jt - cp.tangentImpulse) * t);
            cp.tangentImpulse = jt;
            const double vn = glm::dot(relativeVelocity(A, B, p.r.a, p.r.b), p.n);
            const double step =
                (p.normalMass * (h * k * cp.depth - a * vn) - cp.normalImpulse) / (1 + a);
            const double jn = std::max(cp.normalImpulse + step, 0.0);
            applyImpulse(A, B, p.r.a, p.r.b, (jn - cp.normalImpulse) * p.n);
            cp.normalImpulse = jn;
        }
}

} // namespace carom
