// Narrow phase: pure shape-pair functions that build a contact manifold (Box2D's CollidePolygons
// style), tested without a world. Internal to the engine.
#pragma once

#include "carom/math.h"
#include "carom/shape.h"
#include <cmath>
#include <cstdint>

namespace carom {

struct ShapeContact {
    Vec2 point{0, 0};     // world, midway between the two surfaces
    double depth = 0;     // penetration along the normal (> 0 overlapping, < 0 a gap)
    std::uint32_t id = 0; // feature id, stable while the same features touch
};

struct ShapeManifold {
    Vec2 normal{0, 1}; // unit, from shape A towards shape B
    int count = 0;     // 0, 1 or 2
    ShapeContact points[2];
};

// Contacts between shape a at xa and shape b at xb. Points whose gap is smaller than margin
// (depth > -margin) are reported too, so that the solver can stop bodies before they touch
// (speculative contacts). count == 0 when the shapes are farther apart than margin.
ShapeManifold collide(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb,
                      double margin);

// An upper bound on the depth of every point collide(a, xa, b, xb, margin) reports, whatever the
// margin, from b's faces alone: for a polygon a, how far it reaches into b along the face of b it
// penetrates least, plus the tolerance by which collide may take a face of a instead; for a circle
// a, its radius less its centre's greatest separation from a face of b. +∞ for a circle b (no
// faces). A few operations where collide clips and measures, for a test that needs to know only
// that no point is deep (keepOutOfStaticBodies). Why it bounds: collide.cpp.
double depthBound(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb);

// The smaller inner radius of two shapes (Shape::innerRadius), of those that have one: a segment,
// which has none, is left out (it is static, and the other is not). The size by which a pair's
// relative motion may be sampled, or its contacts recognised, without missing a touch.
inline double smallerInnerRadius(const Shape& a, const Shape& b) {
    if (a.type() == ShapeType::Segment) return b.innerRadius();
    if (b.type() == ShapeType::Segment) return a.innerRadius();
    return a.innerRadius() < b.innerRadius() ? a.innerRadius() : b.innerRadius();
}

// The deepest point's depth of a manifold (a ShapeManifold or the world's Manifold); −∞ when it
// has no point.
template <class AnyManifold> double deepestDepth(const AnyManifold& m) {
    double d = -INFINITY;
    for (int i = 0; i < m.count; ++i)
        d = d < m.points[i].depth ? m.points[i].depth : d;
    return d;
}

} // namespace carom
