// The app's stepper: real time into fixed steps of the world.
#include "stepper.h"

#include <cmath>
#include <gtest/gtest.h>

using app::Stepper;
using carom::World;

TEST(Stepper, TurnsRealTimeIntoFixedSteps) {
    World w;
    Stepper st;
    EXPECT_EQ(st.advance(w, 0.5 / 60), 0);
    EXPECT_EQ(st.advance(w, 0.6 / 60), 1); // the accumulator kept the half step
    st.timeRate = 2;
    EXPECT_EQ(st.advance(w, 1.0 / 60), 2);
    st.timeRate = 1;
    EXPECT_EQ(st.advance(w, 10.0), st.maxStepsPerFrame); // capped: a slow frame cannot snowball
    // Of the 10 s, the backlog kept is a quarter of a second (15 steps of 1/60 s, one less if
    // rounding leaves the last a hair short), made up over the next frames (of a microsecond
    // each, below); the rest is dropped.
    const double frame = 1e-6;
    auto catchUp = [&] {
        int steps = 0;
        for (int n; (n = st.advance(w, frame)) > 0;) {
            EXPECT_LE(n, st.maxStepsPerFrame);
            steps += n;
        }
        return steps;
    };
    EXPECT_EQ(st.advance(w, frame), st.maxStepsPerFrame);
    EXPECT_NEAR(catchUp(), 15 - st.maxStepsPerFrame, 1);
    st.budgetSeconds = 0; // every step overruns it: one step per advance
    EXPECT_EQ(st.advance(w, 1.0), 1);
    EXPECT_EQ(st.advance(w, frame), 1);
    EXPECT_NEAR(catchUp(), 14, 1);
    st.budgetSeconds = INFINITY;
    st.paused = true;
    EXPECT_EQ(st.advance(w, 1.0), 0);
    st.requestSingleStep();
    const auto before = w.stepCount();
    EXPECT_EQ(st.advance(w, 1.0), 1);
    EXPECT_EQ(w.stepCount(), before + 1);
}

// Drawing between steps: a body gliding at 2 m/s and turning at 1 rad/s in free space, steps of
// 0.01 s. After 0.025 s of real time two steps have run (the body at x = 0.04, angle 0.02) and
// half a step waits in the accumulator: it is drawn half way between the last two poses, at
// x = 0.03 and angle 0.015, which is where it was at 0.015 s, one step behind real time. Paused, it
// is drawn where it is.
TEST(Stepper, DrawsThePoseInterpolatedBetweenSteps) {
    carom::WorldSettings s;
    s.gravity = {0, 0};
    s.timeStep = 0.01;
    World w(s);
    carom::BodyDef d;
    d.name = "puck";
    d.shape = carom::Shape::circle(0.1);
    d.mass = 1;
    d.velocity = {2, 0};
    d.angularVelocity = 1;
    const carom::BodyId id = w.addBody(d);
    Stepper st;
    std::vector<carom::Transform> poses;
    st.drawPoses(w, poses); // before any step: as it is
    ASSERT_EQ(poses.size(), 1u);
    EXPECT_EQ(poses[0].p.x, 0);
    EXPECT_EQ(st.advance(w, 0.025), 2);
    EXPECT_NEAR(w.body(id).xf().p.x, 0.04, 1e-12);
    EXPECT_NEAR(st.fraction(w), 0.5, 1e-9);
    st.drawPoses(w, poses);
    EXPECT_NEAR(poses[0].p.x, 0.03, 1e-9);
    EXPECT_NEAR(std::atan2(poses[0].q.s, poses[0].q.c), 0.015, 1e-9);
    st.paused = true;
    st.drawPoses(w, poses);
    EXPECT_NEAR(poses[0].p.x, 0.04, 1e-12);
    st.paused = false;
    st.reset(); // a rebuilt world: drawn as it is until the next step
    st.drawPoses(w, poses);
    EXPECT_NEAR(poses[0].p.x, 0.04, 1e-12);
}
