// Recordings: world states and inputs to JSON lines and back (docs/recording-format.md), and the
// inputs applied to a world.
#include "carom/recording.h"
#include "carom/output_file.h"

#include "input_file.h"
#include "scene_json.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <type_traits>

namespace carom {

WorldState captureState(const World& world, const std::string& name,
                        const std::string& description) {
    return WorldState{captureScene(world, name, description), world.thrusters(),
                      world.mouseSpring(), world.time(), world.stepCount()};
}

World buildState(const WorldState& state) {
    World world = buildWorld(state.scene);
    for (const Thruster& t : state.thrusters) {
        const ThrusterId id = world.addThruster(t.body, t.localPoint, t.direction);
        world.setThrusterFiring(id, t.firing);
    }
    if (const auto& s = state.spring) {
        if (s->particle)
            world.setMouseSpringOnParticle(s->body, *s->particle, s->target, s->dampingRatio);
        else
            world.setMouseSpring(s->body, s->localAnchor, s->target, s->dampingRatio);
    }
    world.setClock(state.time, state.steps);
    return world;
}

namespace {

// The definition World::tuneJoint reads from a tuning input (its joint's type, fields as given).
JointDef definitionOf(const World& world, const input::JointTune& t) {
    if (t.joint >= world.joints().size())
        throw std::invalid_argument("joint " + std::to_string(t.joint) + ": no such joint");
    JointDef d;
    d.type = world.joints()[t.joint].type;
    d.motorSpeed = t.motorSpeed;
    (d.type == JointType::Revolute ? d.maxMotorTorque : d.maxMotorForce) = t.maxMotor;
    d.lower = t.lower;
    d.upper = t.upper;
    d.length = t.length;
    d.minLength = t.minLength;
    d.maxLength = t.maxLength;
    d.stiffness = t.stiffness;
    d.damping = t.damping;
    return d;
}

} // namespace

void applyInput(World& world, const Input& in) {
    std::visit(
        [&](const auto& i) {
            using T = std::decay_t<decltype(i)>;
            if constexpr (std::is_same_v<T, input::Replace>)
                world = buildState(*i.state);
            else if constexpr (std::is_same_v<T, input::Settings>)
                world.setSettings(i.settings);
            else if constexpr (std::is_same_v<T, input::SpringOn>) {
                if (i.particle)
                    world.setMouseSpringOnParticle(i.body, *i.particle, i.target, i.dampingRatio);
                else
                    world.setMouseSpring(i.body, i.anchor, i.target, i.dampingRatio);
            } else if constexpr (std::is_same_v<T, input::SpringTarget>)
                world.moveMouseSpring(i.target);
            else if constexpr (std::is_same_v<T, input::SpringOff>)
                world.clearMouseSpring();
            else if constexpr (std::is_same_v<T, input::Thrust>)
                world.setThrusterFiring(i.thruster, i.firing);
            else if constexpr (std::is_same_v<T, input::Pose>)
                world.setPosition(i.body, i.position, i.angle);
            else if constexpr (std::is_same_v<T, input::ParticlePosition>)
                world.setParticlePosition(i.body, i.particle, i.position);
            else if constexpr (std::is_same_v<T, input::Velocity>)
                world.setVelocity(i.body, i.velocity, i.angularVelocity);
            else if constexpr (std::is_same_v<T, input::Mass>)
                world.setMass(i.body, i.mass);
            else if constexpr (std::is_same_v<T, input::Restitution>)
                world.setRestitution(i.body, i.value);
            else if constexpr (std::is_same_v<T, input::Friction>)
                world.setFriction(i.body, i.value);
            else if constexpr (std::is_same_v<T, input::JointTune>)
                world.tuneJoint(i.joint, definitionOf(world, i));
            else if constexpr (std::is_same_v<T, input::AddBody>)
                addBodyBeforeWalls(world, i.def);
            else if constexpr (std::is_same_v<T, input::RemoveBody>)
                world.removeBody(i.body);
            else if constexpr (std::is_same_v<T, input::Pin>)
                setPinned(world, i.body, i.pinned);
            else
                addRope(world, i.a, i.b, i.anchorA, i.anchorB);
        },
        in);
}

namespace input {

JointTune tuningOf(const World& world, JointId joint) {
    const JointDef d = world.definitionOf(joint);
    const std::optional<double> maxMotor =
        d.type == JointType::Revolute ? d.maxMotorTorque : d.maxMotorForce;
    return JointTune{joint,    d.motorSpeed, maxMotor,    d.lower,     d.upper,
                     d.length, d.minLength,  d.maxLength, d.stiffness, d.damping};
}

} // namespace input

// ---- writing ----
namespace {

using Out = nlohmann::ordered_json;

Out vec2(Vec2 v) {
    return Out::array({v.x, v.y});
}

Out optional(std::optional<double> x) {
    return x ? Out(*x) : Out(nullptr);
}
Out optional(std::optional<std::size_t> x) {
    return x ? Out(*x) : Out(nullptr);
}

// A scene as an object of the line, in the scene file's own form (the scene writer's text).
Out sceneObject(const Scene& scene) {
    return Out::parse(serializeScene(scene));
}

Out inputObject(const Input& in) {
    return std::visit(
        [](const auto& i) -> Out {
            using T = std::decay_t<decltype(i)>;
            if constexpr (std::is_same_v<T, input::Replace>) {
                const WorldState& s = *i.state;
                Out thrusters = Out::array();
                for (const Thruster& t : s.thrusters)
                    thrusters.push_back(Out{{"body", t.body},
                                            {"point", vec2(t.localPoint)},
                                            {"direction", vec2(t.direction)},
                                            {"firing", t.firing}});
                Out spring = nullptr;
                if (s.spring)
                    spring = Out{{"body", s.spring->body},
                                 {"anchor", vec2(s.spring->localAnchor)},
                                 {"target", vec2(s.spring->target)},
                                 {"damping_ratio", optional(s.spring->dampingRatio)},
                                 {"particle", optional(s.spring->particle)}};
                return Out{{"do", "world"},    {"time", s.time},
                           {"steps", s.steps}, {"thrusters", thrusters},
                           {"spring", spring}, {"scene", sceneObject(s.scene)}};
            } else if constexpr (std::is_same_v<T, input::Settings>) {
                Scene only;
                only.settings = i.settings;
                return Out{{"do", "settings"}, {"settings", sceneObject(only)}};
            } else if constexpr (std::is_same_v<T, input::SpringOn>) {
                return Out{{"do", "spring"},
                           {"body", i.body},
                           {"anchor", vec2(i.anchor)},
                           {"target", vec2(i.target)},
                           {"damping_ratio", optional(i.dampingRatio)},
                           {"particle", optional(i.particle)}};
            } else if constexpr (std::is_same_v<T, input::SpringTarget>) {
                return Out{{"do", "spring_target"}, {"target", vec2(i.target)}};
            } else if constexpr (std::is_same_v<T, input::SpringOff>) {
                return Out{{"do", "spring_off"}};
            } else if constexpr (std::is_same_v<T, input::Thrust>) {
                return Out{{"do", "thruster"}, {"thruster", i.thruster}, {"firing", i.firing}};
            } else if constexpr (std::is_same_v<T, input::Pose>) {
                return Out{{"do", "pose"},
                           {"body", i.body},
                           {"position", vec2(i.position)},
                           {"angle", i.angle}};
            } else if constexpr (std::is_same_v<T, input::ParticlePosition>) {
                return Out{{"do", "particle_position"},
                           {"body", i.body},
                           {"particle", i.particle},
                           {"position", vec2(i.position)}};
            } else if constexpr (std::is_same_v<T, input::Velocity>) {
                return Out{{"do", "velocity"},
                           {"body", i.body},
                           {"velocity", vec2(i.velocity)},
                           {"angular_velocity", i.angularVelocity}};
            } else if constexpr (std::is_same_v<T, input::Mass>) {
                return Out{{"do", "mass"}, {"body", i.body}, {"mass", i.mass}};
            } else if constexpr (std::is_same_v<T, input::Restitution>) {
                return Out{{"do", "restitution"}, {"body", i.body}, {"value", optional(i.value)}};
            } else if constexpr (std::is_same_v<T, input::Friction>) {
                return Out{{"do", "friction"}, {"body", i.body}, {"value", optional(i.value)}};
            } else if constexpr (std::is_same_v<T, input::AddBody>) {
                Scene only;
                only.bodies.push_back(i.def);
                return Out{{"do", "add_body"}, {"scene", sceneObject(only)}};
            } else if constexpr (std::is_same_v<T, input::RemoveBody>) {
                return Out{{"do", "remove_body"}, {"body", i.body}};
            } else if constexpr (std::is_same_v<T, input::Pin>) {
                return Out{{"do", "pin"}, {"body", i.body}, {"pinned", i.pinned}};
            } else if constexpr (std::is_same_v<T, input::Rope>) {
                return Out{{"do", "rope"},
                           {"a", i.a},
                           {"b", i.b},
                           {"anchor_a", vec2(i.anchorA)},
                           {"anchor_b", vec2(i.anchorB)}};
            } else {
                return Out{{"do", "joint"},
                           {"joint", i.joint},
                           {"motor_speed", optional(i.motorSpeed)},
                           {"max_motor", optional(i.maxMotor)},
                           {"lower", optional(i.lower)},
                           {"upper", optional(i.upper)},
                           {"length", optional(i.length)},
                           {"min_length", optional(i.minLength)},
                           {"max_length", optional(i.maxLength)},
                           {"stiffness", optional(i.stiffness)},
                           {"damping", optional(i.damping)}};
            }
        },
        in);
}

} // namespace

RecordingWriter::RecordingWriter(const std::string& path)
    : path_(path), file_(createInPlace(path)) {
    line(Out{{"format", kRecordingFormat}, {"version", kRecordingVersion}}.dump());
}

RecordingWriter::~RecordingWriter() {
    if (file_) std::fclose(file_);
}

void RecordingWriter::line(const std::string& text) {
    if (!file_) return;
    if (std::fputs(text.c_str(), file_) < 0 || std::fputc('\n', file_) < 0 ||
        std::fflush(file_) != 0)
        throw std::runtime_error(path_ + ": cannot write: " + std::strerror(errno));
}

void RecordingWriter::write(std::uint64_t step, const Input& in) {
    Out line{{"at", step}};
    line.update(inputObject(in));
    this->line(line.dump());
}

void RecordingWriter::end(std::uint64_t step) {
    line(Out{{"at", step}, {"do", "end"}}.dump());
    std::fclose(file_);
    file_ = nullptr;
}

// ---- reading ----
namespace {

using namespace scene_json;

std::uint64_t toCount(const Json& v, const Where& where) {
    if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<long long>() >= 0))
        where.fail("must be a whole number >= 0, got " + describe(v));
    return v.get<std::uint64_t>();
}

// A step count ("at", "steps"): at most kMaxRecordedSteps, so that a replay of any recording
// read ends in its time, and the app's timeline can hold it.
std::uint64_t toStep(const Json& v, const Where& where) {
    const std::uint64_t n = toCount(v, where);
    if (n > kMaxRecordedSteps)
        where.fail("must be at most " + std::to_string(kMaxRecordedSteps) +
                   " steps (more than a session can have run), got " + std::to_string(n));
    return n;
}

std::size_t toId(const Json& j, const char* key, const Where& where) {
    return std::size_t(toCount(require(j, key, where), where.at(key)));
}

// An id that may be absent or null (a field added to version 1: older lines lack it).
std::optional<std::size_t> optionalId(const Json& j, const char* key, const Where& where) {
    if (!j.contains(key) || j.at(key).is_null()) return std::nullopt;
    return toId(j, key, where);
}

std::optional<double> toOptional(const Json& j, const char* key, const Where& where) {
    const Json& v = require(j, key, where);
    if (v.is_null()) return std::nullopt;
    return toFinite(v, where.at(key));
}

bool toBool(const Json& j, const char* key, const Where& where) {
    const Json& v = require(j, key, where);
    if (!v.is_boolean()) where.at(key).fail("must be true or false, got " + describe(v));
    return v.get<bool>();
}

Scene toScene(const Json& j, const char* key, const Where& where) {
    const Json& v = require(j, key, where);
    requireObject(v, where.at(key));
    return parseScene(v.dump(), where.file + ": /" + key);
}

std::shared_ptr<const WorldState> readState(const Json& j, const Where& w) {
    checkFields(j, w, {"at", "do", "time", "steps", "thrusters", "spring", "scene"});
    auto s = std::make_shared<WorldState>();
    s->scene = toScene(j, "scene", w);
    s->time = toFinite(require(j, "time", w), w.at("time"));
    s->steps = toStep(require(j, "steps", w), w.at("steps"));
    const Json& list = require(j, "thrusters", w);
    if (!list.is_array()) w.at("thrusters").fail("must be an array, got " + describe(list));
    for (std::size_t k = 0; k < list.size(); ++k) {
        const Where t = w.at("thrusters").at(k);
        requireObject(list[k], t);
        checkFields(list[k], t, {"body", "point", "direction", "firing"});
        s->thrusters.push_back(Thruster{toId(list[k], "body", t),
                                        toVec2(require(list[k], "point", t), t.at("point")),
                                        toVec2(require(list[k], "direction", t), t.at("direction")),
                                        toBool(list[k], "firing", t)});
    }
    const Json& spring = require(j, "spring", w);
    if (!spring.is_null()) {
        const Where sw = w.at("spring");
        requireObject(spring, sw);
        checkFields(spring, sw, {"body", "anchor", "target", "damping_ratio", "particle"});
        s->spring = MouseSpring{
            toId(spring, "body", sw), toVec2(require(spring, "anchor", sw), sw.at("anchor")),
            toVec2(require(spring, "target", sw), sw.at("target")),
            toOptional(spring, "damping_ratio", sw), optionalId(spring, "particle", sw)};
    }
    // The state must build (bodies and thrusters agree): checked here, where the line is known.
    try {
        buildState(*s);
    } catch (const std::exception& e) {
        w.fail(e.what());
    }
    return s;
}

// One line's input; what "end" means is the caller's.
Input readInput(const std::string& kind, const Json& j, const Where& w) {
    auto fields = [&](std::vector<std::string_view> names) {
        names.insert(names.begin(), {"at", "do"});
        checkFields(j, w, names);
    };
    auto vec = [&](const char* key) { return toVec2(require(j, key, w), w.at(key)); };
    auto num = [&](const char* key) { return toFinite(require(j, key, w), w.at(key)); };
    if (kind == "world") return input::Replace{readState(j, w)};
    if (kind == "settings") {
        fields({"settings"});
        return input::Settings{toScene(j, "settings", w).settings};
    }
    if (kind == "spring") {
        fields({"body", "anchor", "target", "damping_ratio", "particle"});
        return input::SpringOn{toId(j, "body", w), vec("anchor"), vec("target"),
                               toOptional(j, "damping_ratio", w), optionalId(j, "particle", w)};
    }
    if (kind == "particle_position") {
        fields({"body", "particle", "position"});
        return input::ParticlePosition{toId(j, "body", w), toId(j, "particle", w), vec("position")};
    }
    if (kind == "spring_target") {
        fields({"target"});
        return input::SpringTarget{vec("target")};
    }
    if (kind == "spring_off") {
        fields({});
        return input::SpringOff{};
    }
    if (kind == "thruster") {
        fields({"thruster", "firing"});
        return input::Thrust{toId(j, "thruster", w), toBool(j, "firing", w)};
    }
    if (kind == "pose") {
        fields({"body", "position", "angle"});
        return input::Pose{toId(j, "body", w), vec("position"), num("angle")};
    }
    if (kind == "velocity") {
        fields({"body", "velocity", "angular_velocity"});
        return input::Velocity{toId(j, "body", w), vec("velocity"), num("angular_velocity")};
    }
    if (kind == "mass") {
        fields({"body", "mass"});
        return input::Mass{toId(j, "body", w), num("mass")};
    }
    if (kind == "restitution") {
        fields({"body", "value"});
        return input::Restitution{toId(j, "body", w), toOptional(j, "value", w)};
    }
    if (kind == "friction") {
        fields({"body", "value"});
        return input::Friction{toId(j, "body", w), toOptional(j, "value", w)};
    }
    if (kind == "joint") {
        fields({"joint", "motor_speed", "max_motor", "lower", "upper", "length", "min_length",
                "max_length", "stiffness", "damping"});
        auto opt = [&](const char* key) { return toOptional(j, key, w); };
        return input::JointTune{toId(j, "joint", w), opt("motor_speed"), opt("max_motor"),
                                opt("lower"),        opt("upper"),       opt("length"),
                                opt("min_length"),   opt("max_length"),  opt("stiffness"),
                                opt("damping")};
    }
    if (kind == "add_body") {
        fields({"scene"});
        Scene only = toScene(j, "scene", w);
        if (only.bodies.size() != 1 || !only.softBodies.empty() || !only.joints.empty() ||
            only.walls)
            w.at("scene").fail("must hold one body and nothing else (no soft bodies, joints or "
                               "walls), got " +
                               std::to_string(only.bodies.size()) + " bodies");
        return input::AddBody{std::move(only.bodies[0])};
    }
    if (kind == "remove_body") {
        fields({"body"});
        return input::RemoveBody{toId(j, "body", w)};
    }
    if (kind == "pin") {
        fields({"body", "pinned"});
        return input::Pin{toId(j, "body", w), toBool(j, "pinned", w)};
    }
    if (kind == "rope") {
        fields({"a", "b", "anchor_a", "anchor_b"});
        return input::Rope{toId(j, "a", w), toId(j, "b", w), vec("anchor_a"), vec("anchor_b")};
    }
    w.at("do").fail("unknown input \"" + kind +
                    "\" (known: world, settings, spring, spring_target, spring_off, thruster, "
                    "pose, velocity, mass, restitution, friction, joint, add_body, remove_body, "
                    "pin, rope, end)");
}

// One line's JSON. Its errors say "RUN: line 7: column 12: bad JSON: ..." (the JSON reader
// counts lines within the line).
Json parseLine(const std::string& line, const std::string& where) {
    try {
        return parseText(line, where);
    } catch (const SceneError& e) {
        std::string message = e.what();
        const std::string within = where + ": line 1, column";
        if (message.rfind(within, 0) == 0)
            message = where + ": column" + message.substr(within.size());
        throw SceneError(message);
    }
}

void readHeader(const std::string& line, const std::string& name) {
    const std::string where = name + ": line 1";
    if (line.empty())
        throw RecordingError(where + ": empty: not a recording (expected {\"format\": \"" +
                             kRecordingFormat +
                             "\", \"version\": " + std::to_string(kRecordingVersion) + "})");
    try {
        const Json j = parseLine(line, where);
        const Where w{where, ""};
        requireObject(j, w);
        const Json& format = require(j, "format", w);
        if (format != kRecordingFormat)
            w.at("format").fail(std::string("not a recording: expected \"") + kRecordingFormat +
                                "\", got " + describe(format));
        const Json& version = require(j, "version", w);
        if (version != kRecordingVersion)
            w.at("version").fail("this Carom reads version " + std::to_string(kRecordingVersion) +
                                 ", got " + describe(version));
    } catch (const SceneError& e) {
        throw RecordingError(std::string(e.what()) + " (not a recording of carom --record?)");
    }
}

} // namespace

Recording parseRecording(const std::string& text, const std::string& name) {
    Recording r;
    // A line an input at most: room for them all at once, not twice that while the list grows.
    r.inputs.reserve(std::size_t(std::count(text.begin(), text.end(), '\n')));
    std::size_t begin = 0, number = 0;
    std::uint64_t lastStep = 0;
    while (begin < text.size() && !r.end) {
        const std::size_t newline = text.find('\n', begin);
        const bool cut = newline == std::string::npos; // a last line without its newline
        const std::string line = text.substr(begin, cut ? std::string::npos : newline - begin);
        begin = cut ? text.size() : newline + 1;
        ++number;
        if (number == 1) {
            readHeader(line, name);
            continue;
        }
        const std::string where = name + ": line " + std::to_string(number);
        try {
            if (cut)
                throw SceneError(where + ": cut short (no end of line): the recording stops here");
            const Json j = parseLine(line, where);
            const Where w{where, ""};
            requireObject(j, w);
            const std::uint64_t step = toStep(require(j, "at", w), w.at("at"));
            const std::string kind = toText(require(j, "do", w), w.at("do"));
            if (r.inputs.empty() && kind != "world")
                w.at("do").fail("the first input must be the world (\"world\"), got \"" + kind +
                                "\"");
            // Steps only go forward, except to a new world (it says its own clock).
            if (kind != "world" && step < lastStep)
                w.at("at").fail("step " + std::to_string(step) + " is before the last input's, " +
                                std::to_string(lastStep));
            if (kind == "end") {
                checkFields(j, w, {"at", "do"});
                r.end = step;
                lastStep = step;
                continue;
            }
            RecordedInput in{step, readInput(kind, j, w), number};
            if (const auto* replace = std::get_if<input::Replace>(&in.input)) {
                lastStep = replace->state->steps;
            } else {
                lastStep = step;
            }
            r.inputs.push_back(std::move(in));
        } catch (const SceneError& e) {
            if (r.inputs.empty()) throw RecordingError(e.what());
            r.damage = e.what();
            break;
        }
    }
    if (number == 0) readHeader("", name);
    if (r.inputs.empty())
        throw RecordingError(name + ": no world after the header: nothing to replay");
    if (r.damage.empty() && begin < text.size())
        r.damage = name + ": line " + std::to_string(number + 1) + ": more after the end line";
    return r;
}

Recording loadRecording(const std::string& path) {
    try {
        const std::string text = readInputFile(path);
        return namingOutOfMemory(path, [&] { return parseRecording(text, path); });
    } catch (const SceneError& e) {
        throw RecordingError(e.what());
    }
}

} // namespace carom
