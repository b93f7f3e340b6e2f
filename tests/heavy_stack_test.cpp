// A heavy box on light ones on a static floor (issue 46, item 5): tests/heavy-stacks/, the scenes
// of `carom-cli stress --family stacks`. At rest the known answer is no overlap beyond the linear
// slop and the heavy box's centre at the sum of the boxes' heights below it plus its half, n + ½ m.
// The limit as it stands (docs/architecture.md): the default method holds a mass ratio of 10²;
// beyond it, and in the other methods, the stacks sink (the 10³ in every method and 10⁴ in
// the default and exact methods are not met yet).
#include <carom/scene.h>
#include <carom/world.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

namespace {

struct Settled {
    double deepest, atEnd, heavyY, slop;
};

Settled settle(const std::string& name, carom::Method m) {
    carom::Scene s = carom::loadScene(std::string(CAROM_TEST_DIR) + "/heavy-stacks/" + name);
    s.settings.method = m;
    carom::World w = carom::buildWorld(s);
    double deepest = 0;
    for (int i = 0; i < 600; ++i) { // 10 s at 60 steps a second
        w.step();
        deepest = std::max(deepest, w.diagnostics().maxDepth);
    }
    return {deepest, w.diagnostics().maxDepth, w.bodies().back().xf().p.y, w.settings().linearSlop};
}

// 10² kg on one box and on nine, default method: within the slop after 10 s, the heavy box at its
// height within a slop a box (measured: 0.5 mm and 3.2 mm deepest on one; 3.7 mm at the end on
// nine).
TEST(HeavyStack, HoldsAMassRatioOf100InTheDefaultMethod) {
    for (const int n : {1, 9}) {
        const Settled r =
            settle("heavy-1e2-on-" + std::to_string(n) + ".json", carom::Method::ImpulseProjection);
        EXPECT_LE(r.atEnd, r.slop) << n;
        EXPECT_NEAR(r.heavyY, n + 0.5, (n + 1) * r.slop) << n;
    }
}

// Past the limit the overlap says so: 10³ kg on one box sinks beyond the slop in the default method
// (its contacts' springs, of stiffness m_eff ω² with m_eff the light box's mass, give under the
// heavy box's weight: M g / (m ω²) = 1.7 cm at 120 Hz), which `carom-cli run` reports as sinking.
TEST(HeavyStack, PastTheLimitTheOverlapShowsIt) {
    const Settled r = settle("heavy-1e3-on-1.json", carom::Method::ImpulseProjection);
    EXPECT_GT(r.atEnd, r.slop);
    EXPECT_NEAR(r.atEnd, 1e3 * 9.81 / std::pow(2 * M_PI * 120, 2), 1e-3);
}

} // namespace
