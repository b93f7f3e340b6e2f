// The ruler's geometry: where it is placed, which part a press takes, what it reads.
#include "ruler.h"

#include "plot_range.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace app {

namespace {

// The distance from p to the segment [s, t].
double segmentDistance(carom::Vec2 p, carom::Vec2 s, carom::Vec2 t) {
    const carom::Vec2 d = t - s;
    const double len2 = glm::dot(d, d);
    const double u = len2 > 0 ? std::clamp(glm::dot(p - s, d) / len2, 0.0, 1.0) : 0.0;
    return glm::length(p - (s + u * d));
}

} // namespace

void placeRuler(Ruler& r, carom::Vec2 centre, double width) {
    const double length = roundBelow(width / 3);
    const double grid = length / 10;
    const double x = std::round((centre.x - length / 2) / grid) * grid;
    const double y = std::round(centre.y / grid) * grid;
    r.a = {x, y};
    r.b = {x + length, y};
    r.placed = true;
    r.held = Ruler::Part::None;
}

Ruler::Part rulerPartAt(const Ruler& r, carom::Vec2 p, double grab) {
    const double da = glm::length(p - r.a), db = glm::length(p - r.b);
    if (std::min(da, db) <= grab) return da <= db ? Ruler::Part::A : Ruler::Part::B;
    if (segmentDistance(p, r.a, r.b) <= grab) return Ruler::Part::Tape;
    return Ruler::Part::None;
}

void dragRuler(Ruler& r, carom::Vec2 cursor) {
    const carom::Vec2 moved = cursor - r.cursor;
    r.cursor = cursor;
    switch (r.held) {
    case Ruler::Part::A:
        r.a = r.a + moved;
        break;
    case Ruler::Part::B:
        r.b = r.b + moved;
        break;
    case Ruler::Part::Tape:
        r.a = r.a + moved;
        r.b = r.b + moved;
        break;
    case Ruler::Part::None:
        break;
    }
}

std::string rulerReading(const Ruler& r) {
    const carom::Vec2 d = r.b - r.a;
    const double degrees = std::atan2(d.y, d.x) * 180 / M_PI;
    char text[128];
    std::snprintf(text, sizeof text, "%.3f m   \xce\x94x %.3f m, \xce\x94y %.3f m, %.1f\xc2\xb0",
                  std::hypot(d.x, d.y), d.x, d.y, degrees == -180 ? 180.0 : degrees);
    return text;
}

} // namespace app
