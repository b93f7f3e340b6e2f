// Energies and momenta (definitions in docs/cli.md), over the dynamic bodies.
#include "carom/world.h"
#include "step/step_context.h"

namespace carom {

Diagnostics measure(const World& world) {
    Diagnostics d;
    const Vec2 g = world.settings().gravity;
    for (const Body& b : world.bodies()) {
        if (!b.isDynamic()) continue;
        d.keLinear += 0.5 * b.mass * lengthSquared(b.v); // ½ m |v|²
        d.keAngular += 0.5 * b.inertia * b.w * b.w;      // ½ I ω²
        d.pe -= b.mass * glm::dot(g, b.xf().p);          // −m g · p, zero at the origin
        d.momentum += b.mass * b.v;                      // Σ m v
        d.angularMomentum += b.mass * cross(b.xf().p, b.v) + b.inertia * b.w; // about the origin
    }
    // Soft bodies: each particle as a point mass; the springs' energy is potential energy.
    for (const SoftBody& b : world.softBodies()) {
        for (const Particle& p : b.particles) {
            d.keLinear += 0.5 * p.mass * lengthSquared(p.v);
            d.pe -= p.mass * glm::dot(g, p.x);
            d.momentum += p.mass * p.v;
            d.angularMomentum += p.mass * cross(p.x, p.v);
        }
        d.pe += b.springEnergy(); // ½ k (l − L)² each
    }
    // Distance springs' energy is potential energy too (rods, ropes and pins store none).
    for (JointId id = 0; id < world.joints().size(); ++id) {
        const Joint& j = world.joints()[id];
        if (j.type != JointType::Distance || j.kind != DistanceKind::Spring) continue;
        const auto [a, b] = world.jointAnchors(id);
        const double stretch = glm::length(b - a) - j.length;
        d.pe += 0.5 * j.stiffness * stretch * stretch;
    }
    d.energy = d.keLinear + d.keAngular + d.pe;
    return d;
}

bool finiteState(const World& world) {
    for (const Body& b : world.bodies())
        if (!isFinite(b.xf().p) || !std::isfinite(b.angle()) || !isFinite(b.v) ||
            !std::isfinite(b.w))
            return false;
    for (const SoftBody& b : world.softBodies())
        for (const Particle& p : b.particles)
            if (!isFinite(p.x) || !isFinite(p.v)) return false;
    return true;
}

double kineticEnergy(const std::vector<Body>& bodies) {
    double ke = 0;
    for (const Body& b : bodies)
        if (b.isDynamic()) ke += b.kineticEnergy();
    return ke;
}

} // namespace carom
