// The default method's solver: the soft step (Catto, "Solver2D", 2024; Box2D v3's solver.c and
// contact_solver.c), sequential impulses on soft contacts over substeps.
//
// The step of h is cut into n substeps of h/n. In each substep:
//   1. velocities: the forces' velocity change, a share 1/n of the step's (the integrator's)
//   2. warm start: the last substep's impulses applied again
//   3. solve: one pass of sequential impulses on the contacts as soft constraints, with position
//      feedback (below)
//   4. positions: each body moved by h/n times its velocity
//   5. relax, in every second substep and the last: one pass without position feedback, with
//      Coulomb friction; it takes back the velocity the feedback added, so the feedback moves
//      positions without adding energy (in the substep between, the feedback's velocity moves
//      the positions once more, and the next solve pass starts from it)
// and after the substeps, restitution once (at the contacts that met faster than the threshold and
// pushed, v_n driven to −e times the speed they met at: with the pass before it, Hecker's Eq. 9).
//
// The contacts' separations follow the bodies within the step without a new narrow phase: a
// point's separation is its separation when found plus the relative displacement of its anchors
// along the normal, s = s0 + n · ((Δp_B + ΔR_B r_B) − (Δp_A + ΔR_A r_A)) − n · (r_B − r_A).
//
// A soft contact (Catto, "Soft Constraints", GDC 2011) is a spring-damper of frequency f and
// damping ratio ζ integrated implicitly over the substep h: with ω = 2πf, a1 = 2ζ + hω,
// a2 = hω a1, a3 = 1 / (1 + a2), the impulse at a point with separation s < 0 is
//   Δλ = −m_eff (m_s v_n + m_s b s) − i_s λ,   b = ω / a1, m_s = a2 a3, i_s = a3
// where λ is the impulse accumulated in the substep; an approach at more than a maximum speed is
// not pushed back faster than that speed. A gap (s > 0) is a speculative contact: the bodies may
// close it in the substep, no more (a rigid constraint, v_n ≥ −s / h).
//
// The constraints are solved by colour: each constraint takes the first colour in which neither
// of its moving bodies has a constraint yet (graph colouring; static and kinematic bodies, which
// no contact moves, do not count), so the constraints of a colour share no moving body and are
// solved four at a time in SIMD lanes (wide.h), colours in order.
#include "collide.h"
#include "colouring.h"
#include "contact_math.h"
#include "step_context.h"
#include "wide.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>

namespace carom {
namespace {

// The substeps, and the contacts' softness. A soft contact under a load F sinks until its spring
// holds it: by F / (m_eff ω²), and a stack sinks by the sum over its layers (Box2D v3's 4 substeps
// at 30 Hz leave the large pyramid's top box 0.73 m lower after 10 s). Stiffer is steadier only up
// to a quarter of the substep rate (one pass a substep no longer converges past it: the pyramid
// collapses): so twice Box2D's substeps, and contacts at that quarter, 120 Hz at 60 steps a second
// (twice it against a static body, as Box2D, so bodies are not pushed into the ground). Damping
// ratio and the fastest push out of an overlap: Box2D v3's defaults (b2DefaultWorldDef).
// The relax pass in every second substep only: the stiffness is the substeps', and the stacks
// stand much as with a relax pass in each (measured: the large pyramid's top box 9.3 cm from
// where it was after 10 s, against 8.9, though the ends of its middle rows splay by up to 11 cm
// as it settles; the pyramid of base 20 and the box stack within 4.2 and 1.6 mm in 60 s), for 12
// passes over the contacts a step instead of 16. With one relax pass in four substeps, the
// pyramids fall.
constexpr int kSubsteps = 8, kRelaxEvery = 2;
constexpr double kQuarterOfTheSubstepRate = 0.25, kDampingRatio = 10, kMaxPushSpeed = 3;

struct Softness {
    double biasRate, massScale, impulseScale;
};
Softness softness(double hertz, double zeta, double h) {
    const double omega = 2 * M_PI * hertz;
    const double a1 = 2 * zeta + h * omega, a2 = h * omega * a1, a3 = 1 / (1 + a2);
    return {omega / a1, a2 * a3, a3};
}

// The soft contacts' parameters: against a static (or kinematic) body, and between moving ones.
struct Softnesses {
    Softness fixed, moving;
};

// A body as the substeps keep it, in three vector loads, each from an array of its own: its
// velocity; its displacement since the step's start, Δp and the rotation ΔR = (cos, sin) of Δθ;
// and the velocity change of the next substep's warm start, gathered as the relax pass ends each
// contact (below). The velocity and the warm start carry the inverse mass in their fourth double,
// which the passes load with them, so the constraints need not stream it. Apart, a pass that adds no warm start reads 64 bytes a body, not 96: the states
// of 22,000 bodies then fit in a core's 2 MB of cache (the passes gather them in the colours'
// order, from all over the arrays).
struct alignas(32) Velocity {
    double vx, vy, w, invMass;
};
struct alignas(32) Displacement {
    double dpx, dpy, dqc, dqs;
};
struct States {
    Velocity* v;
    Displacement* d;
    Velocity* warm;
};

// A moving body's share of the forces' velocity change per substep (the integrator's over the
// step, over n), and its rotation since the step's start.
struct Share {
    BodyId body;
    Vec2 dv;
    double dw, angle;
};

// What preparing the constraints reads of a body, packed: a Body is ten times larger, and in a
// large scene preparing read the bodies from beyond the cache.
struct Inertia {
    Vec2 p; // centre of mass
    double invMass, invInertia;
    bool moves; // dynamic: contacts move it
};

struct WideBody {
    Wide vx, vy, w, invMass, invInertia;
};
// Four bodies' displacements since the step's start, Δp and ΔR, in lanes.
struct WideMotion {
    Wide dpx, dpy, dqc, dqs;
};

struct WidePoint {
    Wide rAx, rAy, rBx, rBy;    // anchors: the point relative to each centre of mass
    Wide baseSeparation;        // s0 − n · (rB − rA), above
    Wide normalMass;
    Wide normalImpulse, tangentImpulse; // accumulated in the substep
    Wide totalNormalImpulse;            // over the step: did the point push?
};

// What every pass reads and writes, for four constraints. Padding lanes are zeros on the null
// state: no mass, no impulse.
struct WideConstraint {
    std::uint32_t a[4], b[4]; // states of each lane
    Wide invInertiaA, invInertiaB; // the inverse masses are the states' (gather)
    Wide nx, ny, friction;
    WidePoint points[2];
    Wide k11, k12, k22, invDet; // the block solver's K and 1 / det K (blockMatrix, contact_math.h);
                                // invDet 0: not two points with an invertible K
};

// What only the restitution and the end of the step read, kept apart so that the passes stream
// less memory.
struct WideBounce {
    Wide restitution;
    Wide relativeVelocity[2]; // normal velocity of each point at the step's start
    std::size_t manifold[4];  // the lane's manifold in the step's contacts
    int count[4];             // its points (0 for padding)
};

// Four bodies' vectors of one of the arrays into lanes: four vector loads and a 4×4 transpose
// (Box2D v3's b2GatherBodies).
template <class Vector>
[[gnu::always_inline]] inline void gatherLanes(const Vector* array, const std::uint32_t (&index)[4],
                                              Wide out[4]) {
    Wide r[4];
    for (int l = 0; l < 4; ++l)
        std::memcpy(&r[l], &array[index[l]], sizeof(Wide));
    transpose(r, out);
}

[[gnu::always_inline]] inline WideBody gather(const States& states, const std::uint32_t (&index)[4],
                                              Wide invInertia) {
    Wide v[4];
    gatherLanes(states.v, index, v);
    return {v[0], v[1], v[2], v[3], invInertia};
}
[[gnu::always_inline]] inline WideMotion gatherMotion(const States& states,
                                                      const std::uint32_t (&index)[4]) {
    Wide d[4];
    gatherLanes(states.d, index, d);
    return {d[0], d[1], d[2], d[3]};
}

// The lanes' (vx, vy, w) back into their velocities or warm starts, with the inverse mass as it
// was in the fourth double (written whole, one store a body). Lanes that share a static body (or the null state)
// write back the same, unchanged values.
[[gnu::always_inline]] inline void scatterLanes(Velocity* array, const std::uint32_t (&index)[4],
                                               Wide vx, Wide vy, Wide w, Wide invMass) {
    const Wide in[4] = {vx, vy, w, invMass};
    Wide r[4];
    transpose(in, r);
    for (int l = 0; l < 4; ++l)
        std::memcpy(&array[index[l]], &r[l], sizeof(Wide));
}
[[gnu::always_inline]] inline void scatter(const States& states, const std::uint32_t (&index)[4],
                                           const WideBody& b) {
    scatterLanes(states.v, index, b.vx, b.vy, b.w, b.invMass);
}

// v_B + ω_B × r_B − v_A − ω_A × r_A along (dx, dy).
[[gnu::always_inline]] inline Wide relativeSpeed(const WideBody& A, const WideBody& B,
                                                 const WidePoint& p, Wide dx, Wide dy) {
    const Wide vx = (B.vx - B.w * p.rBy) - (A.vx - A.w * p.rAy);
    const Wide vy = (B.vy + B.w * p.rBx) - (A.vy + A.w * p.rAx);
    return vx * dx + vy * dy;
}

// A point's accumulated impulses, normal and tangent (n_y, −n_x), applied to the lanes' bodies
// again: the warm start.
[[gnu::always_inline]] inline void applyWarmStart(WideBody& A, WideBody& B, WideConstraint& k) {
    for (WidePoint& p : k.points) {
        applyImpulseLanes(A, B, p, p.normalImpulse * k.nx + p.tangentImpulse * k.ny,
                          p.normalImpulse * k.ny - p.tangentImpulse * k.nx);
        p.totalNormalImpulse = p.totalNormalImpulse + p.normalImpulse;
    }
}

[[gnu::always_inline]] inline void warmStart(const States& states, WideConstraint& k) {
    WideBody A = gather(states, k.a, k.invInertiaA);
    WideBody B = gather(states, k.b, k.invInertiaB);
    applyWarmStart(A, B, k);
    scatter(states, k.a, A);
    scatter(states, k.b, B);
}

// Warm starting fused into the relax pass: the impulses a contact ends a substep with, applied
// again at the next (the warm start), are added up per body here, while the contact is at hand,
// and applied with the forces' share when the next substep begins (addForces). Velocity changes
// add up in any order, so this is the warm start pass of Box2D without a second pass over the
// contacts.
[[gnu::always_inline]] inline void addWarmStart(const States& states, WideConstraint& k) {
    const Wide zero = splat(0);
    Wide a[4], b[4];
    gatherLanes(states.warm, k.a, a);
    gatherLanes(states.warm, k.b, b);
    WideBody A{zero, zero, zero, a[3], k.invInertiaA};
    WideBody B{zero, zero, zero, b[3], k.invInertiaB};
    applyWarmStart(A, B, k); // into zero velocities: the velocity change alone
    scatterLanes(states.warm, k.a, a[0] + A.vx, a[1] + A.vy, a[2] + A.w, a[3]);
    scatterLanes(states.warm, k.b, b[0] + B.vx, b[1] + B.vy, b[2] + B.w, b[3]);
}

// The separation of a point now, from the displacements of its bodies (above).
[[gnu::always_inline]] inline Wide separation(const WideMotion& A, const WideMotion& B,
                                              const WideConstraint& k, const WidePoint& p) {
    const Wide ax = A.dqc * p.rAx - A.dqs * p.rAy, ay = A.dqs * p.rAx + A.dqc * p.rAy;
    const Wide bx = B.dqc * p.rBx - B.dqs * p.rBy, by = B.dqs * p.rBx + B.dqc * p.rBy;
    const Wide dx = (B.dpx - A.dpx) + (bx - ax), dy = (B.dpy - A.dpy) + (by - ay);
    return (k.nx * dx + k.ny * dy) + p.baseSeparation;
}

// A point's normal constraint in this pass: with `feedback`, soft with the bias of its overlap
// (pushed out no faster than kMaxPushSpeed); without, rigid; a gap is speculative either way.
struct SoftPoint {
    Wide bias, massScale, impulseScale;
};
struct WideSoftness {
    Wide biasRate, massScale, impulseScale;
};
// The constraints' softness in their lanes: the fixed one where a body is static or kinematic
// (no inverse inertia, as no inverse mass, where a dynamic body has both; padding lanes too, which
// push nothing), the moving one elsewhere.
[[gnu::always_inline]] inline WideSoftness softnessOf(const WideConstraint& k, const Softnesses& s) {
    const Wide zero = splat(0);
    const Mask fixed = (k.invInertiaA == zero) | (k.invInertiaB == zero);
    return {select(fixed, splat(s.fixed.biasRate), splat(s.moving.biasRate)),
            select(fixed, splat(s.fixed.massScale), splat(s.moving.massScale)),
            select(fixed, splat(s.fixed.impulseScale), splat(s.moving.impulseScale))};
}
[[gnu::always_inline]] inline SoftPoint softPoint(const WideMotion& A, const WideMotion& B,
                                                  const WideConstraint& k, const WidePoint& p,
                                                  const WideSoftness& w, bool feedback, double invH) {
    const Wide zero = splat(0), one = splat(1);
    const Wide s = separation(A, B, k, p);
    const Mask gap = s > zero;
    const Wide push = feedback ? maxWide(w.massScale * w.biasRate * s, splat(-kMaxPushSpeed)) : zero;
    return {select(gap, s * splat(invH), push), select(gap, one, feedback ? w.massScale : one),
            select(gap, zero, feedback ? w.impulseScale : zero)};
}

// A point's accumulated impulse to λ', and its bodies pushed by the difference.
[[gnu::always_inline]] inline void setNormalImpulse(WideBody& A, WideBody& B, const WideConstraint& k,
                                                    WidePoint& p, Wide total) {
    const Wide d = total - p.normalImpulse;
    p.normalImpulse = total;
    p.totalNormalImpulse = p.totalNormalImpulse + d;
    applyImpulseLanes(A, B, p, d * k.nx, d * k.ny);
}

// Both points of a manifold at once (Catto's block solver, as in contact_solver.cpp), soft: the
// update above with the coupled K⁻¹ of the two points for m_eff, x = (1 − i_s) λ − K⁻¹ (m_s v + bias),
// where a point that would pull is let go: the accumulated impulses x ≥ 0 with r = K x + b ≥ 0
// and x · r = 0, row i of b being m_s v_n + bias − (1 − i_s) (K λ)_i. Tries in
// turn both points pushing, only the first, only the second, neither. Solving the two points one
// after the other gives them uneven impulses, and a column of boxes leans and walks. Returns the
// lanes it solved (not: one point, or K too ill-conditioned to invert).
[[gnu::always_inline]] inline Mask solveBlock(WideBody& A, WideBody& B, WideConstraint& k,
                                              const SoftPoint (&soft)[2]) {
    WidePoint& p1 = k.points[0];
    WidePoint& p2 = k.points[1];
    const Wide zero = splat(0), one = splat(1);
    const Wide l1 = p1.normalImpulse, l2 = p2.normalImpulse;
    const Wide vn1 = relativeSpeed(A, B, p1, k.nx, k.ny), vn2 = relativeSpeed(A, B, p2, k.nx, k.ny);
    const Wide b1 = (soft[0].massScale * vn1 + soft[0].bias) - (one - soft[0].impulseScale) * (k.k11 * l1 + k.k12 * l2);
    const Wide b2 = (soft[1].massScale * vn2 + soft[1].bias) - (one - soft[1].impulseScale) * (k.k12 * l1 + k.k22 * l2);
    const Wide bothX = (k.k12 * b2 - k.k22 * b1) * k.invDet, bothY = (k.k12 * b1 - k.k11 * b2) * k.invDet;
    const Wide x1 = zero - b1 * p1.normalMass, x2 = zero - b2 * p2.normalMass;
    const Mask both = (bothX >= zero) & (bothY >= zero);
    const Mask first = (x1 >= zero) & (k.k12 * x1 + b2 >= zero);
    const Mask second = (x2 >= zero) & (k.k12 * x2 + b1 >= zero);
    const Mask neither = (b1 >= zero) & (b2 >= zero);
    const Mask solved = (k.invDet > zero) & (both | first | second | neither);
    const Wide x = select(both, bothX, select(first, x1, zero));
    const Wide y = select(both, bothY, select(first, zero, select(second, x2, zero)));
    setNormalImpulse(A, B, k, p1, select(solved, x, l1));
    setNormalImpulse(A, B, k, p2, select(solved, y, l2));
    return solved;
}

[[gnu::always_inline]] inline bool anyLane(const Mask& m) {
    return m[0] | m[1] | m[2] | m[3];
}

// One pass over four constraints: the normal impulses (soft with position feedback when
// `feedback`, rigid without), then, in the relax pass, friction clamped to the Coulomb cone
// |λ_t| ≤ μ λ_n.
[[gnu::always_inline]] inline void solve(const States& states, WideConstraint& k, const Softnesses& softs,
                                         bool feedback, bool warmNext, double invH) {
    // The points' separations first, from the bodies' displacements, which are then done with:
    // fewer values live at once than with the velocities gathered beside them.
    const WideSoftness w = softnessOf(k, softs);
    const WideMotion mA = gatherMotion(states, k.a), mB = gatherMotion(states, k.b);
    const SoftPoint soft[2] = {softPoint(mA, mB, k, k.points[0], w, feedback, invH),
                               softPoint(mA, mB, k, k.points[1], w, feedback, invH)};
    WideBody A = gather(states, k.a, k.invInertiaA);
    WideBody B = gather(states, k.b, k.invInertiaB);
    const Wide zero = splat(0);
    const Mask alone = ~solveBlock(A, B, k, soft);
    for (int i = 0; i < 2 && anyLane(alone); ++i) {
        WidePoint& p = k.points[i];
        const SoftPoint& q = soft[i];
        const Wide vn = relativeSpeed(A, B, p, k.nx, k.ny);
        const Wide total = maxZero(p.normalImpulse - (p.normalMass * (q.massScale * vn + q.bias) +
                                                      q.impulseScale * p.normalImpulse));
        setNormalImpulse(A, B, k, p, select(alone, total, p.normalImpulse));
    }
    if (!feedback)
        for (WidePoint& p : k.points) {
            const Wide tx = k.ny, ty = zero - k.nx;
            const Wide vt = relativeSpeed(A, B, p, tx, ty);
            const Wide limit = k.friction * p.normalImpulse;
            // The effective mass along the tangent (impulseDenominator, contact_math.h), worked
            // out here: cheaper than streaming it from memory each pass. Zero in padding lanes.
            const Wide rtA = p.rAx * ty - p.rAy * tx, rtB = p.rBx * ty - p.rBy * tx;
            const Wide kt = ((A.invMass + B.invMass) + k.invInertiaA * rtA * rtA) + k.invInertiaB * rtB * rtB;
            const Wide tangentMass = select(kt > zero, splat(1) / kt, zero);
            const Wide total = clamp(p.tangentImpulse - tangentMass * vt, zero - limit, limit);
            const Wide d = total - p.tangentImpulse;
            p.tangentImpulse = total;
            applyImpulseLanes(A, B, p, d * tx, d * ty);
        }
    scatter(states, k.a, A);
    scatter(states, k.b, B);
    if (warmNext) addWarmStart(states, k);
}

// Restitution, once after the substeps: where the point met faster than the threshold and pushed,
// v_n → −e v_met.
[[gnu::always_inline]] inline void restitute(const States& states, WideConstraint& k,
                                             const WideBounce& e, double threshold) {
    WideBody A = gather(states, k.a, k.invInertiaA);
    WideBody B = gather(states, k.b, k.invInertiaB);
    const Wide zero = splat(0);
    for (int i = 0; i < 2; ++i) {
        WidePoint& p = k.points[i];
        const Mask bounce = (e.relativeVelocity[i] < splat(-threshold)) &
                            (p.totalNormalImpulse > zero) & (e.restitution > zero);
        const Wide vn = relativeSpeed(A, B, p, k.nx, k.ny);
        const Wide mass = select(bounce, p.normalMass, zero);
        const Wide total =
            maxZero(p.normalImpulse - mass * (vn + e.restitution * e.relativeVelocity[i]));
        const Wide d = total - p.normalImpulse;
        p.normalImpulse = total;
        p.totalNormalImpulse = p.totalNormalImpulse + d;
        applyImpulseLanes(A, B, p, d * k.nx, d * k.ny);
    }
    scatter(states, k.a, A);
    scatter(states, k.b, B);
}

// The forces' share of a substep, and the positions after it (steps 1 and 4).
void addForces(const States& states, const std::vector<Share>& shares) {
    for (const Share& m : shares) {
        Velocity& s = states.v[m.body];
        Velocity& warm = states.warm[m.body];
        s.vx += m.dv.x + warm.vx;
        s.vy += m.dv.y + warm.vy;
        s.w += m.dw + warm.w;
        warm.vx = warm.vy = warm.w = 0;
    }
}
void movePositions(const States& states, std::vector<Share>& shares, double h) {
    for (Share& m : shares) {
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

// The substeps over the constraints, compiled for AVX-512, AVX2 and any x86-64 (as
// contact_solver.cpp's passes).
[[gnu::target_clones("arch=x86-64-v4", "avx2", "default")]] void substeps(
    const States& states, std::vector<Share>& shares, std::vector<WideConstraint>& wide,
    const Softnesses& softs, double h, int relaxEvery) {
    const double hs = h / kSubsteps, invH = 1 / hs;
    for (int i = 0; i < kSubsteps; ++i) {
        addForces(states, shares);
        if (i == 0) // the step's first warm start, from the impulses the last step kept
            for (WideConstraint& k : wide)
                warmStart(states, k);
        // The next substep's warm start is gathered by this substep's last pass.
        const bool relax = i % relaxEvery == relaxEvery - 1 || i + 1 == kSubsteps;
        for (WideConstraint& k : wide)
            solve(states, k, softs, true, !relax, invH);
        movePositions(states, shares, hs);
        if (relax)
            for (WideConstraint& k : wide)
                solve(states, k, softs, false, i + 1 < kSubsteps, invH);
    }
}

// The kinetic energy of the moving bodies at the velocities of the states, and their energy in
// gravity's field at the positions the substeps reached.
double kineticEnergyOf(const StepContext& c, const States& states, const std::vector<Share>& shares) {
    double e = 0;
    for (const Share& m : shares) {
        const Body& b = c.bodies[m.body];
        const Velocity& s = states.v[m.body];
        e += 0.5 * b.mass * (s.vx * s.vx + s.vy * s.vy) + 0.5 * b.inertia * s.w * s.w;
    }
    return e;
}
double potentialEnergyOf(const StepContext& c, const States& states, const std::vector<Share>& shares) {
    double e = 0;
    for (const Share& m : shares) {
        const Body& b = c.bodies[m.body];
        const Displacement& s = states.d[m.body];
        e -= b.mass * glm::dot(c.settings.gravity, b.xf().p + Vec2{s.dpx, s.dpy});
    }
    return e;
}

// Restitution, once after the substeps, where the contacts' lanes have some. A restitution gives
// back what an impact took, no more; but one pass of restitution over contacts that touch one
// another can give more: a light body between two heavy ones is sent off the first at e times
// their speed, into the second, and off it, and at the next step faster still (a chain that
// grows without bound, stress seed 39). So the pass is kept only if the moving bodies end the step
// with no more energy than their free motion would have given them (`freeEnergy`, the forces'
// work included) or than they had before it; otherwise their velocities are put back and the
// step's impacts stay inelastic. A kinematic body among them is a source of energy (it keeps its
// speed whatever it strikes): with one, the pass is kept as it is.
void restitute(const StepContext& c, const States& states, const std::vector<Share>& shares,
               std::vector<WideConstraint>& wide, const std::vector<WideBounce>& bounce) {
    std::vector<std::size_t> bouncing;
    for (std::size_t j = 0; j < wide.size(); ++j)
        if (bounce[j].restitution[0] > 0 || bounce[j].restitution[1] > 0 ||
            bounce[j].restitution[2] > 0 || bounce[j].restitution[3] > 0)
            bouncing.push_back(j);
    const bool driven = std::any_of(shares.begin(), shares.end(), [&](const Share& m) {
        return c.bodies[m.body].type == BodyType::Kinematic;
    });
    if (bouncing.empty() || driven) {
        for (std::size_t j : bouncing)
            restitute(states, wide[j], bounce[j], c.settings.restitutionThreshold);
        return;
    }
    // The energy the moving bodies would end the step with in free motion (the integrator's;
    // the bodies are still at their poses of the step's start).
    double freeEnergy = 0;
    for (const Share& m : shares) {
        const Body& b = c.bodies[m.body];
        const Motion& f = c.motion[m.body];
        freeEnergy += 0.5 * b.mass * glm::dot(f.v, f.v) + 0.5 * b.inertia * f.w * f.w -
                      b.mass * glm::dot(c.settings.gravity, b.xf().p + f.dx);
    }
    std::vector<Velocity> before(states.v, states.v + c.bodies.size());
    const double ke = kineticEnergyOf(c, states, shares), pe = potentialEnergyOf(c, states, shares);
    for (std::size_t j : bouncing)
        restitute(states, wide[j], bounce[j], c.settings.restitutionThreshold);
    const double gained = kineticEnergyOf(c, states, shares) - ke;
    const double allowed = std::max(freeEnergy - (ke + pe), 0.0);
    if (gained > allowed + 1e-12 * (std::abs(freeEnergy) + ke + std::abs(pe)))
        std::copy(before.begin(), before.end(), states.v);
}

// Lane l of a point that is not there (a single point's second, or padding): zeros, which push
// nothing.
void clearPoint(WidePoint& p, int l) {
    p.rAx[l] = p.rAy[l] = p.rBx[l] = p.rBy[l] = p.baseSeparation[l] = 0;
    p.normalMass[l] = p.normalImpulse[l] = p.tangentImpulse[l] = 0;
    p.totalNormalImpulse[l] = 0;
}

// A padding lane: no masses, the null state.
void clearLane(WideConstraint& k, WideBounce& e, int l, std::uint32_t nullState) {
    k.a[l] = k.b[l] = nullState;
    k.invInertiaA[l] = k.invInertiaB[l] = 0;
    k.nx[l] = k.ny[l] = k.friction[l] = 0;
    for (WidePoint& p : k.points)
        clearPoint(p, l);
    k.k11[l] = k.k12[l] = k.k22[l] = k.invDet[l] = 0;
    e.restitution[l] = e.relativeVelocity[0][l] = e.relativeVelocity[1][l] = 0;
    e.manifold[l] = 0;
    e.count[l] = 0;
}

void prepareLane(const StepContext& c, const std::vector<Inertia>& bodies, const Velocity* velocity,
                 std::size_t j, WideConstraint& k, WideBounce& e, int l) {
    const Manifold& m = c.contacts[j];
    const Inertia& A = bodies[m.a];
    const Inertia& B = bodies[m.b];
    const Vec2 n = m.normal;
    k.a[l] = static_cast<std::uint32_t>(m.a);
    k.b[l] = static_cast<std::uint32_t>(m.b);
    k.invInertiaA[l] = A.invInertia;
    k.invInertiaB[l] = B.invInertia;
    k.nx[l] = n.x;
    k.ny[l] = n.y;
    k.friction[l] = m.friction;
    e.restitution[l] = m.restitution;
    e.manifold[l] = j;
    e.count[l] = m.count;
    const Velocity& a = velocity[m.a];
    const Velocity& b = velocity[m.b];
    // The impulses kept are the step's (N·s); a substep's is 1/n of it.
    const double warm = c.settings.warmStarting ? 1.0 / kSubsteps : 0.0;
    for (int i = 0; i < 2; ++i) {
        WidePoint& p = k.points[i];
        if (i == m.count) { // a single point: the second pushes nothing
            clearPoint(p, l);
            e.relativeVelocity[i][l] = 0;
            break;
        }
        const ContactPoint& cp = m.points[i];
        const Vec2 rA = cp.point - A.p, rB = cp.point - B.p; // anchorsOf (contact_math.h)
        p.rAx[l] = rA.x;
        p.rAy[l] = rA.y;
        p.rBx[l] = rB.x;
        p.rBy[l] = rB.y;
        p.baseSeparation[l] = -cp.depth - glm::dot(rB - rA, n);
        p.normalMass[l] = effectiveMass(A, B, rA, rB, n);
        p.normalImpulse[l] = warm * cp.normalImpulse;
        p.tangentImpulse[l] = warm * cp.tangentImpulse;
        p.totalNormalImpulse[l] = 0;
        const Vec2 vA{a.vx, a.vy}, vB{b.vx, b.vy};
        e.relativeVelocity[i][l] = glm::dot(vB + cross(b.w, rB) - vA - cross(a.w, rA), n);
    }
    BlockMatrix K;
    if (m.count == 2) {
        const Vec2 p1 = m.points[0].point, p2 = m.points[1].point;
        K = blockMatrix(A, B, p1 - A.p, p1 - B.p, p2 - A.p, p2 - B.p, n);
    }
    k.k11[l] = K.k11;
    k.k12[l] = K.k12;
    k.k22[l] = K.k22;
    k.invDet[l] = m.count == 2 && K.invertible ? 1 / K.det : 0;
}

// The constraints of each colour in lanes of four, colours in order, written lane after lane.
void prepare(const StepContext& c, const std::vector<Inertia>& bodies, const Velocity* velocity,
             std::vector<WideConstraint>& wide, std::vector<WideBounce>& bounce) {
    std::size_t count = 0;
    const std::vector<std::uint32_t> colour =
        colours(c.contacts, bodies.size(), [&](BodyId id) { return bodies[id].moves; }, count);
    // Where each colour's lanes begin: its constraints rounded up to whole groups of four.
    std::vector<std::size_t> next(count + 1, 0);
    for (std::uint32_t col : colour)
        ++next[col + 1];
    for (std::size_t col = 0; col < count; ++col)
        next[col + 1] = next[col] + (next[col + 1] + 3) / 4 * 4;
    std::vector<std::size_t> end(next.begin(), next.end() - 1); // past each colour's filled lanes
    std::vector<std::size_t> slotOf(c.contacts.size());
    for (std::size_t j = 0; j < c.contacts.size(); ++j)
        slotOf[j] = end[colour[j]]++;
    wide.resize(next[count] / 4);
    bounce.resize(next[count] / 4);
    // The manifolds read in their order in memory, each written to its lane (read in colour
    // order, out of their order, the manifolds of a large scene came from beyond the cache),
    // and the lanes that round a colour up to four cleared.
    for (std::size_t j = 0; j < c.contacts.size(); ++j)
        prepareLane(c, bodies, velocity, j, wide[slotOf[j] / 4], bounce[slotOf[j] / 4],
                    static_cast<int>(slotOf[j] % 4));
    const auto nullState = static_cast<std::uint32_t>(c.bodies.size());
    for (std::size_t col = 0; col < count; ++col)
        for (std::size_t slot = end[col]; slot < next[col + 1]; ++slot)
            clearLane(wide[slot / 4], bounce[slot / 4], static_cast<int>(slot % 4), nullState);
}

// The soft step on the step's contacts; the bodies no contact reaches move freely.
void solveSoft(StepContext& c) {
    // Scratch kept from step to step: a large scene's arrays are not allocated anew each step.
    static thread_local std::vector<Velocity> velocity, warm;
    static thread_local std::vector<Displacement> displacement;
    static thread_local std::vector<Share> shares;
    static thread_local std::vector<WideConstraint> wide;
    static thread_local std::vector<WideBounce> bounce;
    static thread_local std::vector<char> inSolver;
    const double hs = c.h / kSubsteps;
    const std::size_t n = c.bodies.size();
    static thread_local std::vector<Inertia> inertia;
    // Each body's state, and the null state of padding lanes: at rest, not displaced.
    velocity.resize(n + 1);
    displacement.assign(n + 1, Displacement{0, 0, 1, 0});
    warm.resize(n + 1);
    inertia.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        const Body& b = c.bodies[i];
        const Motion& m = c.motion[i];
        // The velocity at the step's start: the free velocity less the forces' change.
        const Vec2 v = b.v - m.dv;
        velocity[i] = Velocity{v.x, v.y, b.w - m.dw, b.invMass};
        warm[i] = Velocity{0, 0, 0, b.invMass};
        inertia[i] = Inertia{b.xf().p, b.invMass, b.invInertia, b.isDynamic()};
    }
    velocity[n] = warm[n] = Velocity{0, 0, 0, 0};
    const States states{velocity.data(), displacement.data(), warm.data()};
    prepare(c, inertia, velocity.data(), wide, bounce);

    // The moving bodies the contacts reach go through the substeps; the others move as the
    // integrator (or their flight) says, below.
    inSolver.assign(n, 0);
    for (const Manifold& m : c.contacts)
        inSolver[m.a] = inSolver[m.b] = 1;
    shares.clear();
    for (std::size_t i = 0; i < n; ++i) {
        if (!inSolver[i] || c.bodies[i].type == BodyType::Static) continue;
        const Motion& m = c.motion[i];
        shares.push_back(Share{i, m.dv / double(kSubsteps), m.dw / kSubsteps, 0});
    }

    // In a step where some point overlaps by more than the slop, a relax pass in every substep:
    // the feedback pushes it out fast, and its velocity, carried into the next substep's warm
    // start, can be more than a relax pass takes back (energy made: stress seeds 10 and 214).
    const bool deep = std::any_of(c.contacts.begin(), c.contacts.end(), [&](const Manifold& m) {
        return deepestDepth(m) > c.settings.linearSlop;
    });
    const double hertz = kQuarterOfTheSubstepRate / hs;
    const Softnesses softs{softness(2 * hertz, kDampingRatio, hs), softness(hertz, kDampingRatio, hs)};
    substeps(states, shares, wide, softs, c.h, deep ? 1 : kRelaxEvery);
    restitute(c, states, shares, wide, bounce);

    for (std::size_t j = 0; j < wide.size(); ++j)
        for (int l = 0; l < 4; ++l)
            for (int i = 0; i < bounce[j].count[l]; ++i) {
                const WidePoint& p = wide[j].points[i];
                ContactPoint& cp = c.contacts[bounce[j].manifold[l]].points[i];
                cp.normalImpulse = kSubsteps * p.normalImpulse[l];
                cp.tangentImpulse = kSubsteps * p.tangentImpulse[l];
                if (bounce[j].relativeVelocity[i][l] < -c.settings.restitutionThreshold &&
                    p.totalNormalImpulse[l] > 0)
                    ++c.diagnostics.collisions;
            }
    for (const Share& m : shares) {
        Body& b = c.bodies[m.body];
        const Displacement& d = displacement[m.body];
        const Velocity& v = velocity[m.body];
        b.setPose(b.xf().p + Vec2{d.dpx, d.dpy}, b.angle() + m.angle);
        b.v = {v.vx, v.vy};
        b.w = v.w;
    }
    for (std::size_t i = 0; i < n; ++i) {
        c.bodies[i].force = {0, 0};
        c.bodies[i].torque = 0;
        if (!inSolver[i]) moveFreely(c, i);
    }
}

} // namespace

void stepSoft(StepContext& c) {
    // The pairs left with a body in flight (flight_impacts.cpp: a strike there was unsure, or the
    // pair struck too often) go to the impulse method's solver, whose restitution fits the
    // flight's closed form; their bodies touch nothing the soft step moves.
    bool flown = false;
    for (const Motion& m : c.motion)
        flown = flown || m.flown;
    if (!flown) return solveSoft(c);
    std::vector<Manifold> all, inFlight;
    all.swap(c.contacts);
    for (const Manifold& m : all)
        (c.motion[m.a].flown || c.motion[m.b].flown ? inFlight : c.contacts).push_back(m);
    std::swap(c.contacts, inFlight);
    solveImpulses(c);
    std::swap(c.contacts, inFlight);
    solveSoft(c);
    returnSettledContacts(c, inFlight);
}

} // namespace carom
