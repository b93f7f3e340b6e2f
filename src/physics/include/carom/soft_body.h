// Soft bodies: particles joined by damped springs, whose surface is a polyline through some of
// them (Cornell CS5643, "Mass-spring systems" and "Collision response"). Their definition (what a
// scene file or the app gives) and their state.
#pragma once

#include "carom/math.h"
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace carom {

using SoftBodyId = std::size_t; // index into World::softBodies(), stable for the world's life

// The largest soft body the engine accepts: bounds the scene reader's work and the fuzzer's.
constexpr std::size_t kMaxParticles = 100000;
constexpr std::size_t kMaxSprings = 1000000;
constexpr std::size_t kMaxBoundary = 10000;

struct ParticleDef {
    Vec2 position{0, 0};
    Vec2 velocity{0, 0};
    double mass = 1; // kg, > 0
};

// A spring between particles i and j; unset fields take the body's stiffness and damping, and the
// distance between the particles at the start as the rest length.
struct SpringDef {
    std::size_t i = 0, j = 0;
    std::optional<double> stiffness, damping, restLength;
};

struct SoftBodyDef {
    std::string name;
    std::vector<ParticleDef> particles;
    std::vector<SpringDef> springs;
    std::vector<std::size_t> boundary; // particle indices along the surface
    std::optional<bool> closed;        // unset: closed with 3 or more boundary particles
    double stiffness = 100;            // N/m, the springs' default
    double damping = 0;                // N·s/m, the springs' default
    std::optional<double> restitution;
    std::optional<double> friction;
};

struct Particle {
    Vec2 x{0, 0}, v{0, 0};
    double mass = 1, invMass = 1;
};

struct Spring {
    std::size_t i = 0, j = 0;
    double stiffness = 0, damping = 0, restLength = 0;
};

struct SoftBody {
    std::string name;
    std::vector<Particle> particles;
    std::vector<Spring> springs;
    std::vector<std::size_t> boundary;
    bool closed = false;
    double stiffness = 100, damping = 0; // the defaults the definition gave, kept to save them
    std::optional<double> restitution, friction;

    // Boundary edge k joins boundary[k] and boundary[(k + 1) % size]; a lone particle has none.
    std::size_t edgeCount() const {
        const std::size_t n = boundary.size();
        return n < 2 ? 0 : closed ? n : n - 1;
    }
    double mass() const;
    Vec2 centreOfMass() const;
    Vec2 velocity() const;        // of the centre of mass: Σ m v / Σ m
    double kineticEnergy() const; // Σ ½ m |v|²
    double springEnergy() const;  // Σ ½ k (|x_j − x_i| − L)²
};

// Throws std::invalid_argument "field/path: what is wrong" (the path relative to the body, as
// "particles/2/mass" or "boundary"), or returns the body ready to simulate.
SoftBody makeSoftBody(const SoftBodyDef& def);

// The definition that makes the body again as it is now (positions and velocities included).
SoftBodyDef definitionOf(const SoftBody& body);

// Convenience shapes, expanded into particles, springs and a boundary (docs/scene-format.md).
// A grid of columns × rows particles `spacing` apart centred at `centre`, springs along the rows
// and columns and both diagonals of each cell, the outer particles its boundary
// (counter-clockwise).
void addGrid(SoftBodyDef& def, Vec2 centre, int columns, int rows, double spacing, double mass,
             Vec2 velocity);
// A ring of `count` particles on a circle of `radius` about `centre` plus one at the centre, joined
// to its neighbours, to the next but one and to the centre (spokes): the ring is the boundary.
void addRing(SoftBodyDef& def, Vec2 centre, double radius, int count, double mass, Vec2 velocity);

} // namespace carom
