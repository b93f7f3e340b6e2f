// The stats box's collision lines (src/app/collision_readout.h), issue 44 item 7: after a step back
// to a moment with collisions before it and none between, the box says "none since" that moment,
// not "no collision yet" beside "4 in all"; back at the start it says "no collision yet".
#include "collision_readout.h"

#include "carom/scene.h"
#include <gtest/gtest.h>
#include <string>

TEST(CollisionReadout, AStepBackSaysNoneSinceThenNotNoCollisionYet) {
    app::Session s;
    app::replaceScene(
        s, carom::loadScene(std::string(CAROM_ASSET_DIR) + "/scenes/rigid-body-collisions.json"),
        "");
    app::CollisionReadout r;
    app::noteCollisions(r, s);
    EXPECT_EQ(app::collisionLines(r, s.world.diagnostics())[0], "no collision yet");
    // On until a collision, and 300 steps more, which see later ones.
    for (int i = 0; i < 3000 && s.world.diagnostics().totalCollisions == 0; ++i) {
        app::stepSession(s);
        app::noteCollisions(r, s);
    }
    ASSERT_GT(s.world.diagnostics().totalCollisions, 0u) << "no collision in 3000 steps";
    const std::uint64_t first = s.world.stepCount();
    const double firstTime = s.world.time();
    for (int i = 0; i < 300; ++i) {
        app::stepSession(s);
        app::noteCollisions(r, s);
    }
    EXPECT_EQ(app::collisionLines(r, s.world.diagnostics())[0].rfind("last ", 0), 0u);
    ASSERT_GT(r.lastTime, firstTime + 0.1) << "no later collision";
    // Back to just after the first collision: the world has counted it, and none since.
    app::seek(s, first + 1);
    app::noteCollisions(r, s);
    ASSERT_GT(s.world.diagnostics().totalCollisions, 0u);
    const auto lines = app::collisionLines(r, s.world.diagnostics());
    char since[64];
    std::snprintf(since, sizeof since, "none since %.2f s", s.world.time());
    EXPECT_EQ(lines[0], since);
    EXPECT_EQ(lines[1].rfind("mean dE per collision", 0), 0u) << lines[1];
    // Back to the start: nothing has collided there.
    app::seek(s, s.history.first());
    app::noteCollisions(r, s);
    EXPECT_EQ(app::collisionLines(r, s.world.diagnostics())[0], "no collision yet");
    EXPECT_EQ(app::collisionLines(r, s.world.diagnostics())[1], " ");
}
