// The measuring tools of the app's view (issue 44, "see the physics"): the stopwatch of simulated
// time and the ruler's geometry, without a window.
#include "ruler.h"
#include "stopwatch.h"

#include <cmath>
#include <gtest/gtest.h>
#include <string>

// It reads the simulated time that passed while it ran: 2 s, stopped at 2.5, 1 s more after a
// second start; shown an earlier moment than its start (the timeline), it keeps what it had; a
// reset while it runs starts it again from 0.
TEST(Stopwatch, TimesTheSimulatedTimeWhileItRuns) {
    app::Stopwatch w;
    EXPECT_EQ(w.reading(5), 0);
    w.start(1);
    EXPECT_DOUBLE_EQ(w.reading(3), 2);
    w.stop(3.5);
    EXPECT_DOUBLE_EQ(w.reading(10), 2.5);
    w.start(10);
    EXPECT_DOUBLE_EQ(w.reading(11), 3.5);
    EXPECT_DOUBLE_EQ(w.reading(9), 2.5); // before the second start
    w.reset(11);
    EXPECT_TRUE(w.running);
    EXPECT_DOUBLE_EQ(w.reading(12), 1);
    w.stop(12);
    w.reset(12);
    EXPECT_EQ(w.reading(20), 0);
}

// Placed across the middle of a 16.74 m view: 5 m (the round length below a third of it), its
// ends on the 0.5 m grid. A press within the grab distance of an end takes the end, on the tape
// the tape, elsewhere nothing. Dragged, an end follows the cursor (to a 6-8-10 triangle, read as
// 10 m at 53.1°) and the tape moves both ends.
TEST(Ruler, PlacedRoundGrabbedAndRead) {
    app::Ruler r;
    app::placeRuler(r, {0.13, -0.27}, 16.74);
    EXPECT_TRUE(r.placed);
    EXPECT_DOUBLE_EQ(r.a.x, -2.5);
    EXPECT_DOUBLE_EQ(r.a.y, -0.5);
    EXPECT_DOUBLE_EQ(r.b.x, 2.5);
    EXPECT_DOUBLE_EQ(r.b.y, -0.5);
    app::placeRuler(r, {0, 0}, 1.5); // a third: 0.5 m, exactly a round length
    EXPECT_DOUBLE_EQ(r.b.x - r.a.x, 0.5);
    app::placeRuler(r, {0.13, -0.27}, 16.74);

    using Part = app::Ruler::Part;
    EXPECT_EQ(app::rulerPartAt(r, {-2.45, -0.48}, 0.1), Part::A);
    EXPECT_EQ(app::rulerPartAt(r, {2.55, -0.55}, 0.1), Part::B);
    EXPECT_EQ(app::rulerPartAt(r, {0.7, -0.45}, 0.1), Part::Tape);
    EXPECT_EQ(app::rulerPartAt(r, {0.7, -0.3}, 0.1), Part::None);
    EXPECT_EQ(app::rulerPartAt(r, {2.7, -0.5}, 0.1), Part::None); // past the end

    r.held = Part::B;
    r.cursor = {2.55, -0.55};
    app::dragRuler(r, {3.55, 7.45}); // b moves by the cursor's motion: to (3.5, 7.5)
    EXPECT_NEAR(r.b.x, 3.5, 1e-12);
    EXPECT_NEAR(r.b.y, 7.5, 1e-12);
    EXPECT_EQ(app::rulerReading(r), "10.000 m   \u0394x 6.000 m, \u0394y 8.000 m, 53.1\u00b0");
    r.held = Part::Tape;
    app::dragRuler(r, {4.55, 7.45});
    EXPECT_NEAR(r.a.x, -1.5, 1e-12);
    EXPECT_NEAR(r.b.x, 4.5, 1e-12);
    EXPECT_EQ(app::rulerReading(r), "10.000 m   \u0394x 6.000 m, \u0394y 8.000 m, 53.1\u00b0");
}
