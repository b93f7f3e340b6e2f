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

void sceneBounds(const carom::World& world, carom::Vec2& lo, carom::Vec2& hi) {
    lo = {1e300, 1e300};
    hi = {-1e300, -1e300};
    auto add = [&](carom::Vec2 p) {
        lo = glm::min(lo, p);
        hi = glm::max(hi, p);
    };
    for (const carom::Body& b : world.bodies()) {
        if (b.wall) continue;
        if (b.shape.type() == carom::ShapeType::Circle) {
            const double r = b.shape.radius();
            add(b.xf.p - carom::Vec2(r, r));
            add(b.xf.p + carom::Vec2(r, r));
        } else {
            for (carom::Vec2 v : b.shape.vertices())
                add(b.worldPoint(v));
        }
    }
    if (const auto& w = world.walls()) {
        add({w->left - w->thickness, w->bottom - w->thickness});
        add({w->right + w->thickness, w->top + w->thickness});
    }
    if (lo.x > hi.x) {
        lo = {-6, -6};
        hi = {6, 6};
    }
}

} // namespace app
