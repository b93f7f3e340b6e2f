// The joints of the impulse, projection and penalty methods, which step without substeps: the
// substep solver's joint passes (joint_solver.cpp) over the whole step, as one substep of h. Before
// the positions move, a warm start and `velocity_iterations` passes with position feedback on the
// velocities the contacts left; after they move, as many relax passes, which take back the
// feedback's velocity (the positions keep its correction), from the displacements of the step.
#include "joints/joint_solver.h"

#include <vector>

namespace carom {
namespace {

using substep::Displacement;
using substep::Velocity;

// Kept from step to step, one per thread (as the other stages' scratch).
struct Scratch {
    JointSolver solver;
    std::vector<Velocity> velocity;
    std::vector<Displacement> displacement;
};
Scratch& scratch() {
    static thread_local Scratch s;
    return s;
}

// The bodies' velocities into the state rows (the world's row last, at rest).
void loadVelocities(const StepContext& c, std::vector<Velocity>& velocity) {
    velocity.resize(c.bodies.size() + 1);
    for (std::size_t i = 0; i < c.bodies.size(); ++i) {
        const Body& b = c.bodies[i];
        velocity[i] = Velocity{b.v.x, b.v.y, b.w, b.invMass};
    }
    velocity.back() = Velocity{0, 0, 0, 0};
}

void storeVelocities(StepContext& c, const std::vector<Velocity>& velocity) {
    for (std::size_t i = 0; i < c.bodies.size(); ++i)
        if (c.bodies[i].isDynamic()) {
            c.bodies[i].v = {velocity[i].vx, velocity[i].vy};
            c.bodies[i].w = velocity[i].w;
        }
}

} // namespace

void solveJoints(StepContext& c) {
    Scratch& s = scratch();
    s.solver.prepare(c.joints, c.bodies, c.h, 1, substep::jointSpring(c.h));
    if (s.solver.empty()) return;
    loadVelocities(c, s.velocity);
    s.displacement.assign(c.bodies.size() + 1, Displacement{0, 0, 1, 0});
    const substep::States states{s.velocity.data(), s.displacement.data(), nullptr};
    s.solver.warmStart(states);
    for (int i = 0; i < c.settings.velocityIterations; ++i)
        s.solver.solve(states, true);
    storeVelocities(c, s.velocity);
}

void relaxJoints(StepContext& c, const std::vector<Pose>& start) {
    Scratch& s = scratch();
    if (s.solver.empty()) return;
    loadVelocities(c, s.velocity);
    for (std::size_t i = 0; i < c.bodies.size(); ++i) {
        const Vec2 dp = c.bodies[i].xf().p - start[i].xf.p;
        const double turn = c.bodies[i].angle() - start[i].angle;
        s.displacement[i] = Displacement{dp.x, dp.y, std::cos(turn), std::sin(turn)};
    }
    const substep::States states{s.velocity.data(), s.displacement.data(), nullptr};
    for (int i = 0; i < c.settings.velocityIterations; ++i)
        s.solver.solve(states, false);
    s.solver.store(states);
    storeVelocities(c, s.velocity);
}

} // namespace carom
