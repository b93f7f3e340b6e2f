// CSV rows of the simulation's state; %.17g prints every double so that it reads back exactly.
#include "carom/csv.h"

#include <cstdio>
#include <string>

namespace carom {
namespace {

// RFC 4180: a field with a comma, a quote or a line break is quoted, quotes doubled.
std::string csvField(const std::string& s) {
    if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

void number(std::string& out, double x) {
    char text[32];
    std::snprintf(text, sizeof text, ",%.17g", x);
    out += text;
}

// The bodies with columns in the scene's order: the rigid ones that are not static, and the
// soft ones in their places among them (World::softPlace).
template <class Rigid, class Soft> void inSceneOrder(const World& world, Rigid rigid, Soft soft) {
    const auto& bodies = world.bodies();
    const auto& softBodies = world.softBodies();
    std::size_t next = 0;
    for (std::size_t i = 0; i <= bodies.size(); ++i) {
        for (; next < softBodies.size() && world.softPlace(next) <= i; ++next)
            soft(softBodies[next]);
        if (i < bodies.size() && bodies[i].type != BodyType::Static) rigid(bodies[i]);
    }
}

} // namespace

std::string csvHeader(const World& world) {
    std::string out = "t,ke_linear,ke_angular,pe,energy,px,py,angular_momentum";
    inSceneOrder(
        world,
        [&](const Body& b) {
            for (const char* column : {".x", ".y", ".angle", ".vx", ".vy", ".omega"})
                out += "," + csvField(b.name + column);
        },
        [&](const SoftBody& b) { // its centre of mass, then each particle
            for (const char* column : {".x", ".y", ".vx", ".vy"})
                out += "," + csvField(b.name + column);
            for (std::size_t k = 0; k < b.particles.size(); ++k)
                for (const char* column : {".x", ".y", ".vx", ".vy"})
                    out += "," + csvField(b.name + "." + std::to_string(k) + column);
        });
    // Each joint's reaction on its body b over the last step, and a distance joint's length.
    for (const Joint& j : world.joints()) {
        for (const char* column : {".fx", ".fy", ".torque"})
            out += "," + csvField(j.name + column);
        if (j.type == JointType::Distance) out += "," + csvField(j.name + ".length");
    }
    return out + '\n';
}

std::string csvRow(const World& world, double t, const Diagnostics& d) {
    char first[32];
    std::snprintf(first, sizeof first, "%.17g", t);
    std::string out = first;
    for (double x :
         {d.keLinear, d.keAngular, d.pe, d.energy, d.momentum.x, d.momentum.y, d.angularMomentum})
        number(out, x);
    inSceneOrder(
        world,
        [&](const Body& b) {
            for (double x : {b.xf().p.x, b.xf().p.y, b.angle(), b.v.x, b.v.y, b.w})
                number(out, x);
        },
        [&](const SoftBody& b) {
            const Vec2 x = b.centreOfMass(), v = b.velocity();
            for (double c : {x.x, x.y, v.x, v.y})
                number(out, c);
            for (const Particle& p : b.particles)
                for (double c : {p.x.x, p.x.y, p.v.x, p.v.y})
                    number(out, c);
        });
    for (JointId id = 0; id < world.joints().size(); ++id) {
        const Joint& j = world.joints()[id];
        for (double x : {j.force.x, j.force.y, j.torque})
            number(out, x);
        if (j.type == JointType::Distance) {
            const auto [a, b] = world.jointAnchors(id);
            number(out, glm::length(b - a));
        }
    }
    return out + '\n';
}

} // namespace carom
