// The substep solver's passes over its constraints (substep_solver.cpp has the method), for N
// lanes: four (substep_solver.cpp compiles them for AVX2 and any x86-64) or eight
// (substep_lanes_avx512.cpp compiles them for processors with AVX-512: one instruction does eight
// lanes, and there are 32 registers). The same arithmetic in every lane whatever N, so the same
// bits (wide.h).
//
// This header includes nothing but wide.h and the C library's, and everything in it is a template
// over N or has internal linkage: substep_lanes_avx512.cpp is compiled for AVX-512 only, and none
// of its code may stand in for code another file compiles for any processor.
#pragma once

#include "solver/wide.h"
#include "tuning.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace carom {
namespace substep {

// A contact spring's parameters over a substep (substep_solver.cpp: contactSpring).
struct Spring {
    double biasRate, massScale, impulseScale;
};
// The spring of a contact of `hertz` and damping ratio zeta over a substep h, and the joints'
// (tuning.h: kJointHertz); substep_solver.cpp.
Spring contactSpring(double hertz, double zeta, double h);
Spring jointSpring(double h);
// Against a static (or kinematic) body, and between moving ones.
struct Springs {
    Spring fixed, moving;
};

// A body as the substeps keep it, in three vector loads, each from an array of its own: its
// velocity; its displacement since the step's start, Δp and the rotation ΔR = (cos, sin) of Δθ;
// and the velocity change of the next substep's warm start, gathered as the relax pass ends each
// contact (below). The velocity and the warm start carry the inverse mass in their fourth double,
// which the passes load with them, so the constraints need not stream it. Apart, a pass that adds
// no warm start reads 64 bytes a body, not 96: the states of 22,000 bodies then fit in a core's
// 2 MB of cache (the passes gather them in the colours' order, from all over the arrays).
struct alignas(32) Velocity {
    double vx, vy, w, invMass;
};
struct alignas(32) Displacement {
    double dpx, dpy, dqc, dqs;
};
static_assert(sizeof(Velocity) == 32 && sizeof(Displacement) == 32);
// Where a body's state is in each of the arrays, in bytes: its index × 32. The constraints keep
// their bodies so, and the passes add it to an array's address as it is (kept as indices, each
// was scaled again in every pass: 16 instructions a group). 32 bits: up to 2²⁷ bodies.
inline std::uint32_t stateOffset(std::size_t index) {
    return static_cast<std::uint32_t>(index * sizeof(Velocity));
}
struct States {
    Velocity* v;
    Displacement* d;
    Velocity* warm;
};

// A moving body's share of the forces' velocity change per substep (the integrator's over the
// step, over n), and its rotation since the step's start.
struct Share {
    std::size_t body;
    double dvx, dvy, dw, angle;
};

template <int N> struct WideBody { typename Lanes<N>::Wide vx, vy, w, invMass, invInertia; };
// The lanes' bodies' displacements since the step's start, Δp and ΔR.
template <int N> struct WideMotion { typename Lanes<N>::Wide dpx, dpy, dqc, dqs; };

template <int N> struct WidePoint {
    using Wide = typename Lanes<N>::Wide;
    Wide rAx, rAy, rBx, rBy; // anchors: the point relative to each centre of mass
    Wide baseSeparation;     // s0 − n · (rB − rA) (substep_solver.cpp)
    Wide normalMass;
    Wide normalImpulse, tangentImpulse; // accumulated in the substep
    Wide totalNormalImpulse;            // over the step: did the point push?
};

// What every pass reads and writes, for a group of N constraints. Padding lanes are zeros on the
// null state: no mass, no impulse.
template <int N> struct WideConstraint {
    using Wide = typename Lanes<N>::Wide;
    std::uint32_t a[N], b[N];      // states of each lane (stateOffset)
    Wide invInertiaA, invInertiaB; // the inverse masses are the states' (gather)
    Wide nx, ny, friction;
    WidePoint<N> points[2];
    Wide k11, k12, k22, invDet; // the block solver's K and 1 / det K (blockMatrix, contact_math.h);
                                // invDet 0: not two points with an invertible K
};

// What only the restitution and the end of the step read, kept apart so that the passes stream
// less memory.
template <int N> struct WideBounce {
    using Wide = typename Lanes<N>::Wide;
    Wide restitution;
    Wide relativeVelocity[2]; // normal velocity of each point at the step's start
    std::size_t manifold[N];  // the lane's manifold in the step's contacts
    int count[N];             // its points (0 for padding)
};

// A pass over groups of constraints: the first warm start of a step, a solve with position
// feedback, or a relax pass without (substep_solver.cpp, steps 2, 3 and 5).
enum class Pass { WarmStart, Solve, Relax };

// One pass over groups [begin, end) of eight lanes, for AVX-512 (substep_lanes_avx512.cpp), to be
// called only where the processor has it. `warmNext`: the pass gathers the next substep's warm
// start.
void pass8(Pass pass, const States& states, WideConstraint<8>* groups, std::size_t begin,
           std::size_t end, const Springs& springs, bool warmNext, double invH);

namespace {

// The lanes' bodies' vectors of one of the arrays into lanes: a vector load each and a transpose.
template <int N, class Vector>
[[gnu::always_inline]] inline void
gatherLanes(const Vector* array, const std::uint32_t (&offset)[N], typename Lanes<N>::Wide out[4]) {
    Quad r[N];
    for (int l = 0; l < N; ++l)
        std::memcpy(&r[l], reinterpret_cast<const char*>(array) + offset[l], sizeof(Quad));
    rowsToLanes<N>(r, out);
}

template <int N>
[[gnu::always_inline]] inline WideBody<N>
gather(const States& states, const std::uint32_t (&offset)[N], typename Lanes<N>::Wide invInertia) {
    typename Lanes<N>::Wide v[4];
    gatherLanes<N>(states.v, offset, v);
    return {v[0], v[1], v[2], v[3], invInertia};
}
template <int N>
[[gnu::always_inline]] inline WideMotion<N> gatherMotion(const States& states,
                                                         const std::uint32_t (&offset)[N]) {
    typename Lanes<N>::Wide d[4];
    gatherLanes<N>(states.d, offset, d);
    return {d[0], d[1], d[2], d[3]};
}

// The lanes' (vx, vy, w) back into their velocities or warm starts, with the inverse mass as it
// was in the fourth double (written whole, one store a body). Lanes that share a static body (or
// the null state) write back the same, unchanged values.
template <int N, class Wide>
[[gnu::always_inline]] inline void scatterLanes(Velocity* array, const std::uint32_t (&offset)[N],
                                                Wide vx, Wide vy, Wide w, Wide invMass) {
    const Wide in[4] = {vx, vy, w, invMass};
    Quad r[N];
    lanesToRows<N>(in, r);
    for (int l = 0; l < N; ++l)
        std::memcpy(reinterpret_cast<char*>(array) + offset[l], &r[l], sizeof(Quad));
}
template <int N>
[[gnu::always_inline]] inline void scatter(const States& states, const std::uint32_t (&offset)[N],
                                           const WideBody<N>& b) {
    scatterLanes<N>(states.v, offset, b.vx, b.vy, b.w, b.invMass);
}

// v_B + ω_B × r_B − v_A − ω_A × r_A along (dx, dy).
template <int N, class Wide>
[[gnu::always_inline]] inline Wide relativeSpeed(const WideBody<N>& A, const WideBody<N>& B,
                                                 const WidePoint<N>& p, Wide dx, Wide dy) {
    const Wide vx = (B.vx - B.w * p.rBy) - (A.vx - A.w * p.rAy);
    const Wide vy = (B.vy + B.w * p.rBx) - (A.vy + A.w * p.rAx);
    return vx * dx + vy * dy;
}

// A point's accumulated impulses, normal and tangent (n_y, −n_x), applied to the lanes' bodies
// again: the warm start.
template <int N>
[[gnu::always_inline]] inline void applyWarmStart(WideBody<N>& A, WideBody<N>& B,
                                                  WideConstraint<N>& k) {
    for (WidePoint<N>& p : k.points) {
        applyImpulseLanes(A, B, p, p.normalImpulse * k.nx + p.tangentImpulse * k.ny,
                          p.normalImpulse * k.ny - p.tangentImpulse * k.nx);
        p.totalNormalImpulse = p.totalNormalImpulse + p.normalImpulse;
    }
}

template <int N>
[[gnu::always_inline]] inline void warmStart(const States& states, WideConstraint<N>& k) {
    WideBody<N> A = gather<N>(states, k.a, k.invInertiaA);
    WideBody<N> B = gather<N>(states, k.b, k.invInertiaB);
    applyWarmStart(A, B, k);
    scatter<N>(states, k.a, A);
    scatter<N>(states, k.b, B);
}

// Warm starting fused into the relax pass: the impulses a contact ends a substep with, applied
// again at the next (the warm start), are added up per body here, while the contact is at hand,
// and applied with the forces' share when the next substep begins (addForces). Velocity changes
// add up in any order, so this is the warm start pass of Box2D without a second pass over the
// contacts.
template <int N>
[[gnu::always_inline]] inline void addWarmStart(const States& states, WideConstraint<N>& k) {
    using Wide = typename Lanes<N>::Wide;
    const Wide zero = splat<Wide>(0);
    Wide a[4], b[4];
    gatherLanes<N>(states.warm, k.a, a);
    gatherLanes<N>(states.warm, k.b, b);
    WideBody<N> A{zero, zero, zero, a[3], k.invInertiaA};
    WideBody<N> B{zero, zero, zero, b[3], k.invInertiaB};
    applyWarmStart(A, B, k); // into zero velocities: the velocity change alone
    scatterLanes<N>(states.warm, k.a, a[0] + A.vx, a[1] + A.vy, a[2] + A.w, a[3]);
    scatterLanes<N>(states.warm, k.b, b[0] + B.vx, b[1] + B.vy, b[2] + B.w, b[3]);
}

// The separation of a point now, from the displacements of its bodies (substep_solver.cpp).
template <int N>
[[gnu::always_inline]] inline typename Lanes<N>::Wide
separation(const WideMotion<N>& A, const WideMotion<N>& B, const WideConstraint<N>& k,
           const WidePoint<N>& p) {
    using Wide = typename Lanes<N>::Wide;
    const Wide ax = A.dqc * p.rAx - A.dqs * p.rAy, ay = A.dqs * p.rAx + A.dqc * p.rAy;
    const Wide bx = B.dqc * p.rBx - B.dqs * p.rBy, by = B.dqs * p.rBx + B.dqc * p.rBy;
    const Wide dx = (B.dpx - A.dpx) + (bx - ax), dy = (B.dpy - A.dpy) + (by - ay);
    return (k.nx * dx + k.ny * dy) + p.baseSeparation;
}

// A point's normal constraint in this pass: with `feedback`, spring-damped with the bias of its
// overlap (pushed out no faster than kMaxPushSpeed); without, rigid; a gap is speculative either
// way.
template <int N> struct SpringPoint { typename Lanes<N>::Wide bias, massScale, impulseScale; };
template <int N> struct WideSpring { typename Lanes<N>::Wide biasRate, massScale, impulseScale; };
// The constraints' springs in their lanes: the fixed one where a body is static or kinematic
// (no inverse inertia, as no inverse mass, where a dynamic body has both; padding lanes too, which
// push nothing), the moving one elsewhere.
template <int N>
[[gnu::always_inline]] inline WideSpring<N> springOf(const WideConstraint<N>& k, const Springs& s) {
    using Wide = typename Lanes<N>::Wide;
    const Wide zero = splat<Wide>(0);
    const auto fixed = (k.invInertiaA == zero) | (k.invInertiaB == zero);
    return {select(fixed, splat<Wide>(s.fixed.biasRate), splat<Wide>(s.moving.biasRate)),
            select(fixed, splat<Wide>(s.fixed.massScale), splat<Wide>(s.moving.massScale)),
            select(fixed, splat<Wide>(s.fixed.impulseScale), splat<Wide>(s.moving.impulseScale))};
}
template <int N>
[[gnu::always_inline]] inline SpringPoint<N>
springPoint(const WideMotion<N>& A, const WideMotion<N>& B, const WideConstraint<N>& k,
            const WidePoint<N>& p, const WideSpring<N>& w, bool feedback, double invH) {
    using Wide = typename Lanes<N>::Wide;
    const Wide zero = splat<Wide>(0), one = splat<Wide>(1);
    const Wide s = separation(A, B, k, p);
    const auto gap = s > zero;
    const Wide push =
        feedback ? maxWide(w.massScale * w.biasRate * s, splat<Wide>(-kMaxPushSpeed)) : zero;
    return {select(gap, s * splat<Wide>(invH), push),
            select(gap, one, feedback ? w.massScale : one),
            select(gap, zero, feedback ? w.impulseScale : zero)};
}

// A point's accumulated impulse to λ', and its bodies pushed by the difference.
template <int N, class Wide>
[[gnu::always_inline]] inline void setNormalImpulse(WideBody<N>& A, WideBody<N>& B,
                                                    const WideConstraint<N>& k, WidePoint<N>& p,
                                                    Wide total) {
    const Wide d = total - p.normalImpulse;
    p.normalImpulse = total;
    p.totalNormalImpulse = p.totalNormalImpulse + d;
    applyImpulseLanes(A, B, p, d * k.nx, d * k.ny);
}

// Both points of a manifold at once (Catto's block solver, as in sequential_impulses.cpp),
// spring-damped: the update above with the coupled K⁻¹ of the two points for m_eff, x = (1 − i_s) λ
// − K⁻¹ (m_s v + bias), where a point that would pull is let go: the accumulated impulses x ≥ 0
// with r = K x + b ≥ 0 and x · r = 0, row i of b being m_s v_n + bias − (1 − i_s) (K λ)_i. Tries in
// turn both points pushing, only the first, only the second, neither. Solving the two points one
// after the other gives them uneven impulses, and a column of boxes leans and walks. Returns the
// lanes it solved (not: one point, or K too ill-conditioned to invert).
template <int N>
[[gnu::always_inline]] inline typename Lanes<N>::Mask
solveBlock(WideBody<N>& A, WideBody<N>& B, WideConstraint<N>& k,
           const SpringPoint<N> (&spring)[2]) {
    using Wide = typename Lanes<N>::Wide;
    WidePoint<N>& p1 = k.points[0];
    WidePoint<N>& p2 = k.points[1];
    const Wide zero = splat<Wide>(0), one = splat<Wide>(1);
    const Wide l1 = p1.normalImpulse, l2 = p2.normalImpulse;
    const Wide vn1 = relativeSpeed(A, B, p1, k.nx, k.ny), vn2 = relativeSpeed(A, B, p2, k.nx, k.ny);
    const Wide b1 = (spring[0].massScale * vn1 + spring[0].bias) -
                    (one - spring[0].impulseScale) * (k.k11 * l1 + k.k12 * l2);
    const Wide b2 = (spring[1].massScale * vn2 + spring[1].bias) -
                    (one - spring[1].impulseScale) * (k.k12 * l1 + k.k22 * l2);
    const Wide bothX = (k.k12 * b2 - k.k22 * b1) * k.invDet,
               bothY = (k.k12 * b1 - k.k11 * b2) * k.invDet;
    const Wide x1 = zero - b1 * p1.normalMass, x2 = zero - b2 * p2.normalMass;
    const auto both = (bothX >= zero) & (bothY >= zero);
    const auto first = (x1 >= zero) & (k.k12 * x1 + b2 >= zero);
    const auto second = (x2 >= zero) & (k.k12 * x2 + b1 >= zero);
    const auto neither = (b1 >= zero) & (b2 >= zero);
    const auto solved = (k.invDet > zero) & (both | first | second | neither);
    const Wide x = select(both, bothX, select(first, x1, zero));
    const Wide y = select(both, bothY, select(first, zero, select(second, x2, zero)));
    setNormalImpulse(A, B, k, p1, select(solved, x, l1));
    setNormalImpulse(A, B, k, p2, select(solved, y, l2));
    return solved;
}

// One pass over a group of constraints: the normal impulses (spring-damped with position feedback
// when `feedback`, rigid without), then, in the relax pass, friction clamped to the Coulomb cone
// |λ_t| ≤ μ λ_n.
template <int N>
[[gnu::always_inline]] inline void solve(const States& states, WideConstraint<N>& k,
                                         const Springs& springs, bool feedback, bool warmNext,
                                         double invH) {
    using Wide = typename Lanes<N>::Wide;
    // The points' separations first, from the bodies' displacements, which are then done with:
    // fewer values live at once than with the velocities gathered beside them.
    const WideSpring<N> w = springOf(k, springs);
    const WideMotion<N> mA = gatherMotion<N>(states, k.a), mB = gatherMotion<N>(states, k.b);
    const SpringPoint<N> spring[2] = {springPoint(mA, mB, k, k.points[0], w, feedback, invH),
                                      springPoint(mA, mB, k, k.points[1], w, feedback, invH)};
    WideBody<N> A = gather<N>(states, k.a, k.invInertiaA);
    WideBody<N> B = gather<N>(states, k.b, k.invInertiaB);
    const Wide zero = splat<Wide>(0);
    const auto alone = ~solveBlock(A, B, k, spring);
    for (int i = 0; i < 2 && anyLane(alone); ++i) {
        WidePoint<N>& p = k.points[i];
        const SpringPoint<N>& q = spring[i];
        const Wide vn = relativeSpeed(A, B, p, k.nx, k.ny);
        const Wide total = maxZero(p.normalImpulse - (p.normalMass * (q.massScale * vn + q.bias) +
                                                      q.impulseScale * p.normalImpulse));
        setNormalImpulse(A, B, k, p, select(alone, total, p.normalImpulse));
    }
    if (!feedback)
        for (WidePoint<N>& p : k.points) {
            const Wide tx = k.ny, ty = zero - k.nx;
            const Wide vt = relativeSpeed(A, B, p, tx, ty);
            const Wide limit = k.friction * p.normalImpulse;
            // The effective mass along the tangent (impulseDenominator, contact_math.h), worked
            // out here: cheaper than streaming it from memory each pass. Zero in padding lanes.
            const Wide rtA = p.rAx * ty - p.rAy * tx, rtB = p.rBx * ty - p.rBy * tx;
            const Wide kt =
                ((A.invMass + B.invMass) + k.invInertiaA * rtA * rtA) + k.invInertiaB * rtB * rtB;
            const Wide tangentMass = select(kt > zero, splat<Wide>(1) / kt, zero);
            const Wide total = clamp(p.tangentImpulse - tangentMass * vt, zero - limit, limit);
            const Wide d = total - p.tangentImpulse;
            p.tangentImpulse = total;
            applyImpulseLanes(A, B, p, d * tx, d * ty);
        }
    scatter<N>(states, k.a, A);
    scatter<N>(states, k.b, B);
    if (warmNext) addWarmStart(states, k);
}

// The forces' share of a substep, and the positions after it, for the moving bodies [begin, end)
// (steps 1 and 4 of substep_solver.cpp).
[[gnu::always_inline]] inline void addForces(const States& states, const Share* shares,
                                             std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
        const Share& m = shares[i];
        Velocity& s = states.v[m.body];
        Velocity& warm = states.warm[m.body];
        s.vx += m.dvx + warm.vx;
        s.vy += m.dvy + warm.vy;
        s.w += m.dw + warm.w;
        warm.vx = warm.vy = warm.w = 0;
    }
}
[[gnu::always_inline]] inline void movePositions(const States& states, Share* shares,
                                                 std::size_t begin, std::size_t end, double h) {
    for (std::size_t i = begin; i < end; ++i) {
        Share& m = shares[i];
        const Velocity& v = states.v[m.body];
        Displacement& s = states.d[m.body];
        s.dpx += h * v.vx;
        s.dpy += h * v.vy;
        const double turn = h * v.w;
        m.angle += turn;
        // ΔR turned by `turn` to first order and normalized (Box2D's b2IntegrateRotation): for the
        // separations; the pose at the end takes the angle itself.
        const double c = s.dqc - turn * s.dqs, sn = s.dqs + turn * s.dqc;
        const double len = std::sqrt(c * c + sn * sn);
        s.dqc = c / len;
        s.dqs = sn / len;
    }
}

// One pass over groups [begin, end).
template <int N>
[[gnu::always_inline]] inline void
passOver(Pass pass, const States& states, WideConstraint<N>* groups, std::size_t begin,
         std::size_t end, const Springs& springs, bool warmNext, double invH) {
    for (std::size_t j = begin; j < end; ++j)
        if (pass == Pass::WarmStart)
            warmStart(states, groups[j]);
        else
            solve(states, groups[j], springs, pass == Pass::Solve, warmNext, invH);
}

} // namespace
} // namespace substep
} // namespace carom
