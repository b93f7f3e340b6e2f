// The world as a user of the library meets it: inputs checked, events, stability,
// determinism, no NaN.
#include "carom/scene.h"
#include "guard_check.h"
#include "test_worlds.h"

#include <cstring>
#include <gtest/gtest.h>
#include <random>

using namespace carom;
using namespace carom::test;

TEST(Inputs, BadValuesAreRefusedAndChangeNothing) {
    World w;
    BodyDef d = circle("a", {0, 0}, 1, 1);
    d.mass = -1;
    EXPECT_THROW(w.addBody(d), std::invalid_argument);
    d.mass = 1;
    d.position = {NAN, 0};
    EXPECT_THROW(w.addBody(d), std::invalid_argument);
    d.position = {0, 0};
    d.restitution = 1.5;
    EXPECT_THROW(w.addBody(d), std::invalid_argument);
    d.restitution.reset();
    d.density = 2;
    EXPECT_THROW(w.addBody(d), std::invalid_argument); // mass and density both
    EXPECT_TRUE(w.bodies().empty());
    d.density.reset();
    BodyId id = w.addBody(d);
    EXPECT_THROW(w.addBody(d), std::invalid_argument); // duplicate name
    EXPECT_THROW(w.setVelocity(id, {INFINITY, 0}, 0), std::invalid_argument);
    EXPECT_THROW(w.setMass(id, 0), std::invalid_argument);
    EXPECT_EQ(w.body(id).mass, 1);
    // Beyond 1e12 in size, as in scene files: 1e300 m/s would overflow the energies to NaN.
    EXPECT_THROW(w.setVelocity(id, {1e300, 0}, 0), std::invalid_argument);
    EXPECT_THROW(w.setPosition(id, {0, 0}, 1e30), std::invalid_argument);
    EXPECT_THROW(w.setMass(id, 1e30), std::invalid_argument);
    EXPECT_EQ(w.body(id).v.x, 0);
    EXPECT_EQ(w.body(id).angle(), 0);
    WorldSettings s;
    s.timeStep = 0;
    EXPECT_THROW(w.setSettings(s), std::invalid_argument);
    s = WorldSettings{};
    s.thrust = 1e30;
    EXPECT_THROW(w.setSettings(s), std::invalid_argument);
    s = WorldSettings{};
    s.gravity = {0, -1e13};
    EXPECT_THROW(w.setSettings(s), std::invalid_argument);
    EXPECT_EQ(w.settings().timeStep, 1.0 / 60);
    EXPECT_EQ(w.settings().thrust, WorldSettings{}.thrust);
    EXPECT_THROW(Shape::circle(-1), std::invalid_argument);
    EXPECT_THROW(Shape::polygon({{0, 0}, {2, 0}, {1, 0.2}, {2, 2}, {0, 2}}), std::invalid_argument);
    EXPECT_THROW(Shape::polygon({{0, 0}, {1, 1}, {2, 2}}), std::invalid_argument);
    // A pentagram turns left at every corner but winds twice round its centre.
    std::vector<Vec2> star;
    for (int k = 0; k < 5; ++k)
        star.push_back({std::cos(k * 4 * M_PI / 5), std::sin(k * 4 * M_PI / 5)});
    EXPECT_THROW(Shape::polygon(star), std::invalid_argument);
}

// Mass properties of uniform solids: a square polygon has the box's I = m (w² + h²)/12, and
// a polygon given off-centre is moved so that its centroid is the origin.
// World::bodyNear: the nearest dynamic body within the distance, at its nearest point; inside a
// body, the point itself at distance 0, the topmost of overlapping bodies; static bodies never.
TEST(Picking, BodyNearFindsTheNearestBodyAndPoint) {
    World w;
    w.addBody(ground({0, -5}, 20, 1));
    const BodyId ball = w.addBody(circle("ball", {0, 0}, 0.05, 1));
    const BodyId block = w.addBody(box("block", {3, 0}, 1, 2, 1));
    // 0.08 m right of the ball's centre: 0.03 m outside it, its nearest point (0.05, 0).
    auto hit = w.bodyNear({0.08, 0}, 0.04);
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->body, ball);
    EXPECT_NEAR(hit->point.x, 0.05, 1e-12);
    EXPECT_NEAR(hit->point.y, 0, 1e-12);
    EXPECT_NEAR(hit->distance, 0.03, 1e-12);
    EXPECT_FALSE(w.bodyNear({0.08, 0}, 0.02));
    // Off the block's corner (3.5, 1) by (0.3, 0.4): distance 0.5, the corner itself.
    hit = w.bodyNear({3.8, 1.4}, 0.6);
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->body, block);
    EXPECT_NEAR(hit->point.x, 3.5, 1e-12);
    EXPECT_NEAR(hit->point.y, 1.0, 1e-12);
    EXPECT_NEAR(hit->distance, 0.5, 1e-12);
    // Off the middle of its left face: the foot on the face.
    hit = w.bodyNear({2.3, 0.25}, 0.5);
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->body, block);
    EXPECT_NEAR(hit->point.x, 2.5, 1e-12);
    EXPECT_NEAR(hit->point.y, 0.25, 1e-12);
    // Nearer to the ball than to the block: the ball.
    hit = w.bodyNear({1.0, 0}, 2.0);
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->body, ball);
    // Inside: distance 0, the point itself.
    hit = w.bodyNear({3.1, -0.2}, 0.1);
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->body, block);
    EXPECT_EQ(hit->distance, 0);
    EXPECT_EQ(hit->point.x, 3.1);
    // The ground (static) is never picked; nothing near.
    EXPECT_FALSE(w.bodyNear({0, -4.6}, 0.2));
    // Overlapping bodies: the topmost (last added) wins.
    const BodyId over = w.addBody(box("over", {3, 0}, 0.5, 0.5, 1));
    hit = w.bodyNear({3.1, 0}, 0.1);
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->body, over);
}

TEST(Shapes, PolygonMassPropertiesMatchTheBox) {
    Shape sq = Shape::polygon({{1, 1}, {3, 1}, {3, 2}, {1, 2}});
    EXPECT_NEAR(sq.massProperties().area, 2, 1e-12);
    EXPECT_NEAR(sq.massProperties().inertiaPerMass, (4 + 1) / 12.0, 1e-12);
    EXPECT_NEAR(sq.centroidOffset().x, 2, 1e-12);
    EXPECT_NEAR(sq.centroidOffset().y, 1.5, 1e-12);
    Shape again = Shape::polygon(sq.vertices()); // already centred: left exactly as it is
    EXPECT_EQ(again.vertices(), sq.vertices());
    // Right triangle legs a, b about its centroid: I/m = (a² + b²)/18.
    Shape tri = Shape::polygon({{0, 0}, {3, 0}, {0, 2}});
    EXPECT_NEAR(tri.massProperties().inertiaPerMass, (9 + 4) / 18.0, 1e-12);
    // A vertex in the middle of an edge is convex too; it adds nothing and is dropped.
    Shape same = Shape::polygon({{0, 0}, {1.5, 0}, {3, 0}, {0, 2}});
    EXPECT_EQ(same.vertices(), tri.vertices());
    EXPECT_THROW(Shape::polygon({{0, 0}, {3, 0}, {1, 0}, {0, 2}}), std::invalid_argument);
    EXPECT_NEAR(Shape::circle(2).massProperties().inertiaPerMass, 2, 1e-12);
}

TEST(Events, BeginAndEndAreDeliveredAfterTheStep) {
    WorldSettings s;
    s.gravity = {0, -9.81};
    World w(s);
    w.addBody(ground({0, -1}, 20, 2));
    BodyId ball = w.addBody(circle("ball", {0, 2}, 0.5, 1)); // restitution 1: it bounces
    std::vector<ContactEvent> events;
    w.setContactListener([&](const ContactEvent& e) { events.push_back(e); });
    run(w, 1.5);
    ASSERT_GE(events.size(), 2u);
    EXPECT_TRUE(events[0].begin);
    EXPECT_EQ(events[0].b, ball);
    EXPECT_FALSE(events[1].begin);
}

namespace {

// n boxes 1×1 m of 1 kg (the top one of topMass) stacked on a static ground whose top is y = 0,
// friction 0.6, no bounce. The top box is the last body.
World column(int n, double topMass, double groundWidth) {
    WorldSettings s;
    s.gravity = {0, -9.81};
    s.friction = 0.6;
    s.restitution = 0;
    World w(s);
    w.addBody(ground({0, -1}, groundWidth, 2));
    for (int i = 0; i < n; ++i)
        w.addBody(
            box(("box" + std::to_string(i)).c_str(), {0, 0.5 + i}, 1, 1, i == n - 1 ? topMass : 1));
    return w;
}

} // namespace

// Ten boxes stacked on the ground stay put: the top one moves less than 2 cm in 10 s.
TEST(Stability, BoxStackRests) {
    World w = column(10, 1, 40);
    const BodyId top = w.bodies().size() - 1;
    const Vec2 start = w.body(top).xf().p;
    run(w, 10);
    EXPECT_LT(glm::length(w.body(top).xf().p - start), 0.02);
    EXPECT_LT(std::abs(w.body(top).angle()), 0.01);
    EXPECT_LT(w.diagnostics().keLinear, 1e-3);
}

// Taller and top-heavy columns (the solver's hard cases): twenty 1 kg boxes, and nine 1 kg boxes
// under a 100 kg one, stand for 60 s. Nothing breaks their symmetry, so the top box must not
// move sideways at all; it sinks only as the contacts settle into their slop (under 0.3 m for
// the heavy one). Both fell before the projection corrected a contact's two points together.
TEST(Stability, TallAndTopHeavyColumnsStand) {
    for (const double topMass : {1.0, 100.0}) {
        World w = column(topMass == 1 ? 20 : 10, topMass, 20);
        const BodyId top = w.bodies().size() - 1;
        const Vec2 start = w.body(top).xf().p;
        run(w, 60);
        EXPECT_EQ(w.body(top).xf().p.x, 0) << "top mass " << topMass;
        EXPECT_LT(start.y - w.body(top).xf().p.y, 0.3) << "top mass " << topMass;
    }
}

// The pyramid of base 20 stands after 60 s of simulated time: its top box sags a few centimetres
// at most and nothing slides off.
TEST(Stability, SlowPyramidOfBase20Stands) {
    World w = pyramid(20);
    const Body& top = w.bodies().back();
    const Vec2 start = top.xf().p;
    run(w, 60);
    EXPECT_LT(std::abs(top.xf().p.x - start.x), 0.05);
    EXPECT_LT(start.y - top.xf().p.y, 0.1);
    EXPECT_LT(std::abs(top.angle()), 0.02);
}

// The large pyramid (5050 boxes, base 100) stands still: its top box moves less than 0.1 m in its
// first 10 s. Each soft contact sinks under its load F by F / (m_eff ω²) (substep_solver.cpp), and
// the top box sinks by the sum over the hundred layers: 0.73 m in Box2D v3 at 30 Hz; at 120 Hz, a
// sixteenth of that. In its first 2 s the contacts take the load and the pyramid settles (the
// ends of its middle rows splay outward by up to 12 cm); from then on nothing slides: no box
// moves more than 5 cm.
TEST(Stability, SlowLargePyramidStandsStill) {
    World w = pyramid(100);
    const Vec2 topStart = w.bodies().back().xf().p;
    run(w, 2);
    std::vector<Vec2> settled;
    for (const Body& b : w.bodies())
        settled.push_back(b.xf().p);
    run(w, 8);
    EXPECT_LT(glm::length(w.bodies().back().xf().p - topStart), 0.1);
    for (std::size_t i = 0; i < settled.size(); ++i)
        EXPECT_LT(glm::length(w.bodies()[i].xf().p - settled[i]), 0.05) << w.bodies()[i].name;
}

// The contacts of a column at rest carry its weight: the contact forces the world reports on the
// bottom box (the impulses of a step over the step, World::forces) add up to the weight of the
// boxes on it plus its own, m g each.
TEST(Stability, ContactForcesCarryTheWeight) {
    World w = column(5, 1, 40);
    run(w, 2);
    double upOnBottom = 0; // box0 is body 1, B of its manifold with the ground (body 0)
    for (const AppliedForce& f : w.forces())
        if (f.kind == ForceKind::Contact && f.body == 1) upOnBottom += f.force.y;
    // The ground pushes box0 up by 5 m g; box1 pushes it down by 4 m g (drawn on box1, B there).
    EXPECT_NEAR(upOnBottom, 5 * 9.81, 1e-6 * 5 * 9.81);
}

// Same inputs, same numbers, bit for bit.
TEST(Determinism, SameRunTwiceGivesTheSameBits) {
    auto runOnce = [] {
        World w = pyramid(10);
        w.setVelocity(w.bodies().size() - 1, {3, 1}, 2); // knock the top box
        run(w, 3);
        return w;
    };
    World a = runOnce(), b = runOnce();
    ASSERT_EQ(a.bodies().size(), b.bodies().size());
    for (std::size_t i = 0; i < a.bodies().size(); ++i) {
        const Body &p = a.bodies()[i], &q = b.bodies()[i];
        double x[6] = {p.xf().p.x, p.xf().p.y, p.angle(), p.v.x, p.v.y, p.w};
        double y[6] = {q.xf().p.x, q.xf().p.y, q.angle(), q.v.x, q.v.y, q.w};
        EXPECT_EQ(std::memcmp(x, y, sizeof x), 0) << "body " << i;
    }
}

// Random crowded scenes, overlapping from the start, fast and spinning, under every method and
// integrator that runs here: no NaN or infinity ever reaches the state.
TEST(Robustness, RandomScenesNeverMakeNaN) {
    // Guards expected: random scenes reach the documented limits.
    const carom_test::ExpectGuards expected;
    std::mt19937 rng(42);
    std::uniform_real_distribution<double> u(-1, 1);
    for (Method method : allMethods()) {
        if (method == Method::Exact) continue; // its own tests
        for (Integrator integrator : allIntegrators()) {
            for (int scene = 0; scene < 3; ++scene) {
                WorldSettings s;
                s.gravity = {0, -9.81 * std::abs(u(rng))};
                s.method = method;
                s.integrator = integrator;
                s.friction = std::abs(u(rng));
                s.restitution = std::abs(u(rng));
                EXPECT_TRUE(randomSceneStaysFinite(s, rng))
                    << toString(method) << " " << toString(integrator) << " scene " << scene;
            }
        }
    }
}

namespace carom {
namespace {

// A body taken out while the world runs takes its contacts, joints and thrusters with it; the
// bodies after it move down by one, and the world steps and saves as if built without it.
TEST(World, RemovingABodyTakesWhatNamesIt) {
    WorldSettings s;
    s.gravity = {0, -10};
    World w(s);
    w.addWalls(Walls{});
    const BodyId a = w.addBody(test::box("a", {0, -5.5}, 1, 1, 1));
    const BodyId b = w.addBody(test::box("b", {2, -5.5}, 1, 1, 1));
    const BodyId c = w.addBody(test::box("c", {4, -5.5}, 1, 1, 1));
    JointDef rope;
    rope.type = JointType::Distance;
    rope.a = b;
    rope.b = c;
    rope.anchorA = {2, -5.5};
    rope.anchorB = {4, -5.5};
    rope.maxLength = 3;
    w.addJoint(rope);
    JointDef pin;
    pin.b = a;
    pin.anchor = {0, -5};
    w.addJoint(pin);
    w.addThruster(a, {0, 0}, {1, 0});
    w.addThruster(c, {0, 0}, {0, 1});
    for (int i = 0; i < 30; ++i)
        w.step();
    ASSERT_FALSE(w.contacts().empty());
    w.removeBody(a);
    ASSERT_EQ(w.bodies().size(), 6u);
    EXPECT_EQ(w.findBody("b"), b - 1);
    EXPECT_EQ(w.findBody("c"), c - 1);
    EXPECT_FALSE(w.findBody("a"));
    ASSERT_EQ(w.joints().size(), 1u); // the pin went with a
    EXPECT_EQ(w.joints()[0].a, b - 1);
    EXPECT_EQ(w.joints()[0].b, c - 1);
    ASSERT_EQ(w.thrusters().size(), 1u);
    EXPECT_EQ(w.thrusters()[0].body, c - 1);
    for (const Manifold& m : w.contacts()) {
        EXPECT_LT(m.b, w.bodies().size());
        EXPECT_NE(w.body(m.a).name, "a");
    }
    for (int i = 0; i < 30; ++i)
        w.step();
    EXPECT_TRUE(finiteState(w));
    // Saved and loaded, it goes on as it does (to round-off: the walls come last in a saved world,
    // so its pairs are met in another order).
    World copy = buildWorld(parseScene(serializeScene(captureScene(w, "s")), "s.json"));
    for (int i = 0; i < 10; ++i) {
        w.step();
        copy.step();
    }
    for (const Body& body : w.bodies()) // by name: a saved world lists its walls last
        EXPECT_LT(glm::length(body.xf().p - copy.body(*copy.findBody(body.name)).xf().p), 1e-9)
            << body.name;
    // A wall taken out opens the box: the others are static bodies, saved as bodies.
    w.removeBody(*w.findBody("wall-top"));
    EXPECT_FALSE(w.walls());
    EXPECT_EQ(captureScene(w, "s").bodies.size(), 5u);
    EXPECT_THROW(w.removeBody(99), std::invalid_argument);
}

} // namespace
} // namespace carom
