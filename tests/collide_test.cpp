// The narrow phase (src/physics/collision/collide.cpp) on shape pairs whose contacts are known by
// hand: depths, normals and points from the geometry, the A/B swap, the margin, feature ids, and a
// random-pose fuzz that must never give NaN.
#include "collision/collide.h" // internal to the engine: carom_physics_internal (CMakeLists.txt)

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
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

// The points of a manifold sorted by x, so tests need not know the clipping order.
std::vector<ShapeContact> byX(const ShapeManifold& m) {
    std::vector<ShapeContact> p(m.points, m.points + m.count);
    std::sort(p.begin(), p.end(),
              [](const ShapeContact& a, const ShapeContact& b) { return a.point.x < b.point.x; });
    return p;
}

// ---- Circles -----------------------------------------------------------------------------

TEST(Collide, CirclesOverlapByKnownAmount) {
    // Radii 1 and 0.5, centres 1.3 apart along (0.6, 0.8): depth 1.5 - 1.3 = 0.2; A's surface
    // at 1 n, B's at 0.8 n, the point midway at 0.9 n.
    const Vec2 n{0.6, 0.8};
    ShapeManifold m = collide(Shape::circle(1), at({0, 0}), Shape::circle(0.5), at(1.3 * n), 0.01);
    ASSERT_EQ(m.count, 1);
    expectVec(n, m.normal);
    EXPECT_NEAR(m.points[0].depth, 0.2, kTol);
    expectVec(0.9 * n, m.points[0].point);
    EXPECT_EQ(m.points[0].id, 0u);
}

TEST(Collide, CoincidentCirclesGetFixedNormal) {
    ShapeManifold m = collide(Shape::circle(1), at({2, 3}), Shape::circle(2), at({2, 3}), 0.01);
    ASSERT_EQ(m.count, 1);
    expectVec({0, 1}, m.normal);
    EXPECT_NEAR(m.points[0].depth, 3, kTol);
    EXPECT_TRUE(isFinite(m.points[0].point));
}

TEST(Collide, CirclesWithinAndBeyondMargin) {
    // Gap 0.05: reported with depth -0.05 when the margin is 0.1, not when it is 0.01.
    ShapeManifold near =
        collide(Shape::circle(1), at({0, 0}), Shape::circle(1), at({2.05, 0}), 0.1);
    ASSERT_EQ(near.count, 1);
    EXPECT_NEAR(near.points[0].depth, -0.05, kTol);
    expectVec({1.025, 0}, near.points[0].point);
    EXPECT_EQ(collide(Shape::circle(1), at({0, 0}), Shape::circle(1), at({2.05, 0}), 0.01).count,
              0);
}

// ---- Circle and polygon ------------------------------------------------------------------

TEST(Collide, CircleRestingOnBox) {
    // Box 4 x 2 (top at y = 1), circle of radius 0.5 at height 1.45: overlap 0.05, normal up,
    // the point midway between y = 1 and y = 0.95.
    const Shape box = Shape::box(4, 2), ball = Shape::circle(0.5);
    ShapeManifold m = collide(box, at({0, 0}), ball, at({0.3, 1.45}), 0.01);
    ASSERT_EQ(m.count, 1);
    expectVec({0, 1}, m.normal);
    EXPECT_NEAR(m.points[0].depth, 0.05, kTol);
    expectVec({0.3, 0.975}, m.points[0].point);

    // The same pair the other way round: the normal still points from A (now the ball) to B.
    ShapeManifold s = collide(ball, at({0.3, 1.45}), box, at({0, 0}), 0.01);
    ASSERT_EQ(s.count, 1);
    expectVec({0, -1}, s.normal);
    EXPECT_NEAR(s.points[0].depth, 0.05, kTol);
    expectVec({0.3, 0.975}, s.points[0].point);
}

TEST(Collide, CircleOnRotatedBoxFace) {
    // The box rotated by 30°: its top face normal is (-sin 30°, cos 30°); the ball sits 0.45
    // above the face (radius 0.5), so the depth is 0.05 along that normal.
    const double a = M_PI / 6;
    const Vec2 n{-std::sin(a), std::cos(a)}, t{std::cos(a), std::sin(a)};
    const Vec2 c = Vec2{1, 2} + 0.2 * t + 1.45 * n;
    ShapeManifold m = collide(Shape::box(4, 2), at({1, 2}, a), Shape::circle(0.5), at(c), 0.01);
    ASSERT_EQ(m.count, 1);
    expectVec(n, m.normal);
    EXPECT_NEAR(m.points[0].depth, 0.05, kTol);
    expectVec(c - 0.475 * n, m.points[0].point);
}

TEST(Collide, CircleAgainstBoxCorner) {
    // Centre 0.9 from the corner (1, 1) along (0.6, 0.8), radius 1: depth 0.1 along (0.6, 0.8).
    const Vec2 n{0.6, 0.8};
    ShapeManifold m =
        collide(Shape::box(2, 2), at({0, 0}), Shape::circle(1), at(Vec2{1, 1} + 0.9 * n), 0.01);
    ASSERT_EQ(m.count, 1);
    expectVec(n, m.normal);
    EXPECT_NEAR(m.points[0].depth, 0.1, kTol);
    expectVec(Vec2{1, 1} - 0.05 * n, m.points[0].point);
}

TEST(Collide, CircleCentreInsideBoxUsesFaceOfLeastPenetration) {
    // Centre (0.2, 0.7) inside the 4 x 2 box: 0.3 below the top face, farther from the others.
    // Depth = radius + 0.3 = 0.8; surfaces at y = 1 (box) and y = 0.2 (ball), point at y = 0.6.
    ShapeManifold m =
        collide(Shape::box(4, 2), at({0, 0}), Shape::circle(0.5), at({0.2, 0.7}), 0.01);
    ASSERT_EQ(m.count, 1);
    expectVec({0, 1}, m.normal);
    EXPECT_NEAR(m.points[0].depth, 0.8, kTol);
    expectVec({0.2, 0.6}, m.points[0].point);

    // The centre exactly on the centroid: a finite answer along one of the faces (depth 1.5).
    ShapeManifold c = collide(Shape::box(4, 2), at({0, 0}), Shape::circle(0.5), at({0, 0}), 0.01);
    ASSERT_EQ(c.count, 1);
    EXPECT_NEAR(c.points[0].depth, 1.5, kTol);
    EXPECT_NEAR(glm::length(c.normal), 1, kTol);
}

TEST(Collide, CircleAndBoxBeyondAndWithinMargin) {
    const Shape box = Shape::box(2, 2), ball = Shape::circle(0.5);
    EXPECT_EQ(collide(box, at({0, 0}), ball, at({0, 1.7}), 0.1).count, 0); // gap 0.2
    ShapeManifold m = collide(box, at({0, 0}), ball, at({0, 1.55}), 0.1);  // gap 0.05
    ASSERT_EQ(m.count, 1);
    EXPECT_NEAR(m.points[0].depth, -0.05, kTol);
    expectVec({0, 1.025}, m.points[0].point);
}

// ---- Polygons ----------------------------------------------------------------------------

TEST(Collide, BoxOnBoxGivesTwoPointsOverTheOverlap) {
    // Ground 10 x 1 with its top at y = 0 (x in [-5, 5]); a 2 x 2 box whose bottom is at
    // y = -0.02 and spans x in [3.5, 5.5]: two points at the ends of the overlap [3.5, 5], each
    // 0.02 deep, midway at y = -0.01.
    const Shape ground = Shape::box(10, 1), box = Shape::box(2, 2);
    ShapeManifold m = collide(ground, at({0, -0.5}), box, at({4.5, 0.98}), 0.01);
    ASSERT_EQ(m.count, 2);
    expectVec({0, 1}, m.normal);
    std::vector<ShapeContact> p = byX(m);
    expectVec({3.5, -0.01}, p[0].point);
    expectVec({5.0, -0.01}, p[1].point);
    EXPECT_NEAR(p[0].depth, 0.02, kTol);
    EXPECT_NEAR(p[1].depth, 0.02, kTol);
    EXPECT_NE(p[0].id, p[1].id);

    // Swapped: the same points and depths, the normal reversed.
    ShapeManifold s = collide(box, at({4.5, 0.98}), ground, at({0, -0.5}), 0.01);
    ASSERT_EQ(s.count, 2);
    expectVec({0, -1}, s.normal);
    std::vector<ShapeContact> q = byX(s);
    expectVec({3.5, -0.01}, q[0].point);
    expectVec({5.0, -0.01}, q[1].point);
    EXPECT_NEAR(q[0].depth, 0.02, kTol);
    EXPECT_NEAR(q[1].depth, 0.02, kTol);
}

TEST(Collide, RotatedBoxCornerGivesOnePoint) {
    // A 2 x 2 box turned 45° has its lowest corner √2 below its centre; centred at
    // (0.3, 1 + √2 - 0.1) above a box whose top is y = 1, the corner is 0.1 deep at x = 0.3.
    const Shape ground = Shape::box(4, 2), box = Shape::box(2, 2);
    const Transform xb = at({0.3, 1 + std::sqrt(2.0) - 0.1}, M_PI / 4);
    ShapeManifold m = collide(ground, at({0, 0}), box, xb, 0.01);
    ASSERT_EQ(m.count, 1);
    expectVec({0, 1}, m.normal, 1e-12);
    EXPECT_NEAR(m.points[0].depth, 0.1, 1e-12);
    expectVec({0.3, 0.95}, m.points[0].point, 1e-12);

    ShapeManifold s = collide(box, xb, ground, at({0, 0}), 0.01);
    ASSERT_EQ(s.count, 1);
    expectVec({0, -1}, s.normal, 1e-12);
    EXPECT_NEAR(s.points[0].depth, 0.1, 1e-12);
    expectVec({0.3, 0.95}, s.points[0].point, 1e-12);
}

TEST(Collide, TriangleApexIntoBox) {
    // Triangle (-1,0), (1,0), (0,1) placed so that these are its world vertices; a 2 x 2 box
    // whose bottom is y = 0.9: the apex is 0.1 deep. The box face is the reference (B), so the
    // normal from the triangle to the box is +y.
    const Shape tri = Shape::polygon({{-1, 0}, {1, 0}, {0, 1}});
    ShapeManifold m =
        collide(tri, at(tri.centroidOffset()), Shape::box(2, 2), at({0.2, 1.9}), 0.01);
    ASSERT_EQ(m.count, 1);
    expectVec({0, 1}, m.normal);
    EXPECT_NEAR(m.points[0].depth, 0.1, kTol);
    expectVec({0, 0.95}, m.points[0].point);
}

TEST(Collide, BoxesBeyondMarginGiveNothingWithinGiveNegativeDepth) {
    const Shape box = Shape::box(2, 2);
    EXPECT_EQ(collide(box, at({0, 0}), box, at({0.5, 2.5}), 0.1).count, 0); // gap 0.5
    ShapeManifold m = collide(box, at({0, 0}), box, at({0.5, 2.05}), 0.1);  // gap 0.05
    ASSERT_EQ(m.count, 2);
    expectVec({0, 1}, m.normal);
    std::vector<ShapeContact> p = byX(m);
    EXPECT_NEAR(p[0].depth, -0.05, kTol);
    EXPECT_NEAR(p[1].depth, -0.05, kTol);
    expectVec({-0.5, 1.025}, p[0].point);
    expectVec({1.0, 1.025}, p[1].point);
}

TEST(Collide, FacingCornersWithinMarginGiveOnePoint) {
    // Corners (1, 1) and (1.06, 1.08): gap 0.1 along (0.6, 0.8). No face clips the other, so the
    // closest points of the two edges make the one point.
    const Shape box = Shape::box(2, 2);
    ShapeManifold m = collide(box, at({0, 0}), box, at({2.06, 2.08}), 0.2);
    ASSERT_EQ(m.count, 1);
    expectVec({0.6, 0.8}, m.normal, 1e-12);
    EXPECT_NEAR(m.points[0].depth, -0.1, 1e-12);
    expectVec({1.03, 1.04}, m.points[0].point, 1e-12);
    EXPECT_EQ(collide(box, at({0, 0}), box, at({2.06, 2.08}), 0.05).count, 0);
}

// A corner of B just past A's corner (1, 1), beside A's right face, and B's next edge passing
// 1 mm from that corner: the reference face is A's right face (B's own face is not clearly better),
// and B's edge most facing it lies wholly beside it. The closest points are A's corner and B's
// other edge, 1 mm apart along that edge's normal (2, 1)/√5, not the two corners (1.02 mm).
// (Measured on the two facing edges alone, a spinning polygon of an elastic gas was 0.2 mm from a
// box it touched, and the flights never found the contact.)
TEST(Collide, CornerBesideTheReferenceFaceIsMeasuredToTheNearestEdge) {
    const Shape box = Shape::box(2, 2);
    const Vec2 n = Vec2{2, 1} / std::sqrt(5.0); // B's edge normal, from A towards B
    const Vec2 q0 = Vec2{1 - 1e-4, 1 + 2e-4} + 1e-3 * n;
    const Vec2 u = 0.5 * Vec2{1, -2} / std::sqrt(5.0), w{0.05, 0.5};
    const Shape b = Shape::polygon({q0, q0 + u, q0 + u + w, q0 + w});
    const ShapeManifold m = collide(box, at({0, 0}), b, at(b.centroidOffset()), 0.01);
    ASSERT_EQ(m.count, 1);
    EXPECT_NEAR(m.points[0].depth, -1e-3, 1e-12);
    expectVec(n, m.normal, 1e-9);
}

TEST(Collide, FeatureIdsStableUnderSmallMotion) {
    const Shape ground = Shape::box(10, 1), box = Shape::box(2, 2);
    const Transform xg = at({0, -0.5}, 0);
    ShapeManifold m0 = collide(ground, xg, box, at({1, 0.98}), 0.01);
    ShapeManifold m1 = collide(ground, xg, box, at({1.01, 0.983}, 0.002), 0.01);
    ASSERT_EQ(m0.count, 2);
    ASSERT_EQ(m1.count, 2);
    std::vector<ShapeContact> p0 = byX(m0), p1 = byX(m1);
    EXPECT_EQ(p0[0].id, p1[0].id);
    EXPECT_EQ(p0[1].id, p1[1].id);
    EXPECT_NE(p0[0].id, p0[1].id);

    // Overhanging: one end is a clip point, the other an incident vertex; both keep their ids.
    ShapeManifold h0 = collide(ground, xg, box, at({4.5, 0.98}), 0.01);
    ShapeManifold h1 = collide(ground, xg, box, at({4.49, 0.981}, -0.001), 0.01);
    ASSERT_EQ(h0.count, 2);
    ASSERT_EQ(h1.count, 2);
    std::vector<ShapeContact> q0 = byX(h0), q1 = byX(h1);
    EXPECT_EQ(q0[0].id, q1[0].id);
    EXPECT_EQ(q0[1].id, q1[1].id);
    EXPECT_NE(q0[0].id, q0[1].id);
}

TEST(Collide, ReferenceFaceDoesNotFlickerBetweenEqualBoxes) {
    // Two equal boxes stacked exactly: both faces are equally good, A's is kept, and tiny
    // motions (far below the tolerance) keep the same ids.
    const Shape box = Shape::box(1, 1);
    ShapeManifold m0 = collide(box, at({0, 0}), box, at({0, 0.99}), 0.01);
    ShapeManifold m1 = collide(box, at({0, 0}), box, at({1e-6, 0.99}, 1e-7), 0.01);
    ShapeManifold m2 = collide(box, at({0, 0}), box, at({-1e-6, 0.99}, -1e-7), 0.01);
    ASSERT_EQ(m0.count, 2);
    ASSERT_EQ(m1.count, 2);
    ASSERT_EQ(m2.count, 2);
    std::vector<ShapeContact> p0 = byX(m0), p1 = byX(m1), p2 = byX(m2);
    for (int i = 0; i < 2; ++i) {
        EXPECT_EQ(p0[i].id, p1[i].id);
        EXPECT_EQ(p0[i].id, p2[i].id);
    }
}

// ---- Fuzz --------------------------------------------------------------------------------

// A circle, a box or a convex polygon of random size (0.05 to a few metres).
Shape randomShape(std::mt19937& rng) {
    std::uniform_real_distribution<double> u(0, 1);
    switch (static_cast<int>(u(rng) * 3)) {
    case 0:
        return Shape::circle(0.05 + 2 * u(rng));
    case 1:
        return Shape::box(0.05 + 3 * u(rng), 0.05 + 3 * u(rng));
    default: { // points on an ellipse at increasing angles: convex
        const int n = 3 + static_cast<int>(u(rng) * 6);
        const double rx = 0.1 + 2 * u(rng), ry = 0.1 + 2 * u(rng);
        std::vector<Vec2> v;
        for (int i = 0; i < n; ++i) {
            const double t = 2 * M_PI * (i + 0.8 * u(rng)) / n;
            v.push_back({rx * std::cos(t), ry * std::sin(t)});
        }
        return Shape::polygon(v);
    }
    }
}

TEST(Collide, RandomPosesNeverGiveNaNAndNormalsAreUnit) {
    std::mt19937 rng(12345);
    std::uniform_real_distribution<double> u(0, 1);
    auto randomShape = [&]() { return ::randomShape(rng); };
    int touching = 0;
    for (int k = 0; k < 20000; ++k) {
        const Shape a = randomShape(), b = randomShape();
        const double range = k % 10 == 0 ? 1e-9 : 3; // some near-coincident centres
        const Transform xa = at({range * (u(rng) - 0.5), range * (u(rng) - 0.5)}, 7 * u(rng));
        const Transform xb = at({range * (u(rng) - 0.5), range * (u(rng) - 0.5)}, 7 * u(rng));
        const double margin = 0.2 * u(rng);
        const ShapeManifold m = collide(a, xa, b, xb, margin);
        ASSERT_GE(m.count, 0);
        ASSERT_LE(m.count, 2);
        ASSERT_TRUE(isFinite(m.normal));
        ASSERT_NEAR(glm::length(m.normal), 1, 1e-9);
        for (int i = 0; i < m.count; ++i) {
            ASSERT_TRUE(isFinite(m.points[i].point));
            ASSERT_TRUE(std::isfinite(m.points[i].depth));
            ASSERT_GT(m.points[i].depth, -margin);
            // No deeper than the shapes are wide.
            ASSERT_LE(m.points[i].depth, 2 * (a.boundingRadius() + b.boundingRadius()));
        }
        // The swap reverses the normal whenever both see one point.
        const ShapeManifold s = collide(b, xb, a, xa, margin);
        if (m.count > 0 && (a.type() == ShapeType::Circle || b.type() == ShapeType::Circle)) {
            ASSERT_EQ(s.count, m.count);
            ASSERT_NEAR(glm::dot(s.normal, m.normal), -1, 1e-9);
            ASSERT_NEAR(s.points[0].depth, m.points[0].depth, 1e-9);
        }
        touching += m.count > 0;
    }
    EXPECT_GT(touching, 2000); // the poses do exercise contacts
}

// depthBound (keepOutOfStaticBodies' filter) may be loose but never below a point collide reports:
// over random overlapping poses of every pair of shape types; and for a box sunk 5 mm into a
// ground box, it is the 5 mm plus the face tolerance (0.1 × 5 mm), by the geometry.
TEST(Collide, DepthBoundIsNeverBelowTheDeepestPoint) {
    std::mt19937 rng(777);
    std::uniform_real_distribution<double> u(0, 1);
    int deep = 0;
    for (int k = 0; k < 20000; ++k) {
        const Shape a = randomShape(rng), b = randomShape(rng);
        const Transform xa = at({3 * (u(rng) - 0.5), 3 * (u(rng) - 0.5)}, 7 * u(rng));
        const Transform xb = at({3 * (u(rng) - 0.5), 3 * (u(rng) - 0.5)}, 7 * u(rng));
        const double bound = depthBound(a, xa, b, xb);
        if (b.type() == ShapeType::Circle) {
            ASSERT_EQ(bound, INFINITY);
            continue;
        }
        const ShapeManifold m = collide(a, xa, b, xb, 0.2 * u(rng));
        ASSERT_LE(deepestDepth(m), bound + 1e-12) << "pair " << k;
        deep += deepestDepth(m) > 0.1;
    }
    EXPECT_GT(deep, 1000); // deep overlaps were tried
    const Shape ground = Shape::box(200, 2), box = Shape::box(1, 1);
    EXPECT_NEAR(depthBound(box, at({3, 0.495}, 0), ground, at({0, -1})), 0.005 + 0.0005, kTol);
    EXPECT_NEAR(depthBound(Shape::circle(0.5), at({3, 0.495}), ground, at({0, -1})), 0.005, kTol);
}

// Two boxes take the closed-form separating axis test (boxSeparation); the same rectangles given
// as polygons take the general one over their vertices. The manifolds must be the same: the
// same face, so the same points and ids, to round-off.
TEST(Collide, BoxesCollideAsTheSameRectanglesGivenAsPolygons) {
    std::mt19937 rng(2026);
    std::uniform_real_distribution<double> u(0, 1);
    auto asPolygon = [](const Shape& box) { return Shape::polygon(box.vertices()); };
    int touching = 0;
    for (int k = 0; k < 20000; ++k) {
        const Shape a = Shape::box(0.05 + 3 * u(rng), 0.05 + 3 * u(rng));
        const Shape b = Shape::box(0.05 + 3 * u(rng), 0.05 + 3 * u(rng));
        // Some at right angles, as boxes in a stack stand, where faces tie.
        const double turn = k % 4 == 0 ? M_PI / 2 * std::floor(4 * u(rng)) : 7 * u(rng);
        const Transform xa = at({3 * (u(rng) - 0.5), 3 * (u(rng) - 0.5)}, 7 * u(rng));
        const Transform xb = at({3 * (u(rng) - 0.5), 3 * (u(rng) - 0.5)}, turn);
        const double margin = 0.2 * u(rng);
        const ShapeManifold boxes = collide(a, xa, b, xb, margin);
        const ShapeManifold polygons = collide(asPolygon(a), xa, asPolygon(b), xb, margin);
        ASSERT_EQ(boxes.count, polygons.count) << "pair " << k;
        if (boxes.count == 0) continue;
        ++touching;
        expectVec(polygons.normal, boxes.normal, 1e-9);
        for (int i = 0; i < boxes.count; ++i) {
            expectVec(polygons.points[i].point, boxes.points[i].point, 1e-9);
            EXPECT_NEAR(polygons.points[i].depth, boxes.points[i].depth, 1e-9);
            EXPECT_EQ(polygons.points[i].id, boxes.points[i].id);
        }
    }
    EXPECT_GT(touching, 2000);
}

TEST(Collide, NonFiniteTransformGivesNoContactRatherThanNaN) {
    const double nan = std::nan("");
    const Shape box = Shape::box(1, 1), ball = Shape::circle(1);
    for (const Shape* a : {&box, &ball})
        for (const Shape* b : {&box, &ball}) {
            ShapeManifold m = collide(*a, at({nan, 0}), *b, at({0, 0}), 0.1);
            EXPECT_EQ(m.count, 0);
            EXPECT_TRUE(isFinite(m.normal));
        }
}

} // namespace
