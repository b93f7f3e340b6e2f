// Rigid bodies: their definition (what a scene file or the app gives) and their state.
#pragma once

#include "carom/math.h"
#include "carom/shape.h"
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace carom {

// Index into World::bodies(): a body keeps it until a body before it is removed
// (World::removeBody), which moves it down by one.
using BodyId = std::size_t;

enum class BodyType { Dynamic, Static, Kinematic };

// A link of a chain: a scene file's static "chain" shape is made of one static body per segment,
// all in the chain's frame, named "CHAIN/0", "CHAIN/1", ... (docs/scene-format.md). The step never
// reads it: a saved scene writes the links of one chain back as that chain.
struct ChainLink {
    std::string chain;     // the chain's name in the scene file
    std::size_t index = 0; // the link's place: its segment joins points index and index + 1
    bool loop = false;     // the chain closes: its last link joins the last point to the first
};

// A shape of a body, placed in the body's frame: where its origin lies (`offset`) and how it is
// turned (`angle`). A body has one shape at its centre of mass, or several (a compound body).
struct BodyShape {
    Shape shape;
    Vec2 offset{0, 0};
    double angle = 0;
    Transform local; // offset and angle as a transform: body frame <- shape frame
    BodyShape() = default;
    BodyShape(Shape s, Vec2 offset, double angle)
        : shape(std::move(s)), offset(offset), angle(angle), local{offset, Rot(angle)} {}
    // A one-shape body's shape: at the centre of mass, unturned, its pose the body's own.
    bool atOrigin() const { return offset == Vec2{0, 0} && angle == 0; }
};

// Where a shape placed at `local` in a body at `body` lies in the world: body ∘ local. A shape at
// the origin lies at the body's pose itself, bit for bit.
inline Transform placeShape(const Transform& body, const BodyShape& s) {
    if (s.atOrigin()) return body;
    const Rot& a = body.q;
    const Rot& b = s.local.q;
    Transform x;
    x.p = body.apply(s.local.p);
    x.q.c = a.c * b.c - a.s * b.s;
    x.q.s = a.s * b.c + a.c * b.s;
    return x;
}

// What it takes to make a body. Unset optionals take the world's defaults (restitution,
// friction) or the shape's uniform-solid mass (density, 1 kg/m² when neither is given).
struct BodyDef {
    std::string name;
    BodyType type = BodyType::Dynamic;
    Shape shape = Shape::circle(0.5); // the body's one shape, at its centre of mass
    // A compound body: two or more shapes (circles, boxes, polygons, capsules), each placed in the
    // body's frame, `shape` then unread. They are moved together so that their centre of mass
    // (uniform density) is the body's origin, as a polygon's vertices are moved to its centroid:
    // `position` stays the centre of mass (compoundShapes, compound.cpp).
    std::vector<BodyShape> shapes;
    Vec2 position{0, 0}; // centre of mass, world
    double angle = 0;
    Vec2 velocity{0, 0};
    double angularVelocity = 0;
    std::optional<double> mass;    // kg; give mass or density, not both
    std::optional<double> density; // kg/m²
    std::optional<double> restitution;
    std::optional<double> friction;
    bool wall = false; // made by World::addWalls (scene files save these as "walls", not bodies)
    int group = 0;     // bodies of the same group (≥ 1) never collide with each other; 0: none
    std::optional<ChainLink> chain; // a link of a scene file's chain (a segment, static)
};

// A compound body's shapes moved so that their centre of mass is the origin (a polygon's own
// vertices moved to its centroid first, its offset moved with them), and their mass properties
// summed by the parallel-axis theorem: I = Σ m_i (k_i + |c_i|²), k_i shape i's inertia per mass
// about its centroid and c_i that centroid after the move. Throws std::invalid_argument
// "shapes/i/field: what" for a bad shape (a segment, an offset out of range).
struct CompoundShapes {
    std::vector<BodyShape> shapes;
    MassProperties mass;
};
CompoundShapes compoundShapes(const std::vector<BodyShape>& shapes);

// A body as the step sees it: its state and what the step reads. What a scene file said about it
// that the step does not need (density or mass, wall) is the world's BodyOrigin.
struct Body {
    std::string name;
    BodyType type = BodyType::Dynamic;
    std::vector<BodyShape> shapes;      // one at the origin, or a compound body's several
    Vec2 v{0, 0};                       // linear velocity of the centre of mass
    double w = 0;                       // angular velocity, counter-clockwise positive
    double mass = 0, invMass = 0;       // 0 inverse mass for static and kinematic bodies
    double inertia = 0, invInertia = 0; // about the centre of mass
    std::optional<double> restitution;  // unset: the world's default
    std::optional<double> friction;     // unset: the world's default
    int group = 0;                      // BodyDef::group
    Vec2 force{0, 0};                   // accumulated during a step, cleared after it
    double torque = 0;

    // The pose: the position of the centre of mass and the rotation, kept as an angle (which counts
    // whole turns) and as its rotation matrix, always set together.
    const Transform& xf() const { return xf_; }
    double angle() const { return angle_; }
    void setPose(Vec2 position, double angle) {
        xf_ = Transform{position, Rot(angle)};
        angle_ = angle;
    }

    bool isDynamic() const { return type == BodyType::Dynamic; }
    // Made of placed shapes (BodyDef::shapes): several, or one off the centre of mass.
    bool isCompound() const { return shapes.size() != 1 || !shapes[0].atOrigin(); }
    // Where shape i lies in the world now.
    Transform shapeXf(std::size_t i) const { return placeShape(xf_, shapes[i]); }
    // From the centre of mass to the farthest point of any shape; and the smallest inner radius
    // of the shapes (Shape::innerRadius): the body's sizes for sweeps and sampling. Set with the
    // shapes (setShapes).
    double boundingRadius() const { return boundingRadius_; }
    double innerRadius() const { return innerRadius_; }
    void setShape(Shape s) { setShapes({BodyShape(std::move(s), Vec2{0, 0}, 0)}); }
    void setShapes(std::vector<BodyShape> s) {
        shapes = std::move(s);
        boundingRadius_ = 0;
        innerRadius_ = INFINITY;
        for (const BodyShape& p : shapes) {
            boundingRadius_ =
                std::max(boundingRadius_, glm::length(p.offset) + p.shape.boundingRadius());
            innerRadius_ = std::min(innerRadius_, p.shape.innerRadius());
        }
    }
    Vec2 worldPoint(Vec2 local) const { return xf_.apply(local); }
    Vec2 localPoint(Vec2 world) const { return xf_.applyInverse(world); }
    Vec2 velocityAt(Vec2 world) const { return v + cross(w, world - xf_.p); }
    double kineticEnergy() const { return 0.5 * mass * lengthSquared(v) + 0.5 * inertia * w * w; }

  private:
    Transform xf_;
    double angle_ = 0;
    double boundingRadius_ = 0, innerRadius_ = 0;
};

// The shape of a body that has one, at its centre of mass (not a compound): for the stages that
// take only such bodies (the exact method, flights in closed form, soft bodies' collisions).
inline const Shape& soleShape(const Body& b) {
    return b.shapes[0].shape;
}

// Whether two bodies may never collide: they share a group (a ragdoll's parts, a net's knots).
inline bool sameGroup(const Body& a, const Body& b) {
    return a.group != 0 && a.group == b.group;
}

} // namespace carom
