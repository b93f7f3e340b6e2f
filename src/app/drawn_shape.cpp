// Build mode's drawn bodies (drawn_shape.h).
#include "drawn_shape.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace app {

std::optional<carom::BodyDef> drawnBody(DrawTool tool, carom::Vec2 from, carom::Vec2 to, int sides,
                                        const std::string& name) {
    const carom::Vec2 d = to - from;
    const double size = glm::length(d);
    carom::BodyDef def;
    def.name = name;
    switch (tool) {
    case DrawTool::Box:
        if (std::min(std::abs(d.x), std::abs(d.y)) < kSmallestDrawn) return std::nullopt;
        def.shape = carom::Shape::box(std::abs(d.x), std::abs(d.y));
        def.position = (from + to) / 2.0;
        return def;
    case DrawTool::Circle:
        if (size < kSmallestDrawn) return std::nullopt;
        def.shape = carom::Shape::circle(size);
        def.position = from;
        return def;
    case DrawTool::Polygon: {
        if (size < kSmallestDrawn) return std::nullopt;
        const int n = std::clamp(sides, 3, 12);
        std::vector<carom::Vec2> v;
        for (int k = 0; k < n; ++k) {
            const double a = 2 * M_PI * k / n;
            v.push_back({size * std::cos(a), size * std::sin(a)});
        }
        def.shape = carom::Shape::polygon(v);
        def.position = from;
        def.angle = std::atan2(d.y, d.x); // the first vertex at the cursor
        return def;
    }
    case DrawTool::Capsule: {
        // The ends at the press and the release; as thick as a third of its length.
        if (size < kSmallestDrawn) return std::nullopt;
        const double radius = size / 6;
        def.shape = carom::Shape::capsule(size - 2 * radius, radius);
        def.position = (from + to) / 2.0;
        def.angle = std::atan2(d.y, d.x);
        return def;
    }
    }
    return std::nullopt;
}

carom::Vec2 onGrid(carom::Vec2 p) {
    return {std::round(p.x / kGrid) * kGrid, std::round(p.y / kGrid) * kGrid};
}

} // namespace app
