// carom-cli bench: wall-clock time per step, averaged over N steps after one untimed step (the
// anchors' protocol: one thread, the first step not counted).
#include "commands.h"

#include <chrono>
#include <cstdio>

namespace cli {

int bench(const BenchOptions& o) {
    carom::Scene scene = carom::loadScene(o.scene);
    apply(o.overrides, scene);
    carom::World world = carom::buildWorld(scene);
    world.step(); // untimed: first contacts, allocations
    using Clock = std::chrono::steady_clock;
    const Clock::time_point start = Clock::now();
    for (long long i = 0; i < o.steps; ++i)
        world.step();
    const std::chrono::duration<double, std::milli> elapsed = Clock::now() - start;
    std::printf("scene: %s\n", scene.name.c_str());
    std::printf("bodies: %zu\n", world.bodies().size());
    std::printf("method: %s\n", std::string(carom::toString(world.settings().method)).c_str());
    std::printf("steps: %lld\n", o.steps);
    std::printf("ms_per_step: %.6g\n", elapsed.count() / static_cast<double>(o.steps));
    return 0;
}

} // namespace cli
