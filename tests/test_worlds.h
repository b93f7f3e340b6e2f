// Small worlds built in code for the physics tests.
#pragma once

#include "carom/world.h"

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

inline void run(World& w, double seconds) {
    int n = static_cast<int>(std::lround(seconds / w.settings().timeStep));
    for (int i = 0; i < n; ++i)
        w.step();
}

} // namespace carom::test
