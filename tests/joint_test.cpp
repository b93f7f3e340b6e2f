// Joints against answers known by hand: a pendulum's period, a rod's length, a rope's reach, a
// motor's speed and stall, a spring's period, and energy that a frictionless pendulum or chain
// never gains; the scene format's joints, their refusals, and a saved world that goes on exactly.
#include "carom/recording.h"
#include "carom/scene.h"
#include "carom/world.h"
#include "test_worlds.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace carom {
namespace {

using test::box;
using test::circle;

const Method kRigidMethods[] = {Method::ImpulseProjection, Method::Impulse, Method::Projection,
                                Method::Penalty};

WorldSettings gravityOnly(Method method, double g = -9.81) {
    WorldSettings s;
    s.gravity = {0, g};
    s.method = method;
    s.friction = 0;
    s.restitution = 0;
    return s;
}

// The complete elliptic integral of the first kind by the arithmetic-geometric mean.
double ellipticK(double k) {
    double a = 1, b = std::sqrt(1 - k * k);
    for (int i = 0; i < 40; ++i) {
        const double next = (a + b) / 2;
        b = std::sqrt(a * b);
        a = next;
    }
    return M_PI / (2 * a);
}

// The times at which x crosses 0 upwards, interpolated within the step; `each` after every step.
template <class Each = void (*)()>
std::vector<double> upwardCrossings(
    World& w, BodyId id, double seconds, Each each = [] {}) {
    std::vector<double> t;
    double last = w.body(id).xf().p.x;
    while (w.time() < seconds) {
        w.step();
        each();
        const double x = w.body(id).xf().p.x;
        if (last < 0 && x >= 0) t.push_back(w.time() - w.settings().timeStep * x / (x - last));
        last = x;
    }
    return t;
}

double meanPeriod(const std::vector<double>& crossings) {
    return (crossings.back() - crossings.front()) / double(crossings.size() - 1);
}

JointDef rod(BodyId b, Vec2 anchorA, Vec2 anchorB, std::optional<BodyId> a = std::nullopt) {
    JointDef d;
    d.type = JointType::Distance;
    d.a = a;
    d.b = b;
    d.anchorA = anchorA;
    d.anchorB = anchorB;
    return d;
}

JointDef pin(BodyId b, Vec2 anchor, std::optional<BodyId> a = std::nullopt) {
    JointDef d;
    d.type = JointType::Revolute;
    d.a = a;
    d.b = b;
    d.anchor = anchor;
    return d;
}

// A bob on a massless rod of L = 1 m from the world, let go at 30°: T = 4 √(L/g) K(sin(θ0/2)).
TEST(Joints, APendulumKeepsItsPeriod) {
    const double L = 1, g = 9.81, theta0 = M_PI / 6;
    const double expected = 4 * std::sqrt(L / g) * ellipticK(std::sin(theta0 / 2));
    for (Method m : kRigidMethods) {
        World w(gravityOnly(m, -g));
        const Vec2 bob{L * std::sin(theta0), -L * std::cos(theta0)};
        const BodyId id = w.addBody(circle("bob", bob, 0.05, 1));
        w.addJoint(rod(id, {0, 0}, bob));
        const std::vector<double> t = upwardCrossings(w, id, 20);
        ASSERT_GE(t.size(), 5u) << toString(m);
        EXPECT_NEAR(meanPeriod(t), expected, 0.005 * expected) << toString(m);
    }
}

// A heavy bob swinging from 90° pulls its rod with 3 m g at the bottom: the rod keeps its length
// to 1e-3 in the default method, whose substeps feed the error back eight times a step; the
// methods that solve joints once over the step, to 1.5% (docs/architecture.md).
TEST(Joints, ARodHoldsItsLengthUnderLoad) {
    for (Method m : kRigidMethods) {
        World w(gravityOnly(m));
        const BodyId id = w.addBody(circle("bob", {2, 0}, 0.1, 50));
        w.addJoint(rod(id, {0, 0}, {2, 0}));
        double worst = 0;
        for (int i = 0; i < 600; ++i) {
            w.step();
            worst = std::max(worst, std::abs(glm::length(w.body(id).xf().p) - 2) / 2);
        }
        EXPECT_LT(worst, m == Method::ImpulseProjection ? 1e-3 : 1.5e-2) << toString(m);
    }
}

// A bob dropped 1 m above the end of its rope falls 2 m and is caught: it never goes past the
// rope's length by more than the linear slop, and within it the rope is slack (the bob falls
// freely).
TEST(Joints, ARopeNeverStretchesPastItsLength) {
    for (Method m : kRigidMethods) {
        World w(gravityOnly(m));
        const BodyId id = w.addBody(circle("bob", {0, 0}, 0.1, 1));
        JointDef rope = rod(id, {0, 1}, {0, 0});
        rope.maxLength = 2;
        w.addJoint(rope);
        // Slack: 1 m of free fall takes √(2 / g).
        w.step();
        EXPECT_NEAR(w.body(id).v.y, -9.81 * w.time(), 1e-9) << toString(m);
        double longest = 0;
        for (int i = 0; i < 600; ++i) {
            w.step();
            longest = std::max(longest, glm::length(w.body(id).xf().p - Vec2{0, 1}));
        }
        EXPECT_LE(longest, 2 + w.settings().linearSlop) << toString(m);
        EXPECT_GT(longest, 2 - w.settings().linearSlop) << toString(m); // it did get there
    }
}

// A horizontal arm (1 kg, 1 m, pinned at its end) driven upward at 1 rad/s: gravity's torque at
// the pin is m g L/2 = 4.9 N·m. A motor of 100 N·m lifts it at its speed; one of 1 N·m stalls and
// the arm falls.
TEST(Joints, AMotorReachesItsSpeedOrStalls) {
    for (Method m : kRigidMethods)
        for (double torque : {100.0, 1.0}) {
            World w(gravityOnly(m));
            const BodyId arm = w.addBody(box("arm", {0.5, 0}, 1, 0.1, 1));
            JointDef motor = pin(arm, {0, 0});
            motor.motorSpeed = 1;
            motor.maxMotorTorque = torque;
            w.addJoint(motor);
            for (int i = 0; i < 30; ++i)
                w.step();
            if (torque > 4.9)
                EXPECT_NEAR(w.body(arm).w, 1, 1e-3) << toString(m);
            else
                EXPECT_LT(w.body(arm).w, 0) << toString(m);
        }
}

// A 1 kg body on a spring of k = 100 N/m (no gravity), pulled 0.2 m from rest: T = 2π √(m/k),
// and the energy ½ k x² stays, within what symplectic Euler's own oscillation of it allows (h ω of
// the spring's h: the default method's substep, the others' step).
TEST(Joints, ASpringKeepsItsPeriodAndEnergy) {
    for (Method m : kRigidMethods) {
        World w(gravityOnly(m, 0));
        const BodyId id = w.addBody(circle("mass", {0.2, 0}, 0.05, 1));
        JointDef spring = rod(id, {-1, 0}, {0.2, 0});
        spring.stiffness = 100;
        spring.length = 1;
        w.addJoint(spring);
        const double e0 = 0.5 * 100 * 0.2 * 0.2;
        auto energy = [&] {
            const double x = glm::length(w.body(id).xf().p - Vec2{-1, 0}) - 1;
            return w.body(id).kineticEnergy() + 0.5 * 100 * x * x;
        };
        double most = 0, least = e0;
        std::vector<double> t = upwardCrossings(w, id, 30, [&] {
            most = std::max(most, energy());
            least = std::min(least, energy());
        });
        const double h = w.settings().timeStep / (m == Method::ImpulseProjection ? 8 : 1);
        const double band = 0.01 + h * std::sqrt(100.0);
        ASSERT_GE(t.size(), 10u) << toString(m);
        EXPECT_NEAR(meanPeriod(t), 2 * M_PI * std::sqrt(1 / 100.0), 0.005) << toString(m);
        EXPECT_LE(most, e0 * (1 + band)) << toString(m);
        EXPECT_GE(least, e0 * (1 - band)) << toString(m);
    }
}

// A frictionless pendulum (from 90°) and a chain of five links on pins, over 60 s: the energy
// never rises above its start by more than 1% of m g L (the feedback's spring holds a little).
TEST(Joints, SlowAFrictionlessPendulumOrChainMakesNoEnergy) {
    for (Method m : kRigidMethods) {
        World w(gravityOnly(m));
        const BodyId bob = w.addBody(circle("bob", {1, 0}, 0.05, 1));
        w.addJoint(rod(bob, {0, 0}, {1, 0}));
        std::optional<BodyId> last;
        for (int k = 0; k < 5; ++k) {
            const BodyId link = w.addBody(
                box(("link" + std::to_string(k)).c_str(), {3 + 0.5 * k + 0.25, 0}, 0.5, 0.1, 0.2));
            w.addJoint(pin(link, {3 + 0.5 * k, 0}, last));
            last = link;
        }
        const double e0 = measure(w).energy;
        double most = e0;
        for (int i = 0; i < 3600; ++i) {
            w.step();
            most = std::max(most, measure(w).energy);
        }
        EXPECT_LE(most - e0, 0.01 * 9.81 * 1) << toString(m);
    }
}

// A slider along x under gravity: it does not fall (it sags by less than the linear slop under
// its weight), keeps its angle, and stops at its limit.
TEST(Joints, ASliderSlidesAlongItsAxisToItsLimit) {
    for (Method m : kRigidMethods) {
        World w(gravityOnly(m));
        const BodyId id = w.addBody(box("slider", {0, 0}, 0.4, 0.2, 1, {2, 0}));
        JointDef slide;
        slide.type = JointType::Prismatic;
        slide.b = id;
        slide.anchor = {0, 0};
        slide.axis = {1, 0};
        slide.upper = 1;
        w.addJoint(slide);
        for (int i = 0; i < 120; ++i)
            w.step();
        EXPECT_NEAR(w.body(id).xf().p.y, 0, w.settings().linearSlop) << toString(m);
        EXPECT_NEAR(w.body(id).angle(), 0, 1e-3) << toString(m);
        EXPECT_NEAR(w.body(id).xf().p.x, 1, w.settings().linearSlop) << toString(m);
    }
}

// Two boxes welded side by side, the first pinned to the world at its centre: they swing as one,
// the second's angle always the first's.
TEST(Joints, AWeldKeepsTwoBodiesAsOne) {
    for (Method m : kRigidMethods) {
        World w(gravityOnly(m));
        const BodyId a = w.addBody(box("a", {0, 0}, 1, 0.2, 1));
        const BodyId b = w.addBody(box("b", {1, 0}, 1, 0.2, 1));
        w.addJoint(pin(a, {0, 0}));
        JointDef weld = pin(b, {0.5, 0}, a);
        weld.type = JointType::Weld;
        w.addJoint(weld);
        double worst = 0;
        for (int i = 0; i < 120; ++i) {
            w.step();
            worst = std::max(worst, std::abs(w.body(b).angle() - w.body(a).angle()));
        }
        EXPECT_LT(worst, 2e-3) << toString(m);
        EXPECT_LT(w.body(a).angle(), -0.5) << toString(m); // it swung down
    }
}

// Bodies joined without "collide" pass through each other; with it, they touch.
TEST(Joints, JoinedBodiesDoNotCollideUnlessAsked) {
    for (bool collide : {false, true}) {
        World w(gravityOnly(Method::ImpulseProjection, 0));
        const BodyId a = w.addBody(circle("a", {0, 0}, 0.5, 1));
        const BodyId b = w.addBody(circle("b", {0.8, 0}, 0.5, 1));
        JointDef rope = rod(b, {0, 0}, {0.8, 0}, a);
        rope.maxLength = 5;
        rope.collide = collide;
        w.addJoint(rope);
        w.step();
        EXPECT_EQ(w.contacts().empty(), !collide);
    }
}

// The exact method refuses joints, both ways round, with one clear message.
TEST(Joints, TheExactMethodRefusesJoints) {
    World w(gravityOnly(Method::Exact));
    const BodyId id = w.addBody(circle("bob", {1, 0}, 0.1, 1));
    EXPECT_THROW(w.addJoint(pin(id, {0, 0})), std::invalid_argument);
    WorldSettings s = w.settings();
    s.method = Method::ImpulseProjection;
    w.setSettings(s);
    w.addJoint(pin(id, {0, 0}));
    s.method = Method::Exact;
    EXPECT_THROW(w.setSettings(s), std::invalid_argument);
    EXPECT_EQ(w.settings().method, Method::ImpulseProjection);
}

// The inspector's edit of a joint (an input, as recordings keep it): a pin given a motor turns at
// its speed; a refused tuning (a motor without its strength) leaves the joint as it was.
TEST(Joints, ATuningInputChangesWhatAJointDoes) {
    World w(gravityOnly(Method::ImpulseProjection, 0));
    const BodyId wheel = w.addBody(circle("wheel", {0, 0}, 0.5, 1));
    w.addJoint(pin(wheel, {0, 0}));
    input::JointTune t = input::tuningOf(w, 0);
    EXPECT_FALSE(t.motorSpeed);
    t.motorSpeed = 2;
    EXPECT_THROW(applyInput(w, t), std::invalid_argument);
    EXPECT_FALSE(w.joints()[0].motorSpeed);
    t.maxMotor = 100;
    applyInput(w, t);
    for (int i = 0; i < 10; ++i)
        w.step();
    EXPECT_NEAR(w.body(wheel).w, 2, 1e-9);
}

const char* kChain = R"({"format": 1, "gravity": [0, -9.81],
  "bodies": [
    {"name": "l0", "shape": {"type": "box", "width": 0.5, "height": 0.1}, "position": [0.25, 0]},
    {"name": "l1", "shape": {"type": "box", "width": 0.5, "height": 0.1}, "position": [0.75, 0]},
    {"name": "bob", "shape": {"type": "circle", "radius": 0.1}, "position": [1.5, 0]}],
  "joints": [
    {"type": "revolute", "name": "top", "b": "l0", "anchor": [0, 0]},
    {"type": "revolute", "a": "l0", "b": "l1", "anchor": [0.5, 0], "lower_angle": -1, "upper_angle": 1},
    {"type": "distance", "name": "rope", "a": "l1", "b": "bob", "anchor_a": [1, 0], "anchor_b": [1.5, 0], "max_length": 0.6},
    {"type": "prismatic", "b": "bob", "anchor": [1.5, 0], "axis": [0, 1], "motor_speed": 0.1, "max_motor_force": 1, "collide": true}
  ]})";

// A saved world with joints, loaded and run, goes on bit for bit as the world it was saved from.
TEST(Joints, ASavedWorldWithJointsGoesOnExactly) {
    for (Method m : kRigidMethods) {
        Scene scene = parseScene(kChain, "chain.json");
        scene.settings.method = m;
        World w = buildWorld(scene);
        for (int i = 0; i < 30; ++i)
            w.step();
        World copy = buildWorld(parseScene(serializeScene(captureScene(w, "saved")), "saved.json"));
        for (int i = 0; i < 30; ++i) {
            w.step();
            copy.step();
        }
        for (BodyId id = 0; id < w.bodies().size(); ++id) {
            EXPECT_EQ(w.body(id).xf().p, copy.body(id).xf().p) << toString(m);
            EXPECT_EQ(w.body(id).v, copy.body(id).v) << toString(m);
        }
        ASSERT_EQ(copy.joints().size(), 4u);
        EXPECT_EQ(copy.joints()[2].name, "rope");
        EXPECT_EQ(copy.joints()[2].kind, DistanceKind::Rope);
    }
}

std::string refusal(const std::string& joint) {
    const std::string text = R"({"format": 1, "bodies": [
      {"name": "a", "shape": {"type": "circle", "radius": 0.1}, "position": [0, 0]},
      {"name": "b", "shape": {"type": "circle", "radius": 0.1}, "position": [1, 0]}],
      "joints": [{"type": "revolute", "b": "a", "anchor": [0, 0]}, )" +
                             joint + "]}";
    try {
        parseScene(text, "j.json");
    } catch (const SceneError& e) {
        return e.what();
    }
    return "loaded";
}

TEST(Joints, BadJointsAreRefusedWithTheirPathAndField) {
    EXPECT_EQ(refusal(R"({"type": "distance", "b": "b", "anchor_a": [0, 0], "anchor_b": [1, 0],
                          "max_length": -1})"),
              "j.json: /joints/1/max_length: must be > 0, got -1");
    EXPECT_EQ(refusal(R"({"type": "revolute", "b": "nobody", "anchor": [0, 0]})"),
              "j.json: /joints/1/b: no rigid body named \"nobody\"");
    EXPECT_EQ(refusal(R"({"type": "hinge", "b": "b", "anchor": [0, 0]})"),
              "j.json: /joints/1/type: must be \"revolute\", \"distance\", \"weld\" or "
              "\"prismatic\", got \"hinge\"");
    EXPECT_EQ(refusal(R"({"type": "revolute", "b": "b", "anchor": [0, 0], "motor_speed": 1})"),
              "j.json: /joints/1/max_motor_torque: required with motor_speed (the motor's "
              "strength)");
    EXPECT_EQ(refusal(R"({"type": "weld", "b": "b", "anchor": [0, 0], "max_length": 1})"),
              "j.json: /joints/1/max_length: unknown field (names starting with \"x-\" are free "
              "for comments)");
    EXPECT_EQ(refusal(R"({"type": "revolute", "a": "b", "b": "b", "anchor": [0, 0]})"),
              "j.json: /joints/1/b: a joint joins two different bodies");
    const std::string exact = R"({"format": 1, "method": "exact", "bodies": [
      {"name": "a", "shape": {"type": "circle", "radius": 0.1}, "position": [0, 0]}],
      "joints": [{"type": "revolute", "b": "a", "anchor": [0, 0]}]})";
    try {
        parseScene(exact, "e.json");
        ADD_FAILURE() << "loaded";
    } catch (const SceneError& e) {
        EXPECT_EQ(std::string(e.what()), "e.json: /method: the exact method does not handle "
                                         "joints: choose another method");
    }
}

} // namespace
} // namespace carom
