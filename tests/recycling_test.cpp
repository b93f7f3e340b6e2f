// Contact recycling (src/physics/collision/contacts.cpp): the default method keeps a pair's
// manifold, carried by its bodies, while they have barely moved relative to each other since the
// narrow phase found it. Checked against answers known in advance: the narrow phase itself where
// the carried manifold must be exact (a rigid motion of both bodies together), the geometry of a
// box slid or lifted on another, and a fresh narrow phase wherever recycling must not apply.
#include "carom/scene.h"
#include "step/step_context.h" // internal to the engine: carom_physics_internal (CMakeLists.txt)

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

using namespace carom;

namespace {

constexpr double kH = 1.0 / 60;

// A 2 m x 1 m box A at the origin, and a box B of side `side` (1 m) on top of it, sunk 1 mm into
// it (both dynamic, at rest), and the manifolds between them found with recycling.
struct Pair {
    WorldSettings settings;
    std::vector<Body> bodies;
    std::vector<Thruster> thrusters;
    std::optional<MouseSpring> spring;
    std::vector<Manifold> contacts;
    std::vector<Motion> motion{2};
    std::vector<ContactEvent> events;
    Diagnostics diagnostics;
    std::vector<FoundAt> found;

    explicit Pair(double side = 1) {
        World w(settings);
        BodyDef a;
        a.shape = Shape::box(2, 1);
        w.addBody(a);
        BodyDef b;
        b.shape = Shape::box(side, side);
        b.position = {0.2, 0.5 + 0.5 * side - 0.001};
        w.addBody(b);
        bodies = w.bodies();
    }
    StepContext context() {
        return StepContext{settings, bodies, thrusters,   spring, contacts,
                           motion,   events, diagnostics, kH};
    }
    std::vector<double> margins() const { // as updateContacts: at rest, the linear slop
        return std::vector<double>(bodies.size(), settings.linearSlop);
    }
    std::vector<Manifold> recycled() {
        const StepContext c = context();
        return findManifolds(c, margins(), &found);
    }
    std::vector<Manifold> fresh() {
        const StepContext c = context();
        return findManifolds(c, margins());
    }
    void move(BodyId id, Vec2 by, double turn = 0) {
        Body& b = bodies[id];
        b.setPose(b.xf().p + by, b.angle() + turn);
    }
};

void expectSame(const Manifold& expected, const Manifold& got, double tolerance) {
    ASSERT_EQ(expected.count, got.count);
    EXPECT_NEAR(expected.normal.x, got.normal.x, tolerance);
    EXPECT_NEAR(expected.normal.y, got.normal.y, tolerance);
    for (int i = 0; i < expected.count; ++i) {
        EXPECT_EQ(expected.points[i].id, got.points[i].id);
        EXPECT_NEAR(expected.points[i].point.x, got.points[i].point.x, tolerance);
        EXPECT_NEAR(expected.points[i].point.y, got.points[i].point.y, tolerance);
        EXPECT_NEAR(expected.points[i].depth, got.points[i].depth, tolerance);
    }
}

} // namespace

// Moved and turned together, the two bodies meet as they did: the narrow phase is the same in any
// frame, so the carried manifold is the one it finds, to round-off.
TEST(Recycling, BothBodiesMovedTogetherKeepTheirManifoldExactly) {
    Pair p;
    ASSERT_EQ(p.recycled().size(), 1u);
    const Rot turn(0.7);
    for (Body& b : p.bodies)
        b.setPose(Vec2{5, -3} + turn.apply(b.xf().p), b.angle() + 0.7);
    const std::vector<Manifold> kept = p.recycled(), found = p.fresh();
    ASSERT_EQ(kept.size(), 1u);
    ASSERT_EQ(found.size(), 1u);
    expectSame(found[0], kept[0], 1e-12);
    EXPECT_NEAR(kept[0].points[0].depth, 0.001, 1e-12);
}

// B slid 2 mm along A's top face: its corners are where they were on it, 2 mm along, and as deep;
// each point midway between its place on A (which stays) and on B (which moves): 1 mm along.
// B lifted 0.4 mm: each point 0.4 mm less deep.
TEST(Recycling, APointIsCarriedByBothBodies) {
    Pair p;
    const std::vector<Manifold> before = p.recycled();
    ASSERT_EQ(before.size(), 1u);
    ASSERT_EQ(before[0].count, 2);
    p.move(1, {0.002, 0});
    std::vector<Manifold> slid = p.recycled();
    ASSERT_EQ(slid.size(), 1u);
    for (int i = 0; i < 2; ++i) {
        EXPECT_NEAR(slid[0].points[i].depth, before[0].points[i].depth, 1e-12);
        EXPECT_NEAR(slid[0].points[i].point.x, before[0].points[i].point.x + 0.001, 1e-12);
    }
    p.move(1, {0, 0.0004});
    const std::vector<Manifold> lifted = p.recycled();
    ASSERT_EQ(lifted.size(), 1u);
    for (int i = 0; i < 2; ++i)
        EXPECT_NEAR(lifted[0].points[i].depth, before[0].points[i].depth - 0.0004, 1e-12);
}

// Farther than the linear slop (5 mm) from where it was found, the pair is found anew.
TEST(Recycling, APairThatDriftedPastTheSlopIsFoundAnew) {
    Pair p;
    ASSERT_EQ(p.recycled().size(), 1u);
    p.move(1, {0.004, 0}); // within the slop: kept
    p.recycled();
    p.move(1, {0.0015, 0}); // 5.5 mm in all, from where it was found: not kept
    const std::vector<Manifold> now = p.recycled(), found = p.fresh();
    ASSERT_EQ(found.size(), 1u);
    expectSame(found[0], now[0], 0);
    EXPECT_NEAR(p.found[0].position.x, 0.2055, 1e-12); // where it was found again
    // Turned by 5 mm at B's corners (its bounding radius √½ m): found anew too.
    p.move(1, {0, 0}, 0.0051 / std::sqrt(0.5));
    const std::vector<Manifold> turned = p.recycled();
    expectSame(p.fresh()[0], turned[0], 0);
}

// A 2 cm box keeps its manifold only while it drifts less than a tenth of its inner radius (1 mm),
// not the slop (5 mm, a quarter of its width).
TEST(Recycling, ASmallBodyIsFoundAnewSooner) {
    Pair p(0.02);
    ASSERT_EQ(p.recycled().size(), 1u);
    p.move(1, {0.0009, 0});
    p.recycled();
    EXPECT_EQ(p.found[0].position.x, 0.2); // kept: found where it was
    p.move(1, {0.0002, 0});
    const std::vector<Manifold> now = p.recycled();
    EXPECT_NEAR(p.found[0].position.x, 0.2011, 1e-12); // 1.1 mm: found anew
    expectSame(p.fresh()[0], now[0], 0);
}

// B tilted on one corner, its other corner 11.5 mm above A's face: beyond the margin (twice the
// slop, 1 cm) at rest, so the narrow phase leaves it out. Turning towards A so that the corner
// comes down about 17 mm in the step, the pair is found anew, with both corners, though B has not
// moved yet.
TEST(Recycling, NoPointLeftOutCanTouchInTheStep) {
    Pair p;
    Body& b = p.bodies[1];
    const double tilt = std::asin(0.012); // the 1 m box's far corner 12 mm above its near one
    b.setPose({0.2, 0.5 - 0.0005 + 0.5 * std::cos(tilt) + 0.5 * std::sin(tilt)}, tilt);
    const std::vector<Manifold> resting = p.recycled();
    ASSERT_EQ(resting.size(), 1u);
    ASSERT_EQ(resting[0].count, 1);
    b.w = -2; // the far corner, 0.5 m from the centre along the face, comes down at 1 m/s
    std::vector<double> margins = p.margins();
    margins[1] += 2 * std::sqrt(0.5) * kH; // updateContacts': the sweep of B's farthest point
    const StepContext c = p.context();
    const std::vector<Manifold> turning = findManifolds(c, margins, &p.found);
    ASSERT_EQ(turning.size(), 1u);
    EXPECT_EQ(turning[0].count, 2);
    expectSame(findManifolds(c, margins)[0], turning[0], 0);
}

// A saved world's records are kept where the narrow phase finds them again, and only there.
TEST(Recycling, ASavedRecordIsKeptOnlyWhereTheNarrowPhaseFindsItAgain) {
    Scene scene = loadScene(CAROM_ASSET_DIR "/scenes/box-stack.json");
    World w = buildWorld(scene);
    for (int i = 0; i < 60; ++i)
        w.step();
    const std::vector<FoundAt> found = w.found();
    ASSERT_FALSE(found.empty());
    Scene saved = parseScene(serializeScene(captureScene(w, "s")), "s.json");
    ASSERT_EQ(saved.found.size(), found.size());
    World loaded = buildWorld(saved);
    ASSERT_EQ(loaded.found().size(), found.size()); // every record, to the bit
    for (std::size_t i = 0; i < found.size(); ++i) {
        EXPECT_EQ(loaded.found()[i].position, found[i].position);
        EXPECT_EQ(loaded.found()[i].onB[0], found[i].onB[0]);
    }
    // One record's point moved 1 cm along B's face, and a box made narrower by hand: those records
    // dropped, the others kept.
    saved.found[0].onB[0].x += 0.01;
    const BodyId narrowed = saved.found[0].b + 1; // the box on the one whose record was moved
    ASSERT_LT(narrowed, saved.bodies.size());
    saved.bodies[narrowed].shape = Shape::box(0.8, 1);
    World edited = buildWorld(saved);
    std::size_t expected = 0;
    for (const FoundAt& f : found) {
        const bool dropped =
            (f.a == found[0].a && f.b == found[0].b) || f.a == narrowed || f.b == narrowed;
        expected += !dropped;
    }
    EXPECT_EQ(edited.found().size(), expected);
    EXPECT_LT(expected, found.size() - 1);
    for (const FoundAt& f : edited.found()) {
        EXPECT_FALSE(f.a == found[0].a && f.b == found[0].b);
        EXPECT_TRUE(f.a != narrowed && f.b != narrowed);
    }
}
