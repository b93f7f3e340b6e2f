// The graphs' data and ranges without a window: a range that follows the data both ways, equal
// scales, one axis per unit, and edits made while paused reaching the last sample.
#include "plots.h"

#include "carom/scene.h"
#include <gtest/gtest.h>

using app::Range;

TEST(PlotRange, FollowsTheDataOutAndBackIn) {
    Range r;
    app::followRange(r, 0, 9.3);
    EXPECT_LE(r.lo, 0);
    EXPECT_GE(r.hi, 9.3);
    EXPECT_LT(r.hi, 12);
    const Range before = r;
    app::followRange(r, 1, 8); // inside and filling most of it: no change, no flicker
    EXPECT_EQ(r.lo, before.lo);
    EXPECT_EQ(r.hi, before.hi);
    app::followRange(r, -40, 5); // out: grows at once
    EXPECT_LE(r.lo, -40);
    app::followRange(r, 2, 3); // a small part of it: shrinks
    EXPECT_GE(r.lo, 2 - 1e-12);
    EXPECT_LE(r.hi, 3.5);
    app::followRange(r, 2.5, 2.5); // a flat line stays put
    const Range flat = r;
    app::followRange(r, 2.5, 2.5);
    EXPECT_EQ(r.lo, flat.lo);
    EXPECT_EQ(r.hi, flat.hi);
}

TEST(PlotRange, EqualScalesKeepACircleRound) {
    Range x{0, 10}, y{0, 1};
    app::equalScales(x, y, 400, 200); // 0.025 m/px across, 0.005 up: y widens
    EXPECT_DOUBLE_EQ((x.hi - x.lo) / 400, (y.hi - y.lo) / 200);
    EXPECT_DOUBLE_EQ(x.lo, 0);
    EXPECT_DOUBLE_EQ((y.lo + y.hi) / 2, 0.5); // about its middle
}

TEST(PlotRange, OneAxisPerUnit) {
    using app::Axis;
    const auto a = app::assignAxes<3>({"J", "m/s", "J"}, {true, true, true});
    EXPECT_EQ(a[0], Axis::Left);
    EXPECT_EQ(a[1], Axis::Right);
    EXPECT_EQ(a[2], Axis::Left);
    const auto b = app::assignAxes<3>({"J", "m/s", "rad"}, {true, true, true});
    EXPECT_EQ(b[2], Axis::Scaled);
    const auto c = app::assignAxes<3>({"", "m", "rad"}, {false, true, true});
    EXPECT_EQ(c[1], Axis::Left);
    EXPECT_EQ(c[2], Axis::Right);
}

TEST(Plots, EditsWhilePausedReachTheLastSample) {
    carom::World w = carom::buildWorld(
        carom::loadScene(std::string(CAROM_ASSET_DIR) + "/scenes/rigid-body-collisions.json"));
    app::PlotState p;
    p.time.names = {"block1.x", "kinetic energy", "total energy"};
    p.xy.xName = "block1.x";
    p.xy.yName = "block1.y";
    auto sample = [&] { return app::Sample{w.time(), carom::measure(w), 0}; };
    app::updatePlots(p, w, 1, sample());
    w.step();
    app::updatePlots(p, w, 1, sample());
    ASSERT_EQ(p.time.t.size(), 2u);
    const carom::BodyId id = *w.findBody("block1");
    w.setPosition(id, {2.5, 1.5}, 0); // paused: the time does not move
    app::updatePlots(p, w, 1, sample());
    EXPECT_EQ(p.time.t.size(), 2u);
    EXPECT_DOUBLE_EQ(p.time.y[0].back(), 2.5);
    ASSERT_EQ(p.xy.xs.size(), 2u);
    EXPECT_DOUBLE_EQ(p.xy.xs.back(), 2.5);
    EXPECT_DOUBLE_EQ(p.xy.ys.back(), 1.5);
}

TEST(Plots, XYRangeShrinksWithTheRecentPointsAndFitShowsThemAll) {
    app::XYGraph g;
    g.recent = 10;
    for (int k = 0; k < 10; ++k) { // a wide swing
        g.xs.push_back(k % 2 ? 100 : -100);
        g.ys.push_back(k % 2 ? 50 : -50);
    }
    app::updateXYRange(g);
    EXPECT_LE(g.shownX.lo, -100);
    for (int k = 0; k < 10; ++k) { // then small
        g.xs.push_back(k * 0.1);
        g.ys.push_back(k * 0.1);
    }
    app::updateXYRange(g);
    EXPECT_GE(g.shownX.lo, -0.5);
    EXPECT_LE(g.shownX.hi, 2);
    app::fitXYGraph(g);
    EXPECT_FALSE(g.follow);
    EXPECT_LE(g.shownX.lo, -100);
    EXPECT_GE(g.shownY.hi, 50);
    app::updateXYRange(g); // not following: stays
    EXPECT_LE(g.shownX.lo, -100);
}

TEST(Variables, EveryVariableHasAUnit) {
    carom::World w = carom::buildWorld(
        carom::loadScene(std::string(CAROM_ASSET_DIR) + "/scenes/rigid-body-collisions.json"));
    for (const app::Variable& v : app::allVariables(w))
        EXPECT_STRNE(app::unitOf(v), "") << app::nameOf(v, w);
    app::Variable v;
    ASSERT_TRUE(app::parseVariable("angular momentum", w, v));
    EXPECT_STREQ(app::unitOf(v), "kg m\u00b2/s");
    ASSERT_TRUE(app::parseVariable("block1.vx", w, v));
    EXPECT_STREQ(app::unitOf(v), "m/s");
}
