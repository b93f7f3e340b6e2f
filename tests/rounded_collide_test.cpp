// Capsules and segments in the narrow phase (src/physics/collision/collide.cpp) and their mass
// properties (shape.cpp), on poses whose answers are worked out by hand from the geometry: a
// capsule of length L and radius r is the set of points within r of the segment from (−L/2, 0) to
// (L/2, 0) of its frame.
#include "carom/shape.h"
#include "collision/collide.h" // internal to the engine
#include "tuning.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

using namespace carom;

namespace {

constexpr double kTol = 1e-12;

Transform at(Vec2 p, double angle = 0) {
    Transform x;
    x.p = p;
    x.q = Rot(angle);
    return x;
}

void expectVec(Vec2 expected, Vec2 actual, double tol = kTol) {
    EXPECT_NEAR(expected.x, actual.x, tol);
    EXPECT_NEAR(expected.y, actual.y, tol);
}

std::vector<ShapeContact> byX(const ShapeManifold& m) {
    std::vector<ShapeContact> p(m.points, m.points + m.count);
    std::sort(p.begin(), p.end(),
              [](const ShapeContact& a, const ShapeContact& b) { return a.point.x < b.point.x; });
    return p;
}

// ---- Mass properties ---------------------------------------------------------------------

TEST(CapsuleShape, MassPropertiesOfRectangleAndTwoHalfDiscs) {
    // L = 2, r = 0.5: area = 2rL + πr² = 2 + π/4. Inertia per unit density: the 2 × 1 rectangle,
    // 2 (4 + 1) / 12 = 5/6; the two half discs, a disc of area π/4 whose halves' centroids lie
    // d = 4r/(3π) = 2/(3π) beyond the ends: (π/4)(r²/2 + L²/4 + L d) = (π/4)(1/8 + 1) + 1/3.
    const Shape s = Shape::capsule(2, 0.5);
    const MassProperties m = s.massProperties();
    const double area = 2 + M_PI / 4;
    EXPECT_NEAR(area, m.area, kTol);
    EXPECT_NEAR((5.0 / 6 + M_PI / 4 * 9 / 8 + 1.0 / 3) / area, m.inertiaPerMass, kTol);
    EXPECT_NEAR(1.5, s.boundingRadius(), kTol);
    EXPECT_NEAR(0.5, s.innerRadius(), kTol);
}

TEST(CapsuleShape, ShortCapsuleTendsToTheDisc) {
    // As L → 0 the capsule is a disc: I/m → r²/2.
    const MassProperties m = Shape::capsule(1e-9, 0.3).massProperties();
    EXPECT_NEAR(M_PI * 0.09, m.area, 1e-8);
    EXPECT_NEAR(0.09 / 2, m.inertiaPerMass, 1e-8);
}

TEST(CapsuleShape, RefusesBadSizes) {
    EXPECT_THROW(Shape::capsule(0, 1), std::invalid_argument);
    EXPECT_THROW(Shape::capsule(1, -1), std::invalid_argument);
    EXPECT_THROW(Shape::capsule(NAN, 1), std::invalid_argument);
    EXPECT_THROW(Shape::segment({1, 1}, {1, 1}), std::invalid_argument);
    EXPECT_THROW(Shape::segment({0, 0}, {INFINITY, 1}), std::invalid_argument);
}

TEST(SegmentShape, KeepsItsEndsAsGiven) {
    const Shape s = Shape::segment({1, 2}, {4, 6});
    expectVec({1, 2}, s.vertices()[0]);
    expectVec({4, 6}, s.vertices()[1]);
    EXPECT_EQ(0, s.massProperties().area);
    EXPECT_NEAR(std::sqrt(52.0), s.boundingRadius(), kTol);
}

// ---- Capsule against a circle ------------------------------------------------------------

TEST(CapsuleCollide, CircleAboveTheSide) {
    // Capsule L = 2, r = 0.5 at the origin; a circle of radius 0.5 at (0.3, 0.9): its centre is 0.9
    // from the core, so they overlap by 0.5 + 0.5 − 0.9 = 0.1 along +y.
    const ShapeManifold m =
        collide(Shape::capsule(2, 0.5), at({0, 0}), Shape::circle(0.5), at({0.3, 0.9}), 0);
    ASSERT_EQ(1, m.count);
    expectVec({0, 1}, m.normal);
    EXPECT_NEAR(0.1, m.points[0].depth, kTol);
    expectVec({0.3, 0.45}, m.points[0].point); // midway between y = 0.5 and y = 0.4
}

TEST(CapsuleCollide, CircleBeyondTheEndAndOnItsLine) {
    // The circle's centre at (1.8, 0), on the core's line beyond its end (1, 0): distance 0.8,
    // depth 0.2 along +x.
    const ShapeManifold m =
        collide(Shape::capsule(2, 0.5), at({0, 0}), Shape::circle(0.5), at({1.8, 0}), 0);
    ASSERT_EQ(1, m.count);
    expectVec({1, 0}, m.normal);
    EXPECT_NEAR(0.2, m.points[0].depth, kTol);
}

TEST(CapsuleCollide, CircleFirstGivesTheNormalFromTheCircle) {
    // Rotated 90°: the capsule's core runs from (0, −1) to (0, 1). A circle at (−0.9, 0.5) meets
    // its side: normal from the circle (A) to the capsule (B) is +x, depth 0.1.
    const ShapeManifold m = collide(Shape::circle(0.5), at({-0.9, 0.5}), Shape::capsule(2, 0.5),
                                    at({0, 0}, M_PI / 2), 0);
    ASSERT_EQ(1, m.count);
    expectVec({1, 0}, m.normal);
    EXPECT_NEAR(0.1, m.points[0].depth, kTol);
}

// ---- Capsule against boxes and polygons --------------------------------------------------

TEST(CapsuleCollide, LyingFlatOnABoxGivesTwoPointsUnderItsCentres) {
    // A 4 × 1 box at the origin (top face y = 0.5); the capsule L = 2, r = 0.5 centred at
    // (0, 0.95): its core at y = 0.95, its bottom at 0.45, 0.05 deep, touching under both centres.
    const ShapeManifold m =
        collide(Shape::box(4, 1), at({0, 0}), Shape::capsule(2, 0.5), at({0, 0.95}), 0);
    ASSERT_EQ(2, m.count);
    expectVec({0, 1}, m.normal);
    const auto p = byX(m);
    EXPECT_NEAR(0.05, p[0].depth, kTol);
    EXPECT_NEAR(0.05, p[1].depth, kTol);
    expectVec({-1, 0.475}, p[0].point);
    expectVec({1, 0.475}, p[1].point);
    EXPECT_NE(p[0].id, p[1].id);
}

TEST(CapsuleCollide, CapsuleFirstOnABoxTurnsTheNormal) {
    const ShapeManifold m =
        collide(Shape::capsule(2, 0.5), at({0, 0.95}), Shape::box(4, 1), at({0, 0}), 0);
    ASSERT_EQ(2, m.count);
    expectVec({0, -1}, m.normal);
    EXPECT_NEAR(0.05, m.points[0].depth, kTol);
    EXPECT_NEAR(0.05, m.points[1].depth, kTol);
}

TEST(CapsuleCollide, StandingOnItsEndTouchesAtOnePoint) {
    // Upright (90°) at (0, 1.9): its core from (0, 0.9) to (0, 2.9), its lower cap's bottom at 0.4,
    // 0.1 below the box's top face y = 0.5: one point, midway at y = 0.45.
    const ShapeManifold m =
        collide(Shape::box(4, 1), at({0, 0}), Shape::capsule(2, 0.5), at({0, 1.9}, M_PI / 2), 0);
    ASSERT_EQ(1, m.count);
    expectVec({0, 1}, m.normal);
    EXPECT_NEAR(0.1, m.points[0].depth, kTol);
    expectVec({0, 0.45}, m.points[0].point);
}

TEST(CapsuleCollide, EndNearABoxCornerTouchesAlongTheLineOfClosestPoints) {
    // A unit box at the origin, corner (0.5, 0.5). The capsule (L = 2, r = 0.5) lies along the
    // diagonal direction (45°), its lower centre at (0.5, 0.5) + 0.6 (1, 1)/√2: 0.6 from the
    // corner, a gap of 0.1, along the diagonal.
    const Vec2 diag = Vec2{1, 1} / std::sqrt(2.0);
    const Vec2 centre = Vec2{0.5, 0.5} + 0.6 * diag + 1.0 * diag;
    const ShapeManifold m =
        collide(Shape::box(1, 1), at({0, 0}), Shape::capsule(2, 0.5), at(centre, M_PI / 4), 0.2);
    ASSERT_EQ(1, m.count);
    expectVec(diag, m.normal, 1e-9);
    EXPECT_NEAR(-0.1, m.points[0].depth, 1e-9);
}

TEST(CapsuleCollide, TiltedAcrossATriangleApex) {
    // A triangle, apex (0, 1) up, base from (−1, −1) to (1, −1) (its centroid is (0, −1/3), moved
    // to the origin by Shape::polygon: the apex at (0, 4/3) of its frame). A level capsule above
    // it, its core at y = 4/3 + 0.4: the apex is 0.1 into the capsule, under its middle.
    const Shape tri = Shape::polygon({{-1, -1}, {1, -1}, {0, 1}});
    const ShapeManifold m =
        collide(tri, at({0, 0}), Shape::capsule(2, 0.5), at({0.2, 4.0 / 3 + 0.4}), 0);
    ASSERT_EQ(1, m.count);
    expectVec({0, 1}, m.normal, 1e-9);
    EXPECT_NEAR(0.1, m.points[0].depth, 1e-9);
}

// ---- Capsule against a capsule -----------------------------------------------------------

TEST(CapsuleCollide, ParallelCapsulesTouchAlongTheirOverlap) {
    // Two level capsules L = 2, r = 0.5, one 0.9 above the other and 1 to the right: their cores
    // overlap over x in [0, 1]; depth 0.1 at both ends of it.
    const ShapeManifold m =
        collide(Shape::capsule(2, 0.5), at({0, 0}), Shape::capsule(2, 0.5), at({1, 0.9}), 0);
    ASSERT_EQ(2, m.count);
    expectVec({0, 1}, m.normal);
    const auto p = byX(m);
    EXPECT_NEAR(0.1, p[0].depth, kTol);
    EXPECT_NEAR(0.1, p[1].depth, kTol);
    EXPECT_NEAR(0, p[0].point.x, kTol);
    EXPECT_NEAR(1, p[1].point.x, kTol);
}

TEST(CapsuleCollide, CrossedCapsules) {
    // One level, one upright above it: the upright one's lower centre 0.9 above the level one's
    // core; depth 0.1 along +y, one point.
    const ShapeManifold m = collide(Shape::capsule(2, 0.5), at({0, 0}), Shape::capsule(2, 0.5),
                                    at({0.3, 1.9}, M_PI / 2), 0);
    ASSERT_EQ(1, m.count);
    expectVec({0, 1}, m.normal, 1e-9);
    EXPECT_NEAR(0.1, m.points[0].depth, 1e-9);
}

TEST(CapsuleCollide, EndToEndOnOneLine) {
    // Both level on the x axis, centres 2.8 apart: their inner ends' centres 0.8 apart, depth 0.2.
    const ShapeManifold m =
        collide(Shape::capsule(2, 0.5), at({0, 0}), Shape::capsule(2, 0.5), at({2.8, 0}), 0);
    ASSERT_EQ(1, m.count);
    expectVec({1, 0}, m.normal, 1e-9);
    EXPECT_NEAR(0.2, m.points[0].depth, 1e-9);
}

// ---- Against a segment -------------------------------------------------------------------

TEST(SegmentCollide, CapsuleLyingOnASlope) {
    // A segment from (−5, −5) to (5, 5) (45°); a capsule along it, its core 0.45 above the line:
    // depth 0.05 under both centres, the normal the slope's (−1, 1)/√2.
    const Vec2 up = Vec2{-1, 1} / std::sqrt(2.0);
    const ShapeManifold m = collide(Shape::segment({-5, -5}, {5, 5}), at({0, 0}),
                                    Shape::capsule(2, 0.5), at(0.45 * up, M_PI / 4), 0);
    ASSERT_EQ(2, m.count);
    expectVec(up, m.normal, 1e-12);
    EXPECT_NEAR(0.05, m.points[0].depth, 1e-12);
    EXPECT_NEAR(0.05, m.points[1].depth, 1e-12);
}

TEST(SegmentCollide, CircleOnEitherSideAndBeyondTheEnd) {
    const Shape ground = Shape::segment({-1, 0}, {1, 0});
    ShapeManifold above = collide(ground, at({0, 0}), Shape::circle(0.5), at({0.5, 0.4}), 0);
    ASSERT_EQ(1, above.count);
    expectVec({0, 1}, above.normal);
    EXPECT_NEAR(0.1, above.points[0].depth, kTol);
    ShapeManifold below = collide(ground, at({0, 0}), Shape::circle(0.5), at({0.5, -0.4}), 0);
    ASSERT_EQ(1, below.count);
    expectVec({0, -1}, below.normal);
    EXPECT_NEAR(0.1, below.points[0].depth, kTol);
    // Beyond the end (1, 0), at (1.3, 0.4): 0.5 from the end, touching; along (0.6, 0.8).
    ShapeManifold end = collide(ground, at({0, 0}), Shape::circle(0.5), at({1.3, 0.4}), 0.1);
    ASSERT_EQ(1, end.count);
    expectVec({0.6, 0.8}, end.normal);
    EXPECT_NEAR(0, end.points[0].depth, kTol);
}

TEST(SegmentCollide, BoxRestingOnASegmentGivesItsTwoCorners) {
    // A unit box whose bottom face is 0.01 below a segment along the x axis, the segment placed
    // off its body's origin (at y = 2 in a body at (0, −2)).
    const ShapeManifold m =
        collide(Shape::segment({-3, 2}, {3, 2}), at({0, -2}), Shape::box(1, 1), at({0.2, 0.49}), 0);
    ASSERT_EQ(2, m.count);
    expectVec({0, 1}, m.normal);
    const auto p = byX(m);
    EXPECT_NEAR(0.01, p[0].depth, kTol);
    EXPECT_NEAR(0.01, p[1].depth, kTol);
    EXPECT_NEAR(-0.3, p[0].point.x, kTol);
    EXPECT_NEAR(0.7, p[1].point.x, kTol);
}

// ---- Every pose ---------------------------------------------------------------------------

TEST(CapsuleCollide, RandomPosesGiveUnitNormalsDepthsBelowTheBoundAndTheSameFromEitherSide) {
    std::mt19937 rng(41);
    std::uniform_real_distribution<double> pos(-2, 2), ang(-M_PI, M_PI);
    const std::vector<Shape> shapes = {Shape::capsule(2, 0.5), Shape::capsule(0.5, 0.2),
                                       Shape::circle(0.4), Shape::box(1, 0.6),
                                       Shape::polygon({{-1, -0.5}, {1, -0.4}, {0.2, 0.8}})};
    const Shape segment = Shape::segment({-2, 0.3}, {2, -0.3});
    for (int i = 0; i < 4000; ++i) {
        const Shape& a = shapes[i % 2];
        const Shape& b = shapes[(i / 2) % shapes.size()];
        const Transform xa = at({pos(rng), pos(rng)}, ang(rng));
        const Transform xb = at({pos(rng), pos(rng)}, ang(rng));
        const ShapeManifold m = collide(a, xa, b, xb, 0.1);
        const ShapeManifold swapped = collide(b, xb, a, xa, 0.1);
        if (m.count == 0) continue;
        EXPECT_NEAR(1, glm::length(m.normal), 1e-9);
        EXPECT_LE(deepestDepth(m), depthBound(a, xa, b, xb) + 1e-9);
        ASSERT_GT(swapped.count, 0);
        EXPECT_NEAR(deepestDepth(m), deepestDepth(swapped), 2 * kFaceTolerance);
        // The segment: any capsule pose against it, never a NaN.
        const ShapeManifold s = collide(segment, xb, a, xa, 0.1);
        for (int k = 0; k < s.count; ++k)
            EXPECT_TRUE(std::isfinite(s.points[k].depth));
    }
}

} // namespace
