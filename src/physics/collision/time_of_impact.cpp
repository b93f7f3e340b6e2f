// Times of contact for the exact method (see time_of_impact.h).
#include "collision/time_of_impact.h"

#include <cmath>

namespace carom {

// |dp + dv t|² = R² is a t² + 2 b t + c = 0 with a = dv·dv, b = dp·dv, c = dp·dp − R².
// Separated (c > 0) and approaching (b < 0), the first root is t = (−b − √(b² − a c)) / a, written
// as t = c / (−b + √(b² − a c)) so that it loses no digits when a c is small beside b²
// (Numerical Recipes §5.6). b² < a c: the circles pass each other without touching.
std::optional<double> circleTimeOfImpact(Vec2 dp, Vec2 dv, double radiusSum) {
    const double a = glm::dot(dv, dv), b = glm::dot(dp, dv);
    const double c = glm::dot(dp, dp) - radiusSum * radiusSum;
    if (c <= 0 || b >= 0) return std::nullopt;
    const double disc = b * b - a * c;
    if (disc < 0) return std::nullopt;
    return c / (-b + std::sqrt(disc));
}

double bisectContactTime(double lo, double hi, double timeTolerance,
                         const std::function<bool(double)>& penetrates, int maxIterations) {
    for (int i = 0; i < maxIterations && hi - lo > timeTolerance; ++i) {
        const double mid = 0.5 * (lo + hi);
        if (mid <= lo || mid >= hi) break; // no double between them
        if (penetrates(mid))
            hi = mid;
        else
            lo = mid;
    }
    return lo;
}

double searchContactTime(double lo, double hi, Overlap atHi, double timeTolerance, double band,
                         const std::function<OverlapAt(double, PointKey)>& overlapAt,
                         int maxIterations) {
    const double target = -band / 2;
    Overlap fHi = atHi;
    double fLo = -INFINITY; // fHi's point's overlap at lo, when known
    double widthTwoCutsAgo = INFINITY, widthOneCutAgo = INFINITY;
    for (int i = 0; i < maxIterations && hi - lo > timeTolerance; ++i) {
        const double mid = 0.5 * (lo + hi);
        if (mid <= lo || mid >= hi) break; // no double between them
        double t = mid;
        if (std::isfinite(fLo)) // secant through (lo, fLo) and (hi, fHi)
            t = lo + (hi - lo) * (target - fLo) / (fHi.excess - fLo);
        else if (fHi.rate > 0) // Newton from hi: excess(t) ≈ fHi.excess − rate (hi − t)
            t = hi - (fHi.excess - target) / fHi.rate;
        if (!(t > lo && t < hi) || hi - lo > 0.5 * widthTwoCutsAgo) t = mid;
        widthTwoCutsAgo = widthOneCutAgo;
        widthOneCutAgo = hi - lo;
        const OverlapAt f = overlapAt(t, fHi.point);
        if (f.worst.excess > 0) {
            hi = t;
            if (f.worst.point != fHi.point) fLo = -INFINITY; // another point now: not known at lo
            fHi = f.worst;
        } else {
            lo = t;
            fLo = f.ofPoint;
            if (f.worst.excess >= -band) break; // touching, within the band
        }
    }
    return lo;
}

} // namespace carom
