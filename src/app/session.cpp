// Building, resetting and replacing the simulated world; the keyboard thrusters of the blocks.
#include "session.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace app {
namespace {

// Half extents of a shape in its own frame: where the thrusters sit, on its surface.
carom::Vec2 halfExtents(const carom::Shape& shape) {
    switch (shape.type()) {
    case carom::ShapeType::Circle:
        return {shape.radius(), shape.radius()};
    case carom::ShapeType::Box:
        return {shape.width() / 2, shape.height() / 2};
    case carom::ShapeType::Polygon:
        break;
    }
    carom::Vec2 e{0, 0};
    for (carom::Vec2 v : shape.vertices())
        e = glm::max(e, glm::abs(v));
    return e;
}

void addThrusters(Session& s) {
    const char* names[2] = {"block1", "block2"};
    for (int k = 0; k < 2; ++k) {
        BlockThrusters& t = s.thrusters[k];
        t.body = s.world.findBody(names[k]);
        if (!t.body || !s.world.body(*t.body).isDynamic()) {
            t.body.reset();
            continue;
        }
        // Up and down push along the long axis from the ends; the side pairs sit at 80% of the
        // half height, on the side opposite to their push (a flame shows where it burns).
        const carom::Shape& shape = s.world.body(*t.body).shape;
        const carom::Vec2 e = halfExtents(shape);
        const double a = 0.8 * e.y;
        const double x = shape.type() == carom::ShapeType::Circle
                             ? std::sqrt(std::max(0.0, e.x * e.x - a * a))
                             : e.x;
        const double w = kSideWeight, u = kUpDownWeight;
        t.ids[Up] = s.world.addThruster(*t.body, {0, -e.y}, {0, u});
        t.ids[Down] = s.world.addThruster(*t.body, {0, e.y}, {0, -u});
        t.ids[TopLeft] = s.world.addThruster(*t.body, {x, a}, {-w, 0});
        t.ids[TopRight] = s.world.addThruster(*t.body, {-x, a}, {w, 0});
        t.ids[BottomLeft] = s.world.addThruster(*t.body, {x, -a}, {-w, 0});
        t.ids[BottomRight] = s.world.addThruster(*t.body, {-x, -a}, {w, 0});
    }
}

// Takes a freshly built world: thrusters, a clean stepper, the energy reference.
void adopt(Session& s, carom::World world) {
    s.world = std::move(world);
    addThrusters(s);
    s.stepper.reset();
    s.selected.reset();
    s.selectedSoft.reset();
    const carom::Diagnostics d = carom::measure(s.world);
    s.initialEnergy = d.energy;
    s.realTime = 0;
    ++s.generation;
    s.lastGood = s.world;
    s.halted.clear();
    s.inspectorEdits.clear();
}

} // namespace

void rebuild(Session& s, bool keepSettings) {
    carom::World world = carom::buildWorld(s.scene);
    if (keepSettings) world.setSettings(s.world.settings());
    adopt(s, std::move(world));
}

void replaceScene(Session& s, carom::Scene scene, std::string path) {
    carom::World world = carom::buildWorld(scene); // throws before anything changes
    s.scene = std::move(scene);
    s.path = std::move(path);
    adopt(s, std::move(world));
    s.resetNote.clear();
}

void reset(Session& s) {
    std::string note;
    if (!s.inspectorEdits.empty()) {
        note = "inspector edits dropped (";
        bool first = true;
        for (const std::string& name : s.inspectorEdits) {
            note += (first ? "" : ", ") + name;
            first = false;
        }
        note += "): use \"apply to scene\" in the inspector to keep them";
    }
    rebuild(s, true);
    s.resetNote = note;
}

namespace {
std::optional<double> ownValue(const carom::Body& b, Coefficient c) {
    return c == Coefficient::Restitution ? b.restitution : b.friction;
}
} // namespace

std::optional<double> commonCoefficient(const carom::World& world, Coefficient c) {
    const double global =
        c == Coefficient::Restitution ? world.settings().restitution : world.settings().friction;
    std::optional<double> common;
    for (const carom::Body& b : world.bodies()) {
        const double v = ownValue(b, c).value_or(global);
        if (common && *common != v) return std::nullopt;
        common = v;
    }
    return common ? common : std::optional<double>(global);
}

void dropOwnCoefficients(carom::World& world, Coefficient c) {
    for (carom::BodyId i = 0; i < world.bodies().size(); ++i) {
        if (c == Coefficient::Restitution)
            world.setRestitution(i, std::nullopt);
        else
            world.setFriction(i, std::nullopt);
    }
}

bool isBlocksScene(const carom::Scene& scene) {
    int blocks = 0;
    for (const carom::BodyDef& d : scene.bodies) {
        if (d.type != carom::BodyType::Dynamic) continue;
        const bool numbered = d.name.size() > 5 && d.name.rfind("block", 0) == 0 &&
                              d.name.find_first_not_of("0123456789", 5) == std::string::npos;
        if (!numbered) return false;
        ++blocks;
    }
    return blocks > 0;
}

void noteInspectorEdit(Session& s, carom::BodyId id) {
    if (id < s.world.bodies().size()) s.inspectorEdits.insert(s.world.body(id).name);
}

bool applyToScene(Session& s, carom::BodyId id) {
    if (id >= s.world.bodies().size()) return false;
    const carom::Body& b = s.world.body(id);
    for (carom::BodyDef& d : s.scene.bodies) {
        if (d.name != b.name || d.wall) continue;
        d.position = b.xf().p;
        d.angle = b.angle();
        d.velocity = b.v;
        d.angularVelocity = b.w;
        if (b.isDynamic()) {
            d.mass = b.mass;
            d.density.reset();
        }
        d.restitution = b.restitution;
        d.friction = b.friction;
        s.inspectorEdits.erase(b.name);
        return true;
    }
    return false;
}

bool guardFinite(Session& s) {
    if (carom::finiteState(s.world)) {
        if (s.world.time() - s.lastGood.time() >= 1.0) s.lastGood = s.world;
        return true;
    }
    char why[200];
    std::snprintf(why, sizeof why,
                  "The simulation became non-finite by t = %.3f s and was stopped, set back to "
                  "t = %.3f s. Try a smaller time step or another method.",
                  s.world.time(), s.lastGood.time());
    s.world = s.lastGood;
    s.stepper.paused = true;
    s.halted = why;
    return false;
}

} // namespace app
