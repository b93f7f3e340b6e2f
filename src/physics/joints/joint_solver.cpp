// The joints' passes: sequential impulses on each joint's constraints, after Box2D v3
// (revolute_joint.c, distance_joint.c, weld_joint.c, prismatic_joint.c; Catto, "Soft Constraints",
// GDC 2011, and "Solver2D", 2024).
//
// A constraint C(x) = 0 with Jacobian J is held by an impulse λ along Jᵀ with the effective mass
// m = (J M⁻¹ Jᵀ)⁻¹: Δλ = −m (Ċ + b). The velocity pass (relax) has b = 0: the joint's velocity
// error alone, as rigid as sequential impulses make it. The pass with position feedback adds
// b = β C and softens the constraint into a stiff spring-damper (the contacts' spring against a
// static body, substep_solver.cpp: contactSpring): Δλ = −s_m m (Ċ + β C) − s_i λ. The positions
// are those the substeps reached: each anchor turned by its body's rotation since the step's start
// and moved by its displacement, so C is measured where the bodies are, not where they began.
//
// Limits (revolute angles, prismatic translations, distance min/max) are one-sided: λ ≥ 0 in
// total. A limit not yet reached (C > 0) is speculative: the bodies may close it within the pass's
// h, no more (b = C / h, rigid), as the contacts' gaps are.
//
// A motor drives the relative speed to its target with an impulse no larger than its maximum
// force or torque times h.
//
// A distance spring is a force, −k (L − L0) − c L̇ along the axis, applied once each substep with
// the warm start: the velocity change it makes is λ = −h (k C + (α h k + c) Ċ') / 1, with Ċ' the
// rate after it (implicit in the damping and in the part α of the stiffness):
//   λ = −(h k C + (α h² k + h c) Ċ) / (1 + (α h² k + h c) / m).
// α = 0 is symplectic Euler, which keeps a spring's energy (bounded, no drift) while h ω ≤ 1
// (ω² = k / m); beyond, α = 1 − 1/(h ω)² grows towards implicit Euler, which is stable at any
// stiffness and takes away energy only where symplectic Euler would blow up (stable while
// α > 1/2 − 2/(h ω)², which it always is).
#include "joints/joint_solver.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace carom {
namespace {

using substep::Displacement;
using substep::States;
using substep::Velocity;

Vec2 turned(const Displacement& d, Vec2 r) {
    return {d.dqc * r.x - d.dqs * r.y, d.dqs * r.x + d.dqc * r.y};
}
double turnOf(const Displacement& d) {
    return std::atan2(d.dqs, d.dqc);
}

// The two bodies of a constraint as a pass sees them: their velocities (written back by
// `done`), their anchors now, and the vector from a's anchor to b's.
struct Pair {
    Velocity& A;
    Velocity& B;
    const Displacement& dA;
    const Displacement& dB;
    Vec2 rA, rB, d;
    Pair(const States& s, const JointConstraint& k)
        : A(s.v[k.a]), B(s.v[k.b]), dA(s.d[k.a]), dB(s.d[k.b]), rA(turned(dA, k.rA)),
          rB(turned(dB, k.rB)),
          d(Vec2{dB.dpx - dA.dpx, dB.dpy - dA.dpy} + k.deltaCentre + rB - rA) {}
    // θb − θa − reference, now (for the joints that hold or limit it).
    double angle(const JointConstraint& k) const { return k.deltaAngle + turnOf(dB) - turnOf(dA); }
    Vec2 vA() const { return {A.vx, A.vy}; }
    Vec2 vB() const { return {B.vx, B.vy}; }
    // The relative velocity of b's anchor to a's.
    Vec2 relative() const { return vB() + cross(B.w, rB) - vA() - cross(A.w, rA); }
    // An impulse P at the anchors (on b; −P on a) and an angular one L (on b; −L on a).
    void apply(const JointConstraint& k, Vec2 P, double L = 0) {
        A.vx -= k.mA * P.x, A.vy -= k.mA * P.y, A.w -= k.iA * (cross(rA, P) + L);
        B.vx += k.mB * P.x, B.vy += k.mB * P.y, B.w += k.iB * (cross(rB, P) + L);
    }
    // An impulse P along a prismatic axis, with its moments about a's point d + rA and b's rB
    // (the slider's Jacobian, Box2D's a1 and a2), and an angular one L.
    void applyPrismatic(const JointConstraint& k, Vec2 P, double momentA, double momentB,
                        double L) {
        A.vx -= k.mA * P.x, A.vy -= k.mA * P.y, A.w -= k.iA * (momentA + L);
        B.vx += k.mB * P.x, B.vy += k.mB * P.y, B.w += k.iB * (momentB + L);
    }
};

// The feedback's spring (position error C) and the rate it drives, for one pass.
struct Feedback {
    double bias = 0, massScale = 1, impulseScale = 0;
};
Feedback feedback(const substep::Spring& soft, bool useBias, double C) {
    if (!useBias) return {};
    return {soft.biasRate * C, soft.massScale, soft.impulseScale};
}
// A one-sided limit: speculative while not reached (C > 0), soft beyond with feedback.
Feedback limitFeedback(const substep::Spring& soft, bool useBias, double C, double invH) {
    if (C > 0) return {C * invH, 1, 0};
    return feedback(soft, useBias, C);
}

double inverseOr0(double k) {
    return k > 0 ? 1 / k : 0;
}

// The point constraint (revolute, weld): b's anchor on a's, a 2 × 2 block.
void solvePoint(Pair& p, JointConstraint& k, const substep::Spring& soft, bool useBias) {
    const Feedback f = feedback(soft, useBias, 0);
    const Vec2 bias = useBias ? soft.biasRate * p.d : Vec2{0, 0};
    const double mAB = k.mA + k.mB;
    const double k11 = mAB + p.rA.y * p.rA.y * k.iA + p.rB.y * p.rB.y * k.iB;
    const double k12 = -p.rA.y * p.rA.x * k.iA - p.rB.y * p.rB.x * k.iB;
    const double k22 = mAB + p.rA.x * p.rA.x * k.iA + p.rB.x * p.rB.x * k.iB;
    const double det = k11 * k22 - k12 * k12;
    if (!(det > 0)) return;
    const Vec2 rhs = p.relative() + bias;
    const double invDet = 1 / det;
    const Vec2 solved{(k22 * rhs.x - k12 * rhs.y) * invDet, (k11 * rhs.y - k12 * rhs.x) * invDet};
    const Vec2 impulse = -f.massScale * solved - f.impulseScale * k.impulses.linear;
    k.impulses.linear += impulse;
    p.apply(k, impulse);
}

// The relative angle held (weld).
void solveAngle(Pair& p, JointConstraint& k, const substep::Spring& soft, bool useBias) {
    const double mass = inverseOr0(k.iA + k.iB);
    const Feedback f = feedback(soft, useBias, useBias ? p.angle(k) : 0);
    const double impulse =
        -mass * f.massScale * (p.B.w - p.A.w + f.bias) - f.impulseScale * k.impulses.angular;
    k.impulses.angular += impulse;
    p.apply(k, {0, 0}, impulse);
}

// A motor on the relative angular speed, its impulse within ±max h.
void solveAngularMotor(Pair& p, JointConstraint& k, double h) {
    const double mass = inverseOr0(k.iA + k.iB);
    const double most = k.maxMotor * h;
    const double was = k.impulses.motor;
    k.impulses.motor = std::clamp(was - mass * (p.B.w - p.A.w - *k.motorSpeed), -most, most);
    p.apply(k, {0, 0}, k.impulses.motor - was);
}

// A one-sided limit on a rate Ċ = sign (rate) with effective mass `mass`; returns the impulse
// added (≥ −accumulated, so that the total stays ≥ 0).
double solveLimit(double& accumulated, double C, double rate, double mass,
                  const substep::Spring& soft, bool useBias, double invH) {
    const Feedback f = limitFeedback(soft, useBias, C, invH);
    const double impulse = -mass * f.massScale * (rate + f.bias) - f.impulseScale * accumulated;
    const double total = std::max(accumulated + impulse, 0.0);
    const double added = total - accumulated;
    accumulated = total;
    return added;
}

void solveRevolute(Pair& p, JointConstraint& k, const substep::Spring& soft, bool useBias,
                   double h) {
    if (k.motorSpeed) solveAngularMotor(p, k, h);
    const double mass = inverseOr0(k.iA + k.iB);
    const double angle = k.lower || k.upper ? p.angle(k) : 0;
    if (k.lower) {
        const double added = solveLimit(k.impulses.lower, angle - *k.lower, p.B.w - p.A.w, mass,
                                        soft, useBias, 1 / h);
        p.apply(k, {0, 0}, added);
    }
    if (k.upper) {
        const double added = solveLimit(k.impulses.upper, *k.upper - angle, p.A.w - p.B.w, mass,
                                        soft, useBias, 1 / h);
        p.apply(k, {0, 0}, -added);
    }
    solvePoint(p, k, soft, useBias);
}

// The distance joint's axis now, and the effective mass along it.
struct Axis {
    Vec2 n{1, 0};
    double length = 0, mass = 0, inverse = 0; // inverse: the inverse effective mass, 1 / mass
};
Axis axisOf(const JointConstraint& k, Vec2 rA, Vec2 rB, Vec2 d) {
    Axis a;
    a.length = glm::length(d);
    if (a.length > 0) a.n = d / a.length;
    const double crA = cross(rA, a.n), crB = cross(rB, a.n);
    a.inverse = k.mA + k.mB + k.iA * crA * crA + k.iB * crB * crB;
    a.mass = inverseOr0(a.inverse);
    return a;
}
Axis axisOf(const Pair& p, const JointConstraint& k) {
    return axisOf(k, p.rA, p.rB, p.d);
}

void solveDistance(Pair& p, JointConstraint& k, const substep::Spring& soft, bool useBias,
                   double h) {
    const Axis ax = axisOf(p, k);
    if (k.kind == DistanceKind::Rod) {
        const Feedback f = feedback(soft, useBias, ax.length - k.length);
        const double rate = glm::dot(ax.n, p.relative());
        const double impulse =
            -ax.mass * f.massScale * (rate + f.bias) - f.impulseScale * k.impulses.axial;
        k.impulses.axial += impulse;
        p.apply(k, impulse * ax.n);
        return;
    }
    if (k.minLength > 0) {
        const double added =
            solveLimit(k.impulses.lower, ax.length - k.minLength, glm::dot(ax.n, p.relative()),
                       ax.mass, soft, useBias, 1 / h);
        p.apply(k, added * ax.n);
    }
    if (std::isfinite(k.maxLength)) {
        const double added =
            solveLimit(k.impulses.upper, k.maxLength - ax.length, -glm::dot(ax.n, p.relative()),
                       ax.mass, soft, useBias, 1 / h);
        p.apply(k, -added * ax.n);
    }
}

// The spring's force over h (the rule at the top), applied once a pass.
void applySpring(Pair& p, JointConstraint& k, double h) {
    const Axis ax = axisOf(p, k);
    if (!(ax.inverse > 0)) return;
    const double implicit = k.springGain * h * h * k.stiffness + h * k.damping;
    const double rate = glm::dot(ax.n, p.relative());
    k.spring =
        -(h * k.stiffness * (ax.length - k.length) + implicit * rate) / (1 + implicit * ax.inverse);
    p.apply(k, k.spring * ax.n);
}

// The slider's axis, turned with a, and its moments: Box2D's a1 = (d + rA) × axis, a2 = rB × axis.
struct Slide {
    Vec2 axis, perp;
    double a1, a2, s1, s2, translation, axialMass;
};
Slide slideOf(const Pair& p, const JointConstraint& k) {
    Slide s;
    s.axis = turned(p.dA, k.axis);
    s.perp = perp(s.axis);
    s.a1 = cross(p.d + p.rA, s.axis), s.a2 = cross(p.rB, s.axis);
    s.s1 = cross(p.d + p.rA, s.perp), s.s2 = cross(p.rB, s.perp);
    s.translation = glm::dot(s.axis, p.d);
    s.axialMass = inverseOr0(k.mA + k.mB + k.iA * s.a1 * s.a1 + k.iB * s.a2 * s.a2);
    return s;
}

void solvePrismatic(Pair& p, JointConstraint& k, const substep::Spring& soft, bool useBias,
                    double h) {
    Slide s = slideOf(p, k);
    auto axialRate = [&] {
        return glm::dot(s.axis, p.vB() - p.vA()) + s.a2 * p.B.w - s.a1 * p.A.w;
    };
    auto push = [&](double impulse) {
        p.applyPrismatic(k, impulse * s.axis, impulse * s.a1, impulse * s.a2, 0);
    };
    if (k.motorSpeed) {
        const double most = k.maxMotor * h, was = k.impulses.motor;
        k.impulses.motor =
            std::clamp(was + s.axialMass * (*k.motorSpeed - axialRate()), -most, most);
        push(k.impulses.motor - was);
    }
    if (k.lower)
        push(solveLimit(k.impulses.lower, s.translation - *k.lower, axialRate(), s.axialMass, soft,
                        useBias, 1 / h));
    if (k.upper)
        push(-solveLimit(k.impulses.upper, *k.upper - s.translation, -axialRate(), s.axialMass,
                         soft, useBias, 1 / h));
    // The point on the line and the angle, together (a 2 × 2 block).
    const Vec2 rate{glm::dot(s.perp, p.vB() - p.vA()) + s.s2 * p.B.w - s.s1 * p.A.w, p.B.w - p.A.w};
    const Feedback f = feedback(soft, useBias, 0);
    const Vec2 bias =
        useBias ? soft.biasRate * Vec2{glm::dot(s.perp, p.d), p.angle(k)} : Vec2{0, 0};
    const double k11 = k.mA + k.mB + k.iA * s.s1 * s.s1 + k.iB * s.s2 * s.s2;
    const double k12 = k.iA * s.s1 + k.iB * s.s2;
    const double k22 = k.iA + k.iB > 0 ? k.iA + k.iB : 1;
    const double det = k11 * k22 - k12 * k12;
    if (!(det > 0)) return;
    const Vec2 rhs = rate + bias;
    const Vec2 solved{(k22 * rhs.x - k12 * rhs.y) / det, (k11 * rhs.y - k12 * rhs.x) / det};
    const Vec2 impulse = -f.massScale * solved - f.impulseScale * k.impulses.linear;
    k.impulses.linear += impulse;
    p.applyPrismatic(k, impulse.x * s.perp, impulse.x * s.s1, impulse.x * s.s2, impulse.y);
}

JointConstraint constraintOf(Joint& j, const std::vector<Body>& bodies, double h) {
    const std::size_t world = bodies.size();
    JointConstraint k;
    k.joint = &j;
    k.type = j.type, k.kind = j.kind;
    k.motorSpeed = j.motorSpeed, k.lower = j.lower, k.upper = j.upper;
    k.maxMotor = j.maxMotor, k.length = j.length, k.minLength = j.minLength;
    k.maxLength = j.maxLength, k.stiffness = j.stiffness, k.damping = j.damping;
    k.a = static_cast<std::uint32_t>(j.a ? *j.a : world);
    k.b = static_cast<std::uint32_t>(j.b);
    const Body& B = bodies[j.b];
    Vec2 centreA{0, 0};
    double angleA = 0;
    if (j.a) {
        const Body& A = bodies[*j.a];
        k.mA = A.invMass, k.iA = A.invInertia;
        centreA = A.xf().p, angleA = A.angle();
        k.rA = A.xf().q.apply(j.frame.localA);
        k.axis = A.xf().q.apply(j.frame.localAxis);
    } else {
        k.rA = j.frame.localA; // the world's anchor, from its origin
        k.axis = j.frame.localAxis;
    }
    k.mB = B.invMass, k.iB = B.invInertia;
    k.rB = B.xf().q.apply(j.frame.localB);
    k.deltaCentre = B.xf().p - centreA;
    k.deltaAngle = B.angle() - angleA - j.frame.referenceAngle;
    if (j.type == JointType::Distance && j.kind == DistanceKind::Spring) {
        const Axis ax = axisOf(k, k.rA, k.rB, k.deltaCentre + k.rB - k.rA);
        const double x = h * h * j.stiffness * ax.inverse; // (h ω)²
        k.springGain = x > 1 ? 1 - 1 / x : 0;
    }
    return k;
}

} // namespace

bool movesSomething(const Joint& j, const std::vector<Body>& bodies) {
    return bodies[j.b].isDynamic() || (j.a && bodies[*j.a].isDynamic());
}

void JointSolver::prepare(std::vector<Joint>* all, const std::vector<Body>& bodies, double h,
                          int perStep, const substep::Spring& soft,
                          const std::vector<std::uint32_t>* batchOf, std::size_t batches) {
    h_ = h;
    perStep_ = perStep;
    soft_ = soft;
    auto batch = [&](const Joint& j) -> std::size_t {
        if (!batchOf) return 0;
        return (*batchOf)[bodies[j.b].isDynamic() || !j.a ? j.b : *j.a];
    };
    static std::vector<Joint> none;
    std::vector<Joint>& joints = all ? *all : none;
    begin_.assign(batches + 1, 0);
    for (const Joint& j : joints)
        if (movesSomething(j, bodies)) ++begin_[batch(j) + 1];
    for (std::size_t b = 0; b < batches; ++b)
        begin_[b + 1] += begin_[b];
    std::vector<std::size_t> at(begin_.begin(), begin_.end() - 1);
    constraints_.resize(begin_.back());
    for (Joint& j : joints) {
        if (!movesSomething(j, bodies)) continue;
        JointConstraint& k = constraints_[at[batch(j)]++];
        k = constraintOf(j, bodies, h);
        // The joint keeps its impulses per step; a pass's is 1/perStep of it (exact: perStep is
        // a power of two).
        const double share = 1.0 / perStep;
        const JointImpulses& kept = j.impulses;
        k.impulses = {kept.linear * share, kept.angular * share, kept.axial * share,
                      kept.motor * share,  kept.lower * share,   kept.upper * share};
    }
}

void JointSolver::warmStart(const States& states, std::size_t first, std::size_t last) {
    for (std::size_t i = first; i < last; ++i) {
        JointConstraint& k = constraints_[i];
        Pair p(states, k);
        const JointImpulses& m = k.impulses;
        switch (k.type) {
        case JointType::Revolute:
            p.apply(k, m.linear, m.motor + m.lower - m.upper);
            break;
        case JointType::Weld:
            p.apply(k, m.linear, m.angular);
            break;
        case JointType::Distance: {
            if (k.kind == DistanceKind::Spring) applySpring(p, k, h_);
            p.apply(k, (m.axial + m.lower - m.upper) * axisOf(p, k).n);
            break;
        }
        case JointType::Prismatic: {
            const Slide s = slideOf(p, k);
            const double axial = m.motor + m.lower - m.upper;
            p.applyPrismatic(k, axial * s.axis + m.linear.x * s.perp,
                             axial * s.a1 + m.linear.x * s.s1, axial * s.a2 + m.linear.x * s.s2,
                             m.linear.y);
            break;
        }
        }
    }
}

void JointSolver::solve(const States& states, bool useBias, std::size_t first, std::size_t last) {
    for (std::size_t i = first; i < last; ++i) {
        JointConstraint& k = constraints_[i];
        Pair p(states, k);
        switch (k.type) {
        case JointType::Revolute:
            solveRevolute(p, k, soft_, useBias, h_);
            break;
        case JointType::Weld:
            solveAngle(p, k, soft_, useBias);
            solvePoint(p, k, soft_, useBias);
            break;
        case JointType::Distance:
            solveDistance(p, k, soft_, useBias, h_);
            break;
        case JointType::Prismatic:
            solvePrismatic(p, k, soft_, useBias, h_);
            break;
        }
    }
}

void JointSolver::store(const States& states) {
    const double n = perStep_;
    for (JointConstraint& k : constraints_) {
        Joint& j = *k.joint;
        const JointImpulses& m = k.impulses;
        j.impulses = {m.linear * n, m.angular * n, m.axial * n,
                      m.motor * n,  m.lower * n,   m.upper * n};
        // The reaction on b over the last pass, as a mean force: its impulses over h.
        Pair p(states, k);
        const double axial = m.motor + m.lower - m.upper;
        switch (j.type) {
        case JointType::Revolute:
            j.force = m.linear / h_;
            j.torque = axial / h_;
            break;
        case JointType::Weld:
            j.force = m.linear / h_;
            j.torque = m.angular / h_;
            break;
        case JointType::Distance:
            j.force = (m.axial + m.lower - m.upper + k.spring) * axisOf(p, k).n / h_;
            j.torque = 0;
            break;
        case JointType::Prismatic: {
            const Slide s = slideOf(p, k);
            j.force = (axial * s.axis + m.linear.x * s.perp) / h_;
            j.torque = m.linear.y / h_;
            break;
        }
        }
    }
}

} // namespace carom
