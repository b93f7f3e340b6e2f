// The kinematics of a contact point shared by the solvers (impulse, penalty, exact).
//
// Sign conventions: the normal n points from body A to body B; the relative velocity at a contact
// is v_rel = (vB + ωB × rB) − (vA + ωA × rA), so v_n = v_rel · n < 0 means approaching. An impulse
// P is applied +P to B and −P to A.
//
// The body type is a template parameter: a Body, or anything else with its v, w, invMass and
// invInertia (the sequential-impulse solver's compact copies, contact_solver.cpp).
#pragma once

#include "carom/world.h"

namespace carom {

// The body whose face a contact's normal belongs to, which it turns with: A, or B when A is a
// circle (a circle has no faces; it turns under its contacts).
inline const Body& referenceBody(const Body& A, const Body& B) {
    return A.shape.type() == ShapeType::Circle ? B : A;
}

inline Vec2 tangentOf(Vec2 n) {
    return {n.y, -n.x};
}

// 1 / k with k the denominator of Hecker's Eq. 9 in 2D ("Collision Response", 1997):
//   k = 1/mA + 1/mB + (rA × d)²/IA + (rB × d)²/IB,
// so the impulse that changes v_rel · d by Δ is λ = Δ / k. Zero when neither body can move.
template <class Body> double effectiveMass(const Body& A, const Body& B, Vec2 rA, Vec2 rB, Vec2 d) {
    double ra = cross(rA, d), rb = cross(rB, d);
    double k = A.invMass + B.invMass + A.invInertia * ra * ra + B.invInertia * rb * rb;
    return k > 0 ? 1 / k : 0;
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

} // namespace carom
