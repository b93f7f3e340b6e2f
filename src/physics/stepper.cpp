// Real time -> fixed steps (Glenn Fiedler's "Fix Your Timestep!" accumulator).
#include "carom/stepper.h"

#include <algorithm>

namespace carom {

int Stepper::advance(World& world, double realSeconds) {
    const double h = world.settings().timeStep;
    int steps = 0;
    if (singleStep_) {
        singleStep_ = false;
        world.step();
        return 1;
    }
    if (paused || !(realSeconds > 0)) return 0;
    accumulator_ += realSeconds * timeRate;
    while (accumulator_ >= h && steps < maxStepsPerFrame) {
        world.step();
        accumulator_ -= h;
        ++steps;
    }
    // Behind by more than the cap allows: drop the backlog instead of spiralling.
    if (steps == maxStepsPerFrame) accumulator_ = std::min(accumulator_, h);
    return steps;
}

double Stepper::interpolation(const World& world) const {
    return std::clamp(accumulator_ / world.settings().timeStep, 0.0, 1.0);
}

} // namespace carom
