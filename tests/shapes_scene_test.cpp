// Capsules, segments and chains in scene files (docs/scene-format.md): read, refused with the path
// of the field at fault, saved back as they were written and continued bit for bit; and chains
// in a running world: a ball rolling down a chain ramp, a capsule resting on a chain.
#include "carom/scene.h"
#include "guard_check.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

using namespace carom;

namespace {

std::string refusal(const std::string& text) {
    try {
        parseScene(text, "t.json");
    } catch (const SceneError& e) {
        return e.what();
    }
    return "(loaded)";
}

// A scene of the given bodies (the text of the "bodies" array's items).
std::string sceneOf(const std::string& bodies, const std::string& settings = "") {
    return R"({"format": 1, "gravity": [0, -9.81], )" + settings + R"("bodies": [)" + bodies + "]}";
}

const char* kGround = R"({"name": "ground", "type": "static", "position": [0, 0],
                          "shape": {"type": "segment", "a": [-5, 0], "b": [5, 0]}})";

TEST(ShapesScene, Refusals) {
    const struct {
        std::string bodies, message;
    } cases[] = {
        {R"({"position": [0, 0], "shape": {"type": "capsule", "length": 1, "radius": 0}})",
         "/bodies/0/shape/radius: must be > 0, got 0"},
        {R"({"position": [0, 0], "shape": {"type": "capsule", "length": -1, "radius": 1}})",
         "/bodies/0/shape/length: must be > 0, got -1"},
        {R"({"position": [0, 0], "shape": {"type": "capsule", "radius": 1}})",
         "/bodies/0/shape/length: missing (required)"},
        {R"({"name": "rail", "position": [0, 0], "shape": {"type": "segment", "a": [0, 0], "b": [1, 0]}})",
         "/bodies/0/type: a segment is for static bodies only: must be \"static\""},
        {R"({"type": "static", "position": [0, 0], "shape": {"type": "segment", "a": [1, 2], "b": [1, 2]}})",
         "/bodies/0/shape/b: same point as a"},
        {R"({"type": "static", "position": [0, 0], "shape": {"type": "segment", "a": [1, 2]}})",
         "/bodies/0/shape/b: missing (required)"},
        {R"({"type": "kinematic", "position": [0, 0], "shape": {"type": "chain", "points": [[0, 0], [1, 0]]}})",
         "/bodies/0/type: a chain is for static bodies only: must be \"static\""},
        {R"({"type": "static", "position": [0, 0], "shape": {"type": "chain", "points": [[0, 0], [1, 0], [1, 0]]}})",
         "/bodies/0/shape/points/2: same point as point 1 (a link of no length)"},
        {R"({"type": "static", "position": [0, 0], "shape": {"type": "chain", "points": [[0, 0], [1, 0]], "loop": true}})",
         "/bodies/0/shape/points: must be an array of 3 or more [x, y] points (a loop), got an "
         "array [[0,0],[1,0]]"},
        {R"({"type": "static", "position": [0, 0], "shape": {"type": "chain", "points": [[0, 0], [1, 0]], "loop": 1}})",
         "/bodies/0/shape/loop: must be true or false, got 1"},
        {R"({"position": [0, 0], "shapes": [{"type": "circle", "radius": 1},
                                              {"type": "segment", "a": [0, 0], "b": [1, 0]}]})",
         "/bodies/0/shapes/1/type: a segment cannot be part of a compound body"},
    };
    for (const auto& c : cases)
        EXPECT_EQ("t.json: /" + c.message.substr(1), refusal(sceneOf(c.bodies))) << c.bodies;
    // Soft bodies do not collide with capsules yet: one line says so.
    const std::string soft =
        R"({"type": "soft", "particles": [{"position": [0, 3], "mass": 1}, {"position": [1, 3], "mass": 1}],
            "boundary": [0, 1],
            "springs": [{"i": 0, "j": 1}]})";
    EXPECT_EQ("t.json: shape: capsules do not collide with soft bodies yet; a world may not have "
              "both",
              refusal(sceneOf(std::string(R"({"position": [0, 0], "shape": {"type": "capsule",
                  "length": 1, "radius": 0.5}}, )") +
                              soft)));
}

TEST(ShapesScene, AChainIsOneStaticBodyPerLinkNamedAfterIt) {
    const Scene s = parseScene(sceneOf(R"({"name": "track", "type": "static", "position": [1, 2],
        "shape": {"type": "chain", "points": [[0, 0], [2, 0], [2, 1]], "loop": true}})"),
                               "t.json");
    ASSERT_EQ(3u, s.bodies.size());
    const World w = buildWorld(s);
    ASSERT_EQ(3u, w.bodies().size());
    EXPECT_EQ("track/2", w.body(2).name);
    // The closing link runs from the last point back to the first, in the chain's frame.
    const Shape& closing = soleShape(w.body(2));
    EXPECT_EQ(ShapeType::Segment, closing.type());
    EXPECT_EQ(Vec2(2, 1), closing.vertices()[0]);
    EXPECT_EQ(Vec2(0, 0), closing.vertices()[1]);
    EXPECT_EQ(Vec2(1, 2), w.body(2).xf().p);
}

bool sameBits(double a, double b) {
    return std::memcmp(&a, &b, sizeof a) == 0;
}

// Saved after 60 steps and loaded, the world continues as the one never stopped, bit for bit,
// in every method; and the saved text lists the chain as a chain, loaded and saved again the same.
TEST(ShapesScene, SavedCapsulesSegmentsAndChainsContinueBitForBit) {
    // Guards expected: bits, not guards (the presets' guards:
    // Guards.SlowOnThePresetsOnlyWhereDocumented).
    const carom_test::ExpectGuards expected;
    const std::string text = sceneOf(std::string(kGround) + R"(,
        {"name": "ramp", "type": "static", "position": [0, 0],
         "shape": {"type": "chain", "points": [[-4, 3], [-2, 1], [0, 0.5]]}},
        {"name": "pill", "position": [-3, 3.6], "angle": -0.7,
         "shape": {"type": "capsule", "length": 0.8, "radius": 0.2}},
        {"name": "ball", "position": [2, 1], "shape": {"type": "circle", "radius": 0.3}})");
    for (Method method : {Method::ImpulseProjection, Method::Impulse, Method::Projection,
                          Method::Penalty, Method::Exact}) {
        SCOPED_TRACE(std::string(toString(method)));
        Scene s = parseScene(text, "t.json");
        s.settings.method = method;
        World straight = buildWorld(s);
        for (int i = 0; i < 60; ++i)
            straight.step();
        const std::string saved = serializeScene(captureScene(straight, "saved"));
        EXPECT_NE(std::string::npos, saved.find(R"("chain")")) << saved;
        const Scene reloaded = parseScene(saved, "saved.json");
        EXPECT_EQ(saved, serializeScene(reloaded));
        World continued = buildWorld(reloaded);
        for (int i = 0; i < 60; ++i) {
            straight.step();
            continued.step();
        }
        for (std::size_t i = 0; i < straight.bodies().size(); ++i) {
            const Body &x = straight.body(i), &y = continued.body(i);
            EXPECT_EQ(x.name, y.name);
            EXPECT_TRUE(sameBits(x.xf().p.x, y.xf().p.x)) << x.name;
            EXPECT_TRUE(sameBits(x.xf().p.y, y.xf().p.y)) << x.name;
            EXPECT_TRUE(sameBits(x.angle(), y.angle())) << x.name;
            EXPECT_TRUE(sameBits(x.v.x, y.v.x)) << x.name;
            EXPECT_TRUE(sameBits(x.w, y.w)) << x.name;
        }
    }
}

// Down a frictionless incline of angle θ a ball slides at a = g sin θ, its speed a t. The incline
// is a chain of three collinear links: the ball passes over their joins without striking the end
// of the next link (Shape::chainLink), never leaving the line, exactly as down one segment.
TEST(ShapesScene, ABallGoesDownAChainRampAsDownOneSegment) {
    const double theta = std::atan2(1.0, 2.0); // the ramp falls 1 in 2
    const Vec2 down{2 / std::sqrt(5.0), -1 / std::sqrt(5.0)},
        up{1 / std::sqrt(5.0), 2 / std::sqrt(5.0)};
    const Vec2 start = Vec2{-5, 2.5} + 0.25 * up; // touching the line x + 2y = 0 from above
    for (const char* ramp : {R"({"type": "chain", "points": [[-6, 3], [-2, 1], [2, -1], [6, -3]]})",
                             R"({"type": "segment", "a": [-6, 3], "b": [6, -3]})"}) {
        SCOPED_TRACE(ramp);
        World w = buildWorld(
            parseScene(sceneOf(std::string(R"({"name": "ramp", "type": "static", "position": [0, 0],
                "shape": )") + ramp +
                                   R"(}, {"name": "ball", "position": [0, 5],
                "shape": {"type": "circle", "radius": 0.25}})",
                               R"("friction": 0, "restitution": 0, )"),
                       "t.json"));
        const BodyId ball = *w.findBody("ball");
        w.setPosition(ball, start, 0);
        const double t = 1.5;
        for (int i = 0; i < static_cast<int>(std::lround(t / w.settings().timeStep)); ++i) {
            w.step();
            ASSERT_NEAR(0.25, glm::dot(w.body(ball).xf().p, up), w.settings().linearSlop);
        }
        const Body& b = w.body(ball);
        EXPECT_NEAR(9.81 * std::sin(theta) * t, glm::dot(b.v, down), 1e-6);
        EXPECT_NEAR(0, glm::dot(b.v, up), 1e-6);
    }
}

// A capsule laid across the join of two links of a flat chain rests on it, within the slop.
TEST(ShapesScene, ACapsuleRestsAcrossTheJoinOfAChain) {
    const Scene s = parseScene(sceneOf(R"({"name": "floor", "type": "static", "position": [0, 0],
            "shape": {"type": "chain", "points": [[-4, 0], [0, 0], [4, 0]]}},
          {"name": "pill", "position": [0.1, 0.3], "shape": {"type": "capsule", "length": 1,
           "radius": 0.25}})",
                                       R"("friction": 0.6, "restitution": 0, )"),
                               "t.json");
    World w = buildWorld(s);
    for (int i = 0; i < 240; ++i)
        w.step();
    const Body& b = *std::find_if(w.bodies().begin(), w.bodies().end(),
                                  [](const Body& x) { return x.name == "pill"; });
    EXPECT_GT(b.xf().p.y, 0.25 - w.settings().linearSlop - 1e-9);
    EXPECT_LT(b.xf().p.y, 0.25 + w.settings().linearSlop);
    EXPECT_NEAR(0.1, b.xf().p.x, 1e-3);
    EXPECT_NEAR(0, b.angle(), 1e-3);
}

} // namespace

namespace {

// A soft jelly dropped on a chain (a static polyline) lands and stays on it: no particle ever
// goes below the line (soft bodies collide with a segment's two edges, one each way).
TEST(ShapesScene, ASoftBodyLandsOnAChain) {
    World w = buildWorld(parseScene(
        sceneOf(R"({"name": "floor", "type": "static", "position": [0, 0],
              "shape": {"type": "chain", "points": [[-4, 1], [-1, 0], [4, 0.3]]}},
            {"name": "jelly", "type": "soft", "stiffness": 600, "damping": 0.4,
             "grid": {"position": [0, 1.9], "columns": 7, "rows": 5, "spacing": 0.2,
                      "mass": 3.5}})",
                R"("time_step": 0.004166666666666667, "restitution": 0.3, "friction": 0.5, )"),
        "t.json"));
    // The line: from (−4, 1) down to (−1, 0), then up to (4, 0.3).
    auto floorAt = [](double x) { return x < -1 ? 1 - (x + 4) / 3 : 0.3 * (x + 1) / 5; };
    for (int i = 0; i < 480; ++i) {
        w.step();
        for (const Particle& p : w.softBodies()[0].particles)
            ASSERT_GT(p.x.y, floorAt(p.x.x)) << "step " << i;
    }
}

} // namespace

namespace {

// Frictionless, a box and a capsule slide along a flat chain of short links at the speed they were
// given (3 m/s): the joins do not stop them (a lone segment's end would). The projection method
// slows them as much on one long segment (its own position passes), and the penalty method's
// springs let them sink deep enough to catch: docs/architecture.md.
TEST(ShapesScene, BoxAndCapsuleSlideOverTheJoinsOfAFlatChain) {
    for (Method method : {Method::ImpulseProjection, Method::Impulse, Method::Exact}) {
        SCOPED_TRACE(std::string(toString(method)));
        Scene s = parseScene(sceneOf(R"({"name": "floor", "type": "static", "position": [0, 0],
              "shape": {"type": "chain", "points": [[-4, 0], [-3, 0], [-2, 0], [-1, 0], [0, 0],
                                                    [1, 0], [2, 0], [3, 0], [20, 0]]}},
            {"name": "crate", "position": [-3.5, 0.25], "velocity": [3, 0],
             "shape": {"type": "box", "width": 0.5, "height": 0.5}},
            {"name": "pill", "position": [-1.5, 0.25], "velocity": [3, 0],
             "shape": {"type": "capsule", "length": 0.5, "radius": 0.25}})",
                                     R"("friction": 0, "restitution": 0, )"),
                             "t.json");
        s.settings.method = method;
        World w = buildWorld(s);
        for (int i = 0; i < 120; ++i)
            w.step();
        EXPECT_NEAR(3, w.body(*w.findBody("crate")).v.x, 0.03);
        EXPECT_NEAR(3, w.body(*w.findBody("pill")).v.x, 0.03);
    }
}

} // namespace
