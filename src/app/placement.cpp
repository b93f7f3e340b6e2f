// The inspector's place (placement.h). Candidates: the area's four corners, then the places that
// touch a body's box on one side and the area's edge or another body's box on the other (where
// the gaps between bodies are). Each is scored by what it hides; the first of the best wins, so
// that the same scene always gives the same place.
#include "placement.h"

#include <algorithm>
#include <cmath>

namespace app {

float overlapArea(const Box& a, const Box& b) {
    const float w = std::min(a.x1, b.x1) - std::max(a.x0, b.x0);
    const float h = std::min(a.y1, b.y1) - std::max(a.y0, b.y0);
    return w > 0 && h > 0 ? w * h : 0;
}

namespace {

constexpr float kGap = 6; // pixels kept between the window and the body beside it

// The candidate positions along one axis: the area's two ends, then flush beyond each body's
// box on either side; each kept inside the area.
std::vector<float> positions(float lo, float hi, float size, const std::vector<Box>& bodies,
                             bool xAxis) {
    std::vector<float> out{lo, hi - size};
    // Beyond every body (bounded: a large pyramid's thousand boxes give the corners only).
    if (bodies.size() <= 64)
        for (const Box& b : bodies) {
            out.push_back((xAxis ? b.x1 : b.y1) + kGap);
            out.push_back((xAxis ? b.x0 : b.y0) - kGap - size);
        }
    for (float& p : out)
        p = std::clamp(p, lo, std::max(lo, hi - size));
    return out;
}

float hidden(const Box& w, const std::vector<Box>& boxes) {
    float sum = 0;
    for (const Box& b : boxes)
        sum += overlapArea(w, b);
    return sum;
}

} // namespace

Box placeClear(const Box& area, float w, float h, const std::vector<Box>& bodies,
               const std::vector<Box>& others) {
    const std::vector<float> xs = positions(area.x0, area.x1, w, bodies, true);
    const std::vector<float> ys = positions(area.y0, area.y1, h, bodies, false);
    // The corners first, top right to bottom left: xs[1] is the right end, xs[0] the left.
    std::vector<Box> candidates;
    for (float y : {ys[0], ys[1]})
        for (float x : {xs[1], xs[0]})
            candidates.push_back({x, y, x + w, y + h});
    for (std::size_t i = 0; i < ys.size(); ++i)
        for (std::size_t k = 0; k < xs.size(); ++k)
            if (i >= 2 || k >= 2) candidates.push_back({xs[k], ys[i], xs[k] + w, ys[i] + h});
    Box best = candidates[0];
    float bestBodies = INFINITY, bestOthers = INFINITY;
    for (const Box& c : candidates) {
        const float a = hidden(c, bodies);
        if (a > bestBodies) continue;
        const float o = hidden(c, others);
        if (a == bestBodies && o >= bestOthers) continue;
        best = c;
        bestBodies = a;
        bestOthers = o;
    }
    return best;
}

Pivot pivotFor(const Box& area, const Box& at) {
    Pivot p;
    p.x = at.x0 - area.x0 > area.x1 - at.x1 ? 1.0f : 0.0f;
    p.y = at.y0 - area.y0 > area.y1 - at.y1 ? 1.0f : 0.0f;
    return p;
}

} // namespace app
