// The exact method's time-of-contact search (time_of_impact.h) on overlaps given as functions of
// time, whose roots are known.
#include "collision/time_of_impact.h" // internal to the engine: carom_physics_internal (CMakeLists.txt)

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

using namespace carom;

namespace {

// A point's overlap beyond its allowance over time, and its rate.
struct Track {
    PointKey key;
    double (*excess)(double);
    double (*rate)(double);
};

// The search's view of a world holding these points: the worst of them, and the one asked for.
OverlapAt worldOf(const std::vector<Track>& points, double t, PointKey asked) {
    OverlapAt at{{-INFINITY, 0, {}}, -INFINITY};
    for (const Track& p : points) {
        const double e = p.excess(t);
        if (p.key == asked) at.ofPoint = e;
        if (e > at.worst.excess) at.worst = Overlap{e, p.rate(t), p.key};
    }
    return at;
}

Overlap worstAt(const std::vector<Track>& points, double t) {
    return worldOf(points, t, {}).worst;
}

constexpr double kBand = 1e-6;

// Slowing as it closes (concave): a Newton step from the overlapping end falls short of the root
// at t = 0.005 s.
double closing(double t) {
    return 0.1 * (std::sqrt(t) - std::sqrt(0.005));
}
double closingRate(double t) {
    return 0.05 / std::sqrt(t);
}
// A point resting 4.5 µm from its allowance the whole time.
double resting(double) {
    return -4.5e-6;
}
double still(double) {
    return 0;
}
// Two closing at constant rates: the first deepest at 0.01 s but touching at 0.006 s, the second
// touching earlier, at 0.004 s.
double deep(double t) {
    return 10 * (t - 0.006);
}
double deepRate(double) {
    return 10;
}
double early(double t) {
    return 0.5 * (t - 0.004);
}
double earlyRate(double) {
    return 0.5;
}

} // namespace

TEST(TimeOfContact, FollowsTheClosingPointPastOneRestingNearer) {
    // Wherever the closing point is still apart by more than 4.5 µm, the resting one is the
    // world's worst. A secant through the worst at each end would aim at the resting point's
    // level and creep up from the lower end; following the closing point, the search ends within
    // the band of its root in a few trials.
    const std::vector<Track> points{{{{0, 1}, 7}, closing, closingRate},
                                    {{{0, 2}, 3}, resting, still}};
    int trials = 0;
    const double t = searchContactTime(0, 0.01, worstAt(points, 0.01), 1e-15, kBand,
                                       [&](double x, PointKey asked) {
                                           ++trials;
                                           return worldOf(points, x, asked);
                                       });
    EXPECT_LE(closing(t), 0);
    EXPECT_GE(closing(t), -kBand);
    EXPECT_LE(trials, 6);
}

TEST(TimeOfContact, FindsTheEarlierOfTwoClosingPoints) {
    // At the upper end one point overlaps deepest; the other touches first, and the search must
    // end there, not at the point it followed first.
    const std::vector<Track> points{{{{0, 1}, 7}, deep, deepRate}, {{{1, 2}, 5}, early, earlyRate}};
    ASSERT_EQ(worstAt(points, 0.01).point, (PointKey{{0, 1}, 7}));
    const double t =
        searchContactTime(0, 0.01, worstAt(points, 0.01), 1e-15, kBand,
                          [&](double x, PointKey asked) { return worldOf(points, x, asked); });
    EXPECT_LE(early(t), 0);
    EXPECT_GE(early(t), -kBand);
}
