// Rigid bodies: their definition (what a scene file or the app gives) and their state.
#pragma once

#include "carom/math.h"
#include "carom/shape.h"
#include <cstddef>
#include <optional>
#include <string>

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

// What it takes to make a body. Unset optionals take the world's defaults (restitution,
// friction) or the shape's uniform-solid mass (density, 1 kg/m² when neither is given).
struct BodyDef {
    std::string name;
    BodyType type = BodyType::Dynamic;
    Shape shape = Shape::circle(0.5);
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

// A body as the step sees it: its state and what the step reads. What a scene file said about it
// that the step does not need (density or mass, wall) is the world's BodyOrigin.
struct Body {
    std::string name;
    BodyType type = BodyType::Dynamic;
    Shape shape;
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
    Vec2 worldPoint(Vec2 local) const { return xf_.apply(local); }
    Vec2 localPoint(Vec2 world) const { return xf_.applyInverse(world); }
    Vec2 velocityAt(Vec2 world) const { return v + cross(w, world - xf_.p); }
    double kineticEnergy() const { return 0.5 * mass * lengthSquared(v) + 0.5 * inertia * w * w; }

  private:
    Transform xf_;
    double angle_ = 0;
};

// Whether two bodies may never collide: they share a group (a ragdoll's parts, a net's knots).
inline bool sameGroup(const Body& a, const Body& b) {
    return a.group != 0 && a.group == b.group;
}

} // namespace carom
