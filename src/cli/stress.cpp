// carom-cli stress: random closed scenes in every method and integrator, checking what no method
// may do (issue 13): make a number non-finite, let a body out of the box of walls, create energy
// (with no user forces, restitutions at most 1), or run away with the time. Reports counts, and
// the seed of each failing scene so that it can be run again alone (--seed S --scenes 1). With
// --family stacks, heavy boxes on light ones instead (issue 46), measured by their overlap.
#include "commands.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace cli {
namespace {

using carom::Vec2;

class Random {
  public:
    explicit Random(std::uint64_t seed) : g_(seed) {}
    double uniform(double a, double b) { return std::uniform_real_distribution<double>(a, b)(g_); }
    double logUniform(double a, double b) { return std::exp(uniform(std::log(a), std::log(b))); }
    int integer(int a, int b) { return std::uniform_int_distribution<int>(a, b)(g_); }
    bool chance(double p) { return uniform(0, 1) < p; }

  private:
    std::mt19937_64 g_;
};

carom::Shape randomShape(Random& r, double size) {
    switch (r.integer(0, 2)) {
    case 0:
        return carom::Shape::circle(size / 2);
    case 1:
        return carom::Shape::box(size * r.uniform(0.2, 1), size * r.uniform(0.2, 1));
    default: { // a convex polygon: points on an ellipse at increasing angles
        const int n = r.integer(3, 8);
        const double stretch = r.uniform(0.3, 1);
        std::vector<Vec2> v;
        for (int i = 0; i < n; ++i) {
            const double a = 2 * M_PI * (i + r.uniform(0.1, 0.9)) / n;
            v.push_back(size / 2 * Vec2{std::cos(a), stretch * std::sin(a)});
        }
        return carom::Shape::polygon(v);
    }
    }
}

// A box of walls 2–200 m wide with 1–30 bodies (30–200 in a third of the scenes) of sizes 0.01–50 %
// of its half-width (0.01–50 m), mass ratios up to 10⁶, speeds up to 1,000 m/s and spins up to
// 500 rad/s: the ranges of issue 13's attack. And those of issue 45's: in a quarter of the scenes
// the bodies are millimetre polygons and boxes (4–10 mm) spinning at up to 500 rad/s; gravity is
// none, 9.81 m/s² down, or up to 50 m/s² in any direction; the step is 1/60 s, or in a third of
// the scenes anything from 1/480 to 1/30 s; and in a third of the scenes most bodies start deep in
// another (their centres within half the two bounding radii), the rest anywhere.
carom::Scene randomScene(std::uint64_t seed) {
    Random r(seed);
    carom::Scene s;
    s.name = "stress " + std::to_string(seed);
    const double half = r.logUniform(1, 100);
    s.walls = carom::Walls{-half, half, -half, half, r.logUniform(0.05, 1)};
    const double pull = r.uniform(0, 1);
    const double heading = r.uniform(-M_PI, M_PI);
    s.settings.gravity = pull < 0.35 ? Vec2{0, 0}
                         : pull < 0.7
                             ? Vec2{0, -9.81}
                             : r.uniform(0, 50) * Vec2{std::cos(heading), std::sin(heading)};
    if (r.chance(1.0 / 3)) s.settings.timeStep = r.logUniform(1.0 / 480, 1.0 / 30);
    s.settings.restitution = r.uniform(0, 1);
    s.settings.friction = r.chance(0.3) ? 0 : r.uniform(0, 1.5);
    const bool tiny = r.chance(0.25);
    const bool overlapping = r.chance(1.0 / 3);
    const int n = r.chance(0.3) ? r.integer(30, 200) : r.integer(1, 30);
    for (int i = 0; i < n; ++i) {
        carom::BodyDef d;
        d.name = "b" + std::to_string(i);
        const double size = tiny ? r.uniform(0.004, 0.01) : r.logUniform(0.01, 0.5) * half;
        d.shape = randomShape(r, size);
        const double reach = half - d.shape.boundingRadius();
        d.position = reach > 0 ? Vec2{r.uniform(-reach, reach), r.uniform(-reach, reach)} : Vec2{};
        if (overlapping && i > 0 && r.chance(0.8)) { // deep within the reach of an earlier body
            const carom::BodyDef& other = s.bodies[r.integer(0, i - 1)];
            const double within = 0.5 * (other.shape.boundingRadius() + d.shape.boundingRadius());
            const double at = r.uniform(-M_PI, M_PI);
            const Vec2 p = other.position + r.uniform(0, within) * Vec2{std::cos(at), std::sin(at)};
            if (reach > 0 && std::abs(p.x) < reach && std::abs(p.y) < reach) d.position = p;
        }
        d.angle = r.uniform(-M_PI, M_PI);
        const double speed = r.logUniform(0.01, 1000), towards = r.uniform(-M_PI, M_PI);
        d.velocity = speed * Vec2{std::cos(towards), std::sin(towards)};
        d.angularVelocity = r.uniform(-500, 500);
        d.mass = r.logUniform(1e-3, 1e3);
        if (r.chance(0.3)) d.restitution = r.uniform(0, 1);
        s.bodies.push_back(d);
    }
    return s;
}

bool contained(const carom::World& w) {
    const carom::Walls& box = *w.walls();
    for (const carom::Body& b : w.bodies())
        if (b.isDynamic() && !(b.xf().p.x > box.left && b.xf().p.x < box.right &&
                               b.xf().p.y > box.bottom && b.xf().p.y < box.top))
            return false;
    return true;
}

// The energy a method may create, relative to the scene's kinetic plus |potential| energy:
// round-off for the impulse methods and the exact one, 1e-3 for projection and penalty.
double allowedGain(carom::Method m) {
    return m == carom::Method::Projection || m == carom::Method::Penalty ? 1e-3 : 1e-9;
}

struct Tally {
    int runs = 0, nonFinite = 0, escaped = 0, energyMade = 0, overTime = 0;
    double worstGain = 0;
};

enum class Fault { None, NonFinite, Escaped, EnergyMade, OverTime };

const char* name(Fault f) {
    switch (f) {
    case Fault::NonFinite:
        return "non-finite";
    case Fault::Escaped:
        return "escaped";
    case Fault::EnergyMade:
        return "energy made";
    case Fault::OverTime:
        return "over time";
    default:
        return "";
    }
}

Fault runOne(carom::Scene scene, carom::Method m, carom::Integrator i, const StressOptions& o,
             Tally& t, double& when) {
    scene.settings.method = m;
    scene.settings.integrator = i;
    carom::World w = carom::buildWorld(scene);
    const carom::Diagnostics d0 = carom::measure(w);
    const double scale = d0.keLinear + d0.keAngular + std::abs(d0.pe) + 1e-300;
    const long long steps = stepsFor(o.time.value_or(3), w.settings().timeStep);
    const auto start = std::chrono::steady_clock::now();
    for (long long k = 1; k <= steps; ++k) {
        w.step();
        when = w.time();
        if (!carom::finiteState(w)) return Fault::NonFinite;
        if (!contained(w)) return Fault::Escaped;
        const double gain = (w.diagnostics().energy - d0.energy) / scale;
        t.worstGain = std::max(t.worstGain, gain);
        if (gain > allowedGain(m)) return Fault::EnergyMade;
        const std::chrono::duration<double> spent = std::chrono::steady_clock::now() - start;
        if (spent.count() > o.timeLimit) return Fault::OverTime;
    }
    return Fault::None;
}

// A box of M kg on n boxes of 1 kg (1 m boxes, friction 0.6, restitution 0) on a static floor,
// under gravity, at rest: tests/heavy-stacks/heavy-M-on-n.json.
carom::Scene heavyStack(double heavy, int n) {
    carom::Scene s;
    s.name = "heavy stack";
    s.settings.gravity = {0, -9.81};
    s.settings.restitution = 0;
    s.settings.friction = 0.6;
    carom::BodyDef floor;
    floor.name = "ground";
    floor.type = carom::BodyType::Static;
    floor.shape = carom::Shape::box(20, 1);
    floor.position = {0, -0.5};
    s.bodies.push_back(floor);
    for (int i = 0; i <= n; ++i) {
        carom::BodyDef d;
        d.name = i < n ? "light" + std::to_string(i + 1) : "heavy";
        d.shape = carom::Shape::box(1, 1);
        d.position = {0, i + 0.5};
        d.mass = i < n ? 1 : heavy;
        s.bodies.push_back(d);
    }
    return s;
}

// The family of heavy stacks: M = 10², ..., 10⁶ on one box and on nine, each in every method (or
// --method) and integrator for T seconds. A stack holds when, after the run, no contact overlaps by
// more than the linear slop and the heavy box is within a slop a box of its height at rest (n +
// ½ m); the table gives the deepest overlap after any step, the overlap and the heavy box's height
// at the end, and the stacks that do not hold are the failures.
int stressStacks(const StressOptions& o) {
    const std::vector<carom::Method> methods =
        o.method ? std::vector<carom::Method>{*o.method} : carom::allMethods();
    const double time = o.time.value_or(10);
    std::printf("heavy stacks: a box of M kg on 1 and on 9 boxes of 1 kg, %.3g s each, every "
                "method and integrator\n",
                time);
    std::printf("%-20s %-6s %6s %5s %10s %10s %10s %s\n", "method", "integ.", "M", "boxes",
                "deepest", "at end", "heavy y", "");
    int failures = 0;
    for (const carom::Method m : methods)
        for (const carom::Integrator i : carom::allIntegrators())
            for (const int n : {1, 9})
                for (const double heavy : {1e2, 1e3, 1e4, 1e5, 1e6}) {
                    carom::Scene scene = heavyStack(heavy, n);
                    scene.settings.method = m;
                    scene.settings.integrator = i;
                    carom::World w = carom::buildWorld(scene);
                    double deepest = 0;
                    const long long steps = stepsFor(time, w.settings().timeStep);
                    for (long long k = 0; k < steps && carom::finiteState(w); ++k) {
                        w.step();
                        deepest = std::max(deepest, w.diagnostics().maxDepth);
                    }
                    const double slop = w.settings().linearSlop, atEnd = w.diagnostics().maxDepth;
                    const double y = w.bodies().back().xf().p.y;
                    const bool holds = carom::finiteState(w) && atEnd <= slop &&
                                       std::abs(y - (n + 0.5)) <= (n + 1) * slop;
                    failures += !holds;
                    std::printf("%-20s %-6s %6.0e %5d %10.3g %10.3g %10.4g %s\n",
                                std::string(carom::toString(m)).c_str(),
                                std::string(carom::toString(i)).c_str(), heavy, n, deepest, atEnd,
                                y, holds ? "holds" : "sinks");
                }
    std::printf("failures: %d\n", failures);
    return 0;
}

} // namespace

int stress(const StressOptions& o) {
    if (o.family == StressFamily::Stacks) return stressStacks(o);
    if (!o.saveScene.empty()) { // a failure to look at: its scene, for `run`
        carom::saveScene(randomScene(o.seed), o.saveScene);
        std::printf("scene of seed %llu: %s\n", static_cast<unsigned long long>(o.seed),
                    o.saveScene.c_str());
        return 0;
    }
    std::vector<carom::Method> methods =
        o.method ? std::vector<carom::Method>{*o.method} : carom::allMethods();
    std::printf("%lld random scenes from seed %llu, %.3g s each, every method and integrator\n",
                o.scenes, static_cast<unsigned long long>(o.seed), o.time.value_or(3));
    std::vector<std::vector<Tally>> tally(methods.size(),
                                          std::vector<Tally>(carom::allIntegrators().size()));
    int failures = 0;
    for (long long k = 0; k < o.scenes; ++k) {
        const std::uint64_t seed = o.seed + static_cast<std::uint64_t>(k);
        const carom::Scene scene = randomScene(seed);
        for (std::size_t mi = 0; mi < methods.size(); ++mi)
            for (std::size_t ii = 0; ii < carom::allIntegrators().size(); ++ii) {
                const carom::Integrator integrator = carom::allIntegrators()[ii];
                Tally& t = tally[mi][ii];
                ++t.runs;
                double when = 0;
                const Fault f = runOne(scene, methods[mi], integrator, o, t, when);
                if (f == Fault::None) continue;
                t.nonFinite += f == Fault::NonFinite;
                t.escaped += f == Fault::Escaped;
                t.energyMade += f == Fault::EnergyMade;
                t.overTime += f == Fault::OverTime;
                if (++failures <= o.listed)
                    std::printf("  seed %llu, %s, %s: %s at t = %.4g s\n",
                                static_cast<unsigned long long>(seed),
                                std::string(carom::toString(methods[mi])).c_str(),
                                std::string(carom::toString(integrator)).c_str(), name(f), when);
            }
    }
    std::printf("%-20s %-6s %5s %10s %8s %11s %9s %12s\n", "method", "integ.", "runs", "non-finite",
                "escaped", "energy made", "over time", "worst gain");
    for (std::size_t mi = 0; mi < methods.size(); ++mi)
        for (std::size_t ii = 0; ii < carom::allIntegrators().size(); ++ii) {
            const Tally& t = tally[mi][ii];
            std::printf("%-20s %-6s %5d %10d %8d %11d %9d %12.3g\n",
                        std::string(carom::toString(methods[mi])).c_str(),
                        std::string(carom::toString(carom::allIntegrators()[ii])).c_str(), t.runs,
                        t.nonFinite, t.escaped, t.energyMade, t.overTime, t.worstGain);
        }
    std::printf("failures: %d\n", failures);
    return 0;
}

} // namespace cli
