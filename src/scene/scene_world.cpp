// Scenes to running worlds and back.
#include "carom/scene.h"

namespace carom {

// Bodies first, in file order, so that rigid body i of the scene is BodyId i of the world (soft
// bodies, which have ids of their own, in their places among them); then the walls. captureScene
// keeps that order, so a saved and reloaded world has the same ids (and the same pair order in
// the broad phase, which keeps the continuation identical).
World buildWorld(const Scene& scene) {
    World world(scene.settings);
    std::size_t soft = 0;
    for (std::size_t i = 0; i <= scene.bodies.size(); ++i) {
        for (; soft < scene.softBodies.size() && softPlace(scene, soft) <= i; ++soft)
            world.addSoftBody(scene.softBodies[soft]);
        if (i < scene.bodies.size()) world.addBody(scene.bodies[i]);
    }
    if (scene.walls) world.addWalls(*scene.walls);
    world.restoreContacts(scene.contacts);
    world.restoreFound(scene.found);
    world.restoreExactBackoff(scene.exactBackoff);
    return world;
}

Scene captureScene(const World& world, const std::string& name) {
    Scene s;
    s.name = name;
    s.settings = world.settings();
    s.walls = world.walls();
    for (BodyId id = 0; id < world.bodies().size(); ++id) {
        const Body& b = world.body(id);
        const BodyOrigin& origin = world.origin(id);
        if (origin.wall) continue; // saved as "walls"
        BodyDef d;
        d.name = b.name;
        d.type = b.type;
        d.shape = b.shape; // polygons are already centred: Shape::polygon keeps them as they are
        d.position = b.xf().p;
        d.angle = b.angle();
        d.velocity = b.v;
        d.angularVelocity = b.w;
        if (origin.massGiven)
            d.mass = b.mass;
        else
            d.density = origin.density; // unset: the default density, 1 kg/m²
        d.restitution = b.restitution;
        d.friction = b.friction;
        d.chain = origin.chain;
        s.bodies.push_back(std::move(d));
    }
    for (SoftBodyId id = 0; id < world.softBodies().size(); ++id) {
        s.softBodies.push_back(definitionOf(world.softBodies()[id]));
        std::size_t before = 0; // the rigid bodies before it that the file lists (not the walls)
        for (BodyId b = 0; b < world.softPlace(id); ++b)
            before += !world.origin(b).wall;
        s.softPlaces.push_back(before);
    }
    s.contacts = world.contacts();
    s.found = world.found();
    s.exactBackoff = world.exactBackoff();
    return s;
}

} // namespace carom
