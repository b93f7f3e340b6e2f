#include "plot_lines.h"

#include <cmath>
#include <utility>

namespace app {
namespace {

// The distance from p to the segment a b (Ericson, Real-Time Collision Detection, §5.1.2).
float distanceToSegment(Pixel p, Pixel a, Pixel b) {
    const float dx = b.x - a.x, dy = b.y - a.y;
    const float length2 = dx * dx + dy * dy;
    float t = length2 > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / length2 : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    return std::hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

} // namespace

std::vector<Pixel> simplified(const std::vector<Pixel>& line, float tolerance) {
    const std::size_t n = line.size();
    if (n <= 2) return line;
    std::vector<char> keep(n, 0);
    keep[0] = keep[n - 1] = 1;
    // The spans still to look at, first and last point kept (a stack: no recursion).
    std::vector<std::pair<std::size_t, std::size_t>> spans{{0, n - 1}};
    while (!spans.empty()) {
        const auto [first, last] = spans.back();
        spans.pop_back();
        float farthest = tolerance;
        std::size_t at = first;
        for (std::size_t i = first + 1; i < last; ++i) {
            const float d = distanceToSegment(line[i], line[first], line[last]);
            if (d > farthest) {
                farthest = d;
                at = i;
            }
        }
        if (at == first) continue; // all within the tolerance
        keep[at] = 1;
        spans.push_back({first, at});
        spans.push_back({at, last});
    }
    std::vector<Pixel> out;
    for (std::size_t i = 0; i < n; ++i)
        if (keep[i]) out.push_back(line[i]);
    return out;
}

} // namespace app
