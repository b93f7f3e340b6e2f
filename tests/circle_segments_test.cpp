// Circles drawn round (src/app/circle_segments.h), issue 44 item 7: the segments' chords stray
// from the circle by at most a tenth of a pixel, so that a 50 px ball is not a visible polygon.
#include "circle_segments.h"

#include <cmath>
#include <gtest/gtest.h>

TEST(CircleSegments, ChordsStayWithinATenthOfAPixel) {
    for (float r : {2.0f, 5.0f, 20.0f, 50.0f, 120.0f, 400.0f}) {
        const int n = app::circleSegments(r);
        const double error = r * (1 - std::cos(M_PI / n)); // at a chord's middle
        EXPECT_LE(error, app::kCircleMaxError + 1e-6) << r;
        EXPECT_GE(n, 12) << r;
    }
    EXPECT_GE(app::circleSegments(50), 50); // it was 25
}

TEST(CircleSegments, MoreForLargerCirclesWithinImGuisBounds) {
    EXPECT_EQ(app::circleSegments(0), 12);
    EXPECT_EQ(app::circleSegments(1), 12);
    EXPECT_LE(app::circleSegments(50), app::circleSegments(100));
    EXPECT_EQ(app::circleSegments(1e6f), 512); // a zoomed-in ball: ImGui's most
}
