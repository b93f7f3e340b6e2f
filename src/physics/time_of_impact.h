// Times of contact for the exact method: the closed form for two circles in uniform relative
// motion, and the bisection of an interval (Hecker's Listing 1) for everything else.
// Internal to the engine.
#pragma once

#include "carom/math.h"
#include <functional>
#include <optional>

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

} // namespace carom
