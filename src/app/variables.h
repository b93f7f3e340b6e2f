// The quantities the graphs can show: time, the energies, momentum, and each dynamic body's
// x, y, angle, vx, vy, ω. A variable is chosen by name ("total energy", "block1.vx") so that a
// choice survives rebuilding the world and being saved with the settings.
#pragma once

#include "carom/world.h"
#include <string>
#include <vector>

namespace app {

enum class Quantity {
    Time,
    Kinetic,
    Rotational,
    Translational,
    Potential,
    Total,
    MomentumX,
    MomentumY,
    AngularMomentum,
    X,
    Y,
    Angle,
    Vx,
    Vy,
    Omega,
};

struct Variable {
    Quantity q = Quantity::Time;
    carom::BodyId body = 0; // for the per-body quantities
};

// One frame's measurements, shared by every graph.
struct Sample {
    double time = 0;
    carom::Diagnostics d;
    double peOffset = 0; // myPhysicsLab's "potential energy offset": moves the zero of PE
};

double evaluate(const Variable& v, const carom::World& world, const Sample& s);
std::string nameOf(const Variable& v, const carom::World& world);
// The variable's unit ("J", "m/s", "kg m/s"); variables of one unit share an axis.
const char* unitOf(const Variable& v);
bool parseVariable(const std::string& name, const carom::World& world, Variable& out);
// parseVariable, except that a per-body name whose body this world lacks moves to its first
// dynamic body ("block1.x" becomes "ball1.x"), and in a world without one (soft bodies only) to
// the global `fallback` ("kinetic energy"), so that a graph shows something in any scene.
bool adoptVariable(std::string& name, const carom::World& world, Variable& out,
                   const char* fallback = nullptr);
std::vector<Variable> allVariables(const carom::World& world); // global ones, then per body

} // namespace app
