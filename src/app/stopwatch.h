// The stopwatch (issue 44, "see the physics", as PhET's): it times simulated time, started,
// stopped and reset by the user. No SDL or ImGui here (tests/measure_tools_test.cpp); its window
// is stopwatch_window.cpp.
#pragma once

namespace app {

// It reads the simulated time that passed while it ran. The timeline takes it along: shown an
// earlier moment, it reads the time from its start to that moment (never less than what it had
// before the start); the world rebuilt (a scene opened, a reset), it reads from where the clock
// starts again.
struct Stopwatch {
    bool running = false;
    double startedAt = 0; // the simulated time at the last start
    double kept = 0;      // the time of the runs before it (stopped, then started again)

    void start(double now);
    void stop(double now);
    void reset(double now); // to 0, running on if it ran
    double reading(double now) const;
};

} // namespace app
