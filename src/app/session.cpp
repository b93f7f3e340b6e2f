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
    const carom::Diagnostics d = carom::measure(s.world);
    s.initialEnergy = d.energy;
    s.realTime = 0;
    ++s.generation;
    s.lastGood = s.world;
    s.halted.clear();
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
}

void reset(Session& s) {
    rebuild(s, true);
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
