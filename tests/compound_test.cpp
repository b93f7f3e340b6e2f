// Compound bodies (several shapes in one body): mass, centre of mass and moment of inertia against
// the parallel-axis theorem worked by hand; a table standing on its two legs, each its own
// manifold, at rest in every method; momentum kept when a ball strikes a compound; picking; the
// refusals; and a saved compound world going on bit for bit.
#include "carom/scene.h"
#include "carom/world.h"
#include "test_worlds.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <stdexcept>

using namespace carom;
using namespace carom::test;

namespace {

BodyDef compound(const char* name, Vec2 p, std::vector<BodyShape> shapes) {
    BodyDef d;
    d.name = name;
    d.position = p;
    d.shapes = std::move(shapes);
    return d;
}

// A table 2.4 m wide: a top 2.4 x 0.2 m on two legs 0.2 x 1 m, 2 m apart (legs first).
std::vector<BodyShape> table() {
    return {BodyShape(Shape::box(0.2, 1), {-1, 0}, 0), BodyShape(Shape::box(0.2, 1), {1, 0}, 0),
            BodyShape(Shape::box(2.4, 0.2), {0, 0.6}, 0)};
}

const Method kMethods[] = {Method::ImpulseProjection, Method::Impulse, Method::Projection,
                           Method::Penalty};

} // namespace

// Two unit squares side by side are one box 2 x 1: mass 2 (density 1), I = m (w² + h²) / 12.
TEST(Compound, TwoSquaresSideBySideAreOneBox) {
    World w;
    const BodyId id = w.addBody(compound(
        "pair", {3, 4},
        {BodyShape(Shape::box(1, 1), {-0.5, 0}, 0), BodyShape(Shape::box(1, 1), {0.5, 0}, 0)}));
    const Body& b = w.body(id);
    EXPECT_DOUBLE_EQ(b.mass, 2);
    EXPECT_DOUBLE_EQ(b.inertia, 2 * (4.0 + 1.0) / 12);
    EXPECT_EQ(b.xf().p, Vec2(3, 4));
    EXPECT_TRUE(b.isCompound());
}

// The shapes are moved so that their centre of mass is the body's origin, which `position` places
// (as a polygon's vertices are moved to its centroid): squares of side 1 and 2 with their centres
// at x = 0 and x = 3 have their centre of mass at x = (1·0 + 4·3)/5 = 2.4.
TEST(Compound, ShapesAreMovedToTheirCentreOfMass) {
    World w;
    const BodyId id = w.addBody(
        compound("unequal", {0, 0},
                 {BodyShape(Shape::box(1, 1), {0, 0}, 0), BodyShape(Shape::box(2, 2), {3, 0}, 0)}));
    const Body& b = w.body(id);
    EXPECT_NEAR(b.shapes[0].offset.x, -2.4, 1e-12);
    EXPECT_NEAR(b.shapes[1].offset.x, 0.6, 1e-12);
    EXPECT_DOUBLE_EQ(b.mass, 5);
    // Parallel axes: Σ m_i ((w² + h²)/12 + d_i²) = 1 (2/12 + 2.4²) + 4 (8/12 + 0.6²).
    EXPECT_NEAR(b.inertia, 1 * (2.0 / 12 + 2.4 * 2.4) + 4 * (8.0 / 12 + 0.6 * 0.6), 1e-12);
}

// A dumbbell: balls of radius r at ±L on a rod a × t between them, mass given (scaled).
TEST(Compound, DumbbellByTheParallelAxisTheorem) {
    const double r = 0.5, L = 2, a = 3, t = 0.2, density = 7;
    BodyDef d =
        compound("dumbbell", {0, 0},
                 {BodyShape(Shape::circle(r), {-L, 0}, 0), BodyShape(Shape::circle(r), {L, 0}, 0),
                  BodyShape(Shape::box(a, t), {0, 0}, 0.0)});
    d.density = density;
    World w;
    const Body& b = w.body(w.addBody(d));
    const double ball = density * M_PI * r * r, rod = density * a * t;
    EXPECT_NEAR(b.mass, 2 * ball + rod, 1e-12);
    const double inertia = 2 * (ball * r * r / 2 + ball * L * L) + rod * (a * a + t * t) / 12;
    EXPECT_NEAR(b.inertia, inertia, 1e-12 * inertia);
    // A mass given scales it: the inertia per mass stays.
    BodyDef heavy = d;
    heavy.density.reset();
    heavy.mass = 100;
    heavy.name = "heavy";
    const Body& h = w.body(w.addBody(heavy));
    EXPECT_NEAR(h.inertia, 100 * inertia / (2 * ball + rod), 1e-10);
    // Turning a shape about its own centre changes nothing for a circle or a centred rod: the rod
    // turned a quarter is a rod t × a.
    BodyDef turned = d;
    turned.name = "turned";
    turned.shapes[2] = BodyShape(Shape::box(t, a), {0, 0}, M_PI / 2);
    EXPECT_NEAR(w.body(w.addBody(turned)).inertia, inertia, 1e-12 * inertia);
}

// A table dropped 1 cm onto the ground settles on its two legs: a manifold per leg, each with the
// leg's shape index, and it stays where it stands.
class CompoundAtRest : public ::testing::TestWithParam<Method> {};

TEST_P(CompoundAtRest, TableStandsOnItsTwoLegs) {
    WorldSettings s;
    s.method = GetParam();
    s.gravity = {0, -9.81};
    s.restitution = 0;
    s.friction = 0.6;
    World w(s);
    w.addBody(ground({0, -0.5}, 20, 1));
    // The centre of mass lies (0.48 · 0.6)/(0.4 + 0.48) above the legs' centres, whose feet are
    // 0.5 below them.
    const double above = 0.48 * 0.6 / 0.88 + 0.5;
    const BodyId id = w.addBody(compound("table", {0, above + 0.01}, table()));
    for (int i = 0; i < 180; ++i)
        w.step();
    const Vec2 settled = w.body(id).xf().p;
    for (int i = 0; i < 120; ++i)
        w.step();
    const Body& b = w.body(id);
    std::vector<std::uint32_t> legs;
    for (const Manifold& m : w.contacts()) {
        ASSERT_EQ(m.a, 0u);
        ASSERT_EQ(m.b, id);
        EXPECT_EQ(m.shapeA, 0u);
        EXPECT_EQ(m.count, 2);
        legs.push_back(m.shapeB);
    }
    EXPECT_EQ(legs, (std::vector<std::uint32_t>{0, 1}));
    const double sink = s.method == Method::Penalty ? 4 * s.linearSlop : 2 * s.linearSlop;
    EXPECT_NEAR(b.xf().p.y, above, sink);
    EXPECT_NEAR(b.xf().p.x, 0, s.linearSlop);         // it landed level and did not slide off
    EXPECT_NEAR(b.angle(), 0, s.linearSlop / 2);      // nor tip: within the slop across its legs
    EXPECT_LT(glm::length(b.xf().p - settled), 1e-4); // still over the last two seconds
    EXPECT_LT(glm::length(b.v), 1e-3);
    EXPECT_LT(std::abs(b.w), 1e-3);
}

INSTANTIATE_TEST_SUITE_P(EveryMethodButExact, CompoundAtRest, ::testing::ValuesIn(kMethods));

// A ball strikes one end of a dumbbell in empty space: linear momentum is what it was, and the
// dumbbell moves and turns. Angular momentum too in the impulse method, whose impulses act at one
// point on both bodies; the others move positions within the step (the substep solver's anchors
// stay on each body as it moves, projection and penalty correct positions), which keeps it only
// approximately, on a box of one shape as on a compound.
class CompoundStruck : public ::testing::TestWithParam<Method> {};

TEST_P(CompoundStruck, MomentumIsKept) {
    WorldSettings s;
    s.method = GetParam();
    s.gravity = {0, 0};
    s.restitution = 0.5;
    s.friction = 0.3;
    World w(s);
    const BodyId dumbbell = w.addBody(compound("dumbbell", {0, 0},
                                               {BodyShape(Shape::circle(0.3), {0, -1}, 0),
                                                BodyShape(Shape::circle(0.3), {0, 1}, 0),
                                                BodyShape(Shape::box(0.1, 1.4), {0, 0}, 0)}));
    w.addBody(circle("ball", {-2, 0.9}, 0.2, 0.5, {6, 0}));
    const Diagnostics before = measure(w);
    for (int i = 0; i < 60; ++i)
        w.step();
    const Diagnostics after = measure(w);
    const double p = glm::length(before.momentum);
    EXPECT_NEAR(after.momentum.x, before.momentum.x, 1e-9 * p);
    EXPECT_NEAR(after.momentum.y, before.momentum.y, 1e-9 * p);
    if (s.method == Method::Impulse) {
        EXPECT_NEAR(after.angularMomentum, before.angularMomentum, 1e-9 * p);
    }
    EXPECT_GT(w.body(dumbbell).v.x, 0.1);
    EXPECT_LT(w.body(dumbbell).w, -0.1); // struck above its centre, from the left: clockwise
    EXPECT_LE(after.energy, before.energy * (1 + 1e-9));
}

INSTANTIATE_TEST_SUITE_P(EveryMethodButExact, CompoundStruck, ::testing::ValuesIn(kMethods));

// The mouse finds a compound body by any of its shapes, and nothing in the gap between them.
TEST(Compound, PickedByAnyShape) {
    World w;
    w.addBody(compound("table", {0, 0}, table()));
    const double c = 0.48 * 0.6 / 0.88;    // the legs' centres lie this far below the body's
    EXPECT_TRUE(w.bodyAt({-1, -c}));       // a leg
    EXPECT_TRUE(w.bodyAt({1.1, 0.6 - c})); // the top, past a leg
    EXPECT_FALSE(w.bodyAt({0, -c}));       // under the top, between the legs
    const auto near = w.bodyNear({0, -c}, 1);
    ASSERT_TRUE(near);
    EXPECT_NEAR(near->distance, 0.6 - 0.1, 1e-12); // up to the top's underside
}

TEST(Compound, Refusals) {
    World w;
    BodyDef withSegment = compound("rail", {0, 0},
                                   {BodyShape(Shape::box(1, 1), {0, 0}, 0),
                                    BodyShape(Shape::segment({0, 0}, {1, 0}), {0, 0}, 0)});
    withSegment.type = BodyType::Static;
    try {
        w.addBody(withSegment);
        FAIL() << "a segment in a compound was taken";
    } catch (const std::invalid_argument& e) {
        EXPECT_STREQ(e.what(),
                     "shapes/1/type: a segment or chain cannot be part of a compound body");
    }
    WorldSettings exact;
    exact.method = Method::Exact;
    World e(exact);
    EXPECT_THROW(e.addBody(compound("t", {0, 0}, table())), std::invalid_argument);
    World later;
    later.addBody(compound("t", {0, 0}, table()));
    EXPECT_THROW(later.setSettings(exact), std::invalid_argument);
}

// A scene's refusals name the body, the shape and the field.
TEST(Compound, SceneRefusalsNameTheField) {
    auto refusal = [](const std::string& bodies, const std::string& settings = "") {
        try {
            parseScene(R"({"format": 1, )" + settings + R"("bodies": [)" + bodies + "]}", "t.json");
        } catch (const SceneError& e) {
            return std::string(e.what());
        }
        return std::string("(loaded)");
    };
    const std::string ball = R"({"position": [0, 0], "shape": {"type": "circle", "radius": 1}},)";
    const std::string two = ball + ball;
    EXPECT_EQ(refusal(two + R"({"position": [0, 0], "shapes": [{"type": "circle", "radius": 1},
                                {"type": "box", "width": 1, "height": 1, "offset": [1]}]})"),
              "t.json: /bodies/2/shapes/1/offset: must be [x, y] (two numbers), got an array [1]");
    EXPECT_EQ(
        refusal(two + R"({"position": [0, 0], "shapes": [{"type": "circle", "radius": 1},
                                {"type": "box", "width": 1, "height": 1, "offset": [2e12, 0]}]})"),
        "t.json: /bodies/2/shapes/1/offset/0: must be at most 1e12 in size, got 2000000000000.0");
    EXPECT_EQ(refusal(R"({"position": [0, 0], "shapes": [{"type": "box", "width": 1, "height": 1,
                                                          "angle": "x"}]})"),
              "t.json: /bodies/0/shapes/0/angle: must be a number, got \"x\"");
    EXPECT_EQ(
        refusal(R"({"position": [0, 0], "shapes": [{"type": "box", "width": -1, "height": 1}]})"),
        "t.json: /bodies/0/shapes/0/width: must be > 0, got -1");
    EXPECT_EQ(
        refusal(R"({"position": [0, 0], "shapes": [{"type": "box", "width": 1, "height": 1,
                                                          "spin": 1}]})"),
        "t.json: /bodies/0/shapes/0/spin: unknown field (names starting with \"x-\" are free for "
        "comments)");
    EXPECT_EQ(refusal(R"({"position": [0, 0], "shapes": []})"),
              "t.json: /bodies/0/shapes: must be an array of one or more shapes, got an array []");
    EXPECT_EQ(refusal(R"({"position": [0, 0], "shape": {"type": "circle", "radius": 1},
                          "shapes": [{"type": "circle", "radius": 1}]})"),
              "t.json: /bodies/0: give \"shape\" or \"shapes\", not both");
    EXPECT_EQ(refusal(R"({"position": [0, 0], "shapes": [{"type": "circle", "radius": 1}]})",
                      R"("method": "exact", )"),
              "t.json: shapes: the exact method does not handle compound bodies: choose another "
              "method, or a scene without them");
}

// Saved mid-run, a world of compound bodies loads back and goes on with the same bits, in every
// method that takes it (the compound-bodies preset is in PresetsSaved's and Determinism's runs
// too); each compound saves its shapes, and the contacts their shape indices.
TEST(Compound, SavedWorldGoesOnBitForBit) {
    const Scene scene = loadScene(CAROM_ASSET_DIR "/bench/tumbler-small.json");
    for (Method method : kMethods) {
        SCOPED_TRACE(int(method));
        Scene s = scene;
        s.settings.method = method;
        World straight = buildWorld(s), saved = buildWorld(s);
        for (int i = 0; i < 90; ++i)
            straight.step(), saved.step();
        const std::string text = sceneFileText(captureScene(saved, s.name), "saved.json");
        EXPECT_NE(text.find("\"shapes\""), std::string::npos);
        EXPECT_NE(text.find("\"shape_a\""), std::string::npos);
        World resumed = buildWorld(parseScene(text, "saved.json"));
        for (int i = 0; i < 30; ++i)
            straight.step(), resumed.step();
        ASSERT_EQ(straight.bodies().size(), resumed.bodies().size());
        for (std::size_t i = 0; i < straight.bodies().size(); ++i) {
            const Body &x = straight.body(i), &y = resumed.body(i);
            EXPECT_EQ(std::memcmp(&x.xf().p, &y.xf().p, sizeof(Vec2)), 0) << x.name;
            EXPECT_EQ(std::memcmp(&x.v, &y.v, sizeof(Vec2)), 0) << x.name;
            const double a = x.angle(), b = y.angle();
            EXPECT_EQ(std::memcmp(&a, &b, sizeof a), 0) << x.name;
        }
    }
}
