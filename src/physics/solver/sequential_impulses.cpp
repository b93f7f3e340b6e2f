// Sequential impulses (Catto, "Iterative Dynamics with Temporal Coherence", GDC 2005; Box2D).
//
// The normal solve (λ stops the approach) followed by the restitution pass (λ adds e times the
// approach speed) gives, for a single contact, exactly Hecker's Eq. 9:
//   j = −(1 + e) v_n / (1/mA + 1/mB + (rA × n)²/IA + (rB × n)²/IB).
// Sign conventions and the effective mass: contact_math.h.
//
// The iterations work on compact copies, hot solver data kept apart from the bookkeeping of the
// bodies and manifolds (Box2D v3's solver bodies and contact constraints): per body its velocities,
// per manifold what stays fixed over the step (normal, tangent, anchors, effective masses, inverse
// masses, bias, the block solver's matrix) and the accumulated impulses. The velocities and
// impulses are copied back after the step's solve. The passes visit the constraints by colour,
// the constraints of a colour sharing no moving body (solveOrder), four at a time.
#include "solver/colouring.h"
#include "solver/contact_math.h"
#include "solver/counting_sort.h"
#include "solver/islands.h"
#include "solver/wide.h"
#include "step/step_context.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

namespace carom {
namespace {

// A body's velocity as the passes keep it: four doubles, one vector load (the fourth unused).
struct alignas(32) SolverBody {
    double vx, vy, w, unused;
};

// The normal relative acceleration at a point from the step's forces, Δv_n / h.
double normalAcceleration(const StepContext& c, const Manifold& m, const ContactPoint& cp) {
    const Motion& a = c.motion[m.a];
    const Motion& b = c.motion[m.b];
    const auto [rA, rB] = anchorsOf(c.bodies[m.a], c.bodies[m.b], cp);
    Vec2 dv = b.dv + cross(b.dw, rB) - a.dv - cross(a.dw, rA);
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

// The normal velocity a bounce leaves the bodies with, given their separating velocity v_gap back
// at the gap (above). They end the step where the integrator puts them, and the velocity must fit
// that place for the bounce to keep the energy (a: the normal acceleration of the forces, so that
// ½ v² − a s is conserved along the normal):
// - RK4's free displacement holds ½ a h² of the forces, the true one, and the bodies end at
//   s = h v − ½ a h² from where they started; ½ v² − a s = ½ v_gap² gives v = v_gap + a h.
// - Semi-implicit Euler's displacement h v1 holds a h²: its flight loses ½ a² h² (per unit mass)
//   every step, and the bounce at v = v_gap, ending h v_gap from the start, gives back m a h v_gap,
//   the loss of the flight up to the gap and back: over a bounce and its flight the energy is kept
//   as well as Euler keeps it.
double bounceVelocity(const StepContext& c, const Manifold& m, const ContactPoint& cp,
                      double vGap) {
    if (c.settings.integrator == Integrator::Euler) return vGap;
    return std::max(vGap + normalAcceleration(c, m, cp) * c.h, 0.0);
}

// A gap (depth < 0) may close within the step: allow approaching at −depth/h (speculative
// contact), so fast bodies stop at the surface instead of tunnelling.
double bias(const StepContext& c, const ContactPoint& cp) {
    return cp.depth < 0 ? cp.depth / c.h : 0;
}

// ---- Constraints, four at a time -------------------------------------------------------------
// The constraints of a colour (solveOrder) share no moving body, so four of them are solved side by
// side, each in its lane of a WideConstraint, with the same operations as one alone: the
// velocities of their bodies are gathered into lanes, solved, and scattered back. Static and
// kinematic bodies are never changed by a contact (no inverse mass), so lanes may share them.
// Padding lanes have no point and use a null body at rest.

struct WideBody {
    Wide vx, vy, w, invMass, invInertia;
};
using Lanes = std::size_t[4];

struct WidePoint {
    Wide rAx, rAy, rBx, rBy;      // anchors: the point relative to each centre of mass
    Wide normalMass, tangentMass; // effective masses along normal and tangent
    Wide bias;                    // the normal velocity allowed, bias() above
    Wide relativeVelocity;        // normal velocity at which the bodies meet (restitution)
    Wide bounceVelocity;          // the normal velocity a bounce leaves them with
    Wide normalImpulse, tangentImpulse;
    Mask present; // the lane's manifold has this point
};

struct WideConstraint {
    Lanes a, b;              // solver bodies of each lane (the null body for padding)
    std::size_t manifold[4]; // the lane's manifold in the step's contacts; kPadding for padding
    int count[4];
    Wide invMassA, invInertiaA, invMassB, invInertiaB;
    Wide nx, ny, tx, ty, friction;
    Mask restitutes; // the lane's manifold has restitution > 0
    WidePoint points[2];
    Wide k11, k12, k22, det; // the block solver's K (blockMatrix, contact_math.h)
    Mask block;              // two points and an invertible K
};

constexpr std::size_t kPadding = ~std::size_t{0};

// Lane l of a point that is not there (a manifold's missing second point, or padding): zeros,
// which push nothing.
void clearPoint(WidePoint& p, int l) {
    p.present[l] = 0;
    p.rAx[l] = p.rAy[l] = p.rBx[l] = p.rBy[l] = 0;
    p.normalMass[l] = p.tangentMass[l] = p.bias[l] = 0;
    p.relativeVelocity[l] = p.bounceVelocity[l] = 0;
    p.normalImpulse[l] = p.tangentImpulse[l] = 0;
}

void prepareLane(const StepContext& c, std::size_t j, WideConstraint& k, int l) {
    const Manifold& m = c.contacts[j];
    const Body& A = c.bodies[m.a];
    const Body& B = c.bodies[m.b];
    const Vec2 n = m.normal, t = tangentOf(n);
    k.a[l] = m.a;
    k.b[l] = m.b;
    k.manifold[l] = j;
    k.count[l] = m.count;
    k.invMassA[l] = A.invMass;
    k.invInertiaA[l] = A.invInertia;
    k.invMassB[l] = B.invMass;
    k.invInertiaB[l] = B.invInertia;
    k.nx[l] = n.x;
    k.ny[l] = n.y;
    k.tx[l] = t.x;
    k.ty[l] = t.y;
    k.friction[l] = m.friction;
    k.restitutes[l] = m.restitution > 0 ? -1 : 0;
    for (int i = 0; i < 2; ++i) {
        WidePoint& p = k.points[i];
        if (i >= m.count) {
            clearPoint(p, l);
            continue;
        }
        p.present[l] = -1;
        const ContactPoint& cp = m.points[i];
        const auto [rA, rB] = anchorsOf(A, B, cp);
        p.rAx[l] = rA.x;
        p.rAy[l] = rA.y;
        p.rBx[l] = rB.x;
        p.rBy[l] = rB.y;
        p.normalMass[l] = effectiveMass(A, B, rA, rB, n);
        p.tangentMass[l] = effectiveMass(A, B, rA, rB, t);
        p.bias[l] = bias(c, cp);
        const double meet = meetingVelocity(c, m, cp, glm::dot(relativeVelocity(A, B, rA, rB), n));
        p.relativeVelocity[l] = meet;
        p.bounceVelocity[l] =
            m.restitution > 0
                ? bounceVelocity(c, m, cp, separatingVelocity(c, m, cp, -m.restitution * meet))
                : 0;
        // Warm started only where the bodies touch: a gap's impulse from the last step is stale
        // (the bodies parted, or it was a speculative stop), and taken back by the passes it can
        // leave energy behind (stress scenes with mass ratios of 10⁵ and spins of 500 rad/s
        // tripled theirs in a step).
        const bool warm = c.settings.warmStarting && cp.depth > -c.settings.linearSlop;
        p.normalImpulse[l] = warm ? cp.normalImpulse : 0;
        p.tangentImpulse[l] = warm ? cp.tangentImpulse : 0;
    }
    BlockMatrix K;
    if (m.count == 2) {
        const Anchors r1 = anchorsOf(A, B, m.points[0]), r2 = anchorsOf(A, B, m.points[1]);
        K = blockMatrix(A, B, r1.a, r1.b, r2.a, r2.b, n);
    }
    const bool block = m.count == 2 && K.invertible;
    k.k11[l] = block ? K.k11 : 1;
    k.k12[l] = block ? K.k12 : 0;
    k.k22[l] = block ? K.k22 : 1;
    k.det[l] = block ? K.det : 1;
    k.block[l] = block ? -1 : 0;
}

void padLane(WideConstraint& k, int l, std::size_t nullBody) {
    k.a[l] = k.b[l] = nullBody;
    k.manifold[l] = kPadding;
    k.count[l] = 0;
    k.invMassA[l] = k.invInertiaA[l] = k.invMassB[l] = k.invInertiaB[l] = 0;
    k.nx[l] = k.ny[l] = k.tx[l] = k.ty[l] = k.friction[l] = 0;
    k.restitutes[l] = 0;
    for (WidePoint& p : k.points)
        clearPoint(p, l);
    k.k11[l] = k.k22[l] = k.det[l] = 1;
    k.k12[l] = 0;
    k.block[l] = 0;
}

// Four bodies' velocities into lanes: four vector loads and a 4×4 transpose (wide.h), with the
// inverse masses the constraint keeps.
[[gnu::always_inline]] inline WideBody gather(const std::vector<SolverBody>& bodies,
                                              const Lanes& index, Wide invMass, Wide invInertia) {
    Wide r[4], c[4];
    for (int l = 0; l < 4; ++l)
        std::memcpy(&r[l], &bodies[index[l]], sizeof(Wide));
    transpose(r, c);
    return {c[0], c[1], c[2], invMass, invInertia};
}

// The lanes' velocities back to their bodies: the transpose the other way, four vector stores.
// Lanes that share a static body (or the null body) write back the same, unchanged velocity.
[[gnu::always_inline]] inline void scatter(std::vector<SolverBody>& bodies, const Lanes& index,
                                           const WideBody& w) {
    const Wide c[4] = {w.vx, w.vy, w.w, w.w};
    Wide r[4];
    transpose(c, r);
    for (int l = 0; l < 4; ++l)
        std::memcpy(&bodies[index[l]], &r[l], sizeof(Wide));
}

// relativeVelocity (contact_math.h), v_B + ω_B × r_B − v_A − ω_A × r_A, operation for operation.
struct WideVec {
    Wide x, y;
};
[[gnu::always_inline]] inline WideVec relativeVelocityAt(const WideBody& A, const WideBody& B,
                                                         const WidePoint& p) {
    return {((B.vx + (-B.w) * p.rBy) - A.vx) - ((-A.w) * p.rAy),
            ((B.vy + B.w * p.rBx) - A.vy) - (A.w * p.rAx)};
}

// Warm starting: the last step's impulses applied again (after every point's velocity was taken
// in prepare, which they would otherwise falsify).
[[gnu::always_inline]] inline void warmStart(std::vector<SolverBody>& bodies,
                                             const WideConstraint& k) {
    WideBody A = gather(bodies, k.a, k.invMassA, k.invInertiaA);
    WideBody B = gather(bodies, k.b, k.invMassB, k.invInertiaB);
    for (const WidePoint& p : k.points)
        applyImpulseLanes(A, B, p, p.normalImpulse * k.nx + p.tangentImpulse * k.tx,
                          p.normalImpulse * k.ny + p.tangentImpulse * k.ty);
    scatter(bodies, k.a, A);
    scatter(bodies, k.b, B);
}

// Coulomb friction: |λ_t| ≤ μ λ_n, the accumulated impulse clamped to the cone.
[[gnu::always_inline]] inline void solveFriction(WideBody& A, WideBody& B, WideConstraint& k,
                                                 WidePoint& p) {
    const WideVec v = relativeVelocityAt(A, B, p);
    const Wide vt = v.x * k.tx + v.y * k.ty;
    const Wide limit = k.friction * p.normalImpulse;
    Wide total = nextTangentImpulse(p.tangentImpulse, p.tangentMass, vt, limit);
    total = select(p.present, total, p.tangentImpulse);
    const Wide d = total - p.tangentImpulse;
    applyImpulseLanes(A, B, p, d * k.tx, d * k.ty);
    p.tangentImpulse = total;
}

// Both points of a manifold at once (Catto's block solver, Box2D): find accumulated impulses
// x ≥ 0 with v = K x + b ≥ 0 and x·v = 0 (a 2×2 linear complementarity problem), trying in turn
// both points pushing, only the first, only the second, neither. Solving the two points one
// after the other instead gives them uneven impulses, and a stack of boxes rocks. Returns the
// lanes it solved; the others (one point; K too ill-conditioned to invert, nearly the same point
// twice; or no case fitting, by round-off) solve their points in turn.
[[gnu::always_inline]] inline Mask solveBlock(WideBody& A, WideBody& B, WideConstraint& k) {
    WidePoint& p1 = k.points[0];
    WidePoint& p2 = k.points[1];
    const Wide zero = splat(0);
    const Wide old1 = p1.normalImpulse, old2 = p2.normalImpulse;
    const WideVec u1 = relativeVelocityAt(A, B, p1), u2 = relativeVelocityAt(A, B, p2);
    const Wide v1 = (u1.x * k.nx + u1.y * k.ny) - p1.bias;
    const Wide v2 = (u2.x * k.nx + u2.y * k.ny) - p2.bias;
    // b: the velocities (minus the bias) with the accumulated impulses taken back out.
    const Wide bx = v1 - (k.k11 * old1 + k.k12 * old2), by = v2 - (k.k12 * old1 + k.k22 * old2);
    const Wide bothX = (k.k12 * by - k.k22 * bx) / k.det;
    const Wide bothY = (k.k12 * bx - k.k11 * by) / k.det;
    const Wide x1 = -bx / k.k11, x2 = -by / k.k22;
    const Mask both = (bothX >= zero) & (bothY >= zero);
    const Mask first = (x1 >= zero) & (k.k12 * x1 + by >= zero);
    const Mask second = (x2 >= zero) & (k.k12 * x2 + bx >= zero);
    const Mask neither = (bx >= zero) & (by >= zero);
    const Mask solved = k.block & (both | first | second | neither);
    Wide x = select(both, bothX, select(first, x1, zero));
    Wide y = select(both, bothY, select(first, zero, select(second, x2, zero)));
    x = select(solved, x, old1);
    y = select(solved, y, old2);
    applyImpulseLanes(A, B, p1, (x - old1) * k.nx, (x - old1) * k.ny);
    applyImpulseLanes(A, B, p2, (y - old2) * k.nx, (y - old2) * k.ny);
    p1.normalImpulse = x;
    p2.normalImpulse = y;
    return solved;
}

// The non-penetration constraint v_n ≥ bias of one point, in the lanes `active`.
[[gnu::always_inline]] inline void solveNormal(WideBody& A, WideBody& B, WideConstraint& k,
                                               WidePoint& p, Mask active) {
    const WideVec v = relativeVelocityAt(A, B, p);
    const Wide vn = v.x * k.nx + v.y * k.ny;
    Wide total = nextNormalImpulse(p.normalImpulse, p.normalMass, p.bias, vn);
    total = select(active & p.present, total, p.normalImpulse);
    const Wide d = total - p.normalImpulse;
    applyImpulseLanes(A, B, p, d * k.nx, d * k.ny);
    p.normalImpulse = total;
}

// One Gauss-Seidel pass over four manifolds: friction first (its bound uses the normal impulse
// of the last pass), then the non-penetration constraints.
[[gnu::always_inline]] inline void solve(std::vector<SolverBody>& bodies, WideConstraint& k) {
    WideBody A = gather(bodies, k.a, k.invMassA, k.invInertiaA);
    WideBody B = gather(bodies, k.b, k.invMassB, k.invInertiaB);
    solveFriction(A, B, k, k.points[0]);
    solveFriction(A, B, k, k.points[1]);
    const Mask rest = ~solveBlock(A, B, k);
    if (anyLane(rest &
                k.points[0].present)) { // a lane the block solver left: one point, or no case
        solveNormal(A, B, k, k.points[0], rest);
        solveNormal(A, B, k, k.points[1], rest);
    }
    scatter(bodies, k.a, A);
    scatter(bodies, k.b, B);
}

[[gnu::always_inline]] inline Mask bounces(const WidePoint& p, double threshold) {
    return p.present & (p.relativeVelocity < splat(-threshold)) & (p.normalImpulse > splat(0));
}

// Restitution, after the contacts hold: where an impact happened (meeting faster than the
// threshold, and a pushing impulse), drive v_n to −e times the meeting speed; with the normal
// solve before it, that is Hecker's Eq. 9. A speculative point bounces in the step in which its
// gap closes, up to |v| h before the bodies touch (the price of a fixed step), with the velocity
// they would have on coming back to the gap from the surface, so that a bounce keeps e² of the
// energy wherever it starts, spinning bodies included.
[[gnu::always_inline]] inline void restitute(std::vector<SolverBody>& bodies, WideConstraint& k,
                                             double threshold) {
    WideBody A = gather(bodies, k.a, k.invMassA, k.invInertiaA);
    WideBody B = gather(bodies, k.b, k.invMassB, k.invInertiaB);
    for (WidePoint& p : k.points) {
        const Mask bounce = k.restitutes & bounces(p, threshold);
        const WideVec v = relativeVelocityAt(A, B, p);
        const Wide vn = v.x * k.nx + v.y * k.ny;
        Wide total = nextNormalImpulse(p.normalImpulse, p.normalMass, p.bounceVelocity, vn);
        total = select(bounce, total, p.normalImpulse);
        const Wide d = total - p.normalImpulse;
        applyImpulseLanes(A, B, p, d * k.nx, d * k.ny);
        p.normalImpulse = total;
    }
    scatter(bodies, k.a, A);
    scatter(bodies, k.b, B);
}

// The passes over the constraints (the solve, then restitution), compiled three times: for
// processors with AVX-512 (four lanes in one instruction, and 32 vector registers), with AVX2 (the
// same with 16), and for any x86-64 (two instructions of two lanes); the one the processor runs is
// chosen when the program starts. None fuses a multiply and an add, so all three give the same
// bits.
[[gnu::target_clones("avx512f", "avx2", "default")]] void
solvePasses(std::vector<SolverBody>& bodies, std::vector<WideConstraint>& wide, int passes) {
    for (int it = 0; it < passes; ++it)
        for (WideConstraint& k : wide)
            solve(bodies, k);
}
// The impulse method's warm start does no work on an island (the bodies its contacts join,
// islands.h; the exact method's holds, solved until they do no work, need no such rule): it is a
// guess at the impulses, and the passes after it only take kinetic energy (each update of a point
// makes its bodies' velocity the closest, in the kinetic metric, that the point allows: a
// projection), so the solve makes none if the guess makes none. Applied whole, the last step's
// impulses change the island's velocities by Δv and its kinetic energy by ΔK(1), where a share s
// of them gives ΔK(s) = s W + s² S, W = Σ m v·Δv + I ω Δω at the velocities before it and
// S = ½ Σ m |Δv|² + I Δω². Where ΔK(1) > 0 the island takes the share s = −W / S (none if W ≥ 0),
// which adds nothing, and its points' impulses are scaled to it. (Whole, the warm start of an
// inelastic crowd struck at 20 m/s, whose contacts change from step to step, made 62 J in 1.5 s:
// 10 passes did not take it back, 200 did.)
void warmStartWithoutWork(const StepContext& c, std::vector<SolverBody>& bodies,
                          std::vector<WideConstraint>& wide) {
    static thread_local std::vector<SolverBody> before; // kept from step to step
    before = bodies;
    for (const WideConstraint& k : wide)
        warmStart(bodies, k);
    // Each body's W and S; where no body gains, no island does (the islands are not needed).
    static thread_local std::vector<double> bodyWork, bodySize;
    bodyWork.assign(c.bodies.size(), 0.0);
    bodySize.assign(c.bodies.size(), 0.0);
    bool gains = false;
    for (std::size_t i = 0; i < c.bodies.size(); ++i) {
        const Body& b = c.bodies[i];
        if (!b.isDynamic()) continue;
        const SolverBody &v = before[i], &u = bodies[i];
        const double dx = u.vx - v.vx, dy = u.vy - v.vy, dw = u.w - v.w;
        bodyWork[i] = b.mass * (v.vx * dx + v.vy * dy) + b.inertia * v.w * dw;
        bodySize[i] = 0.5 * (b.mass * (dx * dx + dy * dy) + b.inertia * dw * dw);
        gains = gains || bodyWork[i] + bodySize[i] > 0;
    }
    if (!gains) return;
    const std::vector<std::uint32_t> island =
        islands(c.contacts, c.bodies.size(), [&](BodyId id) { return c.bodies[id].isDynamic(); });
    std::vector<double> work(c.bodies.size(), 0.0), size(c.bodies.size(), 0.0);
    for (std::size_t i = 0; i < c.bodies.size(); ++i)
        if (c.bodies[i].isDynamic()) {
            work[island[i]] += bodyWork[i];
            size[island[i]] += bodySize[i];
        }
    std::vector<double> share(c.bodies.size(), 1.0);
    bool any = false;
    for (std::size_t i = 0; i < c.bodies.size(); ++i)
        if (work[i] + size[i] > 0) {
            share[i] = work[i] < 0 ? -work[i] / size[i] : 0.0;
            any = true;
        }
    if (!any) return;
    for (std::size_t i = 0; i < c.bodies.size(); ++i) {
        const double f = share[island[i]];
        if (!c.bodies[i].isDynamic() || f == 1) continue;
        SolverBody &u = bodies[i], v = before[i];
        u.vx = v.vx + f * (u.vx - v.vx);
        u.vy = v.vy + f * (u.vy - v.vy);
        u.w = v.w + f * (u.w - v.w);
    }
    for (WideConstraint& k : wide)
        for (int l = 0; l < 4; ++l) {
            if (k.manifold[l] == kPadding) continue;
            const Manifold& m = c.contacts[k.manifold[l]];
            const double f = share[island[c.bodies[m.a].isDynamic() ? m.a : m.b]];
            for (WidePoint& p : k.points) {
                p.normalImpulse[l] *= f;
                p.tangentImpulse[l] *= f;
            }
        }
}

void solvePasses(std::vector<SolverBody>& bodies, std::vector<WideConstraint>& wide,
                 const WorldSettings& s) {
    for (const WideConstraint& k : wide)
        warmStart(bodies, k);
    solvePasses(bodies, wide, s.velocityIterations);
}
[[gnu::target_clones("avx512f", "avx2", "default")]] void
restitutionPasses(std::vector<SolverBody>& bodies, std::vector<WideConstraint>& wide,
                  const WorldSettings& s) {
    for (int it = 0; it < s.velocityIterations; ++it)
        for (WideConstraint& k : wide)
            if (anyLane(k.restitutes)) restitute(bodies, k, s.restitutionThreshold);
}

// The order in which the passes visit the manifolds: by colour (colouring.h), so that the
// constraints of a colour share no moving body and are solved four at a time. Sequential impulses
// converge in any order; this one fills the lanes (in manifold order, a column of boxes was a
// chain of one constraint per step of the chain: three lanes of four idle).
struct SolveOrder {
    std::vector<std::size_t> order;       // manifold indices, colour by colour
    std::vector<std::size_t> colourStart; // where each colour begins in `order`, and the end
};

SolveOrder solveOrder(const std::vector<Manifold>& contacts, const std::vector<Body>& bodies) {
    std::size_t count = 0;
    const std::vector<std::uint32_t> colour = colours(
        contacts, bodies.size(), [&](BodyId id) { return bodies[id].isDynamic(); }, count);
    SolveOrder s;
    s.order.resize(contacts.size());
    std::iota(s.order.begin(), s.order.end(), std::size_t{0});
    s.order = countingSort(s.order, count, [&](std::size_t j) { return colour[j]; });
    s.colourStart.assign(count + 1, 0);
    for (std::size_t j = 0; j < contacts.size(); ++j)
        ++s.colourStart[colour[j] + 1];
    std::partial_sum(s.colourStart.begin(), s.colourStart.end(), s.colourStart.begin());
    return s;
}

// The constraints of each colour in lanes of four, colours in order.
void prepare(const StepContext& c, std::vector<WideConstraint>& wide) {
    const SolveOrder s = solveOrder(c.contacts, c.bodies);
    wide.clear();
    for (std::size_t col = 0; col + 1 < s.colourStart.size(); ++col)
        for (std::size_t j = s.colourStart[col]; j < s.colourStart[col + 1]; j += 4) {
            WideConstraint& k = wide.emplace_back();
            for (int l = 0; l < 4; ++l)
                if (j + l < s.colourStart[col + 1])
                    prepareLane(c, s.order[j + l], k, l);
                else
                    padLane(k, l, c.bodies.size());
        }
}

// The kinetic energy of the moving bodies at the solver's velocities.
double kineticEnergyOf(const StepContext& c, const std::vector<SolverBody>& bodies) {
    double e = 0;
    for (std::size_t i = 0; i < c.bodies.size(); ++i) {
        const Body& b = c.bodies[i];
        const SolverBody& v = bodies[i];
        if (b.isDynamic())
            e += 0.5 * b.mass * (v.vx * v.vx + v.vy * v.vy) + 0.5 * b.inertia * v.w * v.w;
    }
    return e;
}

// Whether a kinematic body is in the world: a source of energy (it keeps its speed whatever it
// strikes), so that the passes below may rightly give the moving bodies more than they had.
bool driven(const StepContext& c) {
    return std::any_of(c.bodies.begin(), c.bodies.end(),
                       [](const Body& b) { return b.type == BodyType::Kinematic; });
}

// The restitution passes, kept only if they leave the moving bodies with no more kinetic energy
// than they had before the contacts were solved or after the normal solve. A restitution gives back
// what an impact took, no more; but passes over contacts that touch one another can give more: a
// light body between two heavy ones is sent off the first at e times their speed, into the second,
// and off it, faster at every step (the chain of substep_solver.cpp's restitute; stress scenes of
// 172 bodies grew fourfold in 0.2 s). Undone, the step's impacts stay inelastic.
void restitute(const StepContext& c, std::vector<SolverBody>& bodies,
               std::vector<WideConstraint>& wide, double keStart) {
    if (std::none_of(wide.begin(), wide.end(),
                     [](const WideConstraint& k) { return anyLane(k.restitutes); }))
        return;
    const std::vector<SolverBody> held = bodies;
    const double keSolved = kineticEnergyOf(c, bodies);
    restitutionPasses(bodies, wide, c.settings);
    const double allowed = std::max(keStart, keSolved);
    if (kineticEnergyOf(c, bodies) > allowed * (1 + 1e-12) && !driven(c)) {
        bodies = held;
        ++c.diagnostics.guards.restitutionUndone;
    }
}

// The work the contact forces do over an interval in which each body moves by its free
// displacement plus ½ h of the solver's velocity change (the exact method's advance): the
// solver's impulse m Δv stands for a constant force m Δv / h, whose work over the displacement
// h (v0 + v_end) / 2 of uniformly accelerated motion is m Δv · (v0 + v_end) / 2, and the same
// for the turning (I Δω (ω0 + ω_end) / 2). v0: `atStart`, the velocities the interval began with;
// Δv: what the passes changed (the bodies' own velocities are those the passes started from).
// Under gravity alone it is exactly the change of E = ½ m v² + ½ I ω² − m g·p over the interval.
// Returns the work and the sum of its terms' sizes with the energy's (the audit's scale).
struct Work {
    double work = 0, scale = 0;
};
Work workOfHolds(const StepContext& c, const std::vector<SolverBody>& bodies,
                 const std::vector<BodyVelocity>& atStart) {
    Work w;
    for (std::size_t i = 0; i < c.bodies.size(); ++i) {
        const Body& b = c.bodies[i];
        if (!b.isDynamic()) continue;
        const Vec2 end{bodies[i].vx, bodies[i].vy};
        const Vec2 dv = end - b.v;
        const double dw = bodies[i].w - b.w;
        const double linear = b.mass * glm::dot(dv, atStart[i].v + end) / 2;
        const double angular = b.inertia * dw * (atStart[i].w + bodies[i].w) / 2;
        w.work += linear + angular;
        w.scale += std::abs(linear) + std::abs(angular) + 0.5 * b.mass * glm::dot(end, end) +
                   0.5 * b.inertia * bodies[i].w * bodies[i].w +
                   std::abs(b.mass * glm::dot(c.settings.gravity, b.xf().p));
    }
    return w;
}

// The solver's velocities, one a body and the null body of padding lanes after them.
void startVelocities(const StepContext& c, std::vector<SolverBody>& bodies) {
    bodies.clear();
    for (const Body& b : c.bodies)
        bodies.push_back(SolverBody{b.v.x, b.v.y, b.w, 0});
    bodies.push_back(SolverBody{0, 0, 0, 0});
}

// The solver's velocities given to the bodies.
void finishVelocities(StepContext& c, const std::vector<SolverBody>& bodies) {
    for (std::size_t i = 0; i < c.bodies.size(); ++i) {
        c.bodies[i].v = {bodies[i].vx, bodies[i].vy};
        c.bodies[i].w = bodies[i].w;
    }
}

// The accumulated impulses given to the contacts (the next solve's warm start); counts the
// collisions among them.
void keepImpulses(StepContext& c, const std::vector<WideConstraint>& wide) {
    for (const WideConstraint& k : wide)
        for (int l = 0; l < 4; ++l)
            for (int i = 0; i < k.count[l]; ++i) {
                const WidePoint& p = k.points[i];
                ContactPoint& cp = c.contacts[k.manifold[l]].points[i];
                cp.normalImpulse = p.normalImpulse[l];
                cp.tangentImpulse = p.tangentImpulse[l];
                if (p.relativeVelocity[l] < -c.settings.restitutionThreshold &&
                    p.normalImpulse[l] > 0)
                    ++c.diagnostics.collisions;
            }
}

// Scratch kept from step to step: a large scene's arrays are not allocated anew each step.
thread_local std::vector<SolverBody> scratchBodies;
thread_local std::vector<WideConstraint> scratchWide;

} // namespace

void solveImpulses(StepContext& c) {
    std::vector<SolverBody>& bodies = scratchBodies;
    std::vector<WideConstraint>& wide = scratchWide;
    startVelocities(c, bodies);
    prepare(c, wide);
    const double keStart = kineticEnergyOf(c, bodies);
    warmStartWithoutWork(c, bodies, wide);
    solvePasses(bodies, wide, c.settings.velocityIterations);
    // The impulses that held the contacts are kept for the next step's warm start; a bounce's is
    // not: warm started, it would throw the bodies apart again (stress scenes of 55 bodies, e =
    // 0.7, no gravity, went from 3e7 J to 5e51 J in 1 s).
    keepImpulses(c, wide);
    restitute(c, bodies, wide, keStart);
    finishVelocities(c, bodies);
}

void solveHolds(StepContext& c, const std::vector<BodyVelocity>& atStart) {
    std::vector<SolverBody>& bodies = scratchBodies;
    std::vector<WideConstraint>& wide = scratchWide;
    startVelocities(c, bodies);
    prepare(c, wide);
    solvePasses(bodies, wide, c.settings);
    std::size_t points = 0;
    for (const Manifold& m : c.contacts)
        points += static_cast<std::size_t>(m.count);
    const std::size_t maxPasses =
        std::max<std::size_t>(kHoldMinPasses, kHoldWork / std::max<std::size_t>(points, 1));
    std::size_t passes = static_cast<std::size_t>(c.settings.velocityIterations);
    for (Work w = workOfHolds(c, bodies, atStart); w.work > kAuditRoundOff * w.scale;
         w = workOfHolds(c, bodies, atStart)) {
        if (passes >= maxPasses) {
            ++c.diagnostics.holdSolvesCut;
            break;
        }
        solvePasses(bodies, wide, 1);
        ++passes;
    }
    keepImpulses(c, wide);
    finishVelocities(c, bodies);
}

} // namespace carom
