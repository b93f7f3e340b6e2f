// Scene files (docs/scene-format.md): presets load with the values the spec gives, every
// kind of bad file is refused with its exact message, defaults and "x-" fields work.
#include "carom/scene.h"

#include <cmath>
#include <filesystem>
#include <gtest/gtest.h>

namespace fs = std::filesystem;
using namespace carom;

namespace {

const std::string kAssets = CAROM_ASSET_DIR "/scenes/";
const std::string kBroken = CAROM_TEST_DIR "/scenes/";

std::string refusal(const std::string& path) {
    try {
        loadScene(path);
    } catch (const SceneError& e) {
        return e.what();
    }
    return "(loaded)";
}

std::string refusalOfText(const std::string& text) {
    try {
        parseScene(text, "t.json");
    } catch (const SceneError& e) {
        return e.what();
    }
    return "(loaded)";
}

int dynamicCount(const World& w) {
    int n = 0;
    for (const Body& b : w.bodies())
        n += b.isDynamic();
    return n;
}

} // namespace

TEST(ScenePresets, EveryPresetLoadsAndBuilds) {
    int count = 0;
    for (const auto& entry : fs::directory_iterator(kAssets)) {
        if (entry.path().extension() != ".json") continue;
        SCOPED_TRACE(entry.path().string());
        Scene s;
        ASSERT_NO_THROW(s = loadScene(entry.path().string()));
        EXPECT_FALSE(s.name.empty());
        World w = buildWorld(s);
        EXPECT_GT(dynamicCount(w) + int(w.softBodies().size()), 0); // something moves
        ++count;
    }
    EXPECT_GE(count, 6);
}

TEST(ScenePresets, RigidBodyCollisionsIsMyPhysicsLabs) {
    const Scene s = loadScene(kAssets + "rigid-body-collisions.json");
    ASSERT_TRUE(s.walls);
    EXPECT_EQ(s.walls->left, -6);
    EXPECT_EQ(s.walls->right, 6);
    EXPECT_EQ(s.walls->bottom, -6);
    EXPECT_EQ(s.walls->top, 6);
    EXPECT_EQ(s.walls->thickness, 1);
    EXPECT_EQ(s.settings.gravity, Vec2(0, 0));
    EXPECT_EQ(s.settings.damping, 0);
    EXPECT_EQ(s.settings.restitution, 1);
    EXPECT_EQ(s.settings.friction, 0);
    const World w = buildWorld(s);
    EXPECT_EQ(w.bodies().size(), 3u + 4u); // three blocks and four walls
    for (const char* name : {"block1", "block2", "block3"}) {
        const auto id = w.findBody(name);
        ASSERT_TRUE(id) << name;
        const Body& b = w.body(*id);
        EXPECT_EQ(soleShape(b).type(), ShapeType::Box);
        EXPECT_EQ(soleShape(b).width(), 1);
        EXPECT_EQ(soleShape(b).height(), 3);
        EXPECT_EQ(b.mass, 1);
        EXPECT_DOUBLE_EQ(b.inertia, (1.0 + 9.0) / 12); // I = m (w² + h²) / 12
    }
}

TEST(ScenePresets, PyramidHas210UnitBoxesOnA200By2Ground) {
    const World w = buildWorld(loadScene(kAssets + "pyramid-20.json"));
    EXPECT_EQ(dynamicCount(w), 20 * 21 / 2);
    EXPECT_EQ(w.settings().gravity, Vec2(0, -10));
    EXPECT_EQ(w.settings().friction, 0.6);
    const Body& ground = w.body(*w.findBody("ground"));
    EXPECT_EQ(ground.type, BodyType::Static);
    EXPECT_EQ(soleShape(ground).width(), 200);
    EXPECT_EQ(soleShape(ground).height(), 2);
    EXPECT_EQ(ground.xf().p, Vec2(0, -1));
    double top = 0;
    for (const Body& b : w.bodies())
        if (b.isDynamic()) {
            EXPECT_EQ(b.mass, 1); // density 1 × 1 m²
            top = std::max(top, b.xf().p.y);
        }
    EXPECT_EQ(top, 19.5); // the 20th row's centre
}

TEST(ScenePresets, SmallPresetsSayWhatTheirNamesSay) {
    const Scene ball = loadScene(kAssets + "bouncing-ball.json");
    EXPECT_EQ(ball.settings.restitution, 0.8);
    EXPECT_EQ(ball.settings.gravity, Vec2(0, -9.81));
    const Scene stack = loadScene(kAssets + "box-stack.json");
    EXPECT_EQ(dynamicCount(buildWorld(stack)), 10);
    EXPECT_EQ(stack.settings.friction, 0.6);
    EXPECT_EQ(stack.settings.restitution, 0);
    const Scene cradle = loadScene(kAssets + "newtons-cradle.json");
    EXPECT_EQ(cradle.settings.method, Method::Exact);
    ASSERT_EQ(cradle.bodies.size(), 5u);
    for (std::size_t i = 0; i + 1 < cradle.bodies.size(); ++i) // touching: centres 2r apart
        EXPECT_EQ(cradle.bodies[i + 1].position.x - cradle.bodies[i].position.x, 1.0);
    const Scene incline = loadScene(kAssets + "incline.json");
    const World w = buildWorld(incline);
    // tan 30° = 0.577 lies between the two friction coefficients.
    EXPECT_GT(*w.body(*w.findBody("box-sticks")).friction, std::tan(M_PI / 6));
    EXPECT_LT(*w.body(*w.findBody("box-slides")).friction, std::tan(M_PI / 6));
}

struct Broken {
    const char* file;
    const char* message; // after "FILE: "
};

TEST(SceneErrors, EveryBrokenFileIsRefusedWithItsMessage) {
    const Broken cases[] = {
        {"negative-radius.json", "/bodies/2/shape/radius: must be > 0, got -1"},
        {"contact-bad-pair.json",
         "/contacts/0/b: must be a body id with a < b < 2, got a = 0, b = 5"},
        {"contact-negative-impulse.json",
         "/contacts/0/points/0/normal_impulse: must be >= 0, got -1"},
        {"found-bad-pair.json", "/found/0/b: must be a body id with a < b < 2, got a = 1, b = 1"},
        {"found-too-many-points.json",
         "/found/0/points: must be an array of 1 or 2 points, got an array "
         "[{\"id\":0,\"on_a\":[0,1],\"on_b\":[0,-1]},..."},
        {"exact-backoff-range.json", "/exact_backoff/wait: must be a whole number in 1..8, got 9"},
        {"missing-format.json", "/format: missing (required)"},
        {"format-2.json", "/format: must be 1 (the only version there is), got 2"},
        {"missing-shape.json", "/bodies/0/shape: missing (required)"},
        {"missing-position.json", "/bodies/0/position: missing (required)"},
        {"wrong-type.json", "/damping: must be a number, got \"a lot\""},
        {"wrong-vector.json", "/gravity: must be [x, y] (two numbers), got an array [0,-9.81,0]"},
        {"not-object.json", "must be an object, got an array [1,2,3]"}, // the document: no pointer
        {"too-large.json", "/bodies/0/position/0: must be at most 1e12 in size, got 1e+300"},
        {"restitution-range.json", "/restitution: must be in [0, 1], got 1.5"},
        {"negative-friction.json", "/bodies/0/friction: must be >= 0, got -0.5"},
        {"zero-time-step.json", "/time_step: must be > 0, got 0"},
        {"mass-and-density.json", "/bodies/0: give mass or density, not both"},
        {"non-convex.json", "/bodies/0/shape/vertices: polygon is not convex at vertex 2 (every "
                            "corner must turn the same way)"},
        {"degenerate-polygon.json", "/bodies/0/shape/vertices: degenerate polygon (zero area)"},
        {"self-intersecting.json",
         "/bodies/0/shape/vertices: polygon crosses itself (it winds more than once)"},
        {"too-few-vertices.json", "/bodies/0/shape/vertices: need 3 or more vertices, got 2"},
        {"duplicate-names.json",
         "/bodies/1/name: duplicate name \"ball\" (also the name of /bodies/0)"},
        {"duplicate-default-name.json",
         "/bodies/1/name: duplicate name \"body1\" (also the name of /bodies/0)"},
        {"duplicate-key.json", "/gravity: duplicate key"},
        {"unknown-field.json",
         "/bodies/0/colour: unknown field (names starting with \"x-\" are free for comments)"},
        {"unknown-top-field.json",
         "/gravty: unknown field (names starting with \"x-\" are free for comments)"},
        {"unknown-shape.json", "/bodies/0/shape/type: must be \"circle\", \"box\", \"polygon\", "
                               "\"capsule\", \"segment\" or \"chain\", got \"triangle\""},
        {"unknown-method.json", "/method: must be one of \"impulse+projection\", \"impulse\", "
                                "\"projection\", \"penalty\", \"exact\", got \"magic\""},
        {"bad-walls.json", "/walls/right: must be > left (6), got -6"},
        {"bad-body-type.json",
         "/bodies/0/type: must be \"dynamic\", \"static\", \"kinematic\" or \"soft\", got "
         "\"floating\""},
        {"tiny-shape.json", "/bodies/0: mass 0 kg and moment of inertia 0 kg m^2 must be finite "
                            "and > 0 (is the shape too small or too large?)"},
        {"wall-name.json", "/bodies/0/name: the name \"wall-top\" belongs to one of the walls"},
        {"empty-name.json", "/bodies/0/name: must not be empty"},
        {"huge-number.json", "line 2, column 14: bad JSON: number 1e400 is too large for a double"},
    };
    for (const Broken& c : cases) {
        const std::string path = kBroken + c.file;
        EXPECT_EQ(refusal(path), path + ": " + c.message);
    }
    // Bad JSON: where (line and column) and why, in nlohmann's words after "bad JSON: ".
    const std::string bad = refusal(kBroken + "bad-json.json");
    EXPECT_EQ(bad.rfind(kBroken + "bad-json.json: line 4, column 1: bad JSON: ", 0), 0u) << bad;
    // A NUL byte would end the document early, hiding what follows.
    EXPECT_EQ(refusalOfText(std::string(R"({"format": 1})") + '\0' + "junk"),
              "t.json: line 1, column 14: bad JSON: a NUL byte");
    // A long refused value is cut between characters: 40 "é" (two bytes each) quoted as 18 and
    // "..." (the fuzzer's crash: a cut inside a character made invalid UTF-8, which JSON's
    // writer threw on).
    std::string accents;
    for (int i = 0; i < 40; ++i)
        accents += "\u00e9";
    EXPECT_EQ(refusalOfText(R"({"format": 1, "damping": ")" + accents + "\"}"),
              "t.json: /damping: must be a number, got \"" + accents.substr(0, 36) + "...");
    const std::string nan = refusal(kBroken + "nan.json");
    EXPECT_EQ(nan.rfind(kBroken + "nan.json: line 1, column 26: bad JSON: ", 0), 0u) << nan;
}

TEST(SceneErrors, EveryBrokenFileHasACase) {
    int files = 0;
    for (const auto& entry : fs::directory_iterator(kBroken))
        if (entry.path().extension() == ".json") {
            ++files;
            EXPECT_NE(refusal(entry.path().string()), "(loaded)") << entry.path();
        }
    EXPECT_EQ(files, 37);
}

TEST(SceneErrors, MissingFileAndDirectory) {
    EXPECT_EQ(refusal(kBroken + "no-such-file.json"),
              kBroken + "no-such-file.json: cannot read: No such file or directory");
    EXPECT_EQ(refusal(kBroken), kBroken + ": cannot read: is a directory");
}

TEST(SceneErrors, ShapeAndRangeChecksAtEveryField) {
    const std::string head = R"({"format": 1, "bodies": [{"position": [0, 0], )";
    EXPECT_EQ(refusalOfText(head + R"("shape": {"type": "box", "width": 1, "height": 0}}]})"),
              "t.json: /bodies/0/shape/height: must be > 0, got 0");
    EXPECT_EQ(refusalOfText(head + R"("shape": {"type": "circle", "radius": 1, "r": 2}}]})"),
              "t.json: /bodies/0/shape/r: unknown field (names starting with \"x-\" are free for "
              "comments)");
    EXPECT_EQ(refusalOfText(head + R"("shape": {"type": "circle", "radius": 1}, "mass": 0}]})"),
              "t.json: /bodies/0/mass: must be > 0, got 0");
    EXPECT_EQ(refusalOfText(head +
                            R"("shape": {"type": "circle", "radius": 1}, "velocity": [0, "a"]}]})"),
              "t.json: /bodies/0/velocity/1: must be a number, got \"a\"");
    EXPECT_EQ(refusalOfText(R"({"format": 1.0})"),
              "t.json: /format: must be 1 (the only version there is), got 1.0");
    EXPECT_EQ(refusalOfText(R"({"format": 1, "damping": -1})"),
              "t.json: /damping: must be >= 0, got -1");
    EXPECT_EQ(refusalOfText(R"({"format": 1, "time_step": 2})"),
              "t.json: /time_step: must be <= 1 s, got 2");
    EXPECT_EQ(refusalOfText(R"({"format": 1, "integrator": "verlet"})"),
              "t.json: /integrator: must be one of \"euler\", \"rk4\", got \"verlet\"");
    EXPECT_EQ(refusalOfText(R"({"format": 1, "bodies": {}})"),
              "t.json: /bodies: must be an array of bodies, got an object {}");
    EXPECT_EQ(refusalOfText(R"({"format": 1, "walls": {"left": -1, "right": 1, "bottom": 0}})"),
              "t.json: /walls/top: missing (required)");
    EXPECT_EQ(refusalOfText(R"({"format": 1, "bodies": [{"a/b": 1, "position": [0, 0]}]})"),
              "t.json: /bodies/0/a~1b: unknown field (names starting with \"x-\" are free for "
              "comments)");
    EXPECT_EQ(refusalOfText(R"({"format": 1, "solver": {"velocity_iterations": 0}})"),
              "t.json: /solver/velocity_iterations: must be a whole number in 1..1000, got 0");
    EXPECT_EQ(refusalOfText(R"({"format": 1, "solver": {"warm_starting": 1}})"),
              "t.json: /solver/warm_starting: must be true or false, got 1");
    EXPECT_EQ(refusalOfText(R"({"format": 1, "interaction": {"thrust": -1}})"),
              "t.json: /interaction/thrust: must be >= 0, got -1");
    EXPECT_EQ(refusalOfText(R"({"format": 1, "bodies": [{"position": [0,0], "x": 1, "x": 2}]})"),
              "t.json: /bodies/0/x: duplicate key");
}

TEST(SceneDefaults, AreTheSpecs) {
    const Scene s =
        parseScene(R"({"format": 1, "bodies": [{"shape": {"type": "circle", "radius": 2},
                       "position": [1, 2]}]})",
                   "t.json");
    EXPECT_EQ(s.name, "");
    EXPECT_EQ(s.settings.gravity, Vec2(0, 0));
    EXPECT_EQ(s.settings.damping, 0);
    EXPECT_EQ(s.settings.angularDamping, 0);
    EXPECT_EQ(s.settings.restitution, 1);
    EXPECT_EQ(s.settings.friction, 0);
    EXPECT_EQ(s.settings.timeStep, 1.0 / 60);
    EXPECT_FALSE(s.walls);
    ASSERT_EQ(s.bodies.size(), 1u);
    const BodyDef& d = s.bodies[0];
    EXPECT_EQ(d.name, "body0");
    EXPECT_EQ(d.type, BodyType::Dynamic);
    EXPECT_EQ(d.angle, 0);
    EXPECT_EQ(d.velocity, Vec2(0, 0));
    EXPECT_EQ(d.angularVelocity, 0);
    EXPECT_FALSE(d.restitution);
    EXPECT_FALSE(d.friction);
    const World w = buildWorld(s);
    EXPECT_DOUBLE_EQ(w.bodies()[0].mass, M_PI * 4); // density 1 kg/m² × π r²
    const Scene walls = parseScene(
        R"({"format": 1, "walls": {"left": -1, "right": 1, "bottom": -2, "top": 2}})", "t.json");
    ASSERT_TRUE(walls.walls);
    EXPECT_EQ(walls.walls->thickness, 1);
}

TEST(SceneDefaults, XFieldsAreIgnoredAndExtensionsRead) {
    const Scene s = parseScene(
        R"({"format": 1, "x-tool": {"anything": [1, 2]}, "method": "penalty",
            "integrator": "rk4", "restitution_mix": "product", "friction_mix": "max",
            "bodies": [{"x-note": "hi", "shape": {"type": "circle", "radius": 1, "x-c": 0},
                        "position": [0, 0], "type": "kinematic"}]})",
        "t.json");
    EXPECT_EQ(s.settings.method, Method::Penalty);
    EXPECT_EQ(s.settings.integrator, Integrator::RK4);
    EXPECT_EQ(s.settings.restitutionMix, MixRule::Product);
    EXPECT_EQ(s.settings.frictionMix, MixRule::Max);
    EXPECT_EQ(s.bodies.at(0).type, BodyType::Kinematic);
}

TEST(SceneDefaults, PolygonPositionIsItsCentroid) {
    // A right triangle with legs 3 along x and y: centroid (1, 1) in the file's coordinates.
    const Scene s = parseScene(R"({"format": 1, "bodies": [{"shape": {"type": "polygon",
        "vertices": [[0, 0], [3, 0], [0, 3]]}, "position": [5, 5]}]})",
                               "t.json");
    const World w = buildWorld(s);
    const Body& b = w.bodies()[0];
    EXPECT_EQ(b.xf().p, Vec2(5, 5));
    const auto& v = soleShape(b).vertices();
    ASSERT_EQ(v.size(), 3u);
    EXPECT_NEAR(v[0].x, -1, 1e-15);
    EXPECT_NEAR(v[0].y, -1, 1e-15);
    EXPECT_DOUBLE_EQ(b.mass, 4.5); // area ½·3·3, density 1
}
