// Real time -> fixed steps (Glenn Fiedler's "Fix Your Timestep!" accumulator).
#include "stepper.h"

#include <algorithm>
#include <chrono>

namespace app {

int Stepper::advance(carom::World& world, double realSeconds,
                     const std::function<void()>& stepOnce) {
    const double h = world.settings().timeStep;
    int steps = 0;
    auto step = [&] {
        keepPoses(world);
        if (stepOnce)
            stepOnce();
        else
            world.step();
    };
    if (singleSteps_ > 0) {
        for (; singleSteps_ > 0; --singleSteps_, ++steps)
            step();
        return steps;
    }
    if (paused || !(realSeconds > 0)) return 0;
    accumulator_ += realSeconds * timeRate;
    const auto start = std::chrono::steady_clock::now();
    bool overBudget = false;
    while (accumulator_ >= h && steps < maxStepsPerFrame && !overBudget) {
        step();
        accumulator_ -= h;
        ++steps;
        const std::chrono::duration<double> used = std::chrono::steady_clock::now() - start;
        overBudget = used.count() >= budgetSeconds;
    }
    // Behind by more than the backlog allows: drop the rest instead of spiralling.
    accumulator_ = std::min(accumulator_, std::max(h, maxBacklogSeconds * timeRate));
    return steps;
}

void Stepper::keepPoses(const carom::World& world) {
    const auto& bodies = world.bodies();
    previous_.resize(bodies.size());
    for (std::size_t i = 0; i < bodies.size(); ++i)
        previous_[i] = Pose{bodies[i].xf().p, bodies[i].angle()};
}

double Stepper::fraction(const carom::World& world) const {
    const double h = world.settings().timeStep;
    return h > 0 ? std::clamp(accumulator_ / h, 0.0, 1.0) : 0.0;
}

void Stepper::drawPoses(const carom::World& world, std::vector<carom::Transform>& out) const {
    const auto& bodies = world.bodies();
    out.resize(bodies.size());
    const bool between = !paused && previous_.size() == bodies.size();
    const double a = between ? fraction(world) : 1.0;
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        const carom::Body& b = bodies[i];
        if (!between || a >= 1.0) {
            out[i] = b.xf();
            continue;
        }
        // p = p0 + a (p1 − p0); the angle likewise (kept unwrapped by the world, no jump at ±π).
        const Pose& p0 = previous_[i];
        const double angle = p0.angle + a * (b.angle() - p0.angle);
        out[i] = carom::Transform{p0.p + a * (b.xf().p - p0.p), carom::Rot(angle)};
    }
}

} // namespace app
