// Real time -> fixed steps (Glenn Fiedler's "Fix Your Timestep!" accumulator).
#include "stepper.h"

#include <algorithm>
#include <chrono>

namespace app {

int Stepper::advance(carom::World& world, double realSeconds) {
    const double h = world.settings().timeStep;
    int steps = 0;
    if (singleStep_) {
        singleStep_ = false;
        world.step();
        return 1;
    }
    if (paused || !(realSeconds > 0)) return 0;
    accumulator_ += realSeconds * timeRate;
    const auto start = std::chrono::steady_clock::now();
    bool overBudget = false;
    while (accumulator_ >= h && steps < maxStepsPerFrame && !overBudget) {
        world.step();
        accumulator_ -= h;
        ++steps;
        const std::chrono::duration<double> used = std::chrono::steady_clock::now() - start;
        overBudget = used.count() >= budgetSeconds;
    }
    // Behind by more than the cap or the budget allows: drop the backlog instead of spiralling.
    if (steps == maxStepsPerFrame || overBudget) accumulator_ = std::min(accumulator_, h);
    return steps;
}

} // namespace app
