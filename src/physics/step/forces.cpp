// Forces on the bodies: gravity, linear and angular damping, thrusters, the mouse spring; summed
// into each body's force and torque for the step, and listed for whoever draws them.
#include "solver/contact_math.h"
#include "step/step_context.h"
#include <cmath>

namespace carom {
namespace {

// Every force on the dynamic bodies now, in one place, so that the step and the drawing agree:
// visit(body, kind, point, force, torque) with `torque` a pure couple (angular damping) and the
// force acting at the world point `point`.
template <class Visit>
void forEachForce(const WorldSettings& s, const std::vector<Body>& bodies,
                  const std::vector<Thruster>& thrusters, const std::optional<MouseSpring>& spring,
                  Visit visit) {
    for (BodyId i = 0; i < bodies.size(); ++i) {
        const Body& b = bodies[i];
        if (!b.isDynamic()) continue;
        visit(i, ForceKind::Gravity, b.xf().p, b.mass * s.gravity, 0.0); // F = m g
        if (s.damping != 0) visit(i, ForceKind::Damping, b.xf().p, -s.damping * b.v, 0.0); // −k v
        if (s.angularDamping != 0)
            visit(i, ForceKind::AngularDamping, b.xf().p, Vec2{0, 0},
                  -s.angularDamping * b.w); // −k_ω ω
    }
    // Thrusters push in the body's frame: F = thrust · R(θ) d, at the body point.
    for (const Thruster& t : thrusters) {
        const Body& b = bodies[t.body];
        if (!t.firing || !b.isDynamic()) continue;
        visit(t.body, ForceKind::Thruster, b.worldPoint(t.localPoint),
              s.thrust * b.xf().q.apply(t.direction), 0.0);
    }
    // Mouse spring of zero rest length: F = k (target − anchor) − c v_anchor, with k and c as
    // mouseSpringLaw says for the mass the spring moves.
    if (spring && !spring->particle) { // a particle's: soft_body.cpp
        const Body& b = bodies[spring->body];
        if (b.isDynamic()) {
            const Vec2 anchor = b.worldPoint(spring->localAnchor);
            // The mass the spring moves: the body's, or with a spring_frequency, as felt at the
            // anchor (its turning included: a thin ball pulled by its edge moves as a third of it).
            const double felt =
                s.springFrequency > 0
                    ? 1 / (b.invMass + lengthSquared(anchor - b.xf().p) * b.invInertia)
                    : b.mass;
            const MouseSpringLaw law = mouseSpringLaw(s, felt, spring->dampingRatio);
            const Vec2 f =
                law.stiffness * (spring->target - anchor) - law.damping * b.velocityAt(anchor);
            visit(spring->body, ForceKind::Spring, anchor, f, 0.0);
        }
    }
}

} // namespace

void accumulateForces(const StepContext& c) {
    for (Body& b : c.bodies) {
        b.force = {0, 0};
        b.torque = 0;
    }
    forEachForce(c.settings, c.bodies, c.thrusters, c.spring,
                 [&](BodyId i, ForceKind, Vec2 point, Vec2 force, double torque) {
                     Body& b = c.bodies[i];
                     b.force += force;
                     b.torque += cross(point - b.xf().p, force) + torque; // τ = r × F
                 });
}

std::vector<AppliedForce> World::forces() const {
    std::vector<AppliedForce> out;
    forEachForce(settings_, bodies_, thrusters_, spring_,
                 [&](BodyId i, ForceKind kind, Vec2 point, Vec2 force, double torque) {
                     out.push_back(AppliedForce{i, kind, point, force, torque});
                 });
    // The contacts' impulses of the last step as their mean force over it, P / h, on body B.
    for (const Manifold& m : contacts_)
        for (int k = 0; k < m.count; ++k) {
            const ContactPoint& cp = m.points[k];
            const Vec2 P = cp.normalImpulse * m.normal + cp.tangentImpulse * tangentOf(m.normal);
            if (cp.normalImpulse > 0)
                out.push_back(
                    AppliedForce{m.b, ForceKind::Contact, cp.point, P / settings_.timeStep, 0.0});
        }
    return out;
}

} // namespace carom
