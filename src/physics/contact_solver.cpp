// Sequential impulses (Catto, "Iterative Dynamics with Temporal Coherence", GDC 2005; Box2D).
//
// The normal solve (λ stops the approach) followed by the restitution pass (λ adds e times the
// approach speed) gives, for a single contact, exactly Hecker's Eq. 9:
//   j = −(1 + e) v_n / (1/mA + 1/mB + (rA × n)²/IA + (rB × n)²/IB).
// Sign conventions and the effective mass: contact_math.h.
#include "contact_math.h"
#include "step_context.h"

#include <algorithm>
#include <cmath>

namespace carom {
namespace {

Vec2 velocityAt(const Body& A, const Body& B, const ContactPoint& cp) {
    return relativeVelocity(A, B, cp.anchorA, cp.anchorB);
}

void push(Body& A, Body& B, const ContactPoint& cp, Vec2 P) {
    applyImpulse(A, B, cp.anchorA, cp.anchorB, P);
}

// The normal relative acceleration at a point from the step's forces, Δv_n / h.
double normalAcceleration(const StepContext& c, const Manifold& m, const ContactPoint& cp) {
    const Motion& a = c.motion[m.a];
    const Motion& b = c.motion[m.b];
    Vec2 dv = b.dv + cross(b.dw, cp.anchorB) - a.dv - cross(a.dw, cp.anchorA);
    return glm::dot(dv, m.normal) / c.h;
}

// The normal velocity at which a point's bodies meet: a gap g = max(−depth, 0) away at the start
// of the step, with the normal acceleration a of the step's forces held constant,
//   v² = v0² − 2 a g,   v0 = v_n − a h, the normal velocity at the start of the step
// (uniformly accelerated motion). Taking v_n, the velocity after the free step, would add |a| h
// to every bounce, and a ball on a floor would never stop bouncing.
double meetingVelocity(const StepContext& c, const Manifold& m, const ContactPoint& cp, double vn) {
    const double a = normalAcceleration(c, m, cp);
    const double v0 = vn - a * c.h, gap = std::max(-cp.depth, 0.0);
    if (gap == 0) return std::min(v0, 0.0);
    const double v2 = v0 * v0 - 2 * a * gap;
    return v2 > 0 ? -std::sqrt(v2) : 0;
}

// The other way: bodies that turned back at the surface with normal velocity u are back at the
// gap g moving apart at √(u² + 2 a g) (0 if they do not get that far).
double separatingVelocity(const StepContext& c, const Manifold& m, const ContactPoint& cp,
                          double u) {
    const double v2 = u * u + 2 * normalAcceleration(c, m, cp) * std::max(-cp.depth, 0.0);
    return v2 > 0 ? std::sqrt(v2) : 0;
}

void prepare(StepContext& c, Manifold& m) {
    Body& A = c.bodies[m.a];
    Body& B = c.bodies[m.b];
    const Vec2 n = m.normal, t = tangentOf(n);
    for (int i = 0; i < m.count; ++i) {
        ContactPoint& cp = m.points[i];
        cp.normalMass = effectiveMass(A, B, cp.anchorA, cp.anchorB, n);
        cp.tangentMass = effectiveMass(A, B, cp.anchorA, cp.anchorB, t);
        cp.relativeVelocity = meetingVelocity(c, m, cp, glm::dot(velocityAt(A, B, cp), n));
    }
}

// Warm starting: the last step's impulses applied again (after every point's velocity was taken
// in prepare, which they would otherwise falsify).
void warmStart(StepContext& c, Manifold& m) {
    Body& A = c.bodies[m.a];
    Body& B = c.bodies[m.b];
    const Vec2 n = m.normal, t = tangentOf(n);
    for (int i = 0; i < m.count; ++i) {
        ContactPoint& cp = m.points[i];
        if (!c.settings.warmStarting) cp.normalImpulse = cp.tangentImpulse = 0;
        push(A, B, cp, cp.normalImpulse * n + cp.tangentImpulse * t);
    }
}

// A gap (depth < 0) may close within the step: allow approaching at −depth/h (speculative
// contact), so fast bodies stop at the surface instead of tunnelling.
double bias(const StepContext& c, const ContactPoint& cp) {
    return cp.depth < 0 ? cp.depth / c.h : 0;
}

// Both points of a manifold at once (Catto's block solver, Box2D): find accumulated impulses
// x ≥ 0 with v = K x + b ≥ 0 and x·v = 0 (a 2×2 linear complementarity problem), trying in turn
// both points pushing, only the first, only the second, neither. Solving the two points one
// after the other instead gives them uneven impulses, and a stack of boxes rocks. Returns false
// (solve the points in turn) when K is too ill-conditioned to invert: nearly the same point twice.
bool solveBlock(StepContext& c, Manifold& m) {
    Body& A = c.bodies[m.a];
    Body& B = c.bodies[m.b];
    ContactPoint& p1 = m.points[0];
    ContactPoint& p2 = m.points[1];
    const Vec2 n = m.normal;
    const double ra1 = cross(p1.anchorA, n), rb1 = cross(p1.anchorB, n);
    const double ra2 = cross(p2.anchorA, n), rb2 = cross(p2.anchorB, n);
    const double mass = A.invMass + B.invMass;
    const double k11 = mass + A.invInertia * ra1 * ra1 + B.invInertia * rb1 * rb1;
    const double k22 = mass + A.invInertia * ra2 * ra2 + B.invInertia * rb2 * rb2;
    const double k12 = mass + A.invInertia * ra1 * ra2 + B.invInertia * rb1 * rb2;
    const double det = k11 * k22 - k12 * k12;
    if (!(k11 * k11 < 1000 * det)) return false;

    // b: the velocities (minus the bias) with the accumulated impulses taken back out.
    const Vec2 old{p1.normalImpulse, p2.normalImpulse};
    const double v1 = glm::dot(velocityAt(A, B, p1), n) - bias(c, p1);
    const double v2 = glm::dot(velocityAt(A, B, p2), n) - bias(c, p2);
    const Vec2 b{v1 - (k11 * old.x + k12 * old.y), v2 - (k12 * old.x + k22 * old.y)};
    Vec2 x;
    if (Vec2 both{(k12 * b.y - k22 * b.x) / det, (k12 * b.x - k11 * b.y) / det};
        both.x >= 0 && both.y >= 0)
        x = both;
    else if (double x1 = -b.x / k11; x1 >= 0 && k12 * x1 + b.y >= 0)
        x = {x1, 0};
    else if (double x2 = -b.y / k22; x2 >= 0 && k12 * x2 + b.x >= 0)
        x = {0, x2};
    else if (b.x >= 0 && b.y >= 0)
        x = {0, 0};
    else
        return false; // no solution found (round-off): the points in turn
    push(A, B, p1, (x.x - old.x) * n);
    push(A, B, p2, (x.y - old.y) * n);
    p1.normalImpulse = x.x;
    p2.normalImpulse = x.y;
    return true;
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
    if (m.count == 2 && solveBlock(c, m)) return;
    for (int i = 0; i < m.count; ++i) {
        ContactPoint& cp = m.points[i];
        double vn = glm::dot(velocityAt(A, B, cp), n);
        double total = std::max(cp.normalImpulse + cp.normalMass * (bias(c, cp) - vn), 0.0);
        push(A, B, cp, (total - cp.normalImpulse) * n);
        cp.normalImpulse = total;
    }
}

bool bounces(const ContactPoint& cp, double threshold) {
    return cp.relativeVelocity < -threshold && cp.normalImpulse > 0;
}

// Restitution, after the contacts hold: where an impact happened (meeting faster than the
// threshold, and a pushing impulse), drive v_n to −e times the meeting speed; with the normal
// solve before it, that is Hecker's Eq. 9. A speculative point bounces in the step in which its
// gap closes, up to |v| h before the bodies touch (the price of a fixed step), with the velocity
// they would have on coming back to the gap from the surface, so that a bounce keeps e² of the
// energy wherever it starts. (Waiting for the next step to bounce at the surface, or moving the
// bodies to where they would have turned, both broke the energy of elastic collisions of
// spinning bodies.)
void restitute(StepContext& c, Manifold& m) {
    Body& A = c.bodies[m.a];
    Body& B = c.bodies[m.b];
    for (int i = 0; i < m.count; ++i) {
        ContactPoint& cp = m.points[i];
        if (!bounces(cp, c.settings.restitutionThreshold)) continue;
        double vn = glm::dot(velocityAt(A, B, cp), m.normal);
        double target = separatingVelocity(c, m, cp, -m.restitution * cp.relativeVelocity);
        double total = std::max(cp.normalImpulse + cp.normalMass * (target - vn), 0.0);
        push(A, B, cp, (total - cp.normalImpulse) * m.normal);
        cp.normalImpulse = total;
    }
}

} // namespace

void solveImpulses(StepContext& c) {
    for (Manifold& m : c.contacts)
        prepare(c, m);
    for (Manifold& m : c.contacts)
        warmStart(c, m);
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
