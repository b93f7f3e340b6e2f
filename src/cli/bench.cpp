// carom-cli bench: wall-clock time per step, averaged over N steps after one untimed step (the
// protocol of the Box2D v3 comparison: one thread, the first step not counted), and the memory
// the world takes, and what a copy of it (a keyframe of the app's history) takes.
#include "commands.h"

#include <chrono>
#include <cstdio>
#include <malloc.h>

namespace cli {
namespace {

// The heap memory in use now, bytes (glibc's count of allocated bytes: unlike the resident size,
// it does not miss memory the reader freed and the world then reused): the small blocks, and the
// large ones glibc maps on their own (a large scene's arrays; uordblks alone left them out).
double heapBytes() {
    const struct mallinfo2 m = mallinfo2();
    return double(m.uordblks + m.hblkhd);
}

} // namespace

int bench(const BenchOptions& o) {
    carom::Scene scene = carom::loadScene(o.scene);
    apply(o.overrides, scene);
    const double beforeWorld = heapBytes();
    carom::World world = carom::buildWorld(scene);
    world.setThreads(o.threads);
    const double beforeSteps = heapBytes();
    world.step(); // untimed: first contacts, allocations
    const double afterStep = heapBytes();
    using Clock = std::chrono::steady_clock;
    // Each step timed too: the slowest is where a scene's cost jumps (a cliff) that the mean hides.
    const Clock::time_point start = Clock::now();
    Clock::time_point before = start;
    double slowest = 0;
    long long slowestStep = 0;
    for (long long i = 0; i < o.steps; ++i) {
        world.step();
        const Clock::time_point after = Clock::now();
        const double ms = std::chrono::duration<double, std::milli>(after - before).count();
        if (ms > slowest) slowest = ms, slowestStep = i + 2; // the untimed step was step 1
        before = after;
    }
    const std::chrono::duration<double, std::milli> elapsed = before - start;
    // A copy of the world, as the app keeps in its history (a keyframe): its heap and its time.
    const double beforeCopy = heapBytes();
    const Clock::time_point copyStart = Clock::now();
    const carom::World keyframe = world;
    const std::chrono::duration<double, std::milli> copying = Clock::now() - copyStart;
    const double copyBytes = heapBytes() - beforeCopy + double(sizeof keyframe);
    // The stages timed over more steps (--profile), apart from the timed ones: the clock reads
    // between stages are not in ms_per_step.
    carom::StepProfile profile;
    world.setProfiling(true);
    for (long long i = 0; i < o.profile; ++i) {
        world.step();
        const carom::StepProfile& p = world.diagnostics().profile;
        for (const carom::ProfileStage& s : carom::kProfileStages)
            profile.*s.time += p.*s.time;
    }
    world.setProfiling(false);
    const std::size_t bodies = world.bodies().size(), contacts = world.contacts().size();
    std::printf("scene: %s\n", scene.name.c_str());
    std::printf("bodies: %zu\n", bodies);
    std::printf("contacts: %zu\n", contacts);
    std::printf("method: %s\n", std::string(carom::toString(world.settings().method)).c_str());
    std::printf("steps: %lld\n", o.steps);
    std::printf("threads: %d\n", world.threads());
    // Heap memory the world took when built (per body) and when its first step made the
    // contacts and the solver's scratch arrays (per contact manifold).
    std::printf("bytes_per_body: %.0f\n", (beforeSteps - beforeWorld) / double(bodies));
    if (contacts > 0)
        std::printf("bytes_per_contact: %.0f\n", (afterStep - beforeSteps) / double(contacts));
    std::printf("keyframe_bytes: %.0f\n", copyBytes);
    std::printf("keyframe_ms: %.3g\n", copying.count());
    if (o.profile > 0)
        for (const carom::ProfileStage& s : carom::kProfileStages)
            std::printf("profile_%s_ms: %.6g\n", s.name,
                        1e3 * (profile.*s.time) / static_cast<double>(o.profile));
    std::printf("slowest_step_ms: %.6g (step %lld)\n", slowest, slowestStep);
    std::printf("ms_per_step: %.6g\n", elapsed.count() / static_cast<double>(o.steps));
    return 0;
}

} // namespace cli
