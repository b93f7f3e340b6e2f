// The app's session without a window: the world sliders over bodies with their own values
// ("mixed"), Reset bringing back the scene's values, the "objects" slider's scenes, and
// inspector edits kept only when applied to the scene.
#include "session.h"

#include "carom/scene.h"
#include <gtest/gtest.h>

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
