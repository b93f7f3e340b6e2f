// Names of the methods, integrators and mixing rules, and the checks on world settings.
#include "carom/settings.h"

#include "checks.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace carom {
namespace {

template <class E> struct Named {
    E value;
    std::string_view name;
};

constexpr Named<Method> kMethods[] = {{Method::ImpulseProjection, "impulse+projection"},
                                      {Method::Impulse, "impulse"},
                                      {Method::Projection, "projection"},
                                      {Method::Penalty, "penalty"},
                                      {Method::Exact, "exact"}};
constexpr Named<Integrator> kIntegrators[] = {{Integrator::Euler, "euler"},
                                              {Integrator::RK4, "rk4"}};
constexpr Named<MixRule> kMixRules[] = {{MixRule::Min, "min"},
                                        {MixRule::Max, "max"},
                                        {MixRule::Product, "product"},
                                        {MixRule::Average, "average"},
                                        {MixRule::Geometric, "geometric"}};

template <class E, std::size_t N> std::string_view nameOf(const Named<E> (&table)[N], E value) {
    for (const auto& entry : table)
        if (entry.value == value) return entry.name;
    return "?";
}

template <class E, std::size_t N>
std::optional<E> valueOf(const Named<E> (&table)[N], std::string_view name) {
    for (const auto& entry : table)
        if (entry.name == name) return entry.value;
    return std::nullopt;
}

[[noreturn]] void refuse(const char* field, const char* rule, double got) {
    std::ostringstream s;
    s.precision(17);
    s << field << ": must be " << rule << ", got " << got;
    throw std::invalid_argument(s.str());
}

void check(const char* field, double x, double lo, bool loOpen, double hi = kMaxMagnitude) {
    if (!std::isfinite(x)) refuse(field, "a finite number", x);
    if (loOpen ? !(x > lo) : !(x >= lo)) {
        std::ostringstream rule;
        rule << (loOpen ? "> " : ">= ") << lo;
        refuse(field, rule.str().c_str(), x);
    }
    if (x > hi) {
        std::ostringstream rule;
        rule << "<= " << hi;
        refuse(field, rule.str().c_str(), x);
    }
}

} // namespace

std::string_view toString(Method m) {
    return nameOf(kMethods, m);
}
std::string_view toString(Integrator i) {
    return nameOf(kIntegrators, i);
}
std::string_view toString(MixRule r) {
    return nameOf(kMixRules, r);
}
std::optional<Method> parseMethod(std::string_view n) {
    return valueOf(kMethods, n);
}
std::optional<Integrator> parseIntegrator(std::string_view n) {
    return valueOf(kIntegrators, n);
}
std::optional<MixRule> parseMixRule(std::string_view n) {
    return valueOf(kMixRules, n);
}

const std::vector<Method>& allMethods() {
    static const std::vector<Method> all = {Method::ImpulseProjection, Method::Impulse,
                                            Method::Projection, Method::Penalty, Method::Exact};
    return all;
}

const std::vector<Integrator>& allIntegrators() {
    static const std::vector<Integrator> all = {Integrator::Euler, Integrator::RK4};
    return all;
}

double mix(MixRule rule, double a, double b) {
    switch (rule) {
    case MixRule::Min:
        return std::min(a, b);
    case MixRule::Max:
        return std::max(a, b);
    case MixRule::Product:
        return a * b;
    case MixRule::Average:
        return (a + b) / 2;
    case MixRule::Geometric:
        return std::sqrt(a * b);
    }
    return a;
}

void validate(const WorldSettings& s) {
    requireSize("gravity", s.gravity);
    check("damping", s.damping, 0, false);
    check("angularDamping", s.angularDamping, 0, false);
    check("restitution", s.restitution, 0, false, 1);
    check("friction", s.friction, 0, false);
    check("timeStep", s.timeStep, 0, true, 1);
    if (s.velocityIterations < 1 || s.velocityIterations > 1000)
        refuse("velocityIterations", "in 1..1000", s.velocityIterations);
    if (s.positionIterations < 0 || s.positionIterations > 1000)
        refuse("positionIterations", "in 0..1000", s.positionIterations);
    check("restitutionThreshold", s.restitutionThreshold, 0, false);
    check("linearSlop", s.linearSlop, 0, false, 1);
    check("projectionFactor", s.projectionFactor, 0, false, 1);
    check("maxProjection", s.maxProjection, 0, true);
    check("penaltyStiffness", s.penaltyStiffness, 0, true);
    check("penaltyDamping", s.penaltyDamping, 0, false);
    check("distanceTolerance", s.distanceTolerance, 0, true);
    check("thrust", s.thrust, 0, false);
    check("springStiffness", s.springStiffness, 0, false);
    check("springDamping", s.springDamping, 0, false);
}

} // namespace carom
