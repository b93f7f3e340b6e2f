// The broad phase (src/physics/collision/broad_phase.cpp) against the answer by definition: every
// pair of bodies, one of them moving, whose boxes grown by their margins overlap, compared two by
// two. Its fat boxes are kept from call to call, so the bodies move between calls (a little,
// staying inside them, and far, leaving them), the margins change, and worlds of other sizes come
// between.
#include "collision/broad_phase.h" // internal to the engine: carom_physics_internal (CMakeLists.txt)

#include <gtest/gtest.h>

#include <random>
#include <vector>

using namespace carom;

namespace {

std::vector<BodyPair> byDefinition(const std::vector<Body>& bodies,
                                   const std::vector<double>& margins) {
    std::vector<BodyPair> pairs;
    for (BodyId a = 0; a < bodies.size(); ++a)
        for (BodyId b = a + 1; b < bodies.size(); ++b) {
            if (!bodies[a].isDynamic() && !bodies[b].isDynamic()) continue;
            const Aabb A = boundingBox(bodies[a], margins[a]);
            const Aabb B = boundingBox(bodies[b], margins[b]);
            if (A.lo.x <= B.hi.x && B.lo.x <= A.hi.x && A.lo.y <= B.hi.y && B.lo.y <= A.hi.y)
                pairs.push_back(BodyPair{a, b});
        }
    return pairs;
}

void expectSame(const std::vector<BodyPair>& expected, const std::vector<BodyPair>& found) {
    ASSERT_EQ(expected.size(), found.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        EXPECT_EQ(expected[i].a, found[i].a);
        EXPECT_EQ(expected[i].b, found[i].b);
    }
}

std::vector<Body> randomBodies(std::mt19937& rng, std::size_t n) {
    std::uniform_real_distribution<double> at(-10, 10), size(0.1, 2), turn(-3.2, 3.2);
    std::vector<Body> bodies;
    for (std::size_t i = 0; i < n; ++i) {
        Body b;
        b.setShape(i % 3 == 0 ? Shape::circle(size(rng) / 2) : Shape::box(size(rng), size(rng)));
        b.setPose({at(rng), at(rng)}, turn(rng));
        if (i % 7 == 0) b.type = BodyType::Static;
        bodies.push_back(b);
    }
    return bodies;
}

} // namespace

TEST(BroadPhase, FindsExactlyThePairsWhoseBoxesOverlapAsBodiesMove) {
    std::mt19937 rng(7);
    std::vector<Body> bodies = randomBodies(rng, 300), others = randomBodies(rng, 40);
    std::uniform_real_distribution<double> nudge(-0.005, 0.005), jump(-3, 3), margin(0, 0.01);
    std::vector<BodyPair> pairs;
    std::vector<double> margins(bodies.size());
    for (int call = 0; call < 60; ++call) {
        for (std::size_t i = 0; i < bodies.size(); ++i) {
            Body& b = bodies[i];
            if (!b.isDynamic()) continue;
            // Most calls, every body stays within its fat box; every fifth, a few leave theirs.
            const bool far = call % 5 == 4 && i % 50 == 1;
            b.setPose(b.xf().p + (far ? Vec2{jump(rng), jump(rng)} : Vec2{nudge(rng), nudge(rng)}),
                      b.angle() + nudge(rng));
        }
        if (call % 20 == 0) // new margins now and then
            for (double& m : margins)
                m = margin(rng);
        findPairs(bodies, margins, pairs);
        expectSame(byDefinition(bodies, margins), pairs);
        if (call % 10 == 9) { // another world in between
            const std::vector<double> small(others.size(), 0.01);
            findPairs(others, small, pairs);
            expectSame(byDefinition(others, small), pairs);
        }
    }
}

TEST(BroadPhase, ABodyMadeToMoveInPlaceMeetsTheStaticBodiesItTouches) {
    Body ground;
    ground.setShape(Shape::box(10, 1));
    ground.type = BodyType::Static;
    Body block = ground;
    block.setShape(Shape::box(1, 1));
    block.setPose({0, 1}, 0);
    const std::vector<double> margins{0.01, 0.01};
    std::vector<Body> bodies{ground, block};
    std::vector<BodyPair> pairs;
    findPairs(bodies, margins, pairs);
    EXPECT_TRUE(pairs.empty()); // both static: nothing to report
    bodies[1].type = BodyType::Dynamic;
    findPairs(bodies, margins, pairs); // not moved: the fat boxes still hold
    expectSame({BodyPair{0, 1}}, pairs);
}
