// Collision shapes: circle, box, convex polygon and capsule, in body-local coordinates with the
// centroid at the origin, and their mass properties as uniform solids; and the segment, for static
// bodies only, anywhere in its body's frame.
//
// Every shape but the circle is a convex core of vertices (a box's or polygon's corners, a
// capsule's or segment's two ends: a polygon of two vertices whose two faces, one each way, are
// its two sides, as in Box2D v3's b2MakeCapsule) rounded by radius(): 0 for boxes, polygons and
// segments, the capsule's radius for a capsule. A circle is a single point rounded by its radius.
#pragma once

#include "carom/math.h"
#include <optional>
#include <vector>

namespace carom {

enum class ShapeType { Circle, Box, Polygon, Capsule, Segment };

struct MassProperties {
    double area = 0;
    double inertiaPerMass = 0; // moment of inertia about the centroid divided by the mass
};

class Shape {
  public:
    // Factories check their input and throw std::invalid_argument with a message saying what is
    // wrong.
    static Shape circle(double radius);
    static Shape box(double width, double height);
    // vertices: 3 or more, convex, in either winding; they are reordered counter-clockwise and
    // moved so that their centroid is the origin (centroidOffset() tells by how much).
    static Shape polygon(const std::vector<Vec2>& vertices);
    // Two half discs of the radius joined by a rectangle: their centres `length` apart on the
    // x axis, either side of the origin.
    static Shape capsule(double length, double radius);
    // The line from a to b, in the body's frame as given (not centred): no area and no mass, for
    // static bodies only (World::addBody refuses it on another).
    static Shape segment(Vec2 a, Vec2 b);
    // A link of a chain: the segment from a to b, and where its neighbours lead, if it has them:
    // the link before it runs from `before` to a, the link after it from b to `after` (Box2D's
    // ghost vertices). A shape touching an end of the link along a normal that points over the
    // neighbour's side is the neighbour's: the link leaves it alone (collide.cpp), so that a ball
    // rolls and a box slides over the join of two links without striking the next one's end.
    static Shape chainLink(Vec2 a, Vec2 b, std::optional<Vec2> before, std::optional<Vec2> after);

    ShapeType type() const { return type_; }
    double radius() const { return radius_; } // circle, capsule: the rounding; 0 for the others
    double width() const { return width_; }   // box
    double height() const { return height_; } // box
    double length() const { return length_; } // capsule: between the centres of its ends
    // The core's vertices: a box's and a polygon's counter-clockwise, a capsule's and a segment's
    // two ends; none for a circle.
    const std::vector<Vec2>& vertices() const { return vertices_; }
    const std::vector<Vec2>& normals() const { return normals_; } // outward, of edge i -> i + 1
    bool isRound() const { return type_ == ShapeType::Circle; }   // a point core: no vertices
    // A chain link's neighbouring points (chainLink); unset for a lone segment.
    const std::optional<Vec2>& before() const { return before_; }
    const std::optional<Vec2>& after() const { return after_; }
    Vec2 centroidOffset() const { return centroidOffset_; } // polygon: how far the input was moved
    MassProperties massProperties() const;
    double boundingRadius() const { return boundingRadius_; } // origin to the farthest point
    // The largest circle about the origin inside: 0 for a segment, which has no inside.
    double innerRadius() const { return innerRadius_; }

  private:
    ShapeType type_ = ShapeType::Circle;
    double radius_ = 0, width_ = 0, height_ = 0, length_ = 0;
    std::vector<Vec2> vertices_, normals_;
    Vec2 centroidOffset_{0, 0};
    std::optional<Vec2> before_, after_;
    double boundingRadius_ = 0, innerRadius_ = 0;
    void measureRadii();
};

} // namespace carom
