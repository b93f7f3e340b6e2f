// The view transform: pan, zoom about the cursor, fit to the scene.
#include "camera.h"

#include <algorithm>

namespace app {

void Camera::pan(ImVec2 d) {
    origin.x += d.x;
    origin.y += d.y;
}

void Camera::zoomAbout(ImVec2 p, double factor) {
    // Keep w = toWorld(p) fixed: origin' = p - (p - origin) * factor.
    const double s = std::clamp(scale * factor, 0.5, 5000.0);
    const double f = s / scale;
    origin.x = float(p.x - (p.x - origin.x) * f);
    origin.y = float(p.y - (p.y - origin.y) * f);
    scale = s;
}

void Camera::fit(carom::Vec2 lo, carom::Vec2 hi, const Rect& view) {
    const ImVec2 size = view.size();
    const double w = std::max(hi.x - lo.x, 1e-3), h = std::max(hi.y - lo.y, 1e-3);
    const double margin = 0.94;
    scale = std::clamp(margin * std::min(size.x / w, size.y / h), 0.5, 5000.0);
    const ImVec2 c = view.center();
    const carom::Vec2 mid = (lo + hi) * 0.5;
    origin = {float(c.x - mid.x * scale), float(c.y + mid.y * scale)};
}

namespace {

struct Box {
    carom::Vec2 lo{1e300, 1e300}, hi{-1e300, -1e300};
    bool empty() const { return lo.x > hi.x || lo.y > hi.y; }
    void add(carom::Vec2 p) {
        lo = glm::min(lo, p);
        hi = glm::max(hi, p);
    }
    void add(const Box& b) {
        if (b.empty()) return;
        add(b.lo);
        add(b.hi);
    }
};

Box boundsOf(const carom::Body& b) {
    Box box;
    for (std::size_t i = 0; i < b.shapes.size(); ++i) {
        const carom::Shape& shape = b.shapes[i].shape;
        const carom::Transform x = b.shapeXf(i);
        const carom::Vec2 r(shape.radius(), shape.radius()); // a circle's, a capsule's rounding
        if (shape.type() == carom::ShapeType::Circle) {
            box.add(x.p - r);
            box.add(x.p + r);
            continue;
        }
        for (carom::Vec2 v : shape.vertices()) {
            box.add(x.apply(v) - r);
            box.add(x.apply(v) + r);
        }
    }
    return box;
}

} // namespace

void sceneBounds(const carom::World& world, carom::Vec2& lo, carom::Vec2& hi) {
    Box moving, all;
    for (const carom::Body& b : world.bodies())
        if (b.type != carom::BodyType::Static) moving.add(boundsOf(b));
    // Static bodies count up to a margin around the moving ones, so that a 200 m ground does not
    // shrink a pyramid on it to a speck: the margin is half the moving bodies' size, at least 6 m.
    Box near = moving;
    if (!moving.empty()) {
        const carom::Vec2 size = moving.hi - moving.lo;
        const double margin = std::max(0.5 * std::max(size.x, size.y), 6.0);
        near.lo -= carom::Vec2(margin, margin);
        near.hi += carom::Vec2(margin, margin);
    }
    all.add(moving);
    for (carom::BodyId id = 0; id < world.bodies().size(); ++id) {
        const carom::Body& b = world.body(id);
        if (b.type != carom::BodyType::Static || world.origin(id).wall) continue;
        Box box = boundsOf(b);
        if (!moving.empty()) {
            box.lo = glm::max(box.lo, near.lo);
            box.hi = glm::min(box.hi, near.hi);
        }
        all.add(box);
    }
    if (const auto& w = world.walls()) {
        all.add({w->left - w->thickness, w->bottom - w->thickness});
        all.add({w->right + w->thickness, w->top + w->thickness});
    }
    if (all.empty()) {
        all.lo = {-6, -6};
        all.hi = {6, 6};
    }
    lo = all.lo;
    hi = all.hi;
}

} // namespace app
