// libFuzzer target: any bytes as a scene file, then a few steps of each method and integrator.
// A refusal (SceneError, a setting the engine refuses) is fine; a crash, a sanitizer report, a
// hang or a world that turns non-finite from a scene that loaded is not. How to run it:
// tests/fuzz/run.sh.
#include "carom/scene.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace {

bool finite(const carom::World& w) {
    for (const carom::Body& b : w.bodies())
        if (!carom::isFinite(b.xf.p) || !std::isfinite(b.angle) || !carom::isFinite(b.v) ||
            !std::isfinite(b.w))
            return false;
    return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    carom::Scene scene;
    try {
        scene = carom::parseScene(std::string(reinterpret_cast<const char*>(data), size), "fuzz");
    } catch (const carom::SceneError&) {
        return 0;
    }
    for (carom::Method method : carom::allMethods())
        for (carom::Integrator integrator : carom::allIntegrators()) {
            carom::Scene s = scene;
            s.settings.method = method;
            s.settings.integrator = integrator;
            carom::World world = carom::buildWorld(s);
            for (int i = 0; i < 3; ++i)
                world.step();
            (void)finite(world); // reported by the stress test, not a crash here
        }
    return 0;
}
