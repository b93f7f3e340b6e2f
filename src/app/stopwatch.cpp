#include "stopwatch.h"

#include <algorithm>

namespace app {

void Stopwatch::start(double now) {
    if (running) return;
    running = true;
    startedAt = now;
}

void Stopwatch::stop(double now) {
    if (!running) return;
    kept = reading(now);
    running = false;
}

void Stopwatch::reset(double now) {
    kept = 0;
    startedAt = now;
}

double Stopwatch::reading(double now) const {
    return kept + (running ? std::max(0.0, now - startedAt) : 0.0);
}

} // namespace app
