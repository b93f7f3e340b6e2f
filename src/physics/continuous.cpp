// Continuous collision against static bodies, after the step (as Box2D v3 sweeps its fast bodies
// against the static world).
//
// Speculative contacts stop a body at every surface within its reach at the start of the step.
// A body whose velocity the step itself changes (struck by a faster one, thrown off a corner)
// can reach farther than that, and a small fast one could then pass through a thin wall. So each
// dynamic body that moved more than half its inner radius in the step is swept from its start
// pose to its end pose (position and angle linear in t) against the static bodies near its path:
// where it would enter one deeper than the linear slop (or than it already was at the start),
// it is put back at the time of impact, found by bisection (Hecker's Listing 1) to the distance
// tolerance. It keeps its velocity; the next step's contact stops or bounces it.
#include "broad_phase.h"
#include "collide.h"
#include "step_context.h"
#include "time_of_impact.h"

#include <algorithm>
#include <cmath>

namespace carom {
namespace {

constexpr double kMaxTravel = 0.5; // fraction of the inner radius a body may move unchecked

double deepest(const Body& b, const Transform& xf, const Body& wall) {
    const ShapeManifold m = collide(b.shape, xf, wall.shape, wall.xf, 0);
    double d = -INFINITY;
    for (int i = 0; i < m.count; ++i)
        d = std::max(d, m.points[i].depth);
    return d;
}

bool overlaps(const Aabb& x, const Aabb& y) {
    return x.lo.x <= y.hi.x && y.lo.x <= x.hi.x && x.lo.y <= y.hi.y && y.lo.y <= x.hi.y;
}

// The earliest t in [0, 1] at which the body, moving from `from` to its pose, enters `wall`
// deeper than it may; 1 if it never does.
double timeOfImpact(const Body& b, const Pose& from, const Body& wall, double travel,
                    const WorldSettings& s) {
    auto at = [&](double t) {
        const double angle = from.angle + t * (b.angle - from.angle);
        return Transform{from.xf.p + t * (b.xf.p - from.xf.p), Rot(angle)};
    };
    const double allowed = std::max(s.linearSlop, deepest(b, from.xf, wall)) + s.distanceTolerance;
    auto enters = [&](double t) { return deepest(b, at(t), wall) > allowed; };
    // Steps of at most kMaxTravel of the inner radius cannot jump over the wall.
    const int n = static_cast<int>(std::ceil(travel / (kMaxTravel * b.shape.innerRadius())));
    for (int k = 1; k <= n; ++k)
        if (enters(double(k) / n))
            return bisectContactTime(double(k - 1) / n, double(k) / n, s.distanceTolerance / travel,
                                     enters);
    return 1;
}

} // namespace

void stopAtStaticBodies(StepContext& c, const std::vector<Pose>& start) {
    for (std::size_t i = 0; i < c.bodies.size(); ++i) {
        Body& b = c.bodies[i];
        if (!b.isDynamic()) continue;
        const double travel = glm::length(b.xf.p - start[i].xf.p) +
                              std::abs(b.angle - start[i].angle) * b.shape.boundingRadius();
        if (!(travel > kMaxTravel * b.shape.innerRadius())) continue;
        const Aabb path = boundingBox(b, travel); // covers the start pose too
        double first = 1;
        for (const Body& wall : c.bodies)
            if (wall.type == BodyType::Static && overlaps(path, boundingBox(wall, 0)))
                first = std::min(first, timeOfImpact(b, start[i], wall, travel, c.settings));
        if (first < 1) {
            b.angle = start[i].angle + first * (b.angle - start[i].angle);
            b.xf = Transform{start[i].xf.p + first * (b.xf.p - start[i].xf.p), Rot(b.angle)};
        }
    }
}

} // namespace carom
