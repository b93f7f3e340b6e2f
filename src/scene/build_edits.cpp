// Build mode's edits: a body added before the walls and a body pinned are made by making the world
// again from its state (recording.h: captureState, buildState), edited as a scene file would be,
// which keeps the ids a saved file gives; a rope is a distance joint with a maximum length.
#include "carom/build_edits.h"
#include "carom/recording.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace carom {
namespace {

void requireBody(const World& world, BodyId id) {
    if (id >= world.bodies().size())
        throw std::invalid_argument("body " + std::to_string(id) + ": no such body (there are " +
                                    std::to_string(world.bodies().size()) + ")");
}

// The body's place among the scene's bodies (the walls left out).
std::size_t placeInScene(const World& world, BodyId id) {
    std::size_t place = 0;
    for (BodyId b = 0; b < id; ++b)
        place += !world.origin(b).wall;
    return place;
}

} // namespace

BodyId addBodyBeforeWalls(World& world, const BodyDef& def) {
    if (def.wall) throw std::invalid_argument("wall: a drawn body is not a wall");
    WorldState state = captureState(world, "");
    // The walls come after the bodies (buildWorld): those ids past the new body's move up by one.
    const BodyId at = state.scene.bodies.size();
    auto moved = [at](BodyId& b) {
        if (b >= at) ++b;
    };
    for (Manifold& m : state.scene.contacts)
        moved(m.a), moved(m.b);
    for (FoundAt& f : state.scene.found)
        moved(f.a), moved(f.b);
    for (Thruster& t : state.thrusters)
        moved(t.body);
    if (state.spring && !state.spring->particle) moved(state.spring->body);
    state.scene.bodies.push_back(def);
    world = buildState(state); // checks the body (and its name) as a scene file's
    return at;
}

void setPinned(World& world, BodyId id, bool pinned) {
    requireBody(world, id);
    if (world.origin(id).wall)
        throw std::invalid_argument("body " + std::to_string(id) +
                                    ": a wall of the box is always pinned");
    if (world.body(id).isDynamic() == !pinned) return;
    WorldState state = captureState(world, "");
    BodyDef& d = state.scene.bodies[placeInScene(world, id)];
    d.type = pinned ? BodyType::Static : BodyType::Dynamic;
    d.velocity = {0, 0};
    d.angularVelocity = 0;
    // What the step kept of the body's contacts belongs to a body that moved: found anew.
    auto names = [id](const auto& e) { return e.a == id || e.b == id; };
    auto& contacts = state.scene.contacts;
    contacts.erase(std::remove_if(contacts.begin(), contacts.end(), names), contacts.end());
    auto& found = state.scene.found;
    found.erase(std::remove_if(found.begin(), found.end(), names), found.end());
    if (state.spring && !state.spring->particle && state.spring->body == id) state.spring.reset();
    world = buildState(state);
}

JointId addRope(World& world, BodyId a, BodyId b, Vec2 anchorA, Vec2 anchorB) {
    requireBody(world, a);
    requireBody(world, b);
    JointDef d;
    d.type = JointType::Distance;
    d.a = a;
    d.b = b;
    d.anchorA = anchorA;
    d.anchorB = anchorB;
    d.maxLength = glm::length(anchorB - anchorA);
    // Joint names are unique: the first of rope1, rope2, ... not taken.
    for (std::size_t k = 1;; ++k) {
        d.name = "rope" + std::to_string(k);
        if (!world.findJoint(d.name)) break;
    }
    return world.addJoint(d);
}

BodyDef bodyDefinition(const World& world, BodyId id) {
    requireBody(world, id);
    if (world.origin(id).wall)
        throw std::invalid_argument("body " + std::to_string(id) + ": a wall of the box");
    return captureScene(world, "").bodies[placeInScene(world, id)];
}

} // namespace carom
