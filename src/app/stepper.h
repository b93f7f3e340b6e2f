// Turns real time into fixed steps: an accumulator scaled by the time rate, pause, single step,
// and a cap on steps per frame so that a slow frame cannot snowball. The app's frame loop drives
// it; the command-line program steps the world itself.
#pragma once

#include "carom/world.h"
#include <cmath>
#include <functional>
#include <vector>

namespace app {

class Stepper {
  public:
    double timeRate = 1.0; // simulated seconds per real second
    bool paused = false;
    int maxStepsPerFrame = 8;
    // Wall-clock seconds one advance may spend stepping: past it, no further step is started and
    // the rest waits for the next frames (a step that is due is always taken, however long it
    // lasts).
    double budgetSeconds = INFINITY;
    // The most real time the steps may fall behind, seconds: a stall shorter than this (the
    // first frames, while Mesa compiles its shaders; a busy moment) is made up over the next
    // frames, a longer one is dropped, and a scene too slow for real time runs slower than it
    // instead of freezing the frame.
    double maxBacklogSeconds = 0.25;

    // Advances the world by the real time elapsed since the last frame; returns the steps taken.
    // Each step is stepOnce() (the session's: along its history or at its end), else world.step().
    int advance(carom::World& world, double realSeconds,
                const std::function<void()>& stepOnce = {});
    // Taken at the next advance(), even if paused (as many as were asked for since the last).
    void requestSingleStep() { ++singleSteps_; }
    // The world jumped to another moment: no backlog, nothing to interpolate from.
    void jumped() {
        accumulator_ = 0;
        previous_.clear();
    }
    void reset() {
        accumulator_ = 0;
        singleSteps_ = 0;
        previous_.clear();
    }

    // What to draw between steps: each body's pose interpolated between the last step's start
    // and its end by the fraction of a step the accumulator holds (in [0, 1]), so that motion is
    // smooth when the frame rate and the step rate differ. The poses as they are when paused,
    // before the first step, or when the bodies are not those the last step moved.
    double fraction(const carom::World& world) const;
    void drawPoses(const carom::World& world, std::vector<carom::Transform>& out) const;

  private:
    struct Pose {
        carom::Vec2 p;
        double angle;
    };
    double accumulator_ = 0;
    int singleSteps_ = 0;
    std::vector<Pose> previous_; // every body's pose before the last step
    void keepPoses(const carom::World& world);
};

} // namespace app
