// The graphs' data, without ImGui: recording samples and the X-Y graph's range.
#include "plots.h"

#include <algorithm>

namespace app {
namespace {

void resolve(PlotState& p, const carom::World& world) {
    // A per-body variable in a world without a rigid body to move it to (soft bodies only)
    // becomes the graph's default series, and the X-Y graph kinetic against potential energy
    // (it showed a missing block1.x against block1.vx, empty).
    static const char* const timeDefaults[3] = {"kinetic energy", "potential energy",
                                                "total energy"};
    for (int i = 0; i < 3; ++i)
        p.time.valid[i] = adoptVariable(p.time.names[i], world, p.time.vars[i], timeDefaults[i]);
    p.xy.valid = adoptVariable(p.xy.xName, world, p.xy.x, "kinetic energy") &&
                 adoptVariable(p.xy.yName, world, p.xy.y, "potential energy");
    clearTimeGraph(p.time);
    clearXYGraph(p.xy);
}

} // namespace

void clearTimeGraph(TimeGraph& g) {
    g.t.clear();
    for (auto& y : g.y)
        y.clear();
    g.start = 0;
}

void clearXYGraph(XYGraph& g) {
    g.xs.clear();
    g.ys.clear();
    g.ts.clear();
    g.shownX = g.shownY = Range{};
}

void refillTimeGraph(PlotState& p, History& history, const carom::World& now, double peOffset,
                     std::uint64_t maxSteps) {
    TimeGraph& g = p.time;
    g.refill = false;
    if (g.paused) return;
    clearTimeGraph(g);
    auto record = [&](const carom::World& w) {
        const Sample s{w.time(), carom::measure(w), peOffset};
        g.t.push_back(s.time);
        for (int i = 0; i < 3; ++i)
            g.y[i].push_back(g.valid[i] ? evaluate(g.vars[i], w, s) : 0);
    };
    const std::uint64_t n = now.stepCount();
    const double h = now.settings().timeStep;
    const std::uint64_t span = std::min(maxSteps, std::uint64_t(g.window / h) + 1);
    const std::uint64_t from = std::max(history.first(), n > span ? n - span : 0);
    if (history.empty() || from >= n || n > history.last()) {
        record(now);
    } else {
        carom::World w = now; // replaced by the keyframe's copy, then stepped on to now
        history.seek(w, from);
        record(w);
        while (w.stepCount() < n) {
            history.stepAlong(w);
            record(w);
        }
    }
    p.lastTime = g.t.back();
}

bool pointBounds(const XYGraph& g, std::size_t count, Range& x, Range& y) {
    const std::size_t n = g.xs.size();
    if (n == 0) return false;
    const std::size_t from = count == 0 || count >= n ? 0 : n - count;
    x = {g.xs[from], g.xs[from]};
    y = {g.ys[from], g.ys[from]};
    for (std::size_t k = from; k < n; ++k) {
        x.lo = std::min(x.lo, g.xs[k]);
        x.hi = std::max(x.hi, g.xs[k]);
        y.lo = std::min(y.lo, g.ys[k]);
        y.hi = std::max(y.hi, g.ys[k]);
    }
    return true;
}

void updateXYRange(XYGraph& g) {
    Range x, y;
    if (!g.follow && !g.shownX.empty() && !g.shownY.empty()) return;
    if (!pointBounds(g, g.follow ? g.recent : 0, x, y)) return;
    followRange(g.shownX, x.lo, x.hi);
    followRange(g.shownY, y.lo, y.hi);
}

void fitXYGraph(XYGraph& g) {
    g.follow = false;
    Range x, y;
    if (!pointBounds(g, 0, x, y)) return;
    niceRange(x.lo, x.hi);
    niceRange(y.lo, y.hi);
    g.shownX = x;
    g.shownY = y;
}

bool readTimeGraph(const TimeGraph& g, int i, double t, double from, CursorReading& r) {
    const std::vector<double>& ts = g.t;
    const std::vector<double>& ys = g.y[std::size_t(i)];
    // The first sample at or after `from`, and the first after t.
    auto k0 = std::size_t(std::lower_bound(ts.begin() + std::ptrdiff_t(g.start), ts.end(), from) -
                          ts.begin());
    auto k = std::size_t(std::upper_bound(ts.begin(), ts.end(), t) - ts.begin());
    if (k == ts.size() && !ts.empty() && t == ts.back()) --k; // the last sample itself
    if (k0 >= ts.size() || k <= k0 || k >= ts.size() || t < ts[k0]) return false;
    const double t0 = ts[k - 1], t1 = ts[k], dt = t1 - t0;
    r.slope = dt > 0 ? (ys[k] - ys[k - 1]) / dt : 0;
    r.value = ys[k - 1] + r.slope * (t - t0);
    r.from = ts[k0];
    r.area = 0;
    for (std::size_t j = k0 + 1; j < k; ++j)
        r.area += 0.5 * (ys[j] + ys[j - 1]) * (ts[j] - ts[j - 1]);
    r.area += 0.5 * (r.value + ys[k - 1]) * (t - t0);
    return true;
}

void rewindPlots(PlotState& p, double t) {
    if (p.lastTime <= t) return;
    TimeGraph& g = p.time;
    const std::size_t n = std::size_t(std::upper_bound(g.t.begin(), g.t.end(), t) - g.t.begin());
    g.t.resize(n);
    for (auto& y : g.y)
        y.resize(n);
    g.start = std::min(g.start, n);
    XYGraph& xy = p.xy;
    const std::size_t m =
        std::size_t(std::upper_bound(xy.ts.begin(), xy.ts.end(), t) - xy.ts.begin());
    xy.xs.resize(m);
    xy.ys.resize(m);
    xy.ts.resize(m);
    // The next sample at t replaces the last one, as while paused.
    p.lastTime = n > 0 ? g.t.back() : -1;
}

void updatePlots(PlotState& p, const carom::World& world, std::uint64_t generation,
                 const Sample& s) {
    if (p.generation != generation) {
        p.generation = generation;
        p.lastTime = -1;
        resolve(p, world);
    }
    TimeGraph& g = p.time;
    XYGraph& xy = p.xy;
    if (s.time == p.lastTime) { // paused, or between steps: the last sample shows any edit
        if (!g.paused && !g.t.empty() && g.t.back() == s.time)
            for (int i = 0; i < 3; ++i)
                g.y[i].back() = g.valid[i] ? evaluate(g.vars[i], world, s) : 0;
        if (!xy.paused && xy.valid && !xy.xs.empty()) {
            xy.xs.back() = evaluate(xy.x, world, s);
            xy.ys.back() = evaluate(xy.y, world, s);
        }
        return;
    }
    p.lastTime = s.time;
    if (!g.paused) {
        g.t.push_back(s.time);
        for (int i = 0; i < 3; ++i)
            g.y[i].push_back(g.valid[i] ? evaluate(g.vars[i], world, s) : 0);
        while (g.start < g.t.size() && g.t[g.start] < s.time - g.window)
            ++g.start;
        if (g.start > 4096 && g.start > g.t.size() / 2) { // drop the old samples now and then
            g.t.erase(g.t.begin(), g.t.begin() + g.start);
            for (auto& y : g.y)
                y.erase(y.begin(), y.begin() + g.start);
            g.start = 0;
        }
    }
    if (!xy.paused && xy.valid) {
        if (xy.xs.size() >= xy.maxPoints) { // keep the newer half
            xy.xs.erase(xy.xs.begin(), xy.xs.begin() + xy.maxPoints / 2);
            xy.ys.erase(xy.ys.begin(), xy.ys.begin() + xy.maxPoints / 2);
            xy.ts.erase(xy.ts.begin(), xy.ts.begin() + xy.maxPoints / 2);
        }
        xy.xs.push_back(evaluate(xy.x, world, s));
        xy.ys.push_back(evaluate(xy.y, world, s));
        xy.ts.push_back(s.time);
    }
}

} // namespace app
