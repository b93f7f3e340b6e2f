// Small worlds built in code for the physics tests.
#pragma once

#include "carom/world.h"
#include <cmath>
#include <random>
#include <string>

namespace carom::test {

inline BodyDef circle(const char* name, Vec2 p, double r, double mass, Vec2 v = {0, 0}) {
    BodyDef d;
    d.name = name;
    d.shape = Shape::circle(r);
    d.position = p;
    d.velocity = v;
    d.mass = mass;
    return d;
}

inline BodyDef box(const char* name, Vec2 p, double w, double h, double mass, Vec2 v = {0, 0}) {
    BodyDef d;
    d.name = name;
    d.shape = Shape::box(w, h);
    d.position = p;
    d.velocity = v;
    d.mass = mass;
    return d;
}

inline BodyDef ground(Vec2 centre, double w, double h, double angle = 0) {
    BodyDef d;
    d.name = "ground";
    d.type = BodyType::Static;
    d.shape = Shape::box(w, h);
    d.position = centre;
    d.angle = angle;
    return d;
}

// Boxes 1×1 (density 1, friction 0.6) in a pyramid of the given base on a ground box 200×2 at
// (0,−1) under gravity −10: the anchors' "large pyramid", smaller.
inline World pyramid(int base, Method method = Method::ImpulseProjection) {
    WorldSettings s;
    s.gravity = {0, -10};
    s.friction = 0.6;
    s.restitution = 0;
    s.method = method;
    World w(s);
    w.addBody(ground({0, -1}, 200, 2));
    for (int row = 0; row < base; ++row)
        for (int i = 0; i < base - row; ++i) {
            BodyDef d;
            d.shape = Shape::box(1, 1);
            d.position = {(i - (base - row - 1) / 2.0) * 1.0, 0.5 + row * 1.0};
            w.addBody(d);
        }
    return w;
}

// 25 random bodies in walls −6..6: circles, boxes and triangles, overlapping, fast and spinning,
// of densities from 0.1 to 10.
inline World randomScene(const WorldSettings& s, std::mt19937& rng) {
    std::uniform_real_distribution<double> u(-1, 1);
    World w(s);
    w.addWalls(Walls{});
    for (int i = 0; i < 25; ++i) {
        BodyDef d;
        d.name = "b" + std::to_string(i);
        int kind = i % 3;
        d.shape = kind == 0   ? Shape::circle(0.1 + std::abs(u(rng)))
                  : kind == 1 ? Shape::box(0.1 + std::abs(u(rng)), 0.1 + 2 * std::abs(u(rng)))
                              : Shape::polygon({{0, 0}, {1 + std::abs(u(rng)), 0}, {0.3, 0.8}});
        d.position = {5 * u(rng), 5 * u(rng)};
        d.angle = 3 * u(rng);
        d.velocity = {30 * u(rng), 30 * u(rng)};
        d.angularVelocity = 20 * u(rng);
        d.density = 0.1 + 10 * std::abs(u(rng));
        w.addBody(d);
    }
    return w;
}

// A random scene (randomScene) after 300 steps: every body's state must stay finite.
inline bool randomSceneStaysFinite(const WorldSettings& s, std::mt19937& rng) {
    World w = randomScene(s, rng);
    for (int i = 0; i < 300; ++i)
        w.step();
    return finiteState(w);
}

inline void run(World& w, double seconds) {
    int n = static_cast<int>(std::lround(seconds / w.settings().timeStep));
    for (int i = 0; i < n; ++i)
        w.step();
}

// A method's name as a test name may spell it ("impulse+projection" → "impulse_projection").
inline std::string testName(Method m) {
    std::string name(toString(m));
    for (char& c : name)
        if (c == '+') c = '_';
    return name;
}

} // namespace carom::test
