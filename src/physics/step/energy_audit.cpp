#include "step/energy_audit.h"
#include "tuning.h"

#include <algorithm>
#include <cmath>

namespace carom {
namespace {

// Whether anything does work on the world in the step besides gravity and damping.
bool outsideWork(const World& world) {
    if (world.mouseSpring()) return true;
    for (const Thruster& t : world.thrusters())
        if (t.firing) return true;
    for (const Body& b : world.bodies())
        if (b.type == BodyType::Kinematic && (b.v != Vec2{0, 0} || b.w != 0)) return true;
    for (const Joint& j : world.joints()) // a motor drives its bodies
        if (j.motorSpeed && j.maxMotor > 0) return true;
    return false;
}

// Σ |each term of the energy|: the kinetic energies and the potential energies' sizes.
double energyScale(const World& world) {
    const Vec2 g = world.settings().gravity;
    double s = 0;
    for (const Body& b : world.bodies())
        if (b.isDynamic()) s += b.kineticEnergy() + std::abs(b.mass * glm::dot(g, b.xf().p));
    for (const SoftBody& b : world.softBodies()) {
        for (const Particle& p : b.particles)
            s += 0.5 * p.mass * lengthSquared(p.v) + std::abs(p.mass * glm::dot(g, p.x));
        s += b.springEnergy();
    }
    return s;
}

} // namespace

EnergyAudit auditStart(const World& world) {
    if (outsideWork(world)) return EnergyAudit{};
    return EnergyAudit{true, measure(world).energy, energyScale(world)};
}

double energyMade(const EnergyAudit& start, const World& world, const Diagnostics& end) {
    if (!start.applies) return 0;
    const double roundOff =
        kAuditRoundOff * std::max(start.scale, energyScale(world)) + kAuditRoundOffFloor;
    const double made = end.energy - start.energy;
    return made > roundOff ? made : 0;
}

} // namespace carom
