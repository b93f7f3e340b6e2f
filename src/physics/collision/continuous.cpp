// Continuous collision against static bodies, after the step (as Box2D v3 sweeps its fast bodies
// against the static world).
//
// Speculative contacts stop a body at every surface within its reach at the start of the step.
// A body whose velocity the step itself changes (struck by a faster one, thrown off a corner)
// can reach farther than that, and a small fast one could then pass through a thin wall. So each
// dynamic body that moved more than half its inner radius in the step (or whose centre's path
// went into or through a static body it touches), and ended deeper than the linear slop in a
// static body it was not touching at the start, or with its centre's path into or through one, is
// swept from its start pose to its end pose (position and angle linear in t) against it: where it
// first enters it that deep, or its centre first enters it, it is put back, at the time found by
// bisection (Hecker's Listing 1) to the distance tolerance. It keeps its velocity, and the next
// step's contact stops or bounces it; but in the projection method, where velocities follow the
// positions, the velocity follows this correction too. This alone keeps a closed box of static
// bodies closed, in every method: tests/physics_test.cpp, ClosedBox.*.
//
// Then no body is left buried in a static one (keepOutOfStaticBodies): a light body pressed into
// a wall by heavy ones is not held by the solvers, whose iterations share the correction by
// inverse mass and do not converge at mass ratios of a thousand and more; step after step it
// sinks, until its centre is through. Static bodies do not move, so a body in contact with one is
// pushed straight back out of it, along the contact's normal, to half its inner radius deep (the
// centre is at least the inner radius deep when it is through the surface): the heavy body then
// sinks into the light one instead, as it would crush it. Bodies the solvers hold within the slop
// are never that deep, unless smaller than four times the slop. No push takes a body's centre
// through another static body it touches, nor through this one unless its centre is inside it.
#include "collision/body_grid.h"
#include "collision/broad_phase.h"
#include "collision/collide.h"
#include "collision/time_of_impact.h"
#include "step/step_context.h"
#include "tuning.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

namespace carom {
namespace {

// The angle and transform at t of the motion from `from` to the body's pose, linear in t.
struct Interpolated {
    double angle;
    Transform xf;
};
Interpolated poseAt(const Body& b, const Pose& from, double t) {
    const double angle = from.angle + t * (b.angle() - from.angle);
    return {angle, Transform{from.xf.p + t * (b.xf().p - from.xf.p), Rot(angle)}};
}

// The deepest overlap of the body at xf with the static body `fixed`, over their pairs of shapes;
// −∞ when they are more than `margin` apart.
double deepest(const Body& b, const Transform& xf, const Body& fixed, double margin = 0) {
    double d = -INFINITY;
    for (const BodyShape& s : b.shapes)
        for (std::size_t j = 0; j < fixed.shapes.size(); ++j)
            d = std::max(d, deepestDepth(collide(s.shape, placeShape(xf, s), fixed.shapes[j].shape,
                                                 fixed.shapeXf(j), margin)));
    return d;
}

// The part [t0, t1] of the step in which the body's centre, going from `from` to `to`, is within
// `reach` of the box (Liang-Barsky clipping of the segment); t0 > t1 when it never is.
std::pair<double, double> window(Vec2 from, Vec2 to, const Aabb& box, double reach) {
    double t0 = 0, t1 = 1;
    const Vec2 d = to - from;
    for (int axis = 0; axis < 2; ++axis) {
        const double lo = box.lo[axis] - reach, hi = box.hi[axis] + reach;
        if (d[axis] == 0) {
            if (from[axis] < lo || from[axis] > hi) return {1, 0};
            continue;
        }
        const double a = (lo - from[axis]) / d[axis], b = (hi - from[axis]) / d[axis];
        t0 = std::max(t0, std::min(a, b));
        t1 = std::min(t1, std::max(a, b));
    }
    return {t0, t1};
}

// The distance from p to the segment from a to b (Ericson §5.1.2).
double distanceToSegment(Vec2 p, Vec2 a, Vec2 b) {
    const Vec2 e = b - a;
    const double t = std::clamp(glm::dot(p - a, e) / lengthSquared(e), 0.0, 1.0);
    return glm::length(p - (a + t * e));
}

// Does the path from p to q come within r of the segment from a to b (r = 0: cross it)? Two
// segments cross when each one's ends lie on opposite sides of the other's line (Ericson §5.1.9.1);
// otherwise the nearest they come is at an end of one of them.
bool pathMeetsCore(Vec2 p, Vec2 q, Vec2 a, Vec2 b, double r) {
    const bool crosses = cross(b - a, p - a) * cross(b - a, q - a) < 0 &&
                         cross(q - p, a - p) * cross(q - p, b - p) < 0;
    if (crosses) return true;
    if (!(r > 0)) return false;
    double nearest = std::min(distanceToSegment(p, a, b), distanceToSegment(q, a, b));
    if (lengthSquared(q - p) > 0)
        nearest = std::min({nearest, distanceToSegment(a, p, q), distanceToSegment(b, p, q)});
    return nearest < r;
}

// Does the segment from p to q (in the shape's frame) pass through the inside of the shape?
// A polygon: the segment clipped by each edge's half-plane n_i · (x − v_i) ≤ 0 (Cyrus-Beck) is
// not empty. A circle: the segment comes nearer its centre than its radius. A capsule: nearer its
// core than its radius; a segment, which has no inside: the path crosses it.
bool passesThrough(Vec2 p, Vec2 q, const Shape& shape) {
    const Vec2 d = q - p;
    if (shape.vertices().size() == 2)
        return pathMeetsCore(p, q, shape.vertices()[0], shape.vertices()[1], shape.radius());
    if (shape.type() == ShapeType::Circle) {
        const double t =
            lengthSquared(d) > 0 ? std::clamp(-glm::dot(p, d) / lengthSquared(d), 0.0, 1.0) : 0;
        return lengthSquared(p + t * d) < shape.radius() * shape.radius();
    }
    double t0 = 0, t1 = 1;
    const auto& v = shape.vertices();
    const auto& n = shape.normals();
    for (std::size_t i = 0; i < v.size() && t0 <= t1; ++i) {
        const double sp = glm::dot(n[i], p - v[i]), sq = glm::dot(n[i], q - v[i]);
        if (sp > 0 && sq > 0) return false;            // wholly outside this edge
        if (sp > 0) t0 = std::max(t0, sp / (sp - sq)); // comes in through this edge
        if (sq > 0) t1 = std::min(t1, sp / (sp - sq)); // goes out through it
    }
    return t0 < t1;
}

// Is the point p (in the shape's frame) inside the shape by more than `margin`? A segment has no
// inside.
bool insideBy(Vec2 p, const Shape& shape, double margin) {
    if (shape.vertices().size() == 2) {
        const double r = shape.radius() - margin;
        return r > 0 && distanceToSegment(p, shape.vertices()[0], shape.vertices()[1]) < r;
    }
    if (shape.type() == ShapeType::Circle) return glm::length(p) < shape.radius() - margin;
    const auto& v = shape.vertices();
    const auto& n = shape.normals();
    for (std::size_t i = 0; i < v.size(); ++i)
        if (glm::dot(n[i], p - v[i]) >= -margin) return false;
    return true;
}

// Is the world point p inside one of the body's shapes by more than `margin`?
bool insideBy(Vec2 p, const Body& fixed, double margin) {
    for (std::size_t j = 0; j < fixed.shapes.size(); ++j)
        if (insideBy(fixed.shapeXf(j).applyInverse(p), fixed.shapes[j].shape, margin)) return true;
    return false;
}

// Does the segment from a to b (world points) pass through the inside of any of the body's shapes?
bool passesThrough(Vec2 a, Vec2 b, const Body& fixed) {
    for (std::size_t j = 0; j < fixed.shapes.size(); ++j) {
        const Transform x = fixed.shapeXf(j);
        if (passesThrough(x.applyInverse(a), x.applyInverse(b), fixed.shapes[j].shape)) return true;
    }
    return false;
}

// How deep a body may be in a static one: the slop the solver leaves, but never so deep that a
// body smaller than it could bury its centre (which is at least the inner radius deep there).
double allowedDepthInStatic(const Body& b, const WorldSettings& s) {
    return std::min(s.linearSlop, kUncheckedTravel * b.innerRadius());
}

void moveBy(Body& b, Vec2 dp, double dAngle, const StepContext& c, Correction correction) {
    if (correction == Correction::WithVelocities) {
        b.v += dp / c.h;
        b.w += dAngle / c.h;
    } else {
        payForTheRise(b, dp, c.settings.gravity);
    }
    b.setPose(b.xf().p + dp, b.angle() + dAngle);
}

// The earliest t in [0, 1] at which the body, moving from `from` to its pose, enters `fixed`
// deeper than it may; 1 if it never does.
double timeOfImpact(const Body& b, const Pose& from, const Body& fixed, const Aabb& staticBox,
                    double travel, const WorldSettings& s) {
    const auto [t0, t1] = window(from.xf.p, b.xf().p, staticBox, b.boundingRadius() + s.linearSlop);
    if (t0 > t1) return 1;
    const double startDepth = deepest(b, from.xf, fixed, s.linearSlop); // −∞: not touching
    const double allowed = std::max(allowedDepthInStatic(b, s), startDepth) + s.distanceTolerance;
    auto enters = [&](double t) { return deepest(b, poseAt(b, from, t).xf, fixed) > allowed; };
    // Its contacts failed to stop the body if its centre went into or through the static body, or
    // if it ends deeper in one it was not touching at the start. (One that was touching it had a
    // contact all through the step: a body sliding and turning along a static body dips in on the
    // straight sweep between its poses, but its centre stays out.)
    const bool touching = startDepth > -INFINITY;
    const Vec2 p = from.xf.p, q = b.xf().p;
    const bool through = passesThrough(p, q, fixed);
    if (!through && (touching || !enters(1))) return 1;
    // A body that was not touching is put back where it first touches (within the tolerance), not
    // the slop deep: sunk deeper than the slop, it would be the solver's in the next step, whose
    // stale normals take energy from an elastic bounce that a strike at the time of impact keeps
    // (flight_impacts.cpp).
    auto reaches = [&](double t) {
        return deepest(b, poseAt(b, from, t).xf, fixed) > s.distanceTolerance;
    };
    const std::function<bool(double)> stopsAt =
        touching ? std::function<bool(double)>(enters) : std::function<bool(double)>(reaches);
    // One that was touching is put back where it first goes deeper than it was, or where its centre
    // first goes into the static body, unless it began there (keepOutOfStaticBodies pushes such a
    // body out; put back at a surface, a centre may be inside by the round-off of its pose, which
    // is not beginning there): a body straddling a thin wall is no deeper, by its shortest way
    // out, as its centre crosses it. The centre moves on a straight line, and the time it enters
    // is found on it (the first part of its path that passes through, by bisection): samples a
    // fraction of the body's inner radius apart could step over a wall thinner than that.
    double crossing = 1;
    if (touching && through && !insideBy(p, fixed, s.distanceTolerance))
        crossing = bisectContactTime(0, 1, s.distanceTolerance / travel, [&](double t) {
            return passesThrough(p, p + t * (q - p), fixed);
        });
    // Over the window, steps of at most kUncheckedTravel of the inner radius cannot jump over the
    // static body (up to kStaticSweepMaxSamples of them: a body sent across the world in one step
    // is not followed).
    const double n = std::min(std::ceil((t1 - t0) * travel / (kUncheckedTravel * b.innerRadius())),
                              kStaticSweepMaxSamples);
    double last = 0; // known not to enter: the start, or out of reach before the window
    for (int k = 0; k <= n; ++k) {
        const double t = std::min(t0 + (t1 - t0) * (n > 0 ? k / n : 1), crossing);
        if (stopsAt(t)) return bisectContactTime(last, t, s.distanceTolerance / travel, stopsAt);
        if (t == crossing) break;
        last = t;
    }
    return crossing;
}

// The static bodies in a grid of their boxes (body_grid.h), made when first asked: a moving body
// is tested against those near it, not against all of them (a floor of 2,500 boxes under 11,000
// falling bones took three quarters of the step).
class StaticGrid {
  public:
    // f(j, box) for each static body j whose box may overlap `area` (a superset).
    template <class F> void near(const StepContext& c, const Aabb& area, F f) {
        if (!grid_) build(c);
        grid_->query(area, [&](BodyId j) { f(j, boxes_[j]); });
    }

  private:
    void build(const StepContext& c) {
        boxes_.resize(c.bodies.size());
        double size = 0;
        std::size_t count = 0;
        for (std::size_t j = 0; j < c.bodies.size(); ++j)
            if (c.bodies[j].type == BodyType::Static) {
                boxes_[j] = boundingBox(c.bodies[j], 0);
                size += std::max(boxes_[j].hi.x - boxes_[j].lo.x, boxes_[j].hi.y - boxes_[j].lo.y);
                ++count;
            }
        grid_.emplace(c.bodies.size(), count ? std::max(size / count, 1e-3) : 1.0);
        for (std::size_t j = 0; j < c.bodies.size(); ++j)
            if (c.bodies[j].type == BodyType::Static) grid_->insert(j, boxes_[j]);
    }
    std::optional<BodyGrid> grid_;
    std::vector<Aabb> boxes_;
};

// Each moving body's static partners by the step's contacts: (body, static body), sorted.
using StaticPartners = std::vector<std::pair<BodyId, BodyId>>;
StaticPartners staticPartners(const StepContext& c) {
    StaticPartners partners;
    for (const Manifold& m : c.contacts) {
        const bool staticA = c.bodies[m.a].type == BodyType::Static;
        if (staticA != (c.bodies[m.b].type == BodyType::Static))
            partners.push_back(staticA ? std::pair{m.b, m.a} : std::pair{m.a, m.b});
    }
    std::sort(partners.begin(), partners.end());
    return partners;
}

// Whether f(static body) holds for one of the body's static partners.
template <class F> bool anyPartner(const StaticPartners& partners, BodyId id, F f) {
    for (auto it = std::lower_bound(partners.begin(), partners.end(), std::pair{id, BodyId{0}});
         it != partners.end() && it->first == id; ++it)
        if (f(it->second)) return true;
    return false;
}

} // namespace

// Its velocities scaled by √((KE − rise)/KE). (A free fall of 46 m/s stopped at the floor's
// surface a step early gained m g h v, 0.3% of a stress scene's energy.)
void payForTheRise(Body& b, Vec2 dp, Vec2 gravity) {
    const double ke = b.kineticEnergy(), rise = -b.mass * glm::dot(gravity, dp);
    if (!(ke > 0 && rise > 0)) return;
    const double scale = std::sqrt(std::max(ke - rise, 0.0) / ke);
    b.v *= scale;
    b.w *= scale;
}

void stopAtStaticBodies(StepContext& c, const std::vector<Pose>& start, Correction correction) {
    // A fast body is tested against the static bodies near its sweep (StaticGrid). A body that
    // moved less than half its inner radius cannot pass through a static body, but one that began
    // with its centre at a static body's surface (put back there by this check, pressed by heavier
    // bodies) can take its centre into it or through a thin one: for such a body its partners by
    // the contacts, all it can reach, are asked whether its centre's path went in.
    StaticGrid statics;
    const StaticPartners partners = staticPartners(c);
    const double tol = c.settings.distanceTolerance;
    for (std::size_t i = 0; i < c.bodies.size(); ++i) {
        Body& b = c.bodies[i];
        if (!b.isDynamic()) continue;
        const double travel = glm::length(b.xf().p - start[i].xf.p) +
                              std::abs(b.angle() - start[i].angle) * b.boundingRadius();
        if (!(travel > kUncheckedTravel * b.innerRadius()) &&
            !anyPartner(partners, i, [&](BodyId j) {
                return passesThrough(start[i].xf.p, b.xf().p, c.bodies[j]) &&
                       !insideBy(start[i].xf.p, c.bodies[j], tol);
            }))
            continue;
        const double reach = b.boundingRadius() + c.settings.linearSlop;
        const Vec2 from = start[i].xf.p, to = b.xf().p;
        const Aabb sweep{glm::min(from, to) - Vec2{reach, reach},
                         glm::max(from, to) + Vec2{reach, reach}};
        double first = 1;
        statics.near(c, sweep, [&](BodyId j, const Aabb& box) {
            const Body& fixed = c.bodies[j];
            if (!sameGroup(b, fixed) && mayTouch(c, i, j))
                first = std::min(first, timeOfImpact(b, start[i], fixed, box, travel, c.settings));
        });
        if (first < 1) {
            ++c.diagnostics.guards.stoppedAtStatic;
            const Interpolated back = poseAt(b, start[i], first);
            moveBy(b, back.xf.p - b.xf().p, back.angle - b.angle(), c, correction);
        }
    }
}

void keepOutOfStaticBodies(StepContext& c, Correction correction) {
    // Which bodies are static, read once each (a large scene's contacts, read one by one, looked
    // up each body's type a few times, all over the bodies).
    std::vector<char> isStatic(c.bodies.size());
    for (std::size_t i = 0; i < c.bodies.size(); ++i)
        isStatic[i] = c.bodies[i].type == BodyType::Static;
    // A push out of one static body must not carry the centre through another (a long box in a
    // corner, pushed out of one wall along its own face's normal, went through the other), nor
    // into one it has no contact with (a 2 g triangle crushed into a corner, its contact with the
    // second wall not found at the step's start: stress seed 36).
    StaticGrid statics;
    for (const Manifold& m : c.contacts) {
        const bool staticA = isStatic[m.a], staticB = isStatic[m.b];
        if (staticA == staticB) continue;
        Body& b = c.bodies[staticA ? m.b : m.a];
        const Body& fixed = c.bodies[staticA ? m.a : m.b];
        if (!b.isDynamic()) continue;
        // No point can be that deep (half of it, for the bound's rounding): a body resting on a
        // static one, nearly always, needs no narrow phase here.
        const double allowed = kUncheckedTravel * b.innerRadius();
        // The manifold's two shapes: the dynamic body's and the static one's.
        const std::size_t shapeB = staticA ? m.shapeB : m.shapeA;
        const std::size_t shapeF = staticA ? m.shapeA : m.shapeB;
        const Shape& own = b.shapes[shapeB].shape;
        const Shape& other = fixed.shapes[shapeF].shape;
        if (depthBound(own, b.shapeXf(shapeB), other, fixed.shapeXf(shapeF)) <= allowed / 2)
            continue;
        // The manifold from the dynamic body to the static one: its normal points into `fixed`.
        const ShapeManifold now = collide(own, b.shapeXf(shapeB), other, fixed.shapeXf(shapeF), 0);
        const double excess = deepestDepth(now) - allowed;
        if (!(excess > 0)) continue;
        // Out on the side where the body is: a long thin body that went through a thin wall
        // may find its shallowest way out on the far side, and would be pushed through.
        const Vec2 from = b.xf().p, push = -excess * now.normal;
        // (A centre at the surface, put there by stopAtStaticBodies, is not inside.)
        const bool centreInside = insideBy(from, fixed, c.settings.distanceTolerance);
        const BodyId ownStatic = staticA ? m.a : m.b;
        bool crosses = false;
        statics.near(c, Aabb{glm::min(from, from + push), glm::max(from, from + push)},
                     [&](BodyId j, const Aabb&) {
                         crosses = crosses || (j != ownStatic &&
                                               passesThrough(from, from + push, c.bodies[j]));
                     });
        if ((centreInside || !passesThrough(from, from + push, fixed)) && !crosses) {
            ++c.diagnostics.guards.pushedOutOfStatic;
            moveBy(b, push, 0, c, correction);
        }
    }
}

} // namespace carom
