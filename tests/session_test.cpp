// The app's session without a window: the world sliders over bodies with their own values
// ("mixed"), Reset bringing back the scene's values, the "objects" slider's scenes, and
// inspector edits kept only when applied to the scene.
#include "session.h"

#include "carom/scene.h"
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <unistd.h>

using app::Coefficient;
using app::Session;

namespace {

Session open(const std::string& preset) {
    Session s;
    app::replaceScene(s, carom::loadScene(std::string(CAROM_ASSET_DIR) + "/scenes/" + preset),
                      preset);
    return s;
}

double frictionOf(const Session& s, const char* name) {
    return s.world.frictionOf(s.world.body(*s.world.findBody(name)));
}

// rigid-body-collisions recorded into `rec` for `steps` steps, block1's up thruster firing from
// step 10 to 40.
Session thrustedRecording(const std::string& rec, int steps) {
    Session s;
    s.recorder = std::make_shared<carom::RecordingWriter>(rec);
    app::replaceScene(
        s, carom::loadScene(std::string(CAROM_ASSET_DIR) + "/scenes/rigid-body-collisions.json"),
        "");
    for (int i = 0; i < steps; ++i) {
        if (i == 10) app::apply(s, carom::input::Thrust{s.thrusters[0].ids[app::Up], true});
        if (i == 40) app::apply(s, carom::input::Thrust{s.thrusters[0].ids[app::Up], false});
        app::stepSession(s);
    }
    return s;
}

} // namespace

TEST(Session, BodiesWithTheirOwnValuesMakeTheSliderMixed) {
    Session s = open("incline.json"); // friction 0.5, 0.7 and 0.3 on the bodies, 0 in the world
    EXPECT_FALSE(app::commonCoefficient(s.world, Coefficient::Friction));
    ASSERT_TRUE(app::commonCoefficient(s.world, Coefficient::Restitution));
    EXPECT_EQ(*app::commonCoefficient(s.world, Coefficient::Restitution), 0);
    Session b = open("rigid-body-collisions.json");
    ASSERT_TRUE(app::commonCoefficient(b.world, Coefficient::Friction));
    EXPECT_EQ(*app::commonCoefficient(b.world, Coefficient::Friction), b.world.settings().friction);
}

TEST(Session, MovingTheSliderSetsEveryBodyAndResetBringsBackTheScenesValues) {
    Session s = open("incline.json");
    carom::WorldSettings w = s.world.settings();
    w.friction = 0.4;
    s.world.setSettings(w);
    app::dropOwnCoefficients(s, Coefficient::Friction);
    ASSERT_TRUE(app::commonCoefficient(s.world, Coefficient::Friction));
    EXPECT_EQ(*app::commonCoefficient(s.world, Coefficient::Friction), 0.4);
    EXPECT_EQ(frictionOf(s, "box-sticks"), 0.4);
    app::reset(s);
    EXPECT_EQ(frictionOf(s, "box-sticks"), 0.7);
    EXPECT_EQ(frictionOf(s, "box-slides"), 0.3);
    EXPECT_FALSE(app::commonCoefficient(s.world, Coefficient::Friction));
    EXPECT_EQ(s.world.settings().friction, 0.4); // the live setting is kept for bodies without one
    EXPECT_TRUE(s.resetNote.empty());
}

TEST(Session, ObjectsSliderAppliesToNumberedBlocksOnly) {
    EXPECT_TRUE(app::isBlocksScene(open("rigid-body-collisions.json").scene));
    EXPECT_FALSE(app::isBlocksScene(open("billiards.json").scene));
    EXPECT_FALSE(app::isBlocksScene(open("incline.json").scene));
    EXPECT_FALSE(app::isBlocksScene(carom::Scene{}));
}

TEST(Session, InspectorEditsAreDroppedByResetUnlessAppliedToTheScene) {
    Session s = open("incline.json");
    const carom::BodyId id = *s.world.findBody("box-slides");
    const carom::Vec2 start = s.world.body(id).xf().p;
    s.world.setPosition(id, {1, 2}, 0.5);
    s.world.setFriction(id, 0.9);
    app::noteInspectorEdit(s, id);
    app::reset(s);
    EXPECT_EQ(s.world.body(id).xf().p, start);
    EXPECT_EQ(frictionOf(s, "box-slides"), 0.3);
    EXPECT_NE(s.resetNote.find("inspector edits dropped"), std::string::npos);
    EXPECT_NE(s.resetNote.find("box-slides"), std::string::npos);

    s.world.setPosition(id, {1, 2}, 0.5);
    s.world.setFriction(id, 0.9);
    s.world.setMass(id, 3);
    app::noteInspectorEdit(s, id);
    ASSERT_TRUE(app::applyToScene(s, id));
    app::reset(s);
    EXPECT_TRUE(s.resetNote.empty());
    EXPECT_EQ(s.world.body(id).xf().p, carom::Vec2(1, 2));
    EXPECT_DOUBLE_EQ(s.world.body(id).angle(), 0.5);
    EXPECT_EQ(frictionOf(s, "box-slides"), 0.9);
    EXPECT_DOUBLE_EQ(s.world.body(id).mass, 3);
}

// issue 10: inputs go through apply() into the history and the recording; a seek back and an
// input there take another path (the later history dropped, the world written to the recording);
// carom-cli replay of the recording ends where the session ended, bit for bit.
TEST(Session, InputsInThePastTakeAnotherPathThatReplays) {
    const std::string dir = testing::TempDir() + "carom-session-" + std::to_string(::getpid());
    const std::string rec = dir + ".rec", replayed = dir + "-a.json", saved = dir + "-b.json";
    Session s = thrustedRecording(rec, 100);
    using namespace carom::input;
    const std::uint64_t end = s.world.stepCount();
    EXPECT_EQ(s.history.last(), end);
    // Back to step 30 and forward along the history: the same state as before.
    const std::string at100 = carom::serializeScene(carom::captureScene(s.world, "x"));
    app::seek(s, 30);
    EXPECT_TRUE(s.world.thrusters()[s.thrusters[0].ids[app::Up]].firing); // fired at 10..40
    while (s.world.stepCount() < end)
        app::stepSession(s);
    EXPECT_EQ(carom::serializeScene(carom::captureScene(s.world, "x")), at100);
    // Back to 25, and the elasticity changed there: the history after 25 goes.
    app::seek(s, 25);
    carom::WorldSettings w = s.world.settings();
    w.restitution = 0.5;
    app::apply(s, Settings{w});
    EXPECT_EQ(s.history.last(), 25u);
    for (int i = 0; i < 50; ++i)
        app::stepSession(s);
    app::finishRecording(s);
    carom::saveScene(carom::captureScene(s.world, s.scene.name, s.scene.description), saved);
    const std::string cmd =
        std::string(CAROM_CLI) + " replay " + rec + " --save " + replayed + " >/dev/null 2>&1";
    ASSERT_EQ(std::system(cmd.c_str()), 0);
    auto read = [](const std::string& p) {
        std::ifstream in(p);
        return std::string(std::istreambuf_iterator<char>(in), {});
    };
    EXPECT_EQ(read(replayed), read(saved));
    EXPECT_EQ(carom::loadScene(replayed).settings.restitution, 0.5);
    for (const std::string& p : {rec, replayed, saved})
        std::remove(p.c_str());
}

// Issue 44, item 5: a recording that branched (the session went back to step 25 and changed the
// elasticity there), played in the app, keeps its timeline from step 0: before the branch the
// thruster fired from 10 to 40 as it did; at its end the world is the session's, bit for bit.
TEST(Session, AReplayThatBranchedKeepsTheTimeBeforeTheBranch) {
    const std::string rec =
        testing::TempDir() + "carom-branch-" + std::to_string(::getpid()) + ".rec";
    Session s = thrustedRecording(rec, 60);
    using namespace carom::input;
    app::seek(s, 25);
    carom::WorldSettings w = s.world.settings();
    w.restitution = 0.5;
    app::apply(s, Settings{w});
    for (int i = 0; i < 50; ++i)
        app::stepSession(s);
    app::finishRecording(s);
    const std::string end = carom::serializeScene(carom::captureScene(s.world, "x"));

    Session r;
    app::openRecording(r, carom::loadRecording(rec), rec);
    for (int guard = 0; guard < 1000; ++guard) {
        while (!r.history.atEnd(r.world))
            app::stepSession(r);
        if (!app::followRecording(r)) break;
    }
    EXPECT_EQ(r.world.stepCount(), 75u);
    EXPECT_EQ(r.history.first(), 0u); // the time before the branch kept
    EXPECT_EQ(carom::serializeScene(carom::captureScene(r.world, "x")), end);
    EXPECT_EQ(r.world.settings().restitution, 0.5);
    app::seek(r, 20); // before the branch: the thruster fires, as it did
    EXPECT_TRUE(r.world.thrusters()[r.thrusters[0].ids[app::Up]].firing);
    EXPECT_EQ(r.world.settings().restitution, 1.0);
    std::remove(rec.c_str());
}

// Issue 44's ghost spring: a body dragged from step 10 to 40; back at step 25, where the spring
// held it, an input with no button held (the elasticity changed) starts from the mouse of now: the
// spring is let go, in the world and in the history, and stepping on leaves the body free.
TEST(Session, AnInputInThePastStartsFromTheMouseOfNow) {
    Session s = open("rigid-body-collisions.json");
    using namespace carom::input;
    const carom::BodyId b = *s.world.findBody("block1");
    for (int i = 0; i < 60; ++i) {
        if (i == 10) {
            app::apply(s, SpringOn{b, {0, 0}, {0, 2}, 1.0, std::nullopt});
            s.springHeld = true;
        }
        if (i == 40) {
            app::apply(s, SpringOff{});
            s.springHeld = false;
        }
        app::stepSession(s);
    }
    app::seek(s, 25);
    ASSERT_TRUE(s.world.mouseSpring()); // the past as it was
    carom::WorldSettings w = s.world.settings();
    w.restitution = 0.5;
    app::apply(s, Settings{w});
    EXPECT_FALSE(s.world.mouseSpring());
    for (int i = 0; i < 10; ++i)
        app::stepSession(s);
    EXPECT_FALSE(s.world.mouseSpring());
    // Back along the new path and forward again: the history holds the letting go.
    app::seek(s, 26);
    EXPECT_FALSE(s.world.mouseSpring());
}
