// CSV rows of the simulation's state; %.17g prints every double so that it reads back exactly.
#include "csv.h"

#include <string>

namespace cli {
namespace {

// RFC 4180: a field with a comma, a quote or a line break is quoted, quotes doubled.
std::string csvField(const std::string& s) {
    if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

void number(std::FILE* out, double x) {
    std::fprintf(out, ",%.17g", x);
}

// The bodies with columns in the scene's order: the rigid ones that are not static, and the
// soft ones in their places among them (World::softPlace).
template <class Rigid, class Soft>
void inSceneOrder(const carom::World& world, Rigid rigid, Soft soft) {
    const auto& bodies = world.bodies();
    const auto& softBodies = world.softBodies();
    std::size_t next = 0;
    for (std::size_t i = 0; i <= bodies.size(); ++i) {
        for (; next < softBodies.size() && world.softPlace(next) <= i; ++next)
            soft(softBodies[next]);
        if (i < bodies.size() && bodies[i].type != carom::BodyType::Static) rigid(bodies[i]);
    }
}

} // namespace

void writeCsvHeader(std::FILE* out, const carom::World& world) {
    std::fputs("t,ke_linear,ke_angular,pe,energy,px,py,angular_momentum", out);
    inSceneOrder(
        world,
        [&](const carom::Body& b) {
            for (const char* column : {".x", ".y", ".angle", ".vx", ".vy", ".omega"})
                std::fprintf(out, ",%s", csvField(b.name + column).c_str());
        },
        [&](const carom::SoftBody& b) { // its centre of mass, then each particle
            for (const char* column : {".x", ".y", ".vx", ".vy"})
                std::fprintf(out, ",%s", csvField(b.name + column).c_str());
            for (std::size_t k = 0; k < b.particles.size(); ++k)
                for (const char* column : {".x", ".y", ".vx", ".vy"})
                    std::fprintf(out, ",%s",
                                 csvField(b.name + "." + std::to_string(k) + column).c_str());
        });
    // Each joint's reaction on its body b over the last step, and a distance joint's length.
    for (const carom::Joint& j : world.joints()) {
        for (const char* column : {".fx", ".fy", ".torque"})
            std::fprintf(out, ",%s", csvField(j.name + column).c_str());
        if (j.type == carom::JointType::Distance)
            std::fprintf(out, ",%s", csvField(j.name + ".length").c_str());
    }
    std::fputc('\n', out);
}

void writeCsvRow(std::FILE* out, const carom::World& world, double t, const carom::Diagnostics& d) {
    std::fprintf(out, "%.17g", t);
    for (double x :
         {d.keLinear, d.keAngular, d.pe, d.energy, d.momentum.x, d.momentum.y, d.angularMomentum})
        number(out, x);
    inSceneOrder(
        world,
        [&](const carom::Body& b) {
            for (double x : {b.xf().p.x, b.xf().p.y, b.angle(), b.v.x, b.v.y, b.w})
                number(out, x);
        },
        [&](const carom::SoftBody& b) {
            const carom::Vec2 x = b.centreOfMass(), v = b.velocity();
            for (double c : {x.x, x.y, v.x, v.y})
                number(out, c);
            for (const carom::Particle& p : b.particles)
                for (double c : {p.x.x, p.x.y, p.v.x, p.v.y})
                    number(out, c);
        });
    for (carom::JointId id = 0; id < world.joints().size(); ++id) {
        const carom::Joint& j = world.joints()[id];
        for (double x : {j.force.x, j.force.y, j.torque})
            number(out, x);
        if (j.type == carom::JointType::Distance) {
            const auto [a, b] = world.jointAnchors(id);
            number(out, glm::length(b - a));
        }
    }
    std::fputc('\n', out);
}

} // namespace cli
