// The graphs' data and ranges without a window: a range that follows the data both ways, equal
// scales, one axis per unit, and edits made while paused reaching the last sample.
#include "plot_lines.h"
#include "plots.h"
#include "session.h"

#include "carom/scene.h"
#include <algorithm>
#include <cmath>
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

// Issue 44, item 7: in a scene of soft bodies only there is no block1 (nor any rigid body) for
// the X-Y graph's default block1.x against block1.vx: it shows kinetic against potential energy,
// and a time graph series of a body the default series of its place; both record.
TEST(Plots, ASoftSceneGraphsEnergiesInsteadOfAMissingBlock1) {
    carom::World w = carom::buildWorld(
        carom::loadScene(std::string(CAROM_ASSET_DIR) + "/scenes/soft-jelly-drop.json"));
    ASSERT_FALSE(w.findBody("block1"));
    app::PlotState p;
    p.time.names = {"kinetic energy", "block1.x", "total energy"};
    auto sample = [&] { return app::Sample{w.time(), carom::measure(w), 0}; };
    app::updatePlots(p, w, 1, sample());
    w.step();
    app::updatePlots(p, w, 1, sample());
    EXPECT_EQ(p.xy.xName, "kinetic energy");
    EXPECT_EQ(p.xy.yName, "potential energy");
    EXPECT_TRUE(p.xy.valid);
    EXPECT_EQ(p.xy.xs.size(), 2u);
    EXPECT_EQ(p.time.names[1], "potential energy");
    EXPECT_TRUE(p.time.valid[1]);
}

// Issue 44, item 7: a time graph series picked after 200 steps starts filled from the history,
// as if recorded all along: a sample a step from the start, block1's x at each equal to what the
// run had then.
TEST(Plots, ANewTimeSeriesIsFilledFromTheHistory) {
    app::Session s;
    app::replaceScene(
        s, carom::loadScene(std::string(CAROM_ASSET_DIR) + "/scenes/rigid-body-collisions.json"),
        "");
    const carom::BodyId id = *s.world.findBody("block1");
    std::vector<double> xs{s.world.body(id).xf().p.x};
    for (int i = 0; i < 200; ++i) {
        app::stepSession(s);
        xs.push_back(s.world.body(id).xf().p.x);
    }
    app::PlotState p;
    app::updatePlots(p, s.world, s.generation, {s.world.time(), carom::measure(s.world), 0});
    p.time.names[0] = "block1.x"; // as the combo does
    ASSERT_TRUE(app::parseVariable(p.time.names[0], s.world, p.time.vars[0]));
    app::refillTimeGraph(p, s.history, s.world, 0, 100000);
    ASSERT_EQ(p.time.t.size(), xs.size());
    for (std::size_t k = 0; k < xs.size(); ++k)
        EXPECT_EQ(p.time.y[0][k], xs[k]) << k;
    EXPECT_EQ(p.time.t.back(), s.world.time());
    // At most maxSteps back: the last 50 steps and the moment before them.
    app::refillTimeGraph(p, s.history, s.world, 0, 50);
    ASSERT_EQ(p.time.t.size(), 51u);
    EXPECT_EQ(p.time.y[0].front(), xs[150]);
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

// The graphs' lines keep only the points that can be seen (plot_lines.h).
namespace {
// The distance from p to the segment a b.
float distanceTo(app::Pixel p, app::Pixel a, app::Pixel b) {
    const double dx = b.x - a.x, dy = b.y - a.y, l2 = dx * dx + dy * dy;
    double t = l2 > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / l2 : 0;
    t = std::clamp(t, 0.0, 1.0);
    return float(std::hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy)));
}
} // namespace

TEST(PlotLines, AStraightLineIsItsTwoEnds) {
    std::vector<app::Pixel> line;
    for (int i = 0; i <= 1000; ++i)
        line.push_back({0.5f * i, 3 + 0.25f * i});
    const std::vector<app::Pixel> s = app::simplified(line, 0.25f);
    ASSERT_EQ(s.size(), 2u);
    EXPECT_EQ(s.front().x, line.front().x);
    EXPECT_EQ(s.back().y, line.back().y);
}

TEST(PlotLines, CornersFartherThanTheToleranceStay) {
    // A zigzag of 2 px teeth, a pixel apart: every point is a corner 2 px off its neighbours' line.
    std::vector<app::Pixel> line;
    for (int i = 0; i < 50; ++i)
        line.push_back({float(i), i % 2 ? 2.0f : 0.0f});
    EXPECT_EQ(app::simplified(line, 0.25f).size(), line.size());
}

TEST(PlotLines, EveryPointLeftOutIsWithinTheToleranceOfTheLineDrawn) {
    // A noisy curve, as a graph of a bouncing body's energy is: each original point lies within
    // the tolerance of the segment between the kept points around it.
    std::vector<app::Pixel> line;
    unsigned r = 12345;
    for (int i = 0; i < 2000; ++i) {
        r = r * 1103515245u + 12345u;
        const float noise = float((r >> 16) % 1000) / 1000.0f - 0.5f;
        line.push_back({0.3f * i, 40 * std::sin(0.01f * i) + 0.8f * noise});
    }
    const float tolerance = 0.25f;
    const std::vector<app::Pixel> s = app::simplified(line, tolerance);
    EXPECT_LT(s.size(), line.size());
    std::size_t k = 0; // the kept segment s[k] s[k + 1] spans the original point i
    for (std::size_t i = 0; i < line.size(); ++i) {
        while (k + 1 < s.size() && line[i].x > s[k + 1].x)
            ++k;
        ASSERT_LT(k + 1, s.size());
        EXPECT_LE(distanceTo(line[i], s[k], s[k + 1]), tolerance + 1e-4f) << "point " << i;
    }
}

// issue 44 (the time graph's cursor): on samples of y = 2t + 1 and y = t² every 0.01 s the cursor
// reads the values and slopes of the lines drawn between samples, and the area under them: exact
// for the straight line (t² + t), and for the parabola the secant's slope at the middle of two
// samples is the derivative 2t, the area t³/3 within the trapezoids' h²/12 · (b − a) · y''.
TEST(Plots, TheTimeGraphsCursorReadsValueSlopeAndArea) {
    app::TimeGraph g;
    for (int k = 0; k <= 300; ++k) {
        const double t = 0.01 * k;
        g.t.push_back(t);
        g.y[0].push_back(2 * t + 1);
        g.y[1].push_back(t * t);
        g.y[2].push_back(0);
    }
    app::CursorReading r;
    ASSERT_TRUE(app::readTimeGraph(g, 0, 1.234, 0, r));
    EXPECT_NEAR(r.value, 3.468, 1e-12);
    EXPECT_NEAR(r.slope, 2, 1e-9);
    EXPECT_NEAR(r.area, 1.234 * 1.234 + 1.234, 1e-12);
    EXPECT_EQ(r.from, 0);
    ASSERT_TRUE(app::readTimeGraph(g, 0, 2, 1, r)); // from 1 s: (4 + 2) − (1 + 1)
    EXPECT_NEAR(r.area, 4, 1e-12);
    EXPECT_NEAR(r.from, 1, 1e-12);
    ASSERT_TRUE(app::readTimeGraph(g, 1, 1.505, 0, r));
    EXPECT_NEAR(r.slope, 2 * 1.505, 1e-9);
    EXPECT_NEAR(r.value, (1.5 * 1.5 + 1.51 * 1.51) / 2, 1e-12);
    EXPECT_NEAR(r.area, std::pow(1.505, 3) / 3, 0.01 * 0.01 / 12 * 1.505 * 2 * 1.01);
    ASSERT_TRUE(app::readTimeGraph(g, 0, 3, 0, r)); // the last sample itself
    EXPECT_NEAR(r.value, 7, 1e-12);
    EXPECT_FALSE(app::readTimeGraph(g, 0, 3.5, 0, r)); // after the samples
    EXPECT_FALSE(app::readTimeGraph(g, 0, 0.5, 1, r)); // before `from`
}
