// The dense fast crowd of issue 46, item 7 (tests/stress-scenes/make-fast-crowd.py): 200 bodies
// of 2-5 cm in a 1 m box at up to 1,410 m/s under gravity, where one step took 12-25 s. Its steps'
// work is counted, never timed: each step's flights stay within their bound
// (kFlightWorkPerPair a pair and a body), the cut is counted, and no energy is made.
#include "carom/scene.h"
#include "test_worlds.h"
#include "tuning.h"

#include <gtest/gtest.h>

#include <string>

using namespace carom;
using namespace carom::test;

namespace {

World crowd(const char* scene, Method method) {
    Scene s = loadScene(std::string(CAROM_TEST_DIR "/stress-scenes/") + scene);
    s.settings.method = method;
    return buildWorld(s);
}

} // namespace

// Every body reaches every other in a step (16 m a step in a 1 m box), so a strike predicts again
// every pair of its two bodies: the flights' work (narrow-phase calls) is bounded by the pairs and
// bodies of the step's start, at most n (n − 1) / 2 + n for n bodies, times kFlightWorkPerPair,
// plus one strike's predictions past the bound (2 n pairs, each a prediction of at most
// kFlightMaxAdvances advances): without the bound a step made hundreds of times that.
TEST(FastCrowd, SlowFlightsStayWithinTheirBoundOfWork) {
    for (Method m : {Method::ImpulseProjection, Method::Impulse, Method::Exact}) {
        World w = crowd("fast-crowd-elastic.json", m);
        const std::uint64_t n = w.bodies().size();
        const std::uint64_t pairsAndBodies = n * (n - 1) / 2 + n;
        // The exact method flies twice in a step that it finishes as the default method does.
        const std::uint64_t flights = m == Method::Exact ? 2 : 1;
        const std::uint64_t bound =
            flights * (kFlightWorkPerPair * pairsAndBodies + 2 * n * kFlightMaxAdvances);
        const Diagnostics d0 = measure(w);
        for (int i = 0; i < 10; ++i) {
            w.step();
            EXPECT_LE(w.diagnostics().flightWork, bound) << toString(m) << " step " << i;
            ASSERT_LE(w.diagnostics().energy, d0.energy) << toString(m) << " step " << i;
        }
        EXPECT_GT(w.diagnostics().totalFlightsCut, 0u) << toString(m); // and the cut is said
    }
}

// A slow, light scene's flights never reach the bound (thin-wall: fast balls through a thin wall,
// every impact struck at its time).
TEST(FastCrowd, FlightsOfAnOrdinaryScenesAreNotCut) {
    Scene s = loadScene(CAROM_ASSET_DIR "/scenes/thin-wall.json");
    World w = buildWorld(s);
    for (int i = 0; i < 600; ++i)
        w.step();
    EXPECT_EQ(w.diagnostics().totalFlightsCut, 0u);
}
