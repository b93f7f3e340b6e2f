// How many straight segments draw a circle of a given radius on the screen so that it looks round:
// without ImGui, so that the tests can check it.
#pragma once

#include <algorithm>
#include <cmath>

namespace app {

// The chord of a segment strays from the arc by r (1 − cos(π / n)) at its middle; n is the least
// count that keeps this under kMaxError pixels, at least 12 and at most 512 (ImGui's most). A
// 50 px circle gets 50 segments (it had 25, which showed as a polygon: 0.4 px of error at each
// side's middle, on a 12 px long side).
constexpr float kCircleMaxError = 0.1f;

inline int circleSegments(float radiusPixels) {
    if (!(radiusPixels > kCircleMaxError)) return 12;
    const double n = M_PI / std::acos(1.0 - double(kCircleMaxError) / radiusPixels);
    return std::clamp(int(std::ceil(n)), 12, 512);
}

} // namespace app
