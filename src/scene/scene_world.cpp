// Scenes to running worlds and back.
#include "carom/scene.h"

#include <optional>
#include <string>
#include <vector>

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
    // A joint's refusal "field: what" pointed at the joint (the method's at the method).
    for (std::size_t i = 0; i < scene.joints.size(); ++i)
        try {
            world.addJoint(scene.joints[i]);
        } catch (const std::invalid_argument& e) {
            const std::string what = e.what();
            throw std::invalid_argument(what.rfind("method: ", 0) == 0
                                            ? "/" + what
                                            : "/joints/" + std::to_string(i) + "/" + what);
        }
    world.restoreContacts(scene.contacts);
    world.restoreFound(scene.found);
    world.restoreExactBackoff(scene.exactBackoff);
    return world;
}

Scene captureScene(const World& world, const std::string& name, const std::string& description) {
    Scene s;
    s.name = name;
    s.description = description;
    s.settings = world.settings();
    s.walls = world.walls();
    for (BodyId id = 0; id < world.bodies().size(); ++id) {
        const Body& b = world.body(id);
        const BodyOrigin& origin = world.origin(id);
        if (origin.wall) continue; // saved as "walls"
        BodyDef d;
        d.name = b.name;
        d.type = b.type;
        // Polygons and compounds are already centred: Shape::polygon and compoundShapes keep them
        // as they are.
        if (b.isCompound())
            d.shapes = b.shapes;
        else
            d.shape = b.shapes[0].shape;
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
        d.group = b.group;
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
    // Joints name their bodies by their places in the file, which leaves the walls out: a joint to
    // a wall (static, never moved) is held by the world at the same point.
    std::vector<std::optional<std::size_t>> place(world.bodies().size());
    for (BodyId id = 0, k = 0; id < world.bodies().size(); ++id)
        if (!world.origin(id).wall) place[id] = k++;
    for (JointId id = 0; id < world.joints().size(); ++id) {
        JointDef d = world.definitionOf(id);
        if (d.a && !place[*d.a]) {
            const Body& wall = world.body(*d.a);
            d.frame->localA = wall.worldPoint(d.frame->localA);
            d.frame->localAxis = wall.xf().q.apply(d.frame->localAxis);
            d.frame->referenceAngle += wall.angle();
            d.a.reset();
        }
        if (d.a) d.a = *place[*d.a];
        d.b = *place[d.b];
        s.joints.push_back(std::move(d));
    }
    s.contacts = world.contacts();
    s.found = world.found();
    s.exactBackoff = world.exactBackoff();
    return s;
}

} // namespace carom
