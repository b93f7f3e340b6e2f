// Soft bodies: their checks, energies and convenience shapes (CS5643, "Mass-spring systems"); their
// motion in a step is soft_step.cpp's, their collisions soft_collide.cpp's.
#include "carom/soft_body.h"

#include "step/checks.h"
#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace carom {
namespace {

[[noreturn]] void refuse(const std::string& where, const std::string& what) {
    throw std::invalid_argument(where + ": " + what);
}

std::string at(const char* list, std::size_t i, const char* field = nullptr) {
    return std::string(list) + "/" + std::to_string(i) + (field ? std::string("/") + field : "");
}

void checkNumber(const std::string& where, double x, bool positive) {
    if (!std::isfinite(x)) refuse(where, "must be finite");
    if (std::abs(x) > kMaxMagnitude) refuse(where, "must be at most 1e12 in size, got " + str(x));
    if (positive ? !(x > 0) : !(x >= 0))
        refuse(where, std::string("must be ") + (positive ? "> 0" : ">= 0") + ", got " + str(x));
}

void checkVector(const std::string& where, Vec2 v) {
    for (double x : {v.x, v.y})
        if (!std::isfinite(x) || std::abs(x) > kMaxMagnitude)
            refuse(where, "must be finite and at most 1e12 in size");
}

void checkBoundary(const SoftBody& b) {
    const std::size_t n = b.boundary.size();
    if (n == 0) refuse("boundary", "must list 1 or more particles");
    if (n > kMaxBoundary)
        refuse("boundary", "more than " + std::to_string(kMaxBoundary) + " particles");
    for (std::size_t k = 0; k < n; ++k) {
        if (b.boundary[k] >= b.particles.size())
            refuse(at("boundary", k), "particle index " + std::to_string(b.boundary[k]) +
                                          " out of range 0.." +
                                          std::to_string(b.particles.size() - 1));
        for (std::size_t l = 0; l < k; ++l)
            if (b.boundary[l] == b.boundary[k])
                refuse(at("boundary", k), "particle " + std::to_string(b.boundary[k]) +
                                              " is already boundary/" + std::to_string(l));
    }
    if (b.closed && n < 3) refuse("closed", "a closed boundary needs 3 or more particles");
    // A boundary may cross itself: a body squashed flat may still fold (its self-collision's
    // sides are then round-off), and a saved state must load back as the engine reached it
    // (issue 46).
}

} // namespace

SoftBody makeSoftBody(const SoftBodyDef& def) {
    SoftBody b;
    b.name = def.name;
    if (def.particles.empty()) refuse("particles", "must have 1 or more particles");
    if (def.particles.size() > kMaxParticles)
        refuse("particles", "more than " + std::to_string(kMaxParticles) + " particles");
    if (def.springs.size() > kMaxSprings)
        refuse("springs", "more than " + std::to_string(kMaxSprings) + " springs");
    checkNumber("stiffness", def.stiffness, false);
    checkNumber("damping", def.damping, false);
    b.stiffness = def.stiffness;
    b.damping = def.damping;
    for (std::size_t k = 0; k < def.particles.size(); ++k) {
        const ParticleDef& p = def.particles[k];
        checkVector(at("particles", k, "position"), p.position);
        checkVector(at("particles", k, "velocity"), p.velocity);
        checkNumber(at("particles", k, "mass"), p.mass, true);
        b.particles.push_back(Particle{p.position, p.velocity, p.mass, 1 / p.mass});
    }
    const std::size_t n = b.particles.size();
    for (std::size_t k = 0; k < def.springs.size(); ++k) {
        const SpringDef& s = def.springs[k];
        for (auto [field, index] : {std::pair{"i", s.i}, std::pair{"j", s.j}})
            if (index >= n)
                refuse(at("springs", k, field), "particle index " + std::to_string(index) +
                                                    " out of range 0.." + std::to_string(n - 1));
        if (s.i == s.j)
            refuse(at("springs", k, "j"),
                   "a spring from particle " + std::to_string(s.i) + " to itself");
        Spring spring{s.i, s.j, s.stiffness.value_or(def.stiffness),
                      s.damping.value_or(def.damping),
                      s.restLength.value_or(glm::length(b.particles[s.j].x - b.particles[s.i].x))};
        checkNumber(at("springs", k, "stiffness"), spring.stiffness, false);
        checkNumber(at("springs", k, "damping"), spring.damping, false);
        checkNumber(at("springs", k, "rest_length"), spring.restLength, false);
        b.springs.push_back(spring);
    }
    b.boundary = def.boundary;
    b.closed = def.closed.value_or(def.boundary.size() >= 3);
    checkBoundary(b);
    b.restitution = def.restitution;
    b.friction = def.friction;
    return b;
}

SoftBodyDef definitionOf(const SoftBody& b) {
    SoftBodyDef d;
    d.name = b.name;
    for (const Particle& p : b.particles)
        d.particles.push_back(ParticleDef{p.x, p.v, p.mass});
    for (const Spring& s : b.springs)
        d.springs.push_back(SpringDef{s.i, s.j, s.stiffness, s.damping, s.restLength});
    d.boundary = b.boundary;
    d.closed = b.closed;
    d.stiffness = b.stiffness;
    d.damping = b.damping;
    d.restitution = b.restitution;
    d.friction = b.friction;
    return d;
}

double SoftBody::mass() const {
    double m = 0;
    for (const Particle& p : particles)
        m += p.mass;
    return m;
}

Vec2 SoftBody::centreOfMass() const {
    Vec2 s{0, 0};
    for (const Particle& p : particles)
        s += p.mass * p.x;
    return s / mass();
}

Vec2 SoftBody::velocity() const {
    Vec2 s{0, 0};
    for (const Particle& p : particles)
        s += p.mass * p.v;
    return s / mass();
}

double SoftBody::kineticEnergy() const {
    double ke = 0;
    for (const Particle& p : particles)
        ke += 0.5 * p.mass * lengthSquared(p.v);
    return ke;
}

double SoftBody::springEnergy() const {
    double e = 0;
    for (const Spring& s : springs) {
        const double stretch = glm::length(particles[s.j].x - particles[s.i].x) - s.restLength;
        e += 0.5 * s.stiffness * stretch * stretch; // ½ k (l − L)²
    }
    return e;
}

void addGrid(SoftBodyDef& def, Vec2 centre, int columns, int rows, double spacing, double mass,
             Vec2 velocity) {
    const std::size_t first = def.particles.size();
    const double each = mass / (double(columns) * rows);
    const Vec2 corner = centre - 0.5 * spacing * Vec2(columns - 1, rows - 1);
    auto id = [&](int c, int r) { return first + std::size_t(r) * columns + c; };
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < columns; ++c)
            def.particles.push_back(ParticleDef{corner + spacing * Vec2(c, r), velocity, each});
    auto spring = [&](std::size_t i, std::size_t j) {
        def.springs.push_back(SpringDef{i, j, {}, {}, {}});
    };
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < columns; ++c) {
            if (c + 1 < columns) spring(id(c, r), id(c + 1, r));
            if (r + 1 < rows) spring(id(c, r), id(c, r + 1));
            if (c + 1 < columns && r + 1 < rows) {
                spring(id(c, r), id(c + 1, r + 1)); // both diagonals resist shear
                spring(id(c + 1, r), id(c, r + 1));
            }
        }
    // The outline, counter-clockwise from the lower left corner; a single row or column is an
    // open chain, a single particle a lone point.
    if (rows == 1 || columns == 1) {
        for (int k = 0; k < rows * columns; ++k)
            def.boundary.push_back(first + k);
        def.closed = false;
        return;
    }
    for (int c = 0; c < columns - 1; ++c)
        def.boundary.push_back(id(c, 0));
    for (int r = 0; r < rows - 1; ++r)
        def.boundary.push_back(id(columns - 1, r));
    for (int c = columns - 1; c > 0; --c)
        def.boundary.push_back(id(c, rows - 1));
    for (int r = rows - 1; r > 0; --r)
        def.boundary.push_back(id(0, r));
}

void addRing(SoftBodyDef& def, Vec2 centre, double radius, int count, double mass, Vec2 velocity) {
    const std::size_t first = def.particles.size();
    const double each = mass / (count + 1);
    for (int k = 0; k < count; ++k) {
        const double a = 2 * M_PI * k / count;
        def.particles.push_back(
            ParticleDef{centre + radius * Vec2(std::cos(a), std::sin(a)), velocity, each});
        def.boundary.push_back(first + k);
    }
    def.particles.push_back(ParticleDef{centre, velocity, each});
    const std::size_t hub = first + count;
    for (int k = 0; k < count; ++k) {
        const std::size_t i = first + k;
        def.springs.push_back(SpringDef{i, first + (k + 1) % count, {}, {}, {}});
        if (count > 4) def.springs.push_back(SpringDef{i, first + (k + 2) % count, {}, {}, {}});
        def.springs.push_back(SpringDef{i, hub, {}, {}, {}});
    }
}

} // namespace carom
