// Scenes to running worlds and back.
#include "carom/scene.h"

namespace carom {

// Bodies first, in file order, so that body i of the scene is BodyId i of the world; then the
// walls. captureScene keeps that order, so a saved and reloaded world has the same ids (and the
// same pair order in the broad phase, which keeps the continuation identical).
World buildWorld(const Scene& scene) {
    World world(scene.settings);
    for (const BodyDef& d : scene.bodies)
        world.addBody(d);
    if (scene.walls) world.addWalls(*scene.walls);
    for (const SoftBodyDef& d : scene.softBodies)
        world.addSoftBody(d);
    world.restoreContacts(scene.contacts);
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
        s.bodies.push_back(std::move(d));
    }
    for (const SoftBody& b : world.softBodies())
        s.softBodies.push_back(definitionOf(b));
    s.contacts = world.contacts();
    return s;
}

} // namespace carom
