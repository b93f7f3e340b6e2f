#include "energy_audit.h"

#include <algorithm>
#include <cmath>

namespace carom {
namespace {

// Round-off: each body's terms are summed in double precision; a part in 10¹⁰ of the terms'
// sizes is far above what a million of them can lose, and far below any energy a method makes.
// And at least 10⁻¹⁵ J: bodies at rest whose velocities are round-off (10⁻¹⁶ m/s) have energies
// of 10⁻³¹ J, which a part of their own size would count as made.
constexpr double kRoundOff = 1e-10;
constexpr double kRoundOffFloor = 1e-15; // J

// Whether anything does work on the world in the step besides gravity and damping.
bool outsideWork(const World& world) {
    if (world.mouseSpring()) return true;
    for (const Thruster& t : world.thrusters())
        if (t.firing) return true;
    for (const Body& b : world.bodies())
        if (b.type == BodyType::Kinematic && (b.v != Vec2{0, 0} || b.w != 0)) return true;
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
    const double roundOff = kRoundOff * std::max(start.scale, energyScale(world)) + kRoundOffFloor;
    const double made = end.energy - start.energy;
    return made > roundOff ? made : 0;
}

} // namespace carom
