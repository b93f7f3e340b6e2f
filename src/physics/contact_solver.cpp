// Sequential impulses (Catto, "Iterative Dynamics with Temporal Coherence", GDC 2005; Box2D).
//
// The normal solve (λ stops the approach) followed by the restitution pass (λ adds e times the
// approach speed) gives, for a single contact, exactly Hecker's Eq. 9:
//   j = −(1 + e) v_n / (1/mA + 1/mB + (rA × n)²/IA + (rB × n)²/IB).
// Sign conventions and the effective mass: contact_math.h.
//
// The iterations work on compact copies, hot solver data kept apart from the bookkeeping of the
// bodies and manifolds (Box2D v3's solver bodies and contact constraints): per body its velocities
// and inverse masses, per manifold what stays fixed over the step (normal, tangent, anchors,
// effective masses, bias, the block solver's matrix) and the accumulated impulses. The velocities
// and impulses are copied back after the step's solve. The passes visit the constraints in waves
// of constraints sharing no body (solveOrder), which gives the same result as the manifolds' order.
#include "contact_math.h"
#include "counting_sort.h"
#include "step_context.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace carom {
namespace {

struct SolverBody {
    Vec2 v;
    double w;
    double invMass, invInertia;
};

struct PointConstraint {
    Vec2 anchorA, anchorB;
    double normalMass, tangentMass; // effective masses along normal and tangent
    double bias;                    // the normal velocity allowed, bias() below
    double relativeVelocity;        // normal velocity at which the bodies meet (for restitution)
    double normalImpulse, tangentImpulse;
};

struct Constraint {
    std::size_t manifold; // index in the step's contacts
    BodyId a, b;
    Vec2 normal, tangent;
    double friction;
    int count;
    PointConstraint points[2];
    BlockMatrix block; // two points only
};

Vec2 velocityAt(const SolverBody& A, const SolverBody& B, const PointConstraint& p) {
    return relativeVelocity(A, B, p.anchorA, p.anchorB);
}

void push(SolverBody& A, SolverBody& B, const PointConstraint& p, Vec2 P) {
    applyImpulse(A, B, p.anchorA, p.anchorB, P);
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
// to every bounce, and a ball on a floor would never stop bouncing. Bodies moving apart with
// nothing pulling them together (v0 ≥ 0, a ≥ 0) never meet: 0, no impact to bounce from.
double meetingVelocity(const StepContext& c, const Manifold& m, const ContactPoint& cp, double vn) {
    const double a = normalAcceleration(c, m, cp);
    const double v0 = vn - a * c.h, gap = std::max(-cp.depth, 0.0);
    if (gap == 0) return std::min(v0, 0.0);
    if (v0 >= 0 && a >= 0) return 0;
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

// A gap (depth < 0) may close within the step: allow approaching at −depth/h (speculative
// contact), so fast bodies stop at the surface instead of tunnelling.
double bias(const StepContext& c, const ContactPoint& cp) {
    return cp.depth < 0 ? cp.depth / c.h : 0;
}

Constraint prepare(const StepContext& c, const std::vector<SolverBody>& bodies, std::size_t j) {
    const Manifold& m = c.contacts[j];
    const SolverBody& A = bodies[m.a];
    const SolverBody& B = bodies[m.b];
    Constraint k{j, m.a, m.b, m.normal, tangentOf(m.normal), m.friction, m.count, {}, {}};
    for (int i = 0; i < m.count; ++i) {
        const ContactPoint& cp = m.points[i];
        PointConstraint& p = k.points[i];
        p.anchorA = cp.anchorA;
        p.anchorB = cp.anchorB;
        p.normalMass = effectiveMass(A, B, cp.anchorA, cp.anchorB, k.normal);
        p.tangentMass = effectiveMass(A, B, cp.anchorA, cp.anchorB, k.tangent);
        p.bias = bias(c, cp);
        p.relativeVelocity = meetingVelocity(c, m, cp, glm::dot(velocityAt(A, B, p), k.normal));
        p.normalImpulse = c.settings.warmStarting ? cp.normalImpulse : 0;
        p.tangentImpulse = c.settings.warmStarting ? cp.tangentImpulse : 0;
    }
    if (k.count == 2)
        k.block = blockMatrix(A, B, k.points[0].anchorA, k.points[0].anchorB, k.points[1].anchorA,
                              k.points[1].anchorB, k.normal);
    return k;
}

// Warm starting: the last step's impulses applied again (after every point's velocity was taken
// in prepare, which they would otherwise falsify).
void warmStart(std::vector<SolverBody>& bodies, const Constraint& k) {
    SolverBody& A = bodies[k.a];
    SolverBody& B = bodies[k.b];
    for (int i = 0; i < k.count; ++i) {
        const PointConstraint& p = k.points[i];
        push(A, B, p, p.normalImpulse * k.normal + p.tangentImpulse * k.tangent);
    }
}

// Both points of a manifold at once (Catto's block solver, Box2D): find accumulated impulses
// x ≥ 0 with v = K x + b ≥ 0 and x·v = 0 (a 2×2 linear complementarity problem), trying in turn
// both points pushing, only the first, only the second, neither. Solving the two points one
// after the other instead gives them uneven impulses, and a stack of boxes rocks. Returns false
// (solve the points in turn) when K is too ill-conditioned to invert: nearly the same point twice.
bool solveBlock(SolverBody& A, SolverBody& B, Constraint& k) {
    if (!k.block.invertible) return false;
    PointConstraint& p1 = k.points[0];
    PointConstraint& p2 = k.points[1];
    const Vec2 n = k.normal;
    const double k11 = k.block.k11, k12 = k.block.k12, k22 = k.block.k22, det = k.block.det;

    // b: the velocities (minus the bias) with the accumulated impulses taken back out.
    const Vec2 old{p1.normalImpulse, p2.normalImpulse};
    const double v1 = glm::dot(velocityAt(A, B, p1), n) - p1.bias;
    const double v2 = glm::dot(velocityAt(A, B, p2), n) - p2.bias;
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
// the last pass), then the non-penetration constraint v_n ≥ bias. The two bodies are worked on
// in local copies (a ≠ b), which the compiler can keep in registers.
void solve(std::vector<SolverBody>& bodies, Constraint& k) {
    SolverBody A = bodies[k.a];
    SolverBody B = bodies[k.b];
    const Vec2 n = k.normal, t = k.tangent;
    for (int i = 0; i < k.count; ++i) {
        // Coulomb friction: |λ_t| ≤ μ λ_n, the accumulated impulse clamped to the cone.
        PointConstraint& p = k.points[i];
        double vt = glm::dot(velocityAt(A, B, p), t);
        double limit = k.friction * p.normalImpulse;
        double total = std::clamp(p.tangentImpulse - p.tangentMass * vt, -limit, limit);
        push(A, B, p, (total - p.tangentImpulse) * t);
        p.tangentImpulse = total;
    }
    if (!(k.count == 2 && solveBlock(A, B, k)))
        for (int i = 0; i < k.count; ++i) {
            PointConstraint& p = k.points[i];
            double vn = glm::dot(velocityAt(A, B, p), n);
            double total = std::max(p.normalImpulse + p.normalMass * (p.bias - vn), 0.0);
            push(A, B, p, (total - p.normalImpulse) * n);
            p.normalImpulse = total;
        }
    bodies[k.a] = A;
    bodies[k.b] = B;
}

bool bounces(const PointConstraint& p, double threshold) {
    return p.relativeVelocity < -threshold && p.normalImpulse > 0;
}

// Restitution, after the contacts hold: where an impact happened (meeting faster than the
// threshold, and a pushing impulse), drive v_n to −e times the meeting speed; with the normal
// solve before it, that is Hecker's Eq. 9. A speculative point bounces in the step in which its
// gap closes, up to |v| h before the bodies touch (the price of a fixed step), with the velocity
// they would have on coming back to the gap from the surface, so that a bounce keeps e² of the
// energy wherever it starts. (Waiting for the next step to bounce at the surface, or moving the
// bodies to where they would have turned, both broke the energy of elastic collisions of
// spinning bodies.)
void restitute(const StepContext& c, std::vector<SolverBody>& bodies, Constraint& k,
               const Manifold& m) {
    SolverBody& A = bodies[k.a];
    SolverBody& B = bodies[k.b];
    for (int i = 0; i < k.count; ++i) {
        PointConstraint& p = k.points[i];
        if (!bounces(p, c.settings.restitutionThreshold)) continue;
        double vn = glm::dot(velocityAt(A, B, p), k.normal);
        double target = separatingVelocity(c, m, m.points[i], -m.restitution * p.relativeVelocity);
        double total = std::max(p.normalImpulse + p.normalMass * (target - vn), 0.0);
        push(A, B, p, (total - p.normalImpulse) * k.normal);
        p.normalImpulse = total;
    }
}

// The order in which the passes visit the manifolds. A constraint reads and writes only the
// velocities of its two bodies, so two constraints that share no body commute, and any order that
// keeps the order of each body's constraints gives the same result to the last bit. Here: by
// wave, a constraint's wave coming after those of the earlier constraints (in the order of the
// manifolds) on either of its bodies. Neighbours in a wave share no body, so the processor works
// on several at once instead of waiting for each one's result, the bound of the solve.
std::vector<std::size_t> solveOrder(const std::vector<Manifold>& contacts, std::size_t bodyCount) {
    std::vector<std::size_t> wave(contacts.size());
    std::vector<std::size_t> next(bodyCount, 0); // per body: the wave after its last constraint's
    std::size_t waves = 0;
    for (std::size_t j = 0; j < contacts.size(); ++j) {
        const Manifold& m = contacts[j];
        wave[j] = std::max(next[m.a], next[m.b]);
        next[m.a] = next[m.b] = wave[j] + 1;
        waves = std::max(waves, wave[j] + 1);
    }
    std::vector<std::size_t> order(contacts.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    return countingSort(order, waves, [&](std::size_t j) { return wave[j]; });
}

} // namespace

void solveImpulses(StepContext& c) {
    std::vector<SolverBody> bodies;
    bodies.reserve(c.bodies.size());
    for (const Body& b : c.bodies)
        bodies.push_back(SolverBody{b.v, b.w, b.invMass, b.invInertia});
    std::vector<Constraint> constraints;
    constraints.reserve(c.contacts.size());
    for (std::size_t j : solveOrder(c.contacts, c.bodies.size()))
        constraints.push_back(prepare(c, bodies, j));

    for (const Constraint& k : constraints)
        warmStart(bodies, k);
    for (int it = 0; it < c.settings.velocityIterations; ++it)
        for (Constraint& k : constraints)
            solve(bodies, k);
    for (int it = 0; it < c.settings.velocityIterations; ++it)
        for (Constraint& k : constraints)
            if (c.contacts[k.manifold].restitution > 0)
                restitute(c, bodies, k, c.contacts[k.manifold]);

    for (std::size_t i = 0; i < bodies.size(); ++i) {
        c.bodies[i].v = bodies[i].v;
        c.bodies[i].w = bodies[i].w;
    }
    for (const Constraint& k : constraints)
        for (int i = 0; i < k.count; ++i) {
            const PointConstraint& p = k.points[i];
            c.contacts[k.manifold].points[i].normalImpulse = p.normalImpulse;
            c.contacts[k.manifold].points[i].tangentImpulse = p.tangentImpulse;
            if (bounces(p, c.settings.restitutionThreshold)) ++c.diagnostics.collisions;
        }
}

} // namespace carom
