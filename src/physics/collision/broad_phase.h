// Broad phase: the pairs of bodies whose bounding boxes, swept over the step, overlap.
#pragma once

#include "carom/body.h"
#include <cstdint>
#include <vector>

namespace carom {

struct Aabb {
    Vec2 lo{0, 0}, hi{0, 0};
};

struct BodyPair {
    BodyId a = 0, b = 0; // a < b
};

inline bool overlap(const Aabb& a, const Aabb& b) {
    return a.lo.x <= b.hi.x && b.lo.x <= a.hi.x && a.lo.y <= b.hi.y && b.lo.y <= a.hi.y;
}

// The box about a shape at x, or about all of a body's shapes, grown by margin on every side.
Aabb boundingBox(const Shape& shape, const Transform& x, double margin);
Aabb boundingBox(const Body& b, double margin);

// A pair of shapes of two bodies: a < b, and the shapes' indices in each body's list.
struct ShapePairKey {
    BodyId a = 0, b = 0;
    std::uint32_t shapeA = 0, shapeB = 0;
};

// Calls f(i, j) for each shape i of A and j of B whose boxes, grown by their bodies' margins
// (marginA, marginB), overlap, i then j in increasing order: the broad phase within a pair of
// bodies whose boxes overlap. Two one-shape bodies have the one pair (0, 0), unfiltered.
template <class F>
void eachShapePair(const Body& A, double marginA, const Body& B, double marginB, F f) {
    if (A.shapes.size() == 1 && B.shapes.size() == 1) {
        f(std::uint32_t{0}, std::uint32_t{0});
        return;
    }
    for (std::uint32_t i = 0; i < A.shapes.size(); ++i) {
        const Aabb boxA = boundingBox(A.shapes[i].shape, A.shapeXf(i), marginA);
        for (std::uint32_t j = 0; j < B.shapes.size(); ++j)
            if (overlap(boxA, boundingBox(B.shapes[j].shape, B.shapeXf(j), marginB))) f(i, j);
    }
}

// Pairs (a < b, in increasing order) not of one group (sameGroup), with at least one dynamic body
// whose boxes, each grown by
// its body's margin, overlap (closed boxes: touching counts). A uniform grid (Ericson §7.1) over
// boxes grown further (fat boxes), searched again only when a box leaves its fat one.
void findPairs(const std::vector<Body>& bodies, const std::vector<double>& margins,
               std::vector<BodyPair>& pairs);

} // namespace carom
