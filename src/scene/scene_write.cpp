// Scenes to scene files: one field per line at the top level and one body per line, numbers in
// the shortest form that reads back as the same double (nlohmann's Grisu2 output), so that
// save -> load -> save gives the same text and a saved world continues exactly.
#include "carom/output_file.h"
#include "carom/scene.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <type_traits>
#include <unistd.h>
#include <variant>

namespace carom {
namespace {

using Json = nlohmann::ordered_json;

Json vec2(Vec2 v) {
    return Json::array({v.x, v.y});
}

// Compact JSON with a space after ':' and ',' (nlohmann's own compact form has none).
std::string inline_(const Json& j) {
    if (j.is_object()) {
        std::string s = "{";
        for (auto it = j.begin(); it != j.end(); ++it)
            s += (it == j.begin() ? "" : ", ") + Json(it.key()).dump() + ": " + inline_(*it);
        return s + "}";
    }
    if (j.is_array()) {
        std::string s = "[";
        for (std::size_t i = 0; i < j.size(); ++i)
            s += (i ? ", " : "") + inline_(j[i]);
        return s + "]";
    }
    return j.dump();
}

const char* typeName(BodyType t) {
    switch (t) {
    case BodyType::Static:
        return "static";
    case BodyType::Kinematic:
        return "kinematic";
    case BodyType::Dynamic:
        break;
    }
    return "dynamic";
}

// A joint with its bodies' names; its frame and impulses too, so that a saved world continues
// exactly (a scene written by hand needs neither).
Json jointJson(const JointDef& d, const Scene& scene) {
    Json j;
    j["name"] = d.name;
    j["type"] = std::string(toString(d.type));
    if (d.a) j["a"] = scene.bodies[*d.a].name;
    j["b"] = scene.bodies[d.b].name;
    if (d.type == JointType::Distance) {
        j["anchor_a"] = vec2(d.anchorA);
        j["anchor_b"] = vec2(d.anchorB);
    } else {
        j["anchor"] = vec2(d.anchor);
    }
    if (d.type == JointType::Prismatic) j["axis"] = vec2(d.axis);
    if (d.collide) j["collide"] = true;
    const bool angular = d.type == JointType::Revolute;
    auto put = [&](const char* key, std::optional<double> x) {
        if (x) j[key] = *x;
    };
    put("motor_speed", d.motorSpeed);
    put("max_motor_torque", d.maxMotorTorque);
    put("max_motor_force", d.maxMotorForce);
    put(angular ? "lower_angle" : "lower_translation", d.lower);
    put(angular ? "upper_angle" : "upper_translation", d.upper);
    put("length", d.length);
    put("min_length", d.minLength);
    put("max_length", d.maxLength);
    put("stiffness", d.stiffness);
    put("damping", d.damping);
    if (d.frame)
        j["frame"] = Json{{"local_a", vec2(d.frame->localA)},
                          {"local_b", vec2(d.frame->localB)},
                          {"reference_angle", d.frame->referenceAngle},
                          {"local_axis", vec2(d.frame->localAxis)}};
    const JointImpulses& i = d.impulses;
    if (!(i == JointImpulses{}))
        j["impulses"] =
            Json{{"linear", vec2(i.linear)}, {"angular", i.angular}, {"axial", i.axial},
                 {"motor", i.motor},         {"lower", i.lower},     {"upper", i.upper}};
    return j;
}

Json shapeJson(const Shape& shape) {
    Json j;
    switch (shape.type()) {
    case ShapeType::Circle:
        j["type"] = "circle";
        j["radius"] = shape.radius();
        break;
    case ShapeType::Box:
        j["type"] = "box";
        j["width"] = shape.width();
        j["height"] = shape.height();
        break;
    case ShapeType::Polygon:
        j["type"] = "polygon";
        j["vertices"] = Json::array();
        for (Vec2 v : shape.vertices())
            j["vertices"].push_back(vec2(v));
        break;
    case ShapeType::Capsule:
        j["type"] = "capsule";
        j["length"] = shape.length();
        j["radius"] = shape.radius();
        break;
    case ShapeType::Segment:
        j["type"] = "segment";
        j["a"] = vec2(shape.vertices()[0]);
        j["b"] = vec2(shape.vertices()[1]);
        break;
    }
    return j;
}

Json bodyJson(const BodyDef& d) {
    Json j;
    j["name"] = d.name;
    j["type"] = typeName(d.type);
    if (d.shapes.empty()) {
        j["shape"] = shapeJson(d.shape);
    } else {
        j["shapes"] = Json::array();
        for (const BodyShape& s : d.shapes) {
            Json shape = shapeJson(s.shape);
            shape["offset"] = vec2(s.offset);
            shape["angle"] = s.angle;
            j["shapes"].push_back(shape);
        }
    }
    j["position"] = vec2(d.position);
    j["angle"] = d.angle;
    j["velocity"] = vec2(d.velocity);
    j["angular_velocity"] = d.angularVelocity;
    if (d.mass) j["mass"] = *d.mass;
    if (d.density) j["density"] = *d.density;
    if (d.restitution) j["restitution"] = *d.restitution;
    if (d.friction) j["friction"] = *d.friction;
    if (d.group != 0) j["group"] = d.group;
    return j;
}

// The chain whose first link is bodies[first], its links the bodies after it with indices 1, 2,
// ...: the first link's body with the shape {"type": "chain", "points": ..., "loop": ...}, each
// link's first end a point, and an open chain's last link's second end the last point.
Json chainJson(const std::vector<BodyDef>& bodies, std::size_t first) {
    const ChainLink& chain = *bodies[first].chain;
    Json points = Json::array();
    std::size_t last = first;
    for (std::size_t i = first;
         i < bodies.size() && bodies[i].chain && bodies[i].chain->index == i - first; ++i) {
        points.push_back(vec2(bodies[i].shape.vertices()[0]));
        last = i;
    }
    if (!chain.loop) points.push_back(vec2(bodies[last].shape.vertices()[1]));
    Json j = bodyJson(bodies[first]);
    j["name"] = chain.chain;
    j["shape"] = Json{{"type", "chain"}, {"points", points}, {"loop", chain.loop}};
    return j;
}

Json softBodyJson(const SoftBodyDef& d) {
    Json j;
    j["name"] = d.name;
    j["type"] = "soft";
    j["particles"] = Json::array();
    for (const ParticleDef& p : d.particles)
        j["particles"].push_back(
            Json{{"position", vec2(p.position)}, {"velocity", vec2(p.velocity)}, {"mass", p.mass}});
    j["springs"] = Json::array();
    for (const SpringDef& s : d.springs) {
        Json spring{{"i", s.i}, {"j", s.j}};
        if (s.stiffness) spring["stiffness"] = *s.stiffness;
        if (s.damping) spring["damping"] = *s.damping;
        if (s.restLength) spring["rest_length"] = *s.restLength;
        j["springs"].push_back(spring);
    }
    j["boundary"] = d.boundary;
    if (d.closed) j["closed"] = *d.closed;
    j["stiffness"] = d.stiffness;
    j["damping"] = d.damping;
    if (d.restitution) j["restitution"] = *d.restitution;
    if (d.friction) j["friction"] = *d.friction;
    return j;
}

Json settingJson(const SettingInfo&, Vec2 v) {
    return vec2(v);
}
template <class T> Json settingJson(const SettingInfo& s, T value) {
    if constexpr (std::is_enum_v<T>)
        return s.choices.at(static_cast<std::size_t>(value)).name;
    else
        return value; // a number or a boolean
}

} // namespace

// A contact's shapes (a contact's, or where one was found), when a compound body's: "shape_a" and
// "shape_b", each written only when not 0 (a one-shape body's).
template <class Entry> void shapePairJson(const Entry& e, Json& j) {
    if (e.shapeA != 0) j["shape_a"] = e.shapeA;
    if (e.shapeB != 0) j["shape_b"] = e.shapeB;
}

// Extension: a contact with what the next step carries over from it (docs/scene-format.md).
Json contactJson(const Manifold& m) {
    Json points = Json::array();
    for (int i = 0; i < m.count; ++i) {
        const ContactPoint& cp = m.points[i];
        points.push_back(Json{{"point", vec2(cp.point)},
                              {"depth", cp.depth},
                              {"id", cp.id},
                              {"normal_impulse", cp.normalImpulse},
                              {"tangent_impulse", cp.tangentImpulse}});
    }
    Json j{{"a", m.a}, {"b", m.b}};
    shapePairJson(m, j);
    j["normal"] = vec2(m.normal);
    j["points"] = points;
    return j;
}

// Extension: where the narrow phase found a contact (docs/scene-format.md).
Json foundJson(const FoundAt& f) {
    Json points = Json::array();
    for (int i = 0; i < f.count; ++i)
        points.push_back(Json{{"id", f.id[i]}, {"on_a", vec2(f.onA[i])}, {"on_b", vec2(f.onB[i])}});
    Json j{{"a", f.a}, {"b", f.b}};
    shapePairJson(f, j);
    j["position"] = vec2(f.position);
    j["angle"] = f.angle;
    j["margin"] = f.margin;
    j["normal"] = vec2(f.normal);
    j["points"] = points;
    return j;
}

std::string serializeScene(const Scene& scene) {
    Json top;
    top["format"] = 1;
    top["name"] = scene.name;
    if (!scene.description.empty()) top["description"] = scene.description;
    // Every setting, in the table's order, in its group's object (extensions for some:
    // docs/scene-format.md).
    for (const SettingInfo& s : worldSettingsTable()) {
        Json& object = *s.group ? top[s.group] : top;
        std::visit([&](auto member) { object[s.name] = settingJson(s, scene.settings.*member); },
                   s.member);
    }
    if (scene.walls) {
        const Walls& w = *scene.walls;
        top["walls"] = Json{{"left", w.left},
                            {"right", w.right},
                            {"bottom", w.bottom},
                            {"top", w.top},
                            {"thickness", w.thickness}};
    }
    std::string out = "{\n";
    for (auto it = top.begin(); it != top.end(); ++it)
        out += "  " + Json(it.key()).dump() + ": " + inline_(*it) + ",\n";
    // The bodies in the scene's order, soft ones in their places (one line each, however long).
    std::vector<std::string> lines;
    std::size_t soft = 0;
    for (std::size_t i = 0; i <= scene.bodies.size(); ++i) {
        for (; soft < scene.softBodies.size() && softPlace(scene, soft) <= i; ++soft)
            lines.push_back(inline_(softBodyJson(scene.softBodies[soft])));
        if (i == scene.bodies.size()) continue;
        const std::optional<ChainLink>& link = scene.bodies[i].chain;
        if (!link)
            lines.push_back(inline_(bodyJson(scene.bodies[i])));
        else if (link->index == 0)
            lines.push_back(inline_(chainJson(scene.bodies, i)));
    }
    out += "  \"bodies\": [";
    for (std::size_t i = 0; i < lines.size(); ++i)
        out += std::string(i ? "," : "") + "\n    " + lines[i];
    out += lines.empty() ? "]" : "\n  ]";
    if (!scene.joints.empty()) {
        out += ",\n  \"joints\": [";
        for (std::size_t i = 0; i < scene.joints.size(); ++i)
            out +=
                std::string(i ? "," : "") + "\n    " + inline_(jointJson(scene.joints[i], scene));
        out += "\n  ]";
    }
    if (!scene.contacts.empty()) {
        out += ",\n  \"contacts\": [";
        for (std::size_t i = 0; i < scene.contacts.size(); ++i)
            out += std::string(i ? "," : "") + "\n    " + inline_(contactJson(scene.contacts[i]));
        out += "\n  ]";
    }
    if (!scene.found.empty()) {
        out += ",\n  \"found\": [";
        for (std::size_t i = 0; i < scene.found.size(); ++i)
            out += std::string(i ? "," : "") + "\n    " + inline_(foundJson(scene.found[i]));
        out += "\n  ]";
    }
    if (!(scene.exactBackoff == ExactBackoff{}))
        out += ",\n  \"exact_backoff\": {\"steps_left\": " +
               std::to_string(scene.exactBackoff.stepsLeft) +
               ", \"wait\": " + std::to_string(scene.exactBackoff.wait) + "}";
    return out + "\n}\n";
}

std::string sceneFileText(const Scene& scene, const std::string& path) {
    const std::string text = serializeScene(scene);
    // A scene that would not load back (a NaN, a bad value set in code) is not written at all.
    try {
        parseScene(text, path);
    } catch (const SceneError& e) {
        throw SceneError(std::string("cannot save a scene that would not load: ") + e.what());
    }
    return text;
}

void saveScene(const Scene& scene, const std::string& path) {
    const std::string text = sceneFileText(scene, path);
    try {
        OutputFile out(path);
        out.write(text);
        out.commit();
    } catch (const std::runtime_error& e) {
        throw SceneError(e.what());
    }
}

} // namespace carom
