// Scene files to Scenes (docs/scene-format.md): every field read with its default, and
// everything else refused with "FILE: /json/pointer: what is wrong".
#include "carom/scene.h"

#include "input_file.h"
#include "scene_json.h"
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <unordered_map>
#include <variant>

namespace carom {
namespace {

using namespace scene_json;

// ---- the world's settings, as their table says (carom/settings.h) ----

Vec2 readValue(const SettingInfo&, const Json& v, const Where& where, Vec2) {
    return toVec2(v, where);
}

double readValue(const SettingInfo& s, const Json& v, const Where& where, double) {
    const double x = toNumber(v, where);
    if (const auto rule = brokenRule(s, x)) where.fail("must be " + *rule + ", got " + describe(v));
    return x;
}

int readValue(const SettingInfo& s, const Json& v, const Where& where, int) {
    if (!v.is_number_integer() || brokenRule(s, double(v.get<long long>())))
        where.fail("must be " + rangeText(s) + ", got " + describe(v));
    return static_cast<int>(v.get<long long>());
}

bool readValue(const SettingInfo&, const Json& v, const Where& where, bool) {
    if (!v.is_boolean()) where.fail("must be true or false, got " + describe(v));
    return v.get<bool>();
}

template <class E> E readValue(const SettingInfo& s, const Json& v, const Where& where, E) {
    const std::string name = toText(v, where);
    std::string names;
    for (std::size_t i = 0; i < s.choices.size(); ++i) {
        if (name == s.choices[i].name) return static_cast<E>(i);
        names += std::string(i ? ", " : "") + "\"" + s.choices[i].name + "\"";
    }
    where.fail("must be one of " + names + ", got " + describe(v));
}

// A body's own restitution or friction accepts what the world's default does.
double readCoefficient(const char* name, const Json& v, const Where& where) {
    return readValue(setting(name), v, where, double{});
}

// A field of earlier versions, still read: "solver": {"simultaneous_collisions": true or false},
// now the top level's "collision_handling": "simultaneous" or "serial" (which wins if both are
// given).
constexpr const char* kOldSolverField = "simultaneous_collisions";

void readOldFields(const Json& doc, const Where& root, WorldSettings& settings) {
    const Json* solver = find(doc, "solver");
    const Json* old = solver ? find(*solver, kOldSolverField) : nullptr;
    if (!old || find(doc, "collision_handling")) return;
    if (!old->is_boolean())
        root.at("solver").at(kOldSolverField).fail("must be true or false, got " + describe(*old));
    settings.collisionHandling =
        old->get<bool>() ? CollisionHandling::Simultaneous : CollisionHandling::Serial;
}

// The fields of one object of the scene file that hold settings ("" for the top level).
std::vector<std::string_view> settingNames(std::string_view group) {
    std::vector<std::string_view> names;
    for (const SettingInfo& s : worldSettingsTable())
        if (s.group == group) names.push_back(s.name);
    if (group == "solver") names.push_back(kOldSolverField);
    return names;
}

// Every setting the file gives, in the table's order: the top level's, then each group's
// object (extensions, docs/scene-format.md), checked as a whole when first met.
void readSettings(const Json& doc, const Where& root, WorldSettings& settings) {
    std::string_view checked; // the last group whose object was checked
    for (const SettingInfo& s : worldSettingsTable()) {
        const Json* object = *s.group ? find(doc, s.group) : &doc;
        if (!object) continue;
        const Where where = *s.group ? root.at(s.group) : root;
        if (*s.group && checked != s.group) {
            requireObject(*object, where);
            checkFields(*object, where, settingNames(s.group));
            checked = s.group;
        }
        if (const Json* v = find(*object, s.name))
            std::visit(
                [&](auto member) {
                    settings.*member = readValue(s, *v, where.at(s.name), settings.*member);
                },
                s.member);
    }
    readOldFields(doc, root, settings);
}

// The top level's fields: the settings', their groups' and the scene's own.
std::vector<std::string_view> topLevelFields() {
    std::vector<std::string_view> names = {"format",   "name",   "description",
                                           "walls",    "bodies", "joints",
                                           "contacts", "found",  "exact_backoff"};
    for (const SettingInfo& s : worldSettingsTable()) {
        const std::string_view field = *s.group ? s.group : s.name;
        if (std::find(names.begin(), names.end(), field) == names.end()) names.push_back(field);
    }
    return names;
}

// ---- shapes ----

Shape readShape(const Json& j, const Where& where) {
    requireObject(j, where);
    const std::string type = toText(require(j, "type", where), where.at("type"));
    try {
        if (type == "circle") {
            checkFields(j, where, {"type", "radius"});
            return Shape::circle(positive(require(j, "radius", where), where.at("radius")));
        }
        if (type == "box") {
            checkFields(j, where, {"type", "width", "height"});
            const double w = positive(require(j, "width", where), where.at("width"));
            const double h = positive(require(j, "height", where), where.at("height"));
            return Shape::box(w, h);
        }
        if (type == "polygon") {
            checkFields(j, where, {"type", "vertices"});
            const Json& list = require(j, "vertices", where);
            const Where at = where.at("vertices");
            if (!list.is_array())
                at.fail("must be an array of [x, y] vertices, got " + describe(list));
            std::vector<Vec2> v;
            for (std::size_t i = 0; i < list.size(); ++i)
                v.push_back(toVec2(list[i], at.at(i)));
            return Shape::polygon(v); // its checks name the vertices: mapped below
        }
        if (type == "capsule") {
            checkFields(j, where, {"type", "length", "radius"});
            const double length = positive(require(j, "length", where), where.at("length"));
            const double radius = positive(require(j, "radius", where), where.at("radius"));
            return Shape::capsule(length, radius);
        }
        if (type == "segment") {
            checkFields(j, where, {"type", "a", "b"});
            const Vec2 a = toVec2(require(j, "a", where), where.at("a"));
            return Shape::segment(a, toVec2(require(j, "b", where), where.at("b")));
        }
    } catch (const std::invalid_argument& e) {
        // The engine's own check, "field: what" (e.g. "vertices: ..."): point at the field.
        const std::string message = e.what();
        const std::size_t colon = message.find(": ");
        if (colon == std::string::npos) where.fail(message);
        Where{where.file, where.pointer + "/" + message.substr(0, colon)}.fail(
            message.substr(colon + 2));
    }
    where.at("type").fail(
        "must be \"circle\", \"box\", \"polygon\", \"capsule\", \"segment\" or \"chain\", got " +
        describe(j.at("type")));
}

// A chain's points and whether it closes (docs/scene-format.md): 2 or more points, 3 or more for
// a loop; each link is checked by Shape::segment, its refusal naming the link's second point.
struct Chain {
    std::vector<Vec2> points;
    bool loop = false;
};
Chain readChain(const Json& j, const Where& where) {
    checkFields(j, where, {"type", "points", "loop"});
    Chain c;
    if (const Json* v = find(j, "loop")) {
        if (!v->is_boolean()) where.at("loop").fail("must be true or false, got " + describe(*v));
        c.loop = v->get<bool>();
    }
    const Json& list = require(j, "points", where);
    const Where at = where.at("points");
    const std::size_t least = c.loop ? 3 : 2;
    if (!list.is_array() || list.size() < least)
        at.fail("must be an array of " + std::to_string(least) + " or more [x, y] points" +
                (c.loop ? " (a loop)" : "") + ", got " + describe(list));
    for (std::size_t i = 0; i < list.size(); ++i)
        c.points.push_back(toVec2(list[i], at.at(i)));
    const std::size_t links = c.loop ? c.points.size() : c.points.size() - 1;
    for (std::size_t k = 0; k < links; ++k) {
        const std::size_t next = (k + 1) % c.points.size();
        try {
            Shape::segment(c.points[k], c.points[next]);
        } catch (const std::invalid_argument&) {
            at.at(next).fail("same point as point " + std::to_string(k) + " (a link of no length)");
        }
    }
    return c;
}

bool isChain(const Json& shape) {
    const Json* type = shape.is_object() ? find(shape, "type") : nullptr;
    return type && type->is_string() && type->get<std::string>() == "chain";
}

// A compound body's shapes (docs/scene-format.md): one or more circles, boxes, polygons or
// capsules, each with its `offset` ([x, y], default [0, 0]) and `angle` (rad, default 0) in the
// body's frame. A polygon's vertices are in its own frame, placed by them: moved to their
// centroid, the offset moves with them. Checked as compoundShapes will take them.
std::vector<BodyShape> readCompound(const Json& list, const Where& where) {
    if (!list.is_array() || list.empty())
        where.fail("must be an array of one or more shapes, got " + describe(list));
    std::vector<BodyShape> shapes;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const Where at = where.at(i);
        requireObject(list[i], at);
        if (isChain(list[i])) at.at("type").fail("a chain cannot be part of a compound body");
        Json own = list[i]; // the shape's own fields, without its placement
        own.erase("offset");
        own.erase("angle");
        const Shape shape = readShape(own, at);
        if (shape.type() == ShapeType::Segment)
            at.at("type").fail("a segment cannot be part of a compound body");
        const Json* offset = find(list[i], "offset");
        const Json* angle = find(list[i], "angle");
        const double turn = angle ? toNumber(*angle, at.at("angle")) : 0;
        const Vec2 place = offset ? toVec2(*offset, at.at("offset")) : Vec2{0, 0};
        shapes.emplace_back(shape, place + Rot(turn).apply(shape.centroidOffset()), turn);
    }
    try {
        compoundShapes(shapes); // "shapes/i/field: what"
    } catch (const std::invalid_argument& e) {
        const std::string message = e.what();
        const std::size_t colon = message.find(": ");
        Where{where.file, where.pointer + message.substr(6, colon - 6)}.fail(
            message.substr(colon + 2));
    }
    return shapes;
}

// ---- bodies ----

int toInteger(const Json& v, const Where& where, int lo, int hi);

BodyType readBodyType(const Json& j, const Where& where) {
    const std::string t = toText(j, where);
    if (t == "dynamic") return BodyType::Dynamic;
    if (t == "static") return BodyType::Static;
    if (t == "kinematic") return BodyType::Kinematic;
    where.fail("must be \"dynamic\", \"static\", \"kinematic\" or \"soft\", got " + describe(j));
}

// A dynamic body must end up with a usable mass and moment of inertia: a shape may be so small
// (radius 1e-200) that they come out 0, and the solver divides by them.
void checkMass(const BodyDef& d, const Where& where) {
    if (d.type != BodyType::Dynamic) return;
    const MassProperties mp =
        d.shapes.empty() ? d.shape.massProperties() : compoundShapes(d.shapes).mass;
    const double m = d.mass ? *d.mass : d.density.value_or(1.0) * mp.area;
    const double inertia = m * mp.inertiaPerMass;
    if (!std::isnormal(m) || !std::isnormal(inertia) || !std::isfinite(1 / m) ||
        !std::isfinite(1 / inertia))
        where.fail("mass " + number(m) + " kg and moment of inertia " + number(inertia) +
                   " kg m^2 must be finite and > 0 (is the shape too small or too large?)");
}

// A rigid body, or a chain's links (one static body per segment, named after the chain once the
// names are resolved), appended to `bodies`.
void readBody(const Json& j, const Where& where, std::vector<BodyDef>& bodies) {
    requireObject(j, where);
    checkFields(j, where,
                {"name", "type", "shape", "shapes", "position", "angle", "velocity",
                 "angular_velocity", "mass", "density", "restitution", "friction", "group"});
    BodyDef d;
    if (const Json* v = find(j, "name")) {
        d.name = toText(*v, where.at("name"));
        if (d.name.empty()) where.at("name").fail("must not be empty");
    }
    if (const Json* v = find(j, "type")) d.type = readBodyType(*v, where.at("type"));
    std::optional<Chain> chain;
    if (const Json* shapes = find(j, "shapes")) {
        if (find(j, "shape")) where.fail("give \"shape\" or \"shapes\", not both");
        d.shapes = readCompound(*shapes, where.at("shapes"));
    } else {
        const Json& shape = require(j, "shape", where);
        if (isChain(shape))
            chain = readChain(shape, where.at("shape"));
        else
            d.shape = readShape(shape, where.at("shape"));
    }
    if ((chain || (d.shapes.empty() && d.shape.type() == ShapeType::Segment)) &&
        d.type != BodyType::Static)
        where.at("type").fail(std::string("a ") + (chain ? "chain" : "segment") +
                              " is for static bodies only: must be \"static\"");
    d.position = toVec2(require(j, "position", where), where.at("position"));
    if (const Json* v = find(j, "angle")) d.angle = toNumber(*v, where.at("angle"));
    if (const Json* v = find(j, "velocity")) d.velocity = toVec2(*v, where.at("velocity"));
    if (const Json* v = find(j, "angular_velocity"))
        d.angularVelocity = toNumber(*v, where.at("angular_velocity"));
    const Json* mass = find(j, "mass");
    const Json* density = find(j, "density");
    if (mass && density) where.fail("give mass or density, not both");
    if (mass) d.mass = positive(*mass, where.at("mass"));
    if (density) d.density = positive(*density, where.at("density"));
    if (const Json* v = find(j, "restitution"))
        d.restitution = readCoefficient("restitution", *v, where.at("restitution"));
    if (const Json* v = find(j, "friction"))
        d.friction = readCoefficient("friction", *v, where.at("friction"));
    if (const Json* v = find(j, "group")) d.group = toInteger(*v, where.at("group"), 0, 1 << 30);
    checkMass(d, where);
    if (!chain) {
        bodies.push_back(std::move(d));
        return;
    }
    // Link k joins points k and k + 1; its neighbours lead from point k − 1 and on to point k + 2
    // (Shape::chainLink), round the loop or up to the ends of an open chain.
    const std::vector<Vec2>& p = chain->points;
    const std::size_t n = p.size();
    for (std::size_t k = 0; k < (chain->loop ? n : n - 1); ++k) {
        BodyDef link = d;
        const std::optional<Vec2> before =
            chain->loop || k > 0 ? std::optional<Vec2>(p[(k + n - 1) % n]) : std::nullopt;
        const std::optional<Vec2> after =
            chain->loop || k + 2 < n ? std::optional<Vec2>(p[(k + 2) % n]) : std::nullopt;
        link.shape = Shape::chainLink(p[k], p[(k + 1) % n], before, after);
        link.chain = ChainLink{d.name, k, chain->loop};
        bodies.push_back(std::move(link));
    }
}

// Names default to "body<i>" (i the body's index in the file); all must differ, rigid and soft,
// and with walls the walls' own names are taken. names: every body's, in file order.
void resolveNames(const std::vector<std::string*>& names, bool walls, const Where& bodies) {
    std::map<std::string, std::size_t> seen;
    if (walls)
        for (const char* wall : {"wall-left", "wall-right", "wall-bottom", "wall-top"})
            seen[wall] = static_cast<std::size_t>(-1);
    for (std::size_t i = 0; i < names.size(); ++i) {
        std::string& name = *names[i];
        if (name.empty()) name = "body" + std::to_string(i);
        auto [it, fresh] = seen.emplace(name, i);
        if (fresh) continue;
        const Where at = bodies.at(i).at("name");
        if (it->second == static_cast<std::size_t>(-1))
            at.fail("the name \"" + name + "\" belongs to one of the walls");
        at.fail("duplicate name \"" + name + "\" (also the name of " +
                bodies.at(it->second).pointer + ")");
    }
}

// ---- soft bodies ----

int toInteger(const Json& v, const Where& where, int lo, int hi) {
    if (!v.is_number_integer() || v.get<long long>() < lo || v.get<long long>() > hi)
        where.fail("must be a whole number in " + std::to_string(lo) + ".." + std::to_string(hi) +
                   ", got " + describe(v));
    return static_cast<int>(v.get<long long>());
}

const Json& requireArray(const Json& j, const char* key, const Where& where, const char* what) {
    const Json& list = require(j, key, where);
    if (!list.is_array())
        where.at(key).fail(std::string("must be an array of ") + what + ", got " + describe(list));
    return list;
}

double nonNegative(const Json& v, const Where& where) {
    const double x = toNumber(v, where);
    if (!(x >= 0)) where.fail("must be >= 0, got " + describe(v));
    return x;
}

// A particle index, checked against the particles by the engine (makeSoftBody).
std::size_t toIndex(const Json& v, const Where& where) {
    return static_cast<std::size_t>(toInteger(v, where, 0, int(kMaxParticles)));
}

// The convenience shapes (docs/scene-format.md): "grid" and "ring", expanded into particles,
// springs and a boundary.
void readGrid(const Json& j, const Where& where, SoftBodyDef& d) {
    requireObject(j, where);
    checkFields(j, where, {"position", "columns", "rows", "spacing", "mass", "velocity"});
    const Vec2 centre = toVec2(require(j, "position", where), where.at("position"));
    const int columns = toInteger(require(j, "columns", where), where.at("columns"), 1, 1000);
    const int rows = toInteger(require(j, "rows", where), where.at("rows"), 1, 1000);
    if (std::size_t(columns) * std::size_t(rows) > kMaxParticles)
        where.fail("columns × rows must be at most " + std::to_string(kMaxParticles));
    const double spacing = positive(require(j, "spacing", where), where.at("spacing"));
    const double mass = positive(require(j, "mass", where), where.at("mass"));
    const Json* v = find(j, "velocity");
    addGrid(d, centre, columns, rows, spacing, mass,
            v ? toVec2(*v, where.at("velocity")) : Vec2{0, 0});
}

void readRing(const Json& j, const Where& where, SoftBodyDef& d) {
    requireObject(j, where);
    checkFields(j, where, {"position", "radius", "count", "mass", "velocity"});
    const Vec2 centre = toVec2(require(j, "position", where), where.at("position"));
    const double radius = positive(require(j, "radius", where), where.at("radius"));
    const int count =
        toInteger(require(j, "count", where), where.at("count"), 3, int(kMaxBoundary));
    const double mass = positive(require(j, "mass", where), where.at("mass"));
    const Json* v = find(j, "velocity");
    addRing(d, centre, radius, count, mass, v ? toVec2(*v, where.at("velocity")) : Vec2{0, 0});
}

SoftBodyDef readSoftBody(const Json& j, const Where& where) {
    checkFields(j, where,
                {"name", "type", "particles", "springs", "boundary", "closed", "stiffness",
                 "damping", "restitution", "friction", "grid", "ring"});
    SoftBodyDef d;
    if (const Json* v = find(j, "name")) {
        d.name = toText(*v, where.at("name"));
        if (d.name.empty()) where.at("name").fail("must not be empty");
    }
    if (const Json* v = find(j, "stiffness")) d.stiffness = nonNegative(*v, where.at("stiffness"));
    if (const Json* v = find(j, "damping")) d.damping = nonNegative(*v, where.at("damping"));
    const Json* grid = find(j, "grid");
    const Json* ring = find(j, "ring");
    if (grid || ring) {
        for (const char* field : {"particles", "springs", "boundary", "closed"})
            if (find(j, field))
                where.at(field).fail(std::string("give \"") + field + "\" or \"" +
                                     (grid ? "grid" : "ring") + "\", not both");
        if (grid && ring) where.at("ring").fail("give \"grid\" or \"ring\", not both");
        if (grid) readGrid(*grid, where.at("grid"), d);
        if (ring) readRing(*ring, where.at("ring"), d);
    } else {
        const Json& particles = requireArray(j, "particles", where, "particles");
        if (particles.size() > kMaxParticles)
            where.at("particles").fail("more than " + std::to_string(kMaxParticles) + " particles");
        for (std::size_t i = 0; i < particles.size(); ++i) {
            const Where at = where.at("particles").at(i);
            const Json& p = particles[i];
            requireObject(p, at);
            checkFields(p, at, {"position", "velocity", "mass"});
            ParticleDef pd;
            pd.position = toVec2(require(p, "position", at), at.at("position"));
            if (const Json* v = find(p, "velocity")) pd.velocity = toVec2(*v, at.at("velocity"));
            pd.mass = positive(require(p, "mass", at), at.at("mass"));
            d.particles.push_back(pd);
        }
        if (find(j, "springs")) {
            const Json& springs = requireArray(j, "springs", where, "springs");
            if (springs.size() > kMaxSprings)
                where.at("springs").fail("more than " + std::to_string(kMaxSprings) + " springs");
            for (std::size_t i = 0; i < springs.size(); ++i) {
                const Where at = where.at("springs").at(i);
                const Json& s = springs[i];
                requireObject(s, at);
                checkFields(s, at, {"i", "j", "stiffness", "damping", "rest_length"});
                SpringDef sd;
                sd.i = toIndex(require(s, "i", at), at.at("i"));
                sd.j = toIndex(require(s, "j", at), at.at("j"));
                if (const Json* v = find(s, "stiffness"))
                    sd.stiffness = nonNegative(*v, at.at("stiffness"));
                if (const Json* v = find(s, "damping"))
                    sd.damping = nonNegative(*v, at.at("damping"));
                if (const Json* v = find(s, "rest_length"))
                    sd.restLength = nonNegative(*v, at.at("rest_length"));
                d.springs.push_back(sd);
            }
        }
        const Json& boundary = requireArray(j, "boundary", where, "particle indices");
        if (boundary.size() > kMaxBoundary)
            where.at("boundary").fail("more than " + std::to_string(kMaxBoundary) + " particles");
        for (std::size_t i = 0; i < boundary.size(); ++i)
            d.boundary.push_back(toIndex(boundary[i], where.at("boundary").at(i)));
        if (const Json* v = find(j, "closed")) {
            if (!v->is_boolean())
                where.at("closed").fail("must be true or false, got " + describe(*v));
            d.closed = v->get<bool>();
        }
    }
    if (const Json* v = find(j, "restitution"))
        d.restitution = readCoefficient("restitution", *v, where.at("restitution"));
    if (const Json* v = find(j, "friction"))
        d.friction = readCoefficient("friction", *v, where.at("friction"));
    // The engine's checks (indices in range, no spring to itself, a boundary that does not cross
    // itself) say "path: what" with the path inside the body: point at it.
    try {
        makeSoftBody(d);
    } catch (const std::invalid_argument& e) {
        const std::string message = e.what();
        const std::size_t colon = message.find(": ");
        if (colon == std::string::npos) where.fail(message);
        Where{where.file, where.pointer + "/" + message.substr(0, colon)}.fail(
            message.substr(colon + 2));
    }
    return d;
}

// ---- joints ----

JointType readJointType(const Json& j, const Where& where) {
    const std::string t = toText(j, where);
    for (JointType type :
         {JointType::Revolute, JointType::Distance, JointType::Weld, JointType::Prismatic})
        if (t == toString(type)) return type;
    where.fail("must be \"revolute\", \"distance\", \"weld\" or \"prismatic\", got " + describe(j));
}

// Each rigid body's index in s.bodies by its name.
using BodyIndex = std::unordered_map<std::string, BodyId>;

// A joint's body: the name of a rigid body of the scene, its index in s.bodies.
BodyId readJointBody(const Json& j, const Where& where, const Scene& s, const BodyIndex& index) {
    const std::string name = toText(j, where);
    if (const auto it = index.find(name); it != index.end()) return it->second;
    for (const SoftBodyDef& soft : s.softBodies)
        if (soft.name == name)
            where.fail("\"" + name + "\" is a soft body: joints join rigid bodies");
    where.fail("no rigid body named " + describe(j) +
               (s.walls ? " (for a wall, leave \"a\" out: the world holds the joint)" : ""));
}

std::optional<double> optionalNumber(const Json& j, const char* key, const Where& where) {
    if (const Json* v = find(j, key)) return toNumber(*v, where.at(key));
    return std::nullopt;
}

JointDef readJoint(const Json& j, const Where& where, const Scene& s, const BodyIndex& index) {
    requireObject(j, where);
    JointDef d;
    d.type = readJointType(require(j, "type", where), where.at("type"));
    std::vector<std::string_view> fields = {"name",    "type",  "a",       "b",
                                            "collide", "frame", "impulses"};
    switch (d.type) {
    case JointType::Revolute:
        fields.insert(fields.end(),
                      {"anchor", "motor_speed", "max_motor_torque", "lower_angle", "upper_angle"});
        break;
    case JointType::Distance:
        fields.insert(fields.end(), {"anchor_a", "anchor_b", "length", "min_length", "max_length",
                                     "stiffness", "damping"});
        break;
    case JointType::Weld:
        fields.push_back("anchor");
        break;
    case JointType::Prismatic:
        fields.insert(fields.end(), {"anchor", "axis", "motor_speed", "max_motor_force",
                                     "lower_translation", "upper_translation"});
        break;
    }
    checkFields(j, where, fields);
    if (const Json* v = find(j, "name")) {
        d.name = toText(*v, where.at("name"));
        if (d.name.empty()) where.at("name").fail("must not be empty");
    }
    if (const Json* v = find(j, "a")) d.a = readJointBody(*v, where.at("a"), s, index);
    d.b = readJointBody(require(j, "b", where), where.at("b"), s, index);
    if (const Json* v = find(j, "collide")) {
        if (!v->is_boolean())
            where.at("collide").fail("must be true or false, got " + describe(*v));
        d.collide = v->get<bool>();
    }
    if (d.type == JointType::Distance) {
        d.anchorA = toVec2(require(j, "anchor_a", where), where.at("anchor_a"));
        d.anchorB = toVec2(require(j, "anchor_b", where), where.at("anchor_b"));
    } else {
        d.anchor = toVec2(require(j, "anchor", where), where.at("anchor"));
    }
    if (const Json* v = find(j, "axis")) d.axis = toVec2(*v, where.at("axis"));
    d.motorSpeed = optionalNumber(j, "motor_speed", where);
    d.maxMotorTorque = optionalNumber(j, "max_motor_torque", where);
    d.maxMotorForce = optionalNumber(j, "max_motor_force", where);
    const bool angular = d.type == JointType::Revolute;
    d.lower = optionalNumber(j, angular ? "lower_angle" : "lower_translation", where);
    d.upper = optionalNumber(j, angular ? "upper_angle" : "upper_translation", where);
    d.length = optionalNumber(j, "length", where);
    d.minLength = optionalNumber(j, "min_length", where);
    d.maxLength = optionalNumber(j, "max_length", where);
    d.stiffness = optionalNumber(j, "stiffness", where);
    d.damping = optionalNumber(j, "damping", where);
    if (const Json* f = find(j, "frame")) {
        const Where at = where.at("frame");
        requireObject(*f, at);
        checkFields(*f, at, {"local_a", "local_b", "reference_angle", "local_axis"});
        JointFrame frame;
        frame.localA = toVec2(require(*f, "local_a", at), at.at("local_a"));
        frame.localB = toVec2(require(*f, "local_b", at), at.at("local_b"));
        frame.referenceAngle =
            toNumber(require(*f, "reference_angle", at), at.at("reference_angle"));
        if (const Json* v = find(*f, "local_axis"))
            frame.localAxis = toVec2(*v, at.at("local_axis"));
        d.frame = frame;
    }
    if (const Json* m = find(j, "impulses")) {
        const Where at = where.at("impulses");
        requireObject(*m, at);
        checkFields(*m, at, {"linear", "angular", "axial", "motor", "lower", "upper"});
        JointImpulses& i = d.impulses;
        if (const Json* v = find(*m, "linear")) i.linear = toVec2(*v, at.at("linear"));
        for (auto [key, x] : {std::pair{"angular", &i.angular}, std::pair{"axial", &i.axial},
                              std::pair{"motor", &i.motor}, std::pair{"lower", &i.lower},
                              std::pair{"upper", &i.upper}})
            if (const Json* v = find(*m, key)) *x = toNumber(*v, at.at(key));
    }
    return d;
}

// ---- the top level ----

Walls readWalls(const Json& j, const Where& where) {
    requireObject(j, where);
    checkFields(j, where, {"left", "right", "bottom", "top", "thickness"});
    Walls w;
    w.left = toNumber(require(j, "left", where), where.at("left"));
    w.right = toNumber(require(j, "right", where), where.at("right"));
    w.bottom = toNumber(require(j, "bottom", where), where.at("bottom"));
    w.top = toNumber(require(j, "top", where), where.at("top"));
    if (const Json* v = find(j, "thickness")) w.thickness = positive(*v, where.at("thickness"));
    if (!(w.right > w.left))
        where.at("right").fail("must be > left (" + number(w.left) + "), got " + number(w.right));
    if (!(w.top > w.bottom))
        where.at("top").fail("must be > bottom (" + number(w.bottom) + "), got " + number(w.top));
    return w;
}

int readFormat(const Json& j, const Where& where) {
    if (!j.is_number_integer() || j.get<long long>() != 1)
        where.fail("must be 1 (the only version there is), got " + describe(j));
    return 1;
}

// A saved contact's bodies (a contact's, or where one was found): "a" and "b", checked against
// the scene's by checkPair, and a compound body's shapes "shape_a" and "shape_b" (default 0),
// checked against the bodies' by buildWorld.
template <class Entry> void readPair(const Json& j, const Where& where, Entry& e) {
    e.a = static_cast<BodyId>(toInteger(require(j, "a", where), where.at("a"), 0, 1 << 30));
    e.b = static_cast<BodyId>(toInteger(require(j, "b", where), where.at("b"), 0, 1 << 30));
    if (const Json* v = find(j, "shape_a"))
        e.shapeA = static_cast<std::uint32_t>(toInteger(*v, where.at("shape_a"), 0, 1 << 30));
    if (const Json* v = find(j, "shape_b"))
        e.shapeB = static_cast<std::uint32_t>(toInteger(*v, where.at("shape_b"), 0, 1 << 30));
}

// A saved contact point's feature id: a whole number >= 0.
std::uint32_t readFeatureId(const Json& p, const Where& w) {
    return static_cast<std::uint32_t>(
        toInteger(require(p, "id", w), w.at("id"), 0, std::numeric_limits<int>::max()));
}

// A saved contact's points (a contact's, or where one was found): an array of one or two.
const Json& readPoints(const Json& j, const Where& where) {
    const Json& points = require(j, "points", where);
    if (!points.is_array() || points.empty() || points.size() > 2)
        where.at("points").fail("must be an array of 1 or 2 points, got " + describe(points));
    return points;
}

// A saved contact's pair (a contact's, or where one was found): body ids a < b, the rigid bodies
// in file order, then the four walls (buildWorld).
template <class Entry> void checkPair(const Scene& s, const Entry& e, const Where& where) {
    const std::size_t ids = s.bodies.size() + (s.walls ? 4 : 0);
    if (e.b >= ids || e.a >= e.b)
        where.at("b").fail("must be a body id with a < b < " + std::to_string(ids) +
                           ", got a = " + std::to_string(e.a) + ", b = " + std::to_string(e.b));
}

// Extension: where the narrow phase found a saved world's contacts; buildWorld checks the pairs
// against the bodies, and keeps a record only where the narrow phase finds it again.
FoundAt readFound(const Json& j, const Where& where) {
    requireObject(j, where);
    checkFields(
        j, where,
        {"a", "b", "shape_a", "shape_b", "position", "angle", "margin", "normal", "points"});
    FoundAt f;
    readPair(j, where, f);
    f.position = toVec2(require(j, "position", where), where.at("position"));
    f.angle = toNumber(require(j, "angle", where), where.at("angle"));
    f.margin = toNumber(require(j, "margin", where), where.at("margin"));
    f.normal = toVec2(require(j, "normal", where), where.at("normal"));
    const Where at = where.at("points");
    const Json& points = readPoints(j, where);
    f.count = static_cast<int>(points.size());
    for (int i = 0; i < f.count; ++i) {
        const Json& p = points[i];
        const Where w = at.at(i);
        requireObject(p, w);
        checkFields(p, w, {"id", "on_a", "on_b"});
        f.id[i] = readFeatureId(p, w);
        f.onA[i] = toVec2(require(p, "on_a", w), w.at("on_a"));
        f.onB[i] = toVec2(require(p, "on_b", w), w.at("on_b"));
    }
    return f;
}

// Extension: a saved world's contacts; buildWorld checks the pairs against the bodies.
Manifold readContact(const Json& j, const Where& where) {
    requireObject(j, where);
    checkFields(j, where, {"a", "b", "shape_a", "shape_b", "normal", "points"});
    Manifold m;
    readPair(j, where, m);
    m.normal = toVec2(require(j, "normal", where), where.at("normal"));
    const Where at = where.at("points");
    const Json& points = readPoints(j, where);
    m.count = static_cast<int>(points.size());
    for (int i = 0; i < m.count; ++i) {
        const Json& p = points[i];
        const Where w = at.at(i);
        requireObject(p, w);
        checkFields(p, w, {"point", "depth", "id", "normal_impulse", "tangent_impulse"});
        ContactPoint& cp = m.points[i];
        cp.point = toVec2(require(p, "point", w), w.at("point"));
        cp.depth = toNumber(require(p, "depth", w), w.at("depth"));
        cp.id = readFeatureId(p, w);
        // Impulses are the solver's state, not inputs: any finite size (a 1e12 kg body resting
        // on the ground carries more than 1e12 N·s).
        cp.normalImpulse = toFinite(require(p, "normal_impulse", w), w.at("normal_impulse"));
        if (cp.normalImpulse < 0)
            w.at("normal_impulse").fail("must be >= 0, got " + describe(p["normal_impulse"]));
        cp.tangentImpulse = toFinite(require(p, "tangent_impulse", w), w.at("tangent_impulse"));
    }
    return m;
}

} // namespace

Scene parseScene(const std::string& jsonText, const std::string& fileName) {
    const Json doc = parseText(jsonText, fileName);
    const Where root{fileName, ""};
    requireObject(doc, root);
    checkFields(doc, root, topLevelFields());
    readFormat(require(doc, "format", root), root.at("format"));
    Scene s;
    if (const Json* v = find(doc, "name")) s.name = toText(*v, root.at("name"));
    if (const Json* v = find(doc, "description"))
        s.description = toText(*v, root.at("description"));
    readSettings(doc, root, s.settings);
    if (const Json* v = find(doc, "walls")) s.walls = readWalls(*v, root.at("walls"));
    const Where bodies = root.at("bodies");
    if (const Json* list = find(doc, "bodies")) {
        if (!list->is_array()) bodies.fail("must be an array of bodies, got " + describe(*list));
        // Each body's index in the file; a rigid one's first body in s.bodies (a chain has one
        // per link).
        std::vector<std::size_t> rigidAt, firstOf, softAt;
        for (std::size_t i = 0; i < list->size(); ++i) {
            const Json& j = (*list)[i];
            const Json* type = j.is_object() ? find(j, "type") : nullptr;
            if (type && type->is_string() && type->get<std::string>() == "soft") {
                s.softBodies.push_back(readSoftBody(j, bodies.at(i)));
                s.softPlaces.push_back(s.bodies.size());
                softAt.push_back(i);
            } else {
                firstOf.push_back(s.bodies.size());
                readBody(j, bodies.at(i), s.bodies);
                rigidAt.push_back(i);
            }
        }
        // Every name in file order, so that a duplicate is reported at its second place; a
        // chain's, then its links' after it.
        std::vector<std::string*> names(list->size());
        for (std::size_t k = 0; k < rigidAt.size(); ++k)
            names[rigidAt[k]] = &s.bodies[firstOf[k]].name;
        for (std::size_t k = 0; k < s.softBodies.size(); ++k)
            names[softAt[k]] = &s.softBodies[k].name;
        resolveNames(names, s.walls.has_value(), bodies);
        for (std::size_t k = 0; k < rigidAt.size(); ++k) {
            const std::size_t end = k + 1 < firstOf.size() ? firstOf[k + 1] : s.bodies.size();
            const std::string chain = s.bodies[firstOf[k]].name;
            for (std::size_t b = firstOf[k]; b < end; ++b)
                if (s.bodies[b].chain) {
                    s.bodies[b].chain->chain = chain;
                    s.bodies[b].name = chain + "/" + std::to_string(s.bodies[b].chain->index);
                }
        }
    }
    if (const Json* list = find(doc, "joints")) {
        const Where joints = root.at("joints");
        if (!list->is_array()) joints.fail("must be an array of joints, got " + describe(*list));
        BodyIndex index;
        for (std::size_t i = 0; i < s.bodies.size(); ++i)
            index.emplace(s.bodies[i].name, i);
        for (std::size_t i = 0; i < list->size(); ++i)
            s.joints.push_back(readJoint((*list)[i], joints.at(i), s, index));
    }
    if (const Json* list = find(doc, "contacts")) {
        const Where contacts = root.at("contacts");
        if (!list->is_array())
            contacts.fail("must be an array of contacts, got " + describe(*list));
        for (std::size_t i = 0; i < list->size(); ++i) {
            s.contacts.push_back(readContact((*list)[i], contacts.at(i)));
            checkPair(s, s.contacts.back(), contacts.at(i));
        }
    }
    if (const Json* list = find(doc, "found")) {
        const Where found = root.at("found");
        if (!list->is_array())
            found.fail("must be an array of contacts found, got " + describe(*list));
        for (std::size_t i = 0; i < list->size(); ++i) {
            s.found.push_back(readFound((*list)[i], found.at(i)));
            checkPair(s, s.found.back(), found.at(i));
        }
    }
    if (const Json* backoff = find(doc, "exact_backoff")) {
        const Where at = root.at("exact_backoff");
        requireObject(*backoff, at);
        checkFields(*backoff, at, {"steps_left", "wait"});
        s.exactBackoff.stepsLeft = static_cast<int>(
            toInteger(require(*backoff, "steps_left", at), at.at("steps_left"), 0, kMaxBackoff));
        s.exactBackoff.wait = static_cast<int>(
            toInteger(require(*backoff, "wait", at), at.at("wait"), 1, kMaxBackoff));
    }
    // Everything the engine checks has been checked above; build once to be sure that a scene
    // that loads is a scene that runs.
    try {
        buildWorld(s);
    } catch (const std::invalid_argument& e) {
        root.fail(e.what());
    }
    return s;
}

Scene loadScene(const std::string& path) {
    const std::string text = readInputFile(path);
    return namingOutOfMemory(path, [&] { return parseScene(text, path); });
}

} // namespace carom
