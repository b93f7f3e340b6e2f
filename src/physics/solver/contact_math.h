// The kinematics of a contact point shared by the solvers (impulse, penalty, exact).
//
// Sign conventions: the normal n points from body A to body B; the relative velocity at a contact
// is v_rel = (vB + ωB × rB) − (vA + ωA × rA), so v_n = v_rel · n < 0 means approaching. An impulse
// P is applied +P to B and −P to A.
//
// The body type is a template parameter: a Body, or anything else with its v, w, invMass and
// invInertia (the sequential-impulse solver's compact copies, sequential_impulses.cpp).
#pragma once

#include "carom/world.h"
#include "solver/wide.h"
#include "tuning.h"

#include <algorithm>
#include <cmath>

namespace carom {

// Manifold m's shapes of its bodies A and B.
inline const BodyShape& shapeA(const Manifold& m, const Body& A) {
    return A.shapes[m.shapeA];
}
inline const BodyShape& shapeB(const Manifold& m, const Body& B) {
    return B.shapes[m.shapeB];
}

// The body whose face a contact's normal belongs to, which it turns with: A, or B when A's shape
// is a circle (a circle has no faces; it turns under its contacts).
inline const Body& referenceBody(const Manifold& m, const Body& A, const Body& B) {
    return shapeA(m, A).shape.type() == ShapeType::Circle ? B : A;
}

inline Vec2 tangentOf(Vec2 n) {
    return {n.y, -n.x};
}

// A contact point relative to each body's centre of mass, rA = p − xA and rB = p − xB, from the
// bodies' poses when the contact was found: the solvers (impulses, penalty, impacts) all run
// before the positions move.
struct Anchors {
    Vec2 a, b;
};
inline Anchors anchorsOf(const Body& A, const Body& B, const ContactPoint& cp) {
    return {cp.point - A.xf().p, cp.point - B.xf().p};
}

// Each body's surface point at a contact, in that body's frame, from the poses `a` and `b` the
// contact was found at: A's lies depth/2 along +n from the midpoint, B's along −n.
struct SurfacePoints {
    Vec2 a, b;
};
inline SurfacePoints surfacePointsOf(const Transform& a, const Transform& b, Vec2 n,
                                     const ContactPoint& cp) {
    return {a.applyInverse(cp.point + 0.5 * cp.depth * n),
            b.applyInverse(cp.point - 0.5 * cp.depth * n)};
}

// The denominator of Hecker's Eq. 9 in 2D ("Collision Response", 1997), along a direction d:
//   k = 1/mA + 1/mB + (rA × d)²/IA + (rB × d)²/IB,
// so the impulse that changes v_rel · d by Δ is λ = Δ / k. Zero when neither body can move.
template <class Body>
double impulseDenominator(const Body& A, const Body& B, Vec2 rA, Vec2 rB, Vec2 d) {
    double ra = cross(rA, d), rb = cross(rB, d);
    return A.invMass + B.invMass + A.invInertia * ra * ra + B.invInertia * rb * rb;
}

// The effective mass 1 / k along d (zero when neither body can move).
template <class Body> double effectiveMass(const Body& A, const Body& B, Vec2 rA, Vec2 rB, Vec2 d) {
    const double k = impulseDenominator(A, B, rA, rB, d);
    return k > 0 ? 1 / k : 0;
}

// The largest speed a contact point's bodies can give it, |v_A| + |ω_A| |r_A| + |v_B| + |ω_B|
// |r_B|: the scale of round-off an impact solve converges to (impacts.cpp, poisson.cpp).
template <class Body> double speedScale(const Body& A, const Body& B, Vec2 rA, Vec2 rB) {
    return glm::length(A.v) + std::abs(A.w) * glm::length(rA) + glm::length(B.v) +
           std::abs(B.w) * glm::length(rB);
}

struct BlockMatrix {
    double k11 = 0, k12 = 0, k22 = 0, det = 0;
    bool invertible = false;
};

template <class Body>
BlockMatrix blockMatrix(const Body& A, const Body& B, Vec2 rA1, Vec2 rB1, Vec2 rA2, Vec2 rB2,
                        Vec2 n) {
    const double ra1 = cross(rA1, n), rb1 = cross(rB1, n);
    const double ra2 = cross(rA2, n), rb2 = cross(rB2, n);
    const double mass = A.invMass + B.invMass;
    BlockMatrix K;
    K.k11 = mass + A.invInertia * ra1 * ra1 + B.invInertia * rb1 * rb1;
    K.k22 = mass + A.invInertia * ra2 * ra2 + B.invInertia * rb2 * rb2;
    K.k12 = mass + A.invInertia * ra1 * ra2 + B.invInertia * rb1 * rb2;
    K.det = K.k11 * K.k22 - K.k12 * K.k12;
    K.invertible = K.k11 * K.k11 < kMaxConditionNumber * K.det;
    return K;
}

// The block's 2×2 linear complementarity problem, one pair of points (the impacts' form of the
// SIMD solvers' solveBlock, sequential_impulses.cpp): accumulated impulses x ≥ 0 with w = K x + b ≥
// 0 and x · w = 0, trying in turn both points pushing, only the first, only the second, neither.
// Both pushing only with an invertible K: for nearly the same point twice, solving for the two
// impulses would amplify round-off, but one point pushing alone is as exact as for a single point
// (and the usual answer there: the other point then no longer approaches). False when no case
// fits: then the points are solved in turn.
inline bool solveBlockLcp(const BlockMatrix& K, double b1, double b2, double& x1, double& x2) {
    if (K.invertible) {
        const double bothX = (K.k12 * b2 - K.k22 * b1) / K.det,
                     bothY = (K.k12 * b1 - K.k11 * b2) / K.det;
        if (bothX >= 0 && bothY >= 0) {
            x1 = bothX, x2 = bothY;
            return true;
        }
    }
    const double first = -b1 / K.k11, second = -b2 / K.k22;
    if (first >= 0 && K.k12 * first + b2 >= 0) {
        x1 = first, x2 = 0;
    } else if (second >= 0 && K.k12 * second + b1 >= 0) {
        x1 = 0, x2 = second;
    } else if (b1 >= 0 && b2 >= 0) {
        x1 = x2 = 0;
    } else {
        return false;
    }
    return true;
}

template <class Body> Vec2 relativeVelocity(const Body& A, const Body& B, Vec2 rA, Vec2 rB) {
    return B.v + cross(B.w, rB) - A.v - cross(A.w, rA);
}

template <class Body> void applyImpulse(Body& A, Body& B, Vec2 rA, Vec2 rB, Vec2 P) {
    A.v -= A.invMass * P;
    A.w -= A.invInertia * cross(rA, P);
    B.v += B.invMass * P;
    B.w += B.invInertia * cross(rB, P);
}

// ---- One point of sequential impulses (Catto, "Iterative Dynamics with Temporal Coherence", 2005)
// The update of a point's accumulated impulse, shared by the contact solver (four points at a
// time, T = Wide) and the exact method's impacts (T = double), with v the current relative
// velocity along the normal or tangent and m the effective mass along it:
//   normal:    λ' = max(λ + m (target − v_n), 0)   target: the normal velocity to reach
//   friction:  λt' = clamp(λt − mt v_t, −limit, limit)   limit = μ λ, the Coulomb cone
// The point is then pushed by λ' − λ along the direction. Accumulating the total and clamping it,
// rather than each increment, lets a pass take back what an earlier one overdid.
inline double maxZero(double x) {
    return std::max(x, 0.0);
}
inline double clamp(double x, double lo, double hi) {
    return std::clamp(x, lo, hi);
}
template <class T> T nextNormalImpulse(T lambda, T mass, T target, T vn) {
    return maxZero(lambda + mass * (target - vn));
}
template <class T> T nextTangentImpulse(T lambda, T mass, T vt, T limit) {
    return clamp(lambda - mass * vt, -limit, limit);
}

} // namespace carom
