// The inspector's place (src/app/placement.h), issue 44 item 3: it hides no body when a corner or
// a gap between the bodies is free, prefers the top right corner, keeps out of the other windows
// when it can, and grows away from the side it is nearest to.
#include "placement.h"

#include <gtest/gtest.h>
#include <vector>

using app::Box;

namespace {

const Box kView{300, 80, 980, 700}; // a 680 × 620 view

bool inside(const Box& in, const Box& b) {
    return b.x0 >= in.x0 && b.y0 >= in.y0 && b.x1 <= in.x1 && b.y1 <= in.y1;
}

} // namespace

TEST(Placement, OverlapAreaIsTheSharedRectangle) {
    EXPECT_EQ(app::overlapArea({0, 0, 10, 10}, {5, 5, 20, 20}), 25);
    EXPECT_EQ(app::overlapArea({0, 0, 10, 10}, {10, 0, 20, 10}), 0); // edges touching
    EXPECT_EQ(app::overlapArea({0, 0, 10, 10}, {30, 30, 40, 40}), 0);
}

TEST(Placement, AnEmptyViewGivesTheTopRightCorner) {
    const Box at = app::placeClear(kView, 330, 300, {}, {});
    EXPECT_EQ(at.x1, kView.x1);
    EXPECT_EQ(at.y0, kView.y0);
    EXPECT_EQ(at.width(), 330);
    EXPECT_EQ(at.height(), 300);
}

// Bodies in the top right and top left corners: the window goes to a bottom corner, clear of all.
TEST(Placement, ACornerThatABodyCoversIsPassedOver) {
    const std::vector<Box> bodies{{900, 90, 970, 200}, {310, 90, 400, 300}};
    const Box at = app::placeClear(kView, 330, 300, bodies, {});
    EXPECT_TRUE(inside(kView, at));
    for (const Box& b : bodies)
        EXPECT_EQ(app::overlapArea(at, b), 0);
    EXPECT_EQ(at.x1, kView.x1); // bottom right: the first free corner
    EXPECT_EQ(at.y1, kView.y1);
}

// Every corner covered (rigid-body-collisions' blocks spread over the view): a gap between the
// bodies is found, beside one of them.
TEST(Placement, WhenEveryCornerIsCoveredAGapBetweenBodiesIsUsed) {
    const std::vector<Box> bodies{{300, 80, 420, 200},
                                  {860, 80, 980, 200},
                                  {300, 580, 420, 700},
                                  {860, 580, 980, 700},
                                  {600, 300, 680, 460}};
    const Box at = app::placeClear(kView, 250, 200, bodies, {});
    EXPECT_TRUE(inside(kView, at));
    for (const Box& b : bodies)
        EXPECT_EQ(app::overlapArea(at, b), 0) << at.x0 << " " << at.y0;
}

// No place is free: the one that hides the least of the bodies.
TEST(Placement, WithNoFreePlaceTheLeastIsHidden) {
    const std::vector<Box> bodies{{300, 80, 980, 380}, {300, 380, 700, 700}};
    const Box at = app::placeClear(kView, 330, 300, bodies, {});
    EXPECT_TRUE(inside(kView, at));
    EXPECT_EQ(app::overlapArea(at, bodies[0]), 0); // the free strip at the bottom right
    EXPECT_LE(app::overlapArea(at, bodies[1]), 50 * 300);
}

// The stats box in the bottom right and a help window in the top right: a free corner without
// either is taken.
TEST(Placement, OtherWindowsAreAvoidedAfterTheBodies) {
    const std::vector<Box> others{{700, 600, 980, 700}, {700, 80, 980, 300}};
    const Box at = app::placeClear(kView, 330, 300, {}, others);
    EXPECT_EQ(at.x0, kView.x0);
    EXPECT_EQ(at.y0, kView.y0);
    // But never at the cost of hiding a body.
    const std::vector<Box> bodies{{300, 80, 700, 700}};
    const Box at2 = app::placeClear(kView, 270, 300, bodies, others);
    EXPECT_EQ(app::overlapArea(at2, bodies[0]), 0);
}

// A window larger than the view starts at its top left.
TEST(Placement, AWindowLargerThanTheViewStartsAtItsTopLeft) {
    const Box at = app::placeClear({300, 80, 500, 200}, 330, 300, {}, {});
    EXPECT_EQ(at.x0, 300);
    EXPECT_EQ(at.y0, 80);
}

TEST(Placement, AWindowGrowsAwayFromTheSideItIsNearest) {
    const app::Pivot topRight = app::pivotFor(kView, {650, 80, 980, 380});
    EXPECT_EQ(topRight.x, 1);
    EXPECT_EQ(topRight.y, 0);
    const app::Pivot bottomLeft = app::pivotFor(kView, {300, 400, 630, 700});
    EXPECT_EQ(bottomLeft.x, 0);
    EXPECT_EQ(bottomLeft.y, 1);
}
