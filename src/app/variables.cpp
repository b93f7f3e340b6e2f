// Plot variables: names and values (energies as in docs/cli.md).
#include "variables.h"

namespace app {
namespace {

struct GlobalName {
    Quantity q;
    const char* name;
};
constexpr GlobalName kGlobals[] = {
    {Quantity::Time, "time"},
    {Quantity::Kinetic, "kinetic energy"},
    {Quantity::Rotational, "rotational energy"},
    {Quantity::Translational, "translational energy"},
    {Quantity::Potential, "potential energy"},
    {Quantity::Total, "total energy"},
    {Quantity::MomentumX, "momentum x"},
    {Quantity::MomentumY, "momentum y"},
    {Quantity::AngularMomentum, "angular momentum"},
};
constexpr GlobalName kPerBody[] = {
    {Quantity::X, "x"},   {Quantity::Y, "y"},   {Quantity::Angle, "angle"},
    {Quantity::Vx, "vx"}, {Quantity::Vy, "vy"}, {Quantity::Omega, "omega"},
};

} // namespace

double evaluate(const Variable& v, const carom::World& world, const Sample& s) {
    const carom::Diagnostics& d = s.d;
    switch (v.q) {
    case Quantity::Time:
        return s.time;
    case Quantity::Kinetic:
        return d.keLinear + d.keAngular;
    case Quantity::Rotational:
        return d.keAngular;
    case Quantity::Translational:
        return d.keLinear;
    case Quantity::Potential:
        return d.pe + s.peOffset;
    case Quantity::Total:
        return d.energy + s.peOffset;
    case Quantity::MomentumX:
        return d.momentum.x;
    case Quantity::MomentumY:
        return d.momentum.y;
    case Quantity::AngularMomentum:
        return d.angularMomentum;
    default:
        break;
    }
    if (v.body >= world.bodies().size()) return 0;
    const carom::Body& b = world.body(v.body);
    switch (v.q) {
    case Quantity::X:
        return b.xf().p.x;
    case Quantity::Y:
        return b.xf().p.y;
    case Quantity::Angle:
        return b.angle();
    case Quantity::Vx:
        return b.v.x;
    case Quantity::Vy:
        return b.v.y;
    case Quantity::Omega:
        return b.w;
    default:
        return 0;
    }
}

const char* unitOf(const Variable& v) {
    switch (v.q) {
    case Quantity::Time:
        return "s";
    case Quantity::Kinetic:
    case Quantity::Rotational:
    case Quantity::Translational:
    case Quantity::Potential:
    case Quantity::Total:
        return "J";
    case Quantity::MomentumX:
    case Quantity::MomentumY:
        return "kg m/s";
    case Quantity::AngularMomentum:
        return "kg m\u00b2/s";
    case Quantity::X:
    case Quantity::Y:
        return "m";
    case Quantity::Angle:
        return "rad";
    case Quantity::Vx:
    case Quantity::Vy:
        return "m/s";
    case Quantity::Omega:
        return "rad/s";
    }
    return "";
}

std::string nameOf(const Variable& v, const carom::World& world) {
    for (const GlobalName& g : kGlobals)
        if (g.q == v.q) return g.name;
    std::string body = v.body < world.bodies().size() ? world.body(v.body).name : "?";
    for (const GlobalName& g : kPerBody)
        if (g.q == v.q) return body + "." + g.name;
    return "?";
}

bool parseVariable(const std::string& name, const carom::World& world, Variable& out) {
    for (const GlobalName& g : kGlobals)
        if (name == g.name) {
            out = {g.q, 0};
            return true;
        }
    const auto dot = name.rfind('.');
    if (dot == std::string::npos) return false;
    const auto body = world.findBody(name.substr(0, dot));
    if (!body) return false;
    for (const GlobalName& g : kPerBody)
        if (name.compare(dot + 1, std::string::npos, g.name) == 0) {
            out = {g.q, *body};
            return true;
        }
    return false;
}

bool adoptVariable(std::string& name, const carom::World& world, Variable& out,
                   const char* fallback) {
    if (parseVariable(name, world, out)) return true;
    const auto dot = name.rfind('.');
    if (dot == std::string::npos) return false;
    for (const carom::Body& b : world.bodies())
        if (b.isDynamic()) {
            const std::string moved = b.name + name.substr(dot);
            if (!parseVariable(moved, world, out)) return false;
            name = moved;
            return true;
        }
    if (!fallback || !parseVariable(fallback, world, out)) return false;
    name = fallback; // no body to move to: a global that every world has
    return true;
}

std::vector<Variable> allVariables(const carom::World& world) {
    std::vector<Variable> out;
    for (const GlobalName& g : kGlobals)
        out.push_back({g.q, 0});
    for (carom::BodyId i = 0; i < world.bodies().size(); ++i) {
        if (!world.body(i).isDynamic()) continue;
        for (const GlobalName& g : kPerBody)
            out.push_back({g.q, i});
    }
    return out;
}

} // namespace app
