// Everything about a world that the user may change while it runs, in one place.
#pragma once

#include "carom/math.h"
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace carom {

// How contacts are resolved (names as in the command-line contract, docs/cli.md).
enum class Method { ImpulseProjection, Impulse, Projection, Penalty, Exact };
enum class Integrator { Euler, RK4 };
// How two bodies' coefficients combine in a contact.
enum class MixRule { Min, Max, Product, Average, Geometric };

std::string_view toString(Method m);
std::string_view toString(Integrator i);
std::string_view toString(MixRule r);
std::optional<Method> parseMethod(std::string_view name);
std::optional<Integrator> parseIntegrator(std::string_view name);
std::optional<MixRule> parseMixRule(std::string_view name);
const std::vector<Method>& allMethods();
const std::vector<Integrator>& allIntegrators();
double mix(MixRule rule, double a, double b);

struct WorldSettings {
    Vec2 gravity{0, 0};        // m/s²
    double damping = 0;        // linear drag: force -damping * v (N per m/s)
    double angularDamping = 0; // angular drag: torque -angularDamping * ω
    double restitution = 1;    // default for bodies that give none
    double friction = 0;       // default for bodies that give none
    // Restitution combines by the smaller value, as in myPhysicsLab (a collision is as elastic as
    // its less elastic body); friction by the geometric mean, as in Box2D.
    MixRule restitutionMix = MixRule::Min;
    MixRule frictionMix = MixRule::Geometric;
    double timeStep = 1.0 / 60.0; // s
    Method method = Method::ImpulseProjection;
    Integrator integrator = Integrator::Euler;

    // Solver (sequential impulses and projection).
    int velocityIterations = 10;
    int positionIterations = 4;
    bool warmStarting = true;
    double restitutionThreshold = 0.2; // m/s: slower approaches do not bounce, so contacts can rest
    double linearSlop = 0.005;         // m of overlap left alone, so resting contacts persist
    double projectionFactor = 0.2;     // fraction of overlap removed per projection iteration
    double maxProjection = 0.2;        // m, the most one projection iteration moves a contact

    // Penalty method: contact force k·depth + c·(approach speed), per contact point.
    double penaltyStiffness = 3000; // N/m per kg of the pair's reduced mass (ω ≈ 55 rad/s)
    double penaltyDamping = 60;     // N·s/m per kg of the pair's reduced mass

    // Exact method (issue: exact collisions).
    double distanceTolerance = 1e-6;     // m: how close the found time of contact is to touching
    bool simultaneousCollisions = false; // false: serial (one impact after another)

    // Interaction.
    double thrust = 1.5;        // N per unit of thruster weight
    double springStiffness = 3; // mouse spring, N/m
    double springDamping = 0;   // mouse spring, N·s/m
};

// Throws std::invalid_argument naming the first bad field ("timeStep: must be > 0, got -1").
void validate(const WorldSettings& s);

} // namespace carom
