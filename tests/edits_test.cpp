// Build mode's edits (app/edits.h, carom/build_edits.h): undo and redo of every edit kind give back
// the world's bits, and a scene drawn from an empty box, saved, reopened and run, steps on as its
// recording replayed by carom-cli; the drawing tools' shapes (app/drawn_shape.h).
#include "edits.h"

#include "app_driving.h"
#include "carom/recording.h"
#include "carom/scene.h"
#include "drawn_shape.h"
#include <gtest/gtest.h>

namespace {

using carom::test::readAll;
using carom::test::tempDir;
namespace in = carom::input;

app::Session openEmpty() {
    app::Session s;
    app::replaceScene(s, app::emptyScene(), "");
    return s;
}

// The world's whole state as text: equal texts, the same bits.
std::string bits(const carom::World& w) {
    return carom::serializeScene(carom::captureScene(w, "untitled"));
}

carom::BodyDef drawn(const carom::World& w, const std::string& stem, carom::Shape shape,
                     carom::Vec2 at, double angle = 0) {
    carom::BodyDef d;
    d.name = app::freeBodyName(w, stem);
    d.shape = std::move(shape);
    d.position = at;
    d.angle = angle;
    return d;
}

// Undo gives back the world before the edit, redo the world after it, bit for bit.
void expectUndoRedo(app::Session& s, const std::function<void()>& makeEdit) {
    const std::string before = bits(s.world);
    makeEdit();
    const std::string after = bits(s.world);
    ASSERT_NE(before, after);
    ASSERT_TRUE(app::undo(s));
    EXPECT_EQ(bits(s.world), before);
    EXPECT_EQ(carom::serializeScene(s.scene),
              carom::serializeScene(carom::captureScene(s.world, "untitled")));
    ASSERT_TRUE(app::redo(s));
    EXPECT_EQ(bits(s.world), after);
}

} // namespace

TEST(Edits, EveryKindUndoesAndRedoes) {
    app::Session s = openEmpty();
    EXPECT_FALSE(app::undo(s));
    EXPECT_FALSE(app::redo(s));
    expectUndoRedo(s, [&] {
        app::edit(s, in::AddBody{drawn(s.world, "box", carom::Shape::box(1, 0.5), {0, 0})});
    });
    expectUndoRedo(s, [&] {
        app::edit(s, in::AddBody{drawn(s.world, "circle", carom::Shape::circle(0.4), {2, 0})});
    });
    ASSERT_EQ(s.world.body(0).name, "box1"); // before the four walls
    ASSERT_EQ(s.world.body(1).name, "circle1");
    EXPECT_TRUE(s.world.origin(2).wall);
    expectUndoRedo(s, [&] { app::edit(s, in::Pin{0, true}); });
    EXPECT_FALSE(s.world.body(0).isDynamic());
    expectUndoRedo(s, [&] { app::edit(s, in::Rope{0, 1, {0.5, 0}, {2, 0.4}}); });
    EXPECT_EQ(s.world.joints().size(), 1u);
    expectUndoRedo(s, [&] { // a drag: many poses, one edit
        app::beginEdit(s);
        app::apply(s, in::Pose{1, {2.5, 1}, 0.3});
        app::apply(s, in::Pose{1, {3, 1.5}, 0.6});
        app::endEdit(s);
    });
    expectUndoRedo(s, [&] { app::edit(s, in::RemoveBody{0}); });
    EXPECT_EQ(s.world.joints().size(), 0u); // the rope went with its body
    // Undone all the way: the empty box again.
    while (app::undo(s)) {
    }
    EXPECT_EQ(bits(s.world), bits(openEmpty().world));
}

TEST(Edits, RefusedEditChangesNothing) {
    app::Session s = openEmpty();
    const std::string before = bits(s.world);
    EXPECT_THROW(app::edit(s, in::RemoveBody{9}), std::invalid_argument);
    EXPECT_THROW(app::edit(s, in::Pin{0, false}), std::invalid_argument); // a wall
    carom::BodyDef taken = drawn(s.world, "ball", carom::Shape::circle(1), {});
    taken.name = "wall-left"; // a name the world has
    EXPECT_THROW(app::edit(s, in::AddBody{taken}), std::invalid_argument);
    EXPECT_EQ(bits(s.world), before);
    EXPECT_FALSE(app::undo(s));
}

// A scene drawn from an empty box, five bodies, one pinned, a rope, one moved: saved and reopened,
// it steps on with the same bits as the world in the session and as its recording replayed with
// carom-cli replay.
TEST(Edits, DrawnSceneSavedReopenedAndReplayedGivesTheSameBits) {
    const auto dir = tempDir("carom-edits", "untitled");
    const std::string run = (dir / "run.jsonl").string();
    app::Session s;
    s.recorder = std::make_shared<carom::RecordingWriter>(run);
    app::replaceScene(s, app::emptyScene(), "");
    for (int k = 0; k < 30; ++k) // a little time before the edits: they come at a later step
        app::stepSession(s);
    const carom::World& w = s.world;
    app::edit(s, in::AddBody{drawn(w, "box", carom::Shape::box(1.2, 0.6), {-2, -1}, 0.2)});
    app::edit(s, in::AddBody{drawn(w, "circle", carom::Shape::circle(0.5), {0, 2})});
    app::edit(s, in::AddBody{drawn(w, "polygon",
                                   carom::Shape::polygon({{0, 0}, {1, 0}, {1.2, 0.8}, {0.1, 1}}),
                                   {2, 0})});
    app::edit(s, in::AddBody{drawn(w, "capsule", carom::Shape::capsule(1, 0.25), {-3, 3}, 0.5)});
    app::edit(s, in::AddBody{drawn(w, "box", carom::Shape::box(0.4, 0.4), {-4, 4})});
    app::edit(s, in::Pin{4, true});
    app::edit(s, in::Rope{4, 3, {-4, 3.8}, {-3.2, 3.2}});
    app::beginEdit(s);
    app::apply(s, in::Pose{1, {0.5, 2.5}, 0.1});
    app::endEdit(s);
    app::edit(s, in::Pin{4, false}); // and undone: the pin stays
    ASSERT_TRUE(app::undo(s));
    ASSERT_EQ(w.bodies().size(), 5u + 4u);
    EXPECT_FALSE(w.body(4).isDynamic());
    const std::string saved = (dir / "drawn.json").string();
    carom::saveScene(carom::captureScene(w, s.scene.name), saved);
    for (int k = 0; k < 240; ++k)
        app::stepSession(s);
    app::finishRecording(s);
    s.recorder.reset();

    carom::World reopened = carom::buildWorld(carom::loadScene(saved));
    for (int k = 0; k < 240; ++k)
        reopened.step();
    EXPECT_EQ(bits(reopened), bits(s.world));

    const std::string replayed = (dir / "replayed.json").string();
    const std::string cmd = std::string(CAROM_CLI) + " replay '" + run + "' --save '" + replayed +
                            "' >/dev/null 2>'" + (dir / "stderr").string() + "'";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << readAll(dir / "stderr");
    EXPECT_EQ(readAll(dir / "stderr"), "");
    EXPECT_EQ(carom::serializeScene(carom::loadScene(replayed)),
              carom::serializeScene(carom::captureScene(s.world, s.scene.name)));
    const std::string text = readAll(run);
    for (const char* kind : {"\"add_body\"", "\"pin\"", "\"rope\"", "\"pose\""})
        EXPECT_NE(text.find(kind), std::string::npos) << kind;
    std::filesystem::remove_all(dir);
}

TEST(Edits, RecordingReadsTheNewInputsAndRefusesBadOnes) {
    const auto dir = tempDir("carom-edits", "lines");
    const std::string run = (dir / "run.jsonl").string();
    {
        app::Session s;
        s.recorder = std::make_shared<carom::RecordingWriter>(run);
        app::replaceScene(s, app::emptyScene(), "");
    }
    const std::string start = readAll(run); // the header and the world line
    const carom::Recording bad =
        carom::parseRecording(start + "{\"at\":0,\"do\":\"remove_body\",\"body\":0}\n" +
                                  "{\"at\":0,\"do\":\"pin\",\"body\":0,\"pinned\":\"yes\"}\n",
                              "RUN");
    EXPECT_EQ(bad.inputs.size(), 2u);
    EXPECT_NE(bad.damage.find("RUN: line 4: /pinned: must be true or false"), std::string::npos)
        << bad.damage;
    const carom::Recording none = carom::parseRecording(
        start + "{\"at\":0,\"do\":\"add_body\",\"scene\":{\"format\":1,\"bodies\":[]}}\n", "RUN");
    EXPECT_EQ(none.inputs.size(), 1u);
    EXPECT_NE(none.damage.find("/scene: must hold one body"), std::string::npos) << none.damage;
    std::filesystem::remove_all(dir);
}

// The tools' shapes: a box from corner to corner, a circle from centre to rim, a polygon from
// centre to a vertex, a capsule from end to end; a drag shorter than kSmallestDrawn draws nothing.
TEST(Edits, DrawnShapesFollowTheDrag) {
    using app::DrawTool;
    const auto box = app::drawnBody(DrawTool::Box, {2, 1}, {0, 0}, 5, "box1");
    ASSERT_TRUE(box);
    EXPECT_EQ(box->shape.width(), 2);
    EXPECT_EQ(box->shape.height(), 1);
    EXPECT_EQ(box->position, carom::Vec2(1, 0.5));
    const auto circle = app::drawnBody(DrawTool::Circle, {1, 1}, {1, 4}, 5, "circle1");
    ASSERT_TRUE(circle);
    EXPECT_EQ(circle->shape.radius(), 3);
    EXPECT_EQ(circle->position, carom::Vec2(1, 1));
    const auto polygon = app::drawnBody(DrawTool::Polygon, {0, 0}, {0, 2}, 6, "polygon1");
    ASSERT_TRUE(polygon);
    EXPECT_EQ(polygon->shape.vertices().size(), 6u);
    EXPECT_DOUBLE_EQ(polygon->angle, M_PI / 2); // a vertex at the cursor
    const auto capsule = app::drawnBody(DrawTool::Capsule, {0, 0}, {3, 0}, 5, "capsule1");
    ASSERT_TRUE(capsule);
    EXPECT_DOUBLE_EQ(capsule->shape.length() + 2 * capsule->shape.radius(), 3);
    EXPECT_EQ(capsule->position, carom::Vec2(1.5, 0));
    EXPECT_FALSE(app::drawnBody(DrawTool::Box, {0, 0}, {1, 0.01}, 5, "box2"));       // a flat box
    EXPECT_FALSE(app::drawnBody(DrawTool::Circle, {0, 0}, {0.01, 0}, 5, "circle2")); // a click
    EXPECT_EQ(app::onGrid({0.13, -0.37}), carom::Vec2(0.25, -0.25));
}
