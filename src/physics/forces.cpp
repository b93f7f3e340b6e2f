// Forces on the bodies: gravity, linear and angular damping, thrusters, the mouse spring.
#include "step_context.h"

namespace carom {
namespace {

void applyAt(Body& b, Vec2 force, Vec2 worldPoint) {
    b.force += force;
    b.torque += cross(worldPoint - b.xf.p, force); // τ = r × F
}

} // namespace

void accumulateForces(const StepContext& c) {
    const WorldSettings& s = c.settings;
    for (Body& b : c.bodies) {
        b.force = {0, 0};
        b.torque = 0;
        if (!b.isDynamic()) continue;
        b.force += b.mass * s.gravity - s.damping * b.v; // F = m g − k v
        b.torque -= s.angularDamping * b.w;              // τ = −k_ω ω
    }
    // Thrusters push in the body's frame: F = thrust · R(θ) d, at the body point.
    for (const Thruster& t : c.thrusters) {
        Body& b = c.bodies[t.body];
        if (!t.firing || !b.isDynamic()) continue;
        applyAt(b, s.thrust * b.xf.q.apply(t.direction), b.worldPoint(t.localPoint));
    }
    // Mouse spring of zero rest length: F = k (target − anchor) − c v_anchor.
    if (c.spring) {
        Body& b = c.bodies[c.spring->body];
        if (b.isDynamic()) {
            Vec2 anchor = b.worldPoint(c.spring->localAnchor);
            Vec2 f = s.springStiffness * (c.spring->target - anchor) -
                     s.springDamping * b.velocityAt(anchor);
            applyAt(b, f, anchor);
        }
    }
}

} // namespace carom
