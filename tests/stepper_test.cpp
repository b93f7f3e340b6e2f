// The app's stepper: real time into fixed steps of the world.
#include "stepper.h"

#include <cmath>
#include <gtest/gtest.h>

using carom::World;
using app::Stepper;

TEST(Stepper, TurnsRealTimeIntoFixedSteps) {
    World w;
    Stepper st;
    EXPECT_EQ(st.advance(w, 0.5 / 60), 0);
    EXPECT_EQ(st.advance(w, 0.6 / 60), 1); // the accumulator kept the half step
    st.timeRate = 2;
    EXPECT_EQ(st.advance(w, 1.0 / 60), 2);
    st.timeRate = 1;
    EXPECT_EQ(st.advance(w, 10.0), st.maxStepsPerFrame); // capped: a slow frame cannot snowball
    EXPECT_LE(st.advance(w, 0.0), 1);
    st.budgetSeconds = 0; // every step overruns it: one step per advance, the backlog dropped
    EXPECT_EQ(st.advance(w, 1.0), 1);
    EXPECT_LE(st.advance(w, 0.0), 1);
    st.budgetSeconds = INFINITY;
    st.paused = true;
    EXPECT_EQ(st.advance(w, 1.0), 0);
    st.requestSingleStep();
    const auto before = w.stepCount();
    EXPECT_EQ(st.advance(w, 1.0), 1);
    EXPECT_EQ(w.stepCount(), before + 1);
}
