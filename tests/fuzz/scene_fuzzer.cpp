// libFuzzer target: any bytes as a scene file, then a few steps of each method and integrator.
// A refusal (SceneError) is fine; a crash, an exception escaping, a sanitizer report or a hang is
// not. (What the steps make of a scene, finite or not, contained or not, is carom-cli stress's
// to count.) How to run it: tests/fuzz/run.sh.
#include "carom/scene.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    carom::Scene scene;
    try {
        scene = carom::parseScene(std::string(reinterpret_cast<const char*>(data), size), "fuzz");
    } catch (const carom::SceneError&) {
        return 0;
    }
    for (carom::Method method : carom::allMethods())
        for (carom::Integrator integrator : carom::allIntegrators()) {
            // The exact method refuses joints and compound bodies (docs/scene-format.md), and says
            // so at loading.
            if (method == carom::Method::Exact && !carom::exactTakes(scene)) continue;
            carom::Scene s = scene;
            s.settings.method = method;
            s.settings.integrator = integrator;
            carom::World world = carom::buildWorld(s);
            for (int i = 0; i < 3; ++i)
                world.step();
        }
    return 0;
}
