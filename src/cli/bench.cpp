// carom-cli bench: wall-clock time per step, averaged over N steps after one untimed step (the
// protocol of the Box2D v3 comparison: one thread, the first step not counted), and the memory
// the world takes.
#include "commands.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <unistd.h>

namespace cli {
namespace {

// The process's resident memory now, bytes (Linux: the second field of /proc/self/statm, pages).
double residentBytes() {
    std::ifstream statm("/proc/self/statm");
    double size = 0, resident = 0;
    statm >> size >> resident;
    return resident * double(sysconf(_SC_PAGESIZE));
}

} // namespace

int bench(const BenchOptions& o) {
    carom::Scene scene = carom::loadScene(o.scene);
    apply(o.overrides, scene);
    const double beforeWorld = residentBytes();
    carom::World world = carom::buildWorld(scene);
    const double beforeSteps = residentBytes();
    world.step(); // untimed: first contacts, allocations
    const double afterStep = residentBytes();
    using Clock = std::chrono::steady_clock;
    const Clock::time_point start = Clock::now();
    for (long long i = 0; i < o.steps; ++i)
        world.step();
    const std::chrono::duration<double, std::milli> elapsed = Clock::now() - start;
    const std::size_t bodies = world.bodies().size(), contacts = world.contacts().size();
    std::printf("scene: %s\n", scene.name.c_str());
    std::printf("bodies: %zu\n", bodies);
    std::printf("contacts: %zu\n", contacts);
    std::printf("method: %s\n", std::string(carom::toString(world.settings().method)).c_str());
    std::printf("steps: %lld\n", o.steps);
    // Resident memory the world took when built (per body) and when its first step made the
    // contacts and the solver's arrays (per contact manifold): measured, so rounded to pages.
    std::printf("bytes_per_body: %.0f\n", (beforeSteps - beforeWorld) / double(bodies));
    if (contacts > 0)
        std::printf("bytes_per_contact: %.0f\n", (afterStep - beforeSteps) / double(contacts));
    std::printf("ms_per_step: %.6g\n", elapsed.count() / static_cast<double>(o.steps));
    return 0;
}

} // namespace cli
