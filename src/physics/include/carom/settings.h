// Everything about a world that the user may change while it runs, in one place.
#pragma once

#include "carom/math.h"
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace carom {

// How contacts are resolved, how bodies move, how two bodies' coefficients combine in a contact.
// Their names (as in the command-line contract, docs/cli.md) and help: the choices of
// their settings' rows below, in the order of the values.
enum class Method { ImpulseProjection, Impulse, Projection, Penalty, Exact };
enum class Integrator { Euler, RK4 };
// How the exact method strikes impacts at the same instant (impacts.cpp).
enum class CollisionHandling { Serial, Simultaneous, Hybrid };
enum class MixRule { Min, Max, Product, Average, Geometric };
// How a step's soft-body collisions are resolved (soft_collide.cpp), in every method.
enum class SoftResolution { Sequential, Parallel };

std::string_view toString(Method m);
std::string_view toString(Integrator i);
std::optional<Method> parseMethod(std::string_view name);
std::optional<Integrator> parseIntegrator(std::string_view name);
const std::vector<Method>& allMethods();
const std::vector<Integrator>& allIntegrators();
// Two bodies' friction or restitution mixed by the rule (inline: every contact of every step).
inline double mix(MixRule rule, double a, double b) {
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

// The defaults. What each setting means, its unit and the values it accepts: its row of
// worldSettingsTable() (settings.cpp).
struct WorldSettings {
    Vec2 gravity{0, 0};
    double damping = 0;
    double angularDamping = 0;
    double restitution = 1;
    double friction = 0;
    // Restitution combines by the smaller value, as in myPhysicsLab (a collision is as elastic as
    // its less elastic body); friction by the geometric mean, as in Box2D.
    MixRule restitutionMix = MixRule::Min;
    MixRule frictionMix = MixRule::Geometric;
    double timeStep = 1.0 / 60.0;
    Method method = Method::ImpulseProjection;
    Integrator integrator = Integrator::Euler;
    CollisionHandling collisionHandling = CollisionHandling::Serial;
    SoftResolution softResolution = SoftResolution::Sequential;

    // Solver (sequential impulses and projection).
    int velocityIterations = 10;
    int positionIterations = 4;
    bool warmStarting = true;
    double restitutionThreshold = 0.2;
    double linearSlop = 0.005;
    double projectionFactor = 0.2;
    double maxProjection = 0.2;

    // Penalty method: contact force k·depth + c·(approach speed), per contact point, k and c per
    // kg of the pair's reduced mass: ω = √3000 ≈ 55 rad/s.
    double penaltyStiffness = 3000;
    double penaltyDamping = 60;

    // Exact method.
    double distanceTolerance = 1e-6;

    // Interaction.
    double thrust = 1.5;
    double springStiffness = 3;
    double springDamping = 0;
    double springFrequency = 4;
};

// The mouse spring's law on a body whose mass as felt at the spring's anchor is m (1 / (1/m +
// |r|²/I) for the anchor r from the centre of mass: the least over directions; a particle's
// mass). Its stiffness k, N/m: with spring_frequency f > 0, m ω² for ω = 2π f, so that it moves
// every body alike, whatever its mass (Box2D's mouse joint), ω no more than 1/(2h): the spring is
// integrated with the step's forces, explicitly, and stays stable (h ω ≤ ½, and its critical
// damping c = 2 m ω gives h c / m ≤ 1); with f = 0, spring_stiffness. Its damping c, N·s/m: for a
// spring with a damping ratio ζ, 2ζ√(k m); else spring_damping.
struct MouseSpringLaw {
    double stiffness, damping;
};
MouseSpringLaw mouseSpringLaw(const WorldSettings& s, double mass,
                              std::optional<double> dampingRatio);

// ---- Every setting described once ----
// One row per field of WorldSettings: its name, the values it accepts, its unit and what it does.
// validate(), the scene file's reader and writer, carom-cli's options and the app's panels all
// work from this table, so a setting's name, range and help have one home; its default is its
// initialiser above.

// One value of an enum setting.
struct Choice {
    const char* name; // in scene files and on the command line: "impulse+projection"
    const char* help; // what it is for, one line
};

// The values a number accepts: min <= x <= max, or min < x <= max when minOpen. Every number
// is also finite and at most kMaxMagnitude in size.
struct Accepted {
    double min = 0, max = kMaxMagnitude;
    bool minOpen = false;
};

// How the app's slider shows a number: the range that matters in practice (values beyond it are
// still accepted, from files), evenly in log x when logarithmic, printed with format. Rows that
// the app shows no slider for leave it out.
struct Slider {
    double low = 0, high = 0;
    bool logarithmic = false;
    const char* format = "%.2f"; // printf, for the number alone: the unit follows it
};

struct SettingInfo {
    // The member; its type says how the setting is read, written and checked.
    std::variant<Vec2 WorldSettings::*, double WorldSettings::*, int WorldSettings::*,
                 bool WorldSettings::*, Method WorldSettings::*, Integrator WorldSettings::*,
                 MixRule WorldSettings::*, CollisionHandling WorldSettings::*,
                 SoftResolution WorldSettings::*>
        member;
    const char* name;  // in scene files, messages and the app: "time_step"
    const char* group; // the scene file's object that holds it, "solver" or "interaction"; ""
                       // for the top level. A group's rows are together, in the file's order.
    const char* unit;  // SI, as written after a value: "s", "N/m"; "" for none
    const char* help;  // what it does, one line
    Accepted accepted; // numbers (double and int)
    Slider slider;     // numbers: the app's slider
    std::vector<Choice> choices; // enums: in the order of the enum's values
    // Which methods' steps read it: bit i for Method i (every method unless the row says);
    // `alsoSoftBodies`: read in every method while the world has a soft body.
    unsigned methods = 0x1f;
    bool alsoSoftBodies = false;
};

// Every setting, in the order of WorldSettings (which is the scene file's order).
const std::vector<SettingInfo>& worldSettingsTable();
// The row of the setting with this name; throws std::out_of_range for an unknown one.
const SettingInfo& setting(std::string_view name);

// The values a number setting accepts, as messages say it after "must be ": "in [0, 1]",
// ">= 0", "> 0 and <= 1 s", "a whole number in 1..1000". A bound of 0 needs no unit.
std::string rangeText(const SettingInfo& s);
// The rule that x breaks, in the same words, or nothing when x is accepted: the bound it is
// beyond ("> 0", "<= 1 s"), or the whole range for one closed at both ends ("in [0, 1]") and for
// whole numbers (x is not finite or too large in size: checked before).
std::optional<std::string> brokenRule(const SettingInfo& s, double x);

// Throws std::invalid_argument unless the number setting s accepts x, in validate's words
// ("restitution: must be in [0, 1], got 2"): also for a body's own restitution and friction.
void checkValue(const SettingInfo& s, double x);

// Whether a world of these settings steps with s read (its method reads s, or s is read for soft
// bodies and the world has some); and, for a control that is not, why, in words for the app
// ("read by the impulse and penalty methods, and for soft bodies").
bool isRead(const SettingInfo& s, Method method, bool softBodies);
std::string readByText(const SettingInfo& s);

// The index in s.choices of an enum setting's value in settings.
std::size_t choiceOf(const SettingInfo& s, const WorldSettings& settings);

// Throws std::invalid_argument naming the first bad setting ("time_step: must be > 0, got -1").
void validate(const WorldSettings& s);

} // namespace carom
