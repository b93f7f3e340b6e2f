// Broad phase: the pairs of bodies whose bounding boxes, swept over the step, overlap.
#pragma once

#include "carom/body.h"
#include <vector>

namespace carom {

struct Aabb {
    Vec2 lo{0, 0}, hi{0, 0};
};

struct BodyPair {
    BodyId a = 0, b = 0; // a < b
};

Aabb boundingBox(const Body& b, double margin);

// Pairs (a < b, in increasing order) not of one group (sameGroup), with at least one dynamic body
// whose boxes, each grown by
// its body's margin, overlap (closed boxes: touching counts). A uniform grid (Ericson §7.1) over
// boxes grown further (fat boxes), searched again only when a box leaves its fat one.
void findPairs(const std::vector<Body>& bodies, const std::vector<double>& margins,
               std::vector<BodyPair>& pairs);

} // namespace carom
