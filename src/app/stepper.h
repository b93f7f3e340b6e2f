// Turns real time into fixed steps: an accumulator scaled by the time rate, pause, single step,
// and a cap on steps per frame so that a slow frame cannot snowball. The app's frame loop drives
// it; the command-line program steps the world itself.
#pragma once

#include "carom/world.h"
#include <cmath>

namespace app {

class Stepper {
  public:
    double timeRate = 1.0; // simulated seconds per real second
    bool paused = false;
    int maxStepsPerFrame = 8;
    // Wall-clock seconds one advance may spend stepping: past it, no further step is started and
    // the backlog is dropped (the simulation runs slower than real time instead of freezing the
    // frame). A step that is due is always taken, however long it lasts.
    double budgetSeconds = INFINITY;

    // Advances the world by the real time elapsed since the last frame; returns the steps taken.
    int advance(carom::World& world, double realSeconds);
    void requestSingleStep() { singleStep_ = true; } // taken at the next advance(), even if paused
    void reset() {
        accumulator_ = 0;
        singleStep_ = false;
    }

  private:
    double accumulator_ = 0;
    bool singleStep_ = false;
};

} // namespace app
