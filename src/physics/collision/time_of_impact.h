// Times of contact for the exact method: the closed form for two circles in uniform relative
// motion, and the bisection of an interval (Hecker's Listing 1) for everything else, its cuts
// placed by Newton or secant steps where they can be.
// Internal to the engine.
#pragma once

#include "carom/body.h"
#include "carom/math.h"
#include <cmath>
#include <cstdint>
#include <functional>
#include <optional>
#include <utility>

namespace carom {

// The earliest t >= 0 at which two circles whose centres are dp = pB − pA apart, moving apart at
// dv = vB − vA, touch: the smaller root of |dp + dv t| = radiusSum. None when they are already
// touching or overlapping, or do not approach, or pass each other.
std::optional<double> circleTimeOfImpact(Vec2 dp, Vec2 dv, double radiusSum);

// Bisection of [lo, hi] (Hecker, "Physics, Part 4: The Third Dimension", 1997, Listing 1: halve
// the step until the bodies no longer interpenetrate): `penetrates(t)` puts the world at time t
// and says whether some pair overlaps beyond the tolerance; it is false at lo and true at hi.
// Halves until hi − lo ≤ timeTolerance (a distance tolerance divided by the fastest closing
// speed) or `maxIterations` halvings, and returns the last time known not to penetrate.
double bisectContactTime(double lo, double hi, double timeTolerance,
                         const std::function<bool(double)>& penetrates, int maxIterations = 64);

// How fast a body's turning can carry its boundary towards anything: |ω| times its bounding
// radius, and nothing for a circle (at its centre of mass), whose turning about its centre leaves
// the space it takes as it was. The flights' bounds on how fast a pair can close
// (flight_impacts.cpp) and the exact method's travel limits (exact.cpp) take it: a ball of 1 m
// spinning at 480 rad/s made every bound on its pairs 500 m/s looser, and held every advance of the
// exact method to a millisecond.
inline double turning(const Body& b, double w) {
    const bool circle = !b.isCompound() && soleShape(b).type() == ShapeType::Circle;
    return circle ? 0.0 : std::abs(w) * b.boundingRadius();
}

// A contact point: its two bodies and its feature id (world.h: ContactPoint::id).
using PairKey = std::pair<BodyId, BodyId>;
using PointKey = std::pair<PairKey, std::uint32_t>;

// What a trial at some time finds: the worst overlap beyond what is allowed (m; ≤ 0 when nothing
// overlaps beyond its allowance, −∞ when no point is near), how fast it grows there (m/s, the
// point's approach speed), and which point it is.
struct Overlap {
    double excess;
    double rate;
    PointKey point;
};
// The same at a time, with the overlap beyond its allowance of one point asked for (−∞ when that
// point is not near).
struct OverlapAt {
    Overlap worst;
    double ofPoint;
};

// The same search, each cut placed where the overlap is expected to reach the middle of the
// accepted band [−band, 0] rather than at the midpoint: a Newton step from the overlapping end
// (over a short interval the depth is nearly linear in time), or the secant through both ends
// once the other end's overlap is known. Both follow one point, the one that overlaps worst at
// the overlapping end: at the other end the worst is often another point (one resting a
// micrometre apart, say), and a secant through two points' overlaps creeps towards that end. A cut
// that falls outside the bracket, or a bracket that did not halve in two cuts, takes the midpoint
// instead, so the bracket halves at least every third cut. `overlapAt(t, point)` puts the world at
// time t and says what it finds there, and how far `point` overlaps; `atHi` is its worst at hi
// (> 0), and at lo the worst is ≤ 0. Returns a time whose overlap is in the band (something
// touches, within the band), or the last time known not to overlap when hi − lo ≤ timeTolerance.
double searchContactTime(double lo, double hi, Overlap atHi, double timeTolerance, double band,
                         const std::function<OverlapAt(double, PointKey)>& overlapAt,
                         int maxIterations = 64);

} // namespace carom
