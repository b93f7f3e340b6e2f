// Capsules and segments in a world, in every method: answers known in advance (a body at rest on
// the ground stands its radius above it, within the solver's slop; a capsule's mass is its density
// times its area), and the refusals.
#include "carom/world.h"
#include "guard_check.h"
#include "test_worlds.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

using namespace carom;
using namespace carom::test;

namespace {

BodyDef segmentGround(Vec2 a, Vec2 b) {
    BodyDef d;
    d.name = "ground";
    d.type = BodyType::Static;
    d.shape = Shape::segment(a, b);
    return d;
}

BodyDef capsule(const char* name, Vec2 p, double angle, double length, double radius) {
    BodyDef d;
    d.name = name;
    d.shape = Shape::capsule(length, radius);
    d.position = p;
    d.angle = angle;
    d.density = 1;
    return d;
}

WorldSettings underGravity(Method method) {
    WorldSettings s;
    s.method = method;
    s.gravity = {0, -9.81};
    s.restitution = 0;
    s.friction = 0.6;
    return s;
}

// How deep a body may rest in what it lies on: the slop the solvers leave; the projection method's
// position passes leave a loaded contact a little beyond it (a box under the same load as in
// BodiesOnACapsuleOnASegment sinks as far), and the penalty method's springs, of finite stiffness,
// farther.
double allowedSink(const World& w) {
    const double slop = w.settings().linearSlop;
    switch (w.settings().method) {
    case Method::Penalty:
        return 4 * slop;
    case Method::Projection:
        return 2 * slop;
    default:
        return slop;
    }
}

class CapsuleAtRest : public ::testing::TestWithParam<Method> {};

// A level capsule (L = 1, r = 0.25) dropped 0.1 onto a segment lies on it: its centre ends r above
// the segment, within the slop, level and still.
TEST_P(CapsuleAtRest, LyingOnASegmentStaysOnIt) {
    World w(underGravity(GetParam()));
    w.addBody(segmentGround({-5, 0}, {5, 0}));
    const BodyId c = w.addBody(capsule("capsule", {0.3, 0.35}, 0, 1, 0.25));
    for (int i = 0; i < 180; ++i)
        w.step();
    const Body& b = w.body(c);
    EXPECT_GT(b.xf().p.y, 0.25 - allowedSink(w) - 1e-9);
    EXPECT_LT(b.xf().p.y, 0.25 + w.settings().linearSlop);
    EXPECT_NEAR(0.3, b.xf().p.x, 1e-3);
    EXPECT_NEAR(0, b.angle(), 1e-3);
    EXPECT_LT(glm::length(b.v), 1e-2);
}

// Standing on one end on a static box, a capsule falls over, then lies on it.
TEST_P(CapsuleAtRest, StandingOnItsEndFallsOverAndLiesOnABox) {
    World w(underGravity(GetParam()));
    w.addBody(ground({0, -1}, 20, 2)); // top at 0
    const BodyId c = w.addBody(capsule("capsule", {0, 0.75 + 0.01}, M_PI / 2 - 0.05, 1, 0.25));
    for (int i = 0; i < 600; ++i)
        w.step();
    const Body& b = w.body(c);
    EXPECT_GT(b.xf().p.y, 0.25 - allowedSink(w) - 1e-9);
    EXPECT_LT(b.xf().p.y, 0.25 + w.settings().linearSlop);
    EXPECT_NEAR(0, std::sin(b.angle()), 1e-2); // level
}

// Circles, boxes and capsules dropped on a capsule lying on a segment all come to rest on it.
TEST_P(CapsuleAtRest, BodiesOnACapsuleOnASegment) {
    World w(underGravity(GetParam()));
    w.addBody(segmentGround({-5, 0}, {5, 0}));
    const BodyId base = w.addBody(capsule("base", {0, 0.25}, 0, 3, 0.25));
    const BodyId ball = w.addBody(circle("ball", {-1, 0.8}, 0.25, 1));
    const BodyId crate = w.addBody(box("crate", {0, 0.8}, 0.5, 0.5, 1));
    const BodyId top = w.addBody(capsule("top", {1.1, 0.8}, 0, 0.6, 0.2));
    for (int i = 0; i < 300; ++i)
        w.step();
    // Each contact within the slop: the base's centre r = 0.25 above the segment, and on its top
    // surface (0.25 above its centre) the crate's centre 0.25 and the top capsule's 0.2 above it.
    // The ball rolls off onto the segment.
    const double sink = allowedSink(w) + 1e-9, slop = w.settings().linearSlop;
    const double baseY = w.body(base).xf().p.y;
    EXPECT_GT(baseY, 0.25 - sink);
    EXPECT_LT(baseY, 0.25 + slop);
    EXPECT_GT(w.body(ball).xf().p.y, 0.25 - sink);
    EXPECT_NEAR(0.5 - sink / 2 + slop / 2, w.body(crate).xf().p.y - baseY, (sink + slop) / 2);
    EXPECT_NEAR(0.45 - sink / 2 + slop / 2, w.body(top).xf().p.y - baseY, (sink + slop) / 2);
}

INSTANTIATE_TEST_SUITE_P(Methods, CapsuleAtRest, ::testing::ValuesIn(allMethods()),
                         [](const auto& info) { return testName(info.param); });

class ThinSegment : public ::testing::TestWithParam<Method> {};

// A small ball and a thin capsule fired at 40 m/s at a segment (which has no thickness) never get
// to its far side, in every method: the contacts, or the continuous check, stop them on it.
TEST_P(ThinSegment, FastBodiesDoNotPassThrough) {
    // Guards expected: the continuous check (stopAtStaticBodies) is what holds its fast bodies.
    const carom_test::ExpectGuards expected;
    WorldSettings s;
    s.method = GetParam();
    s.restitution = 0.5;
    World w(s);
    w.addBody(segmentGround({0, -2}, {0, 2})); // the line x = 0
    BodyDef ball = circle("ball", {-1, 0.3}, 0.05, 0.1, {40, 0});
    const BodyId b = w.addBody(ball);
    BodyDef rod = capsule("rod", {-1.5, -0.5}, 0.3, 0.6, 0.03);
    rod.velocity = {40, 1};
    rod.angularVelocity = 20;
    const BodyId c = w.addBody(rod);
    for (int i = 0; i < 60; ++i) {
        w.step();
        ASSERT_LT(w.body(b).xf().p.x, 0) << "step " << i;
        ASSERT_LT(w.body(c).xf().p.x, 0) << "step " << i;
    }
}

INSTANTIATE_TEST_SUITE_P(Methods, ThinSegment, ::testing::ValuesIn(allMethods()),
                         [](const auto& info) { return testName(info.param); });

TEST(CapsuleBody, MassIsDensityTimesArea) {
    World w;
    BodyDef d = capsule("c", {0, 0}, 0, 2, 0.5);
    d.density = 3;
    const Body& b = w.body(w.addBody(d));
    const double area = 2 + M_PI / 4; // 2 r L + π r²
    EXPECT_NEAR(3 * area, b.mass, 1e-12);
    EXPECT_NEAR(b.mass * Shape::capsule(2, 0.5).massProperties().inertiaPerMass, b.inertia, 1e-12);
}

TEST(SegmentBody, RefusedOnADynamicOrKinematicBody) {
    World w;
    BodyDef d = segmentGround({0, 0}, {1, 0});
    d.type = BodyType::Dynamic;
    EXPECT_THROW(w.addBody(d), std::invalid_argument);
    d.type = BodyType::Kinematic;
    EXPECT_THROW(w.addBody(d), std::invalid_argument);
    EXPECT_TRUE(w.bodies().empty());
}

TEST(CapsuleBody, PickedByTheMouseOnItsRoundedEnds) {
    World w;
    const BodyId c = w.addBody(capsule("c", {0, 0}, M_PI / 2, 2, 0.5)); // core (0, −1) to (0, 1)
    EXPECT_EQ(c, w.bodyAt({0.1, 1.4}));                                 // in the upper cap
    EXPECT_FALSE(w.bodyAt({0.45, 1.4})); // beside it: 0.6 from the end's centre
    const auto hit = w.bodyNear({0, 2}, 1);
    ASSERT_TRUE(hit);
    EXPECT_NEAR(0.5, hit->distance, 1e-12); // the cap's top is (0, 1.5)
    EXPECT_NEAR(1.5, hit->point.y, 1e-12);
}

} // namespace
