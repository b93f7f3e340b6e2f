// The settings table (every WorldSettings field: its name, range, unit and help), the names of
// the methods, integrators and mixing rules, and the checks on world settings.
#include "carom/settings.h"

#include "step/checks.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <type_traits>

namespace carom {
namespace {

// The enums' choices, in the order of their values.
constexpr Choice kMethods[] = {
    {"impulse+projection",
     "velocity impulses at contacts (bounce, friction, spin) over 8 substeps, "
     "overlap pushed out by soft contacts within them (Box2D v3's soft "
     "step); bodies in free flight strike at their times of impact"},
    {"impulse", "velocity impulses only, no position correction; bodies in free flight strike at "
                "their times of impact"},
    {"projection", "position projection only, no impulses: no bounce"},
    {"penalty", "spring forces that grow with the overlap, no impulses; integrated implicitly, "
                "stable at any time step"},
    {"exact", "each collision found at its instant and resolved there, the flight between them in "
              "closed form (any integrator); about 1 to 4 times the cost of the default (a "
              "step searches for at most three times of contact, then goes on as the default)"}};
constexpr Choice kIntegrators[] = {
    {"euler", "semi-implicit (symplectic) Euler: the velocity first, then the position with it"},
    {"rk4", "classical fourth-order Runge-Kutta, exact under constant forces"}};
constexpr Choice kCollisionHandlings[] = {
    {"serial", "the most approaching contact first, then the next: Newton's cradle sends out one "
               "ball (and bodies in free flight strike pair by pair, on their own clocks: faster)"},
    {"simultaneous", "every contact at the instant solved together: the cradle's four balls move "
                     "on together"},
    {"hybrid", "the most approaching contact with the other contacts of its two bodies: the "
               "cradle sends out two balls"}};
constexpr Choice kSoftResolutions[] = {
    {"sequential",
     "soft bodies advance to their first collision, resolve it, and go on from there"},
    {"parallel", "all of a step's soft-body collisions resolved in time order, then checked again "
                 "until none is left"}};
constexpr Choice kMixRules[] = {{"min", "the smaller of the two"},
                                {"max", "the larger of the two"},
                                {"product", "a·b"},
                                {"average", "(a + b) / 2"},
                                {"geometric", "the geometric mean √(a·b)"}};

template <class E, std::size_t N> std::string_view nameOf(const Choice (&choices)[N], E value) {
    const auto i = static_cast<std::size_t>(value);
    return i < N ? choices[i].name : "?";
}

template <class E, std::size_t N>
std::optional<E> valueOf(const Choice (&choices)[N], std::string_view name) {
    for (std::size_t i = 0; i < N; ++i)
        if (choices[i].name == name) return static_cast<E>(i);
    return std::nullopt;
}

template <class E, std::size_t N> std::vector<E> allOf(const Choice (&)[N]) {
    std::vector<E> all;
    for (std::size_t i = 0; i < N; ++i)
        all.push_back(static_cast<E>(i));
    return all;
}

// Accepted ranges: x >= lo; lo < x <= hi; lo <= x <= hi.
Accepted atLeast(double lo) {
    return {lo, kMaxMagnitude, false};
}
Accepted above(double lo, double hi = kMaxMagnitude) {
    return {lo, hi, true};
}
Accepted between(double lo, double hi) {
    return {lo, hi, false};
}

template <class T>
SettingInfo row(T WorldSettings::*member, const char* name, const char* group, const char* unit,
                const char* help, Accepted accepted = {}, Slider slider = {}) {
    return {member, name, group, unit, help, accepted, slider, {}};
}

template <class E, std::size_t N>
SettingInfo choiceRow(E WorldSettings::*member, const char* name, const char* help,
                      const Choice (&choices)[N]) {
    return {member, name, "", "", help, {}, {}, {std::begin(choices), std::end(choices)}};
}

// The row, read only by these methods' steps (and, with soft, for soft bodies in every method).
SettingInfo readBy(SettingInfo row, std::initializer_list<Method> methods, bool soft = false) {
    row.methods = 0;
    for (Method m : methods)
        row.methods |= 1u << static_cast<int>(m);
    row.alsoSoftBodies = soft;
    return row;
}

bool isWhole(const SettingInfo& s) {
    return std::holds_alternative<int WorldSettings::*>(s.member);
}

std::string text(double x) { // bounds as people write them: 0, 1, 1000, 1e-06
    std::ostringstream s;
    s << x;
    return s.str();
}

// A bound with the setting's unit; 0 is the same in every unit and goes without.
std::string bound(const SettingInfo& s, double x) {
    return text(x) + (x != 0 && *s.unit ? std::string(" ") + s.unit : "");
}

std::string lowerBound(const SettingInfo& s) {
    return (s.accepted.minOpen ? "> " : ">= ") + bound(s, s.accepted.min);
}

[[noreturn]] void refuse(const SettingInfo& s, const std::string& rule, double got) {
    throw std::invalid_argument(std::string(s.name) + ": must be " + rule + ", got " + str(got));
}

void check(const SettingInfo& s, double x) {
    checkValue(s, x);
}
void check(const SettingInfo& s, int x) {
    checkValue(s, double(x));
}
void check(const SettingInfo& s, Vec2 v) { // any direction, any size up to the limit
    for (double x : {v.x, v.y}) {
        if (!std::isfinite(x)) refuse(s, "finite", x);
        if (std::abs(x) > kMaxMagnitude) refuse(s, "at most 1e12 in size", x);
    }
}
void check(const SettingInfo&, bool) {}
template <class E> void check(const SettingInfo&, E) {} // enums: any of their values

} // namespace

void checkValue(const SettingInfo& s, double x) {
    if (!std::isfinite(x)) refuse(s, "finite", x);
    if (std::abs(x) > kMaxMagnitude) refuse(s, "at most 1e12 in size", x);
    if (auto rule = brokenRule(s, x)) refuse(s, *rule, x);
}

std::string_view toString(Method m) {
    return nameOf(kMethods, m);
}
std::string_view toString(Integrator i) {
    return nameOf(kIntegrators, i);
}
std::optional<Method> parseMethod(std::string_view n) {
    return valueOf<Method>(kMethods, n);
}
std::optional<Integrator> parseIntegrator(std::string_view n) {
    return valueOf<Integrator>(kIntegrators, n);
}

const std::vector<Method>& allMethods() {
    static const std::vector<Method> all = allOf<Method>(kMethods);
    return all;
}

const std::vector<Integrator>& allIntegrators() {
    static const std::vector<Integrator> all = allOf<Integrator>(kIntegrators);
    return all;
}

MouseSpringLaw mouseSpringLaw(const WorldSettings& s, double mass,
                              std::optional<double> dampingRatio) {
    double k = s.springStiffness;
    if (s.springFrequency > 0) {
        const double omega = std::min(2 * M_PI * s.springFrequency, 0.5 / s.timeStep);
        k = mass * omega * omega;
    }
    return {k, dampingRatio ? 2 * *dampingRatio * std::sqrt(k * mass) : s.springDamping};
}

const std::vector<SettingInfo>& worldSettingsTable() {
    using S = WorldSettings;
    constexpr bool kLog = true; // a slider evenly in log x
    static const std::vector<SettingInfo> table = {
        row(&S::gravity, "gravity", "", "m/s²", "acceleration of gravity (y is up)", {}, {-20, 20}),
        row(&S::damping, "damping", "", "N·s/m",
            "linear drag: force -damping·v on every dynamic body", atLeast(0),
            {0, 2, kLog, "%.3f"}),
        row(&S::angularDamping, "angular_damping", "", "N·m·s",
            "angular drag: torque -angular_damping·ω on every dynamic body", atLeast(0)),
        row(&S::restitution, "restitution", "", "",
            "coefficient of restitution of bodies that give none: 0 no bounce, 1 elastic",
            between(0, 1), {0, 1}),
        row(&S::friction, "friction", "", "",
            "Coulomb friction coefficient of bodies that give none", atLeast(0), {0, 2}),
        choiceRow(&S::restitutionMix, "restitution_mix",
                  "how two bodies' restitutions combine in a contact", kMixRules),
        choiceRow(&S::frictionMix, "friction_mix",
                  "how two bodies' friction coefficients combine in a contact", kMixRules),
        row(&S::timeStep, "time_step", "", "s", "the fixed step of the simulation", above(0, 1),
            {0.001, 0.05, kLog, "%.4f"}),
        choiceRow(&S::method, "method", "how contacts are resolved", kMethods),
        choiceRow(&S::integrator, "integrator", "how bodies move under their forces", kIntegrators),
        // Struck at their instants by the exact method, and by the flights of the default and
        // impulse methods (flight_impacts.cpp: a face that lands flat strikes at two points).
        readBy(choiceRow(&S::collisionHandling, "collision_handling",
                         "how impacts at the same instant are struck: in the exact method, and in "
                         "the free flights of the default and impulse methods",
                         kCollisionHandlings),
               {Method::ImpulseProjection, Method::Impulse, Method::Exact}),
        choiceRow(&S::softResolution, "soft_resolution",
                  "how a step's soft-body collisions are resolved, in every method",
                  kSoftResolutions),

        // The impulse method's solver (contact_solver.cpp), which the default and exact methods
        // also hand the pairs their flights leave unsettled; the penalty method's passes
        // (penalty.cpp) and the soft bodies' (soft_collide.cpp). Not the projection method.
        readBy(row(&S::velocityIterations, "velocity_iterations", "solver", "",
                   "sequential-impulse passes per step (the default and exact methods: only for "
                   "pairs their free flights leave unsettled)",
                   between(1, 1000), {1, 50, false, "%d"}),
               {Method::ImpulseProjection, Method::Impulse, Method::Penalty, Method::Exact}, true),
        // projectContacts (projection.cpp): the projection method's, and the exact method's at
        // a step's end.
        readBy(row(&S::positionIterations, "position_iterations", "solver", "",
                   "projection passes per step", between(0, 1000), {0, 20, false, "%d"}),
               {Method::Projection, Method::Exact}),
        readBy(row(&S::warmStarting, "warm_starting", "solver", "",
                   "start each step from the last step's impulses"),
               {Method::ImpulseProjection, Method::Impulse, Method::Exact}),
        row(&S::restitutionThreshold, "restitution_threshold", "solver", "m/s",
            "slower approaches do not bounce, so that contacts can rest", atLeast(0)),
        row(&S::linearSlop, "linear_slop", "solver", "m",
            "overlap left alone, so that resting contacts persist", between(0, 1)),
        readBy(row(&S::projectionFactor, "projection_factor", "solver", "",
                   "fraction of the overlap removed per projection pass", between(0, 1)),
               {Method::Projection, Method::Exact}),
        readBy(row(&S::maxProjection, "max_projection", "solver", "m",
                   "the most one projection pass moves a contact", above(0)),
               {Method::Projection, Method::Exact}),
        readBy(row(&S::penaltyStiffness, "penalty_stiffness", "solver", "N/m per kg",
                   "penalty method: contact stiffness per kg of the pair's reduced mass", above(0)),
               {Method::Penalty}),
        readBy(row(&S::penaltyDamping, "penalty_damping", "solver", "N·s/m per kg",
                   "penalty method: contact damping per kg of the pair's reduced mass", atLeast(0)),
               {Method::Penalty}),
        row(&S::distanceTolerance, "distance_tolerance", "solver", "m",
            "exact method: how close a found time of contact is to touching", above(0),
            {1e-8, 1e-2, kLog, "%.1e"}),

        row(&S::thrust, "thrust", "interaction", "N", "a thruster's force per unit of its weight",
            atLeast(0), {0, 20}),
        row(&S::springStiffness, "spring_stiffness", "interaction", "N/m",
            "stiffness of the mouse spring", atLeast(0), {0.1, 100, kLog}),
        row(&S::springDamping, "spring_damping", "interaction", "N·s/m",
            "damping of the mouse spring; at 0 the app damps each grab critically, 2√(k m)",
            atLeast(0), {0, 10}),
        row(&S::springFrequency, "spring_frequency", "interaction", "Hz",
            "the mouse spring's frequency: its stiffness m (2π f)² follows the held body's mass m, "
            "so that it lifts any body alike; 0: the fixed spring_stiffness",
            atLeast(0), {0, 10}),
    };
    return table;
}

bool isRead(const SettingInfo& s, Method method, bool softBodies) {
    return (s.methods >> static_cast<int>(method) & 1u) || (s.alsoSoftBodies && softBodies);
}

std::string readByText(const SettingInfo& s) {
    std::vector<std::string> names;
    for (Method m : allMethods())
        if (s.methods >> static_cast<int>(m) & 1u) names.emplace_back(toString(m));
    std::string text = "read by the ";
    for (std::size_t i = 0; i < names.size(); ++i)
        text += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
    text += names.size() == 1 ? " method" : " methods";
    if (s.alsoSoftBodies) text += ", and for soft bodies in every method";
    return text;
}

const SettingInfo& setting(std::string_view name) {
    for (const SettingInfo& s : worldSettingsTable())
        if (s.name == name) return s;
    throw std::out_of_range("no setting named " + std::string(name));
}

std::string rangeText(const SettingInfo& s) {
    const Accepted& a = s.accepted;
    if (isWhole(s)) return "a whole number in " + text(a.min) + ".." + text(a.max);
    if (a.max == kMaxMagnitude) return lowerBound(s); // the limit on every number: said apart
    if (!a.minOpen)
        return "in [" + text(a.min) + ", " + text(a.max) + "]" +
               (*s.unit ? std::string(" ") + s.unit : "");
    return lowerBound(s) + " and <= " + bound(s, a.max);
}

std::optional<std::string> brokenRule(const SettingInfo& s, double x) {
    const Accepted& a = s.accepted;
    const bool belowMin = a.minOpen ? !(x > a.min) : !(x >= a.min);
    if (!belowMin && x <= a.max && (!isWhole(s) || x == std::floor(x))) return std::nullopt;
    if (isWhole(s) || (!a.minOpen && a.max != kMaxMagnitude)) return rangeText(s);
    return belowMin ? lowerBound(s) : "<= " + bound(s, a.max);
}

std::size_t choiceOf(const SettingInfo& s, const WorldSettings& settings) {
    return std::visit(
        [&](auto member) -> std::size_t {
            if constexpr (std::is_enum_v<std::decay_t<decltype(settings.*member)>>)
                return static_cast<std::size_t>(settings.*member);
            else
                throw std::invalid_argument(std::string(s.name) + " is not a choice");
        },
        s.member);
}

void validate(const WorldSettings& settings) {
    for (const SettingInfo& s : worldSettingsTable())
        std::visit([&](auto member) { check(s, settings.*member); }, s.member);
}

} // namespace carom
