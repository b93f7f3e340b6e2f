// Joints: pins, rods, ropes, springs, welds and sliders between two bodies or a body and the world.
// Their definition (what a scene file or the app gives) and their state. The step solves them in
// the same solver as the contacts (joints/joint_solver.h); the formulas are Box2D v3's
// (revolute_joint.c, distance_joint.c, weld_joint.c, prismatic_joint.c) after Catto's "Soft
// Constraints" (GDC 2011), written for this engine's states.
#pragma once

#include "carom/body.h"
#include "carom/math.h"
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace carom {

using JointId = std::size_t; // index into World::joints()

enum class JointType {
    Revolute,  // a pin: the anchors of both bodies kept together; a motor and angle limits
    Distance,  // a rod (rigid), a rope (slack below max_length) or a spring, between two anchors
    Weld,      // the anchors together and the relative angle kept
    Prismatic, // a slider: b moves along an axis fixed in a, without turning; limits and a motor
};
// The type's name in scene files and messages: "revolute", "distance", "weld", "prismatic".
std::string_view toString(JointType t);

// How a distance joint holds its length (JointDef below says which fields make which).
enum class DistanceKind { Rod, Rope, Spring };

// A saved world's joint frame, so that it continues bit for bit: the anchors in each body's frame
// (relative to its centre of mass; the world's anchor in world coordinates) and, for the joints
// that keep an angle, the reference angle θb − θa that counts as 0.
struct JointFrame {
    Vec2 localA{0, 0}, localB{0, 0};
    double referenceAngle = 0;
    Vec2 localAxis{1, 0}; // prismatic: the axis in a's frame, unit
};

// The impulses a joint applied over the last step, N·s (angular ones N·m·s), on body b (a gets
// the opposite): the solver's warm start, as the contacts' impulses are.
struct JointImpulses {
    Vec2 linear{0, 0};  // revolute and weld: the point; prismatic: x along the perpendicular
    double angular = 0; // weld and prismatic: the angle
    double axial = 0;   // distance: the rod, or the spring's impulse
    double motor = 0, lower = 0, upper = 0; // revolute and prismatic motors; limits
    bool operator==(const JointImpulses& o) const {
        return linear == o.linear && angular == o.angular && axial == o.axial && motor == o.motor &&
               lower == o.lower && upper == o.upper;
    }
};

// What it takes to make a joint. Anchors and the axis are in world coordinates at the moment the
// joint is added (a scene file's start). Every input is checked by World::addJoint.
struct JointDef {
    std::string name;
    JointType type = JointType::Revolute;
    std::optional<BodyId> a; // unset: the world (a fixed point)
    BodyId b = 0;
    Vec2 anchor{0, 0};                 // revolute, weld, prismatic
    Vec2 anchorA{0, 0}, anchorB{0, 0}; // distance: the two ends
    bool collide = false;              // whether a and b still collide with each other
    // Revolute: a motor (rad/s, with max_motor_torque N·m) and limits of b's angle relative to a,
    // rad, from the angle at the start. Prismatic: a motor (m/s, with max_motor_force N) and
    // limits of the translation along the axis, m, from the start.
    std::optional<double> motorSpeed, maxMotorTorque, maxMotorForce;
    std::optional<double> lower, upper;
    // Distance: `stiffness` (N/m > 0) makes a spring of rest length `length` (default: the anchors'
    // distance at the start) with `damping` (N·s/m); `min_length`/`max_length` alone make a rope
    // (slack between them); otherwise a rod of `length` (default: the distance at the start).
    // A spring may also have min_length/max_length.
    std::optional<double> length, minLength, maxLength, stiffness, damping;
    Vec2 axis{1, 0}; // prismatic: the direction b slides in, world (any length > 0)
    // A saved world's (captureScene): its frame and the impulses of its last step.
    std::optional<JointFrame> frame;
    JointImpulses impulses;
};

// A joint as the step sees it.
struct Joint {
    std::string name;
    JointType type = JointType::Revolute;
    std::optional<BodyId> a; // unset: the world
    BodyId b = 0;
    JointFrame frame;
    bool collide = false;
    DistanceKind kind = DistanceKind::Rod; // distance joints
    double length = 0;                     // rod and spring: the length held or at rest
    double minLength = 0, maxLength = 0;   // distance limits (maxLength may be infinite)
    double stiffness = 0, damping = 0;     // spring
    std::optional<double> motorSpeed;      // revolute and prismatic
    double maxMotor = 0;                   // N·m or N
    std::optional<double> lower, upper;    // revolute (rad) and prismatic (m)
    JointImpulses impulses;                // over the last step (warm start)
    // The reaction on b over the last step, world: the mean force and torque (impulses / h).
    Vec2 force{0, 0};
    double torque = 0;
};

} // namespace carom
