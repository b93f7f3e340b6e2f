// Small 2D maths on top of GLM: vectors, rotations, rigid transforms, and the 2D cross products.
#pragma once

#include <cmath>
#include <glm/geometric.hpp>
#include <glm/vec2.hpp>

namespace carom {

using Vec2 = glm::dvec2;

// 2D cross products: a x b is the z of the 3D cross product; s x v and v x s treat s as (0,0,s).
inline double cross(Vec2 a, Vec2 b) {
    return a.x * b.y - a.y * b.x;
}
inline Vec2 cross(double s, Vec2 v) {
    return {-s * v.y, s * v.x};
}
inline Vec2 cross(Vec2 v, double s) {
    return {s * v.y, -s * v.x};
}
inline Vec2 perp(Vec2 v) {
    return {-v.y, v.x};
} // v turned a quarter counter-clockwise
inline double lengthSquared(Vec2 v) {
    return glm::dot(v, v);
}
inline bool isFinite(Vec2 v) {
    return std::isfinite(v.x) && std::isfinite(v.y);
}

// A rotation stored as its cosine and sine.
struct Rot {
    double c = 1, s = 0;
    Rot() = default;
    explicit Rot(double angle) : c(std::cos(angle)), s(std::sin(angle)) {}
    Vec2 apply(Vec2 v) const { return {c * v.x - s * v.y, s * v.x + c * v.y}; }
    Vec2 applyInverse(Vec2 v) const { return {c * v.x + s * v.y, -s * v.x + c * v.y}; }
};

// Body frame -> world frame: world = p + q * local.
struct Transform {
    Vec2 p{0, 0};
    Rot q;
    Vec2 apply(Vec2 local) const { return p + q.apply(local); }
    Vec2 applyInverse(Vec2 world) const { return q.applyInverse(world - p); }
};

// The largest size any input number may have (positions, velocities, masses, settings): larger
// ones overflow the energies and inertias. Scene files and every public setter refuse them.
constexpr double kMaxMagnitude = 1e12;

} // namespace carom
