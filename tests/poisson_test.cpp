// Restitution by Poisson's law (src/physics/solver/poisson.h), answers by hand: one point is
// Newton's law (Hecker's Eq. 9), a row of touching balls struck at one end passes the impulse on,
// points of different restitution bounce by the energy-weighted restitution of their island, and
// no bounce makes energy.
#include "solver/poisson.h" // internal to the engine: carom_physics_internal (CMakeLists.txt)

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

using namespace carom;

namespace {

PoissonBody ball(double vx, double mass = 1) {
    return PoissonBody{{vx, 0}, 0, 1 / mass, 0};
}
PoissonBody wall() {
    return PoissonBody{};
}
// A point between bodies a and b (b to the right of a), the normal from a to b.
PoissonPoint between(std::size_t a, std::size_t b, double e) {
    return PoissonPoint{a, b, {0.5, 0}, {-0.5, 0}, {1, 0}, e, false};
}
double kineticEnergy(const std::vector<PoissonBody>& bodies) {
    double e = 0;
    for (const PoissonBody& b : bodies)
        if (b.invMass > 0) e += 0.5 * glm::dot(b.v, b.v) / b.invMass;
    return e;
}

// A ball of 2 kg at 3 m/s into a wall, e = 0.6: λ = m v = 6 N·s, the bounce e λ = 3.6 N·s, and the
// ball leaves at −e v = −1.8 m/s (Eq. 9).
TEST(Poisson, OnePointIsNewtonsLaw) {
    std::vector<PoissonBody> start{ball(3, 2), wall()};
    const std::vector<PoissonPoint> points{between(0, 1, 0.6)};
    const Compression c = compress(points, start);
    ASSERT_EQ(c.impulse.size(), 1u);
    EXPECT_NEAR(c.impulse[0], 6, 1e-12);
    EXPECT_NEAR(c.restitution[0], 0.6, 1e-15);
    // The substeps left the ball resting against the wall (or already parting a little, as a soft
    // contact does): the end of its compression is at rest, and the bounce sends it off at 1.8.
    for (double left : {0.0, -0.3}) {
        std::vector<PoissonBody> end{ball(left, 2), wall()};
        bounceAt(points, c, end);
        EXPECT_NEAR(end[0].v.x, -1.8, 1e-12);
    }
}

// Three equal touching balls, the first struck at 1 m/s: compression brings all three to 1/3 m/s
// with λ = 2/3 between the first two and 1/3 between the last two; with e = 1 the bounce gives
// them again: the first ends at 1/3 − 2/3 = −1/3, the second at 1/3 + 2/3 − 1/3 = 2/3, the last at
// 1/3 + 1/3 = 2/3, and the energy is kept (½ = ½ (1/9 + 4/9 + 4/9)).
TEST(Poisson, ARowOfTouchingBallsKeepsItsEnergyAtOne) {
    const std::vector<PoissonBody> start{ball(1), ball(0), ball(0)};
    const std::vector<PoissonPoint> points{between(0, 1, 1), between(1, 2, 1)};
    const Compression c = compress(points, start);
    EXPECT_NEAR(c.impulse[0], 2.0 / 3, 1e-12);
    EXPECT_NEAR(c.impulse[1], 1.0 / 3, 1e-12);
    std::vector<PoissonBody> end{ball(1.0 / 3), ball(1.0 / 3), ball(1.0 / 3)};
    bounceAt(points, c, end);
    EXPECT_NEAR(end[0].v.x, -1.0 / 3, 1e-12);
    EXPECT_NEAR(end[1].v.x, 2.0 / 3, 1e-12);
    EXPECT_NEAR(end[2].v.x, 2.0 / 3, 1e-12);
    EXPECT_NEAR(kineticEnergy(end), 0.5, 1e-12);
}

// A light ball between a lively heavy one and a dead one: with each point's own e, the bounce
// made energy (the chain of stress seed 39). One restitution for the island, e² = Σ e_i² λ_i |v_i|
// / Σ λ_i |v_i|: here the first point alone approached (the second touched at rest: |v| = 0), so
// the island bounces with the first point's e, and the energy after is at most that before.
TEST(Poisson, PointsOfDifferentRestitutionBounceByTheirIslands) {
    const std::vector<PoissonBody> start{ball(2, 10), ball(0, 0.1), ball(0, 10)};
    const std::vector<PoissonPoint> points{between(0, 1, 0.9), between(1, 2, 0.1)};
    const Compression c = compress(points, start);
    // Compression: the three move together at 20/20.1 m/s, λ1 = 10 (2 − that), λ2 = 10 × that.
    const double common = 20 / 20.1;
    EXPECT_NEAR(c.impulse[0], 10 * (2 - common), 1e-9);
    EXPECT_NEAR(c.impulse[1], 10 * common, 1e-9);
    EXPECT_NEAR(c.restitution[0], 0.9, 1e-12);
    EXPECT_NEAR(c.restitution[1], 0.9, 1e-12);
    std::vector<PoissonBody> end{ball(common, 10), ball(common, 0.1), ball(common, 10)};
    bounceAt(points, c, end);
    EXPECT_LE(kineticEnergy(end), kineticEnergy(start) * (1 + 1e-12));
    // Two islands apart keep their own restitutions.
    const std::vector<double> apart = islandRestitutions({0, 1}, {0.9, 0.1}, {1, 1}, {-1, -1});
    EXPECT_NEAR(apart[0], 0.9, 1e-15);
    EXPECT_NEAR(apart[1], 0.1, 1e-15);
    // And in one island, weighted by the energy each took: e² = (0.81 × 3 + 0.01 × 1) / 4.
    const std::vector<double> one = islandRestitutions({0, 0}, {0.9, 0.1}, {3, 1}, {-1, -1});
    EXPECT_NEAR(one[0], std::sqrt((0.81 * 3 + 0.01) / 4), 1e-15);
    EXPECT_NEAR(one[1], one[0], 0);
}

// A row of 2,000 touching balls, the first struck at 1 m/s, e = 1: the compression's Gauss-Seidel
// passes carry the impulse down the row a ball a pass, and stop at their work bound (kBounceWork)
// long before it converges. The bounce is then fixed by energy (Stronge's coefficient): it gives
// back exactly what the compression took, e² W, at whatever velocities it starts from, so the row
// ends with the energy it began with, to round-off, and no more.
TEST(Poisson, ASolveCutAtItsWorkBoundGivesBackWhatItTook) {
    const std::size_t n = 2000;
    std::vector<PoissonBody> start(n, ball(0));
    start[0] = ball(1);
    std::vector<PoissonPoint> points;
    for (std::size_t i = 0; i + 1 < n; ++i)
        points.push_back(between(i, i + 1, 1));
    const Compression c = compress(points, start);
    EXPECT_TRUE(c.cut);
    double taken = 0;
    for (double w : c.taken)
        taken += w;
    EXPECT_GT(taken, 0);
    // The substeps' end: the compression's own velocities, the struck ball slowed.
    std::vector<PoissonBody> end = start;
    for (std::size_t i = 0; i + 1 < n; ++i) {
        end[i].v.x -= c.impulse[i] / 1;
        end[i + 1].v.x += c.impulse[i] / 1;
    }
    EXPECT_NEAR(kineticEnergy(end), kineticEnergy(start) - taken, 1e-12);
    EXPECT_TRUE(bounceAt(points, c, end));
    EXPECT_LE(kineticEnergy(end), kineticEnergy(start) * (1 + 1e-12));
}

} // namespace
