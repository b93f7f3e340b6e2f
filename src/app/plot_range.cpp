// Graph ranges: nice tick steps (Heckbert, "Nice numbers for graph labels", Graphics Gems, 1990),
// following the data, equal scales.
#include "plot_range.h"

#include <algorithm>
#include <cmath>

namespace app {

double niceStep(double range, int targetTicks) {
    const double raw = std::max(range, 1e-12) / std::max(targetTicks, 1);
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    const double f = raw / mag;
    return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * mag;
}

double roundBelow(double x) {
    const double p = std::pow(10.0, std::floor(std::log10(x)));
    const double m = x / p * (1 + 1e-12); // 0.5 / 0.1 is 4.999999999999999
    return (m >= 5 ? 5 : m >= 2 ? 2 : 1) * p;
}

double roundAbove(double x) {
    const double p = std::pow(10.0, std::floor(std::log10(x)));
    const double m = x / p * (1 - 1e-12); // 0.2 / 0.1 is 2.0000000000000004
    return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

void niceRange(double& lo, double& hi) {
    if (!std::isfinite(lo) || !std::isfinite(hi)) {
        lo = -1;
        hi = 1;
        return;
    }
    if (hi - lo < 1e-9 * std::max(1.0, std::abs(hi))) {
        const double pad = std::max(1e-3, 0.1 * std::abs(hi));
        lo -= pad;
        hi += pad;
    }
    const double step = niceStep(hi - lo, 5);
    lo = std::floor(lo / step) * step;
    hi = std::ceil(hi / step) * step;
}

void followRange(Range& shown, double lo, double hi) {
    if (!std::isfinite(lo) || !std::isfinite(hi)) return;
    const bool outside = shown.empty() || lo < shown.lo || hi > shown.hi;
    const double used = hi - lo, room = shown.hi - shown.lo;
    // A flat line in a wide range is "unused" too, unless the range is already the padding
    // niceRange gives a flat line.
    double flatLo = lo, flatHi = hi;
    niceRange(flatLo, flatHi);
    const bool unused = used < room / 3 && room > (flatHi - flatLo) * 1.000001;
    if (outside || unused) {
        shown.lo = lo;
        shown.hi = hi;
        niceRange(shown.lo, shown.hi);
    }
}

void equalScales(Range& x, Range& y, float widthPixels, float heightPixels) {
    if (x.empty() || y.empty() || widthPixels <= 0 || heightPixels <= 0) return;
    const double perPixelX = (x.hi - x.lo) / widthPixels, perPixelY = (y.hi - y.lo) / heightPixels;
    Range& r = perPixelX < perPixelY ? x : y;
    const double want = std::max(perPixelX, perPixelY) * (&r == &x ? widthPixels : heightPixels);
    const double mid = (r.lo + r.hi) / 2;
    r.lo = mid - want / 2;
    r.hi = mid + want / 2;
}

} // namespace app
