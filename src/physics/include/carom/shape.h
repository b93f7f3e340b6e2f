// Collision shapes: circle, box and convex polygon, in body-local coordinates with the centroid
// at the origin, and their mass properties as uniform solids.
#pragma once

#include "carom/math.h"
#include <vector>

namespace carom {

enum class ShapeType { Circle, Box, Polygon };

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

    ShapeType type() const { return type_; }
    double radius() const { return radius_; }                       // circle; 0 for polygons
    double width() const { return width_; }                         // box
    double height() const { return height_; }                       // box
    const std::vector<Vec2>& vertices() const { return vertices_; } // box and polygon, CCW
    const std::vector<Vec2>& normals() const { return normals_; }   // outward edge normals
    Vec2 centroidOffset() const { return centroidOffset_; } // polygon: how far the input was moved
    MassProperties massProperties() const;
    double boundingRadius() const { return boundingRadius_; } // origin to the farthest point
    double innerRadius() const { return innerRadius_; } // largest circle about the origin inside

  private:
    ShapeType type_ = ShapeType::Circle;
    double radius_ = 0, width_ = 0, height_ = 0;
    std::vector<Vec2> vertices_, normals_;
    Vec2 centroidOffset_{0, 0};
    double boundingRadius_ = 0, innerRadius_ = 0;
    void measureRadii();
};

} // namespace carom
