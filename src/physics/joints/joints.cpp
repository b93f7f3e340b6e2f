// The world's joints: each definition checked where it enters, made into a joint in the bodies'
// frames, changed while it runs, and written back as a definition.
#include "carom/world.h"
#include "step/checks.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace carom {
namespace {

[[noreturn]] void refuse(const char* field, const std::string& what) {
    throw std::invalid_argument(std::string(field) + ": " + what);
}

void requireAbsent(const char* field, bool given, const std::string& why) {
    if (given) refuse(field, why);
}

void requireNonNegative(const char* field, std::optional<double> x) {
    if (!x) return;
    requireSize(field, *x);
    if (*x < 0) refuse(field, "must be >= 0, got " + str(*x));
}

// What a joint does, as World::tuneJoint may change it: checked for the joint's type, and put
// into `j` (its kind, lengths, motor and limits). `distance`: the anchors' distance now.
void tune(Joint& j, const JointDef& d, double distance) {
    const std::string type{toString(d.type)};
    const bool angular = d.type == JointType::Revolute, sliding = d.type == JointType::Prismatic;
    const char* lowerField = angular ? "lower_angle" : "lower_translation";
    const char* upperField = angular ? "upper_angle" : "upper_translation";
    for (auto [field, x] : {std::pair{"motor_speed", d.motorSpeed}, std::pair{lowerField, d.lower},
                            std::pair{upperField, d.upper}})
        if (x) requireSize(field, *x);
    requireNonNegative("max_motor_torque", d.maxMotorTorque);
    requireNonNegative("max_motor_force", d.maxMotorForce);
    requireAbsent("max_motor_torque", d.maxMotorTorque && !angular,
                  "only a revolute joint has a motor torque");
    requireAbsent("max_motor_force", d.maxMotorForce && !sliding,
                  "only a prismatic joint has a motor force");
    requireAbsent("motor_speed", d.motorSpeed && !angular && !sliding,
                  "a " + type + " joint has no motor");
    requireAbsent(lowerField, (d.lower || d.upper) && !angular && !sliding,
                  "a " + type + " joint has no limits");
    if (d.motorSpeed && !(angular ? d.maxMotorTorque : d.maxMotorForce))
        refuse(angular ? "max_motor_torque" : "max_motor_force",
               "required with motor_speed (the motor's strength)");
    if (d.lower && d.upper && *d.lower > *d.upper)
        refuse(upperField,
               "must be >= the lower limit, got " + str(*d.upper) + " < " + str(*d.lower));
    j.motorSpeed = d.motorSpeed;
    j.maxMotor = angular ? d.maxMotorTorque.value_or(0) : d.maxMotorForce.value_or(0);
    j.lower = d.lower;
    j.upper = d.upper;

    const bool spring = d.stiffness.has_value();
    if (d.type != JointType::Distance) {
        for (auto [field, given] :
             {std::pair{"length", d.length.has_value()},
              std::pair{"min_length", d.minLength.has_value()},
              std::pair{"max_length", d.maxLength.has_value()}, std::pair{"stiffness", spring},
              std::pair{"damping", d.damping.has_value()}})
            requireAbsent(field, given, "only a distance joint has it");
        return;
    }
    if (spring) {
        requirePositive("stiffness", *d.stiffness);
        requireSize("stiffness", *d.stiffness);
    }
    requireNonNegative("damping", d.damping);
    requireAbsent("damping", d.damping && !spring, "a spring's (give stiffness too)");
    if (d.length) {
        requirePositive("length", *d.length);
        requireSize("length", *d.length);
    }
    requireNonNegative("min_length", d.minLength);
    if (d.maxLength) {
        requirePositive("max_length", *d.maxLength);
        requireSize("max_length", *d.maxLength);
    }
    if (d.minLength && d.maxLength && *d.minLength > *d.maxLength)
        refuse("max_length",
               "must be >= min_length, got " + str(*d.maxLength) + " < " + str(*d.minLength));
    const bool limited = d.minLength || d.maxLength;
    if (!spring && d.length && limited)
        refuse(d.minLength ? "min_length" : "max_length",
               "a rod (length without stiffness) has no limits: give stiffness for a spring, or "
               "min_length/max_length alone for a rope");
    j.kind = spring ? DistanceKind::Spring : limited ? DistanceKind::Rope : DistanceKind::Rod;
    j.length = d.length.value_or(distance);
    if (j.kind == DistanceKind::Rod && !(j.length > 0))
        refuse("length", "a rod needs a length > 0 (its anchors are at one point: give length, or "
                         "use a revolute joint)");
    j.minLength = d.minLength.value_or(0);
    j.maxLength = d.maxLength.value_or(std::numeric_limits<double>::infinity());
    j.stiffness = d.stiffness.value_or(0);
    j.damping = d.damping.value_or(0);
}

} // namespace

JointId World::addJoint(const JointDef& d) {
    if (settings_.method == Method::Exact)
        refuse("method", "the exact method does not handle joints: choose another method");
    if (d.b >= bodies_.size()) refuse("b", "no such body (" + str(double(d.b)) + ")");
    if (d.a && *d.a >= bodies_.size()) refuse("a", "no such body (" + str(double(*d.a)) + ")");
    if (d.a && *d.a == d.b) refuse("b", "a joint joins two different bodies");
    if (origins_[d.b].wall)
        refuse("b", "a wall: join the other body as b, and leave a out (the world holds it)");
    const Body& B = bodies_[d.b];
    requireSize("anchor", d.anchor);
    requireSize("anchor_a", d.anchorA);
    requireSize("anchor_b", d.anchorB);
    requireSize("axis", d.axis);
    if (d.type == JointType::Prismatic && !(glm::length(d.axis) > 0))
        refuse("axis", "must not be [0, 0]");
    Joint j;
    j.name = d.name.empty() ? "joint" + std::to_string(joints_.size()) : d.name;
    if (findJoint(j.name)) refuse("name", "duplicate joint name \"" + j.name + "\"");
    j.type = d.type;
    j.a = d.a;
    j.b = d.b;
    j.collide = d.collide;
    const Transform xfA = d.a ? bodies_[*d.a].xf() : Transform{};
    const double angleA = d.a ? bodies_[*d.a].angle() : 0;
    const bool twoAnchors = d.type == JointType::Distance;
    const Vec2 anchorA = twoAnchors ? d.anchorA : d.anchor;
    const Vec2 anchorB = twoAnchors ? d.anchorB : d.anchor;
    if (d.frame) {
        for (auto [field, v] : {std::pair{"frame/local_a", d.frame->localA},
                                std::pair{"frame/local_b", d.frame->localB},
                                std::pair{"frame/local_axis", d.frame->localAxis}})
            requireSize(field, v);
        requireSize("frame/reference_angle", d.frame->referenceAngle);
        if (std::abs(glm::length(d.frame->localAxis) - 1) > 1e-9)
            refuse("frame/local_axis", "must have length 1");
        j.frame = *d.frame;
    } else {
        j.frame.localA = xfA.applyInverse(anchorA);
        j.frame.localB = B.localPoint(anchorB);
        j.frame.referenceAngle = B.angle() - angleA;
        j.frame.localAxis = xfA.q.applyInverse(glm::normalize(d.axis));
    }
    for (auto [field, x] : {std::pair{"impulses/linear", d.impulses.linear.x},
                            std::pair{"impulses/linear", d.impulses.linear.y},
                            std::pair{"impulses/angular", d.impulses.angular},
                            std::pair{"impulses/axial", d.impulses.axial},
                            std::pair{"impulses/motor", d.impulses.motor},
                            std::pair{"impulses/lower", d.impulses.lower},
                            std::pair{"impulses/upper", d.impulses.upper}})
        requireSize(field, x);
    tune(j, d, glm::length(anchorB - anchorA));
    j.impulses = d.impulses;
    jointNames_.emplace(j.name, joints_.size());
    joints_.push_back(std::move(j));
    if (!d.collide && d.a) {
        apart_.push_back(std::minmax(*d.a, d.b));
        apartSorted_ = false;
    }
    return joints_.size() - 1;
}

std::optional<JointId> World::findJoint(std::string_view name) const {
    const auto it = jointNames_.find(std::string(name));
    if (it == jointNames_.end()) return std::nullopt;
    return it->second;
}

void World::tuneJoint(JointId id, const JointDef& d) {
    if (id >= joints_.size()) refuse("joint", "no such joint (" + str(double(id)) + ")");
    Joint& j = joints_[id];
    if (d.type != j.type) refuse("type", "a joint's type does not change");
    Joint tuned = j;
    const auto [a, b] = jointAnchors(id);
    tune(tuned, d, glm::length(b - a));
    j = std::move(tuned);
}

std::pair<Vec2, Vec2> World::jointAnchors(JointId id) const {
    const Joint& j = joints_.at(id);
    return {j.a ? bodies_[*j.a].worldPoint(j.frame.localA) : j.frame.localA,
            bodies_[j.b].worldPoint(j.frame.localB)};
}

JointDef World::definitionOf(JointId id) const {
    const Joint& j = joints_.at(id);
    JointDef d;
    d.name = j.name;
    d.type = j.type;
    d.a = j.a;
    d.b = j.b;
    const auto [anchorA, anchorB] = jointAnchors(id);
    if (j.type == JointType::Distance) {
        d.anchorA = anchorA;
        d.anchorB = anchorB;
    } else {
        d.anchor = anchorB;
    }
    d.collide = j.collide;
    d.motorSpeed = j.motorSpeed;
    if (j.motorSpeed || j.maxMotor > 0) {
        if (j.type == JointType::Revolute) d.maxMotorTorque = j.maxMotor;
        if (j.type == JointType::Prismatic) d.maxMotorForce = j.maxMotor;
    }
    d.lower = j.lower;
    d.upper = j.upper;
    if (j.type == JointType::Distance) {
        if (j.kind != DistanceKind::Rope) d.length = j.length;
        if (j.kind == DistanceKind::Spring) {
            d.stiffness = j.stiffness;
            d.damping = j.damping;
        }
        if (j.kind != DistanceKind::Rod) {
            if (std::isfinite(j.maxLength)) d.maxLength = j.maxLength;
            // A rope says which it is by its limits: at least one is written.
            if (j.minLength > 0 || (j.kind == DistanceKind::Rope && !d.maxLength))
                d.minLength = j.minLength;
        }
    }
    const Transform xfA = j.a ? bodies_[*j.a].xf() : Transform{};
    d.axis = xfA.q.apply(j.frame.localAxis);
    d.frame = j.frame;
    d.impulses = j.impulses;
    return d;
}

std::string_view toString(JointType t) {
    switch (t) {
    case JointType::Revolute:
        return "revolute";
    case JointType::Distance:
        return "distance";
    case JointType::Weld:
        return "weld";
    case JointType::Prismatic:
        break;
    }
    return "prismatic";
}

} // namespace carom
