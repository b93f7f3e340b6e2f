// Building, resetting and replacing the simulated world; the keyboard thrusters of the blocks.
#include "session.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace app {
namespace {

// Half extents of a shape in its own frame: where the thrusters sit, on its surface.
carom::Vec2 halfExtents(const carom::Shape& shape) {
    switch (shape.type()) {
    case carom::ShapeType::Circle:
        return {shape.radius(), shape.radius()};
    case carom::ShapeType::Box:
        return {shape.width() / 2, shape.height() / 2};
    case carom::ShapeType::Capsule:
        return {shape.length() / 2 + shape.radius(), shape.radius()};
    case carom::ShapeType::Polygon:
    case carom::ShapeType::Segment:
        break;
    }
    carom::Vec2 e{0, 0};
    for (carom::Vec2 v : shape.vertices())
        e = glm::max(e, glm::abs(v));
    return e;
}

constexpr const char* kBlockNames[2] = {"block1", "block2"};

void addThrusters(Session& s) {
    for (int k = 0; k < 2; ++k) {
        BlockThrusters& t = s.thrusters[k];
        t.body = s.world.findBody(kBlockNames[k]);
        // Thrusters sit on the surface of one shape about the centre of mass: none on a compound.
        if (!t.body || !s.world.body(*t.body).isDynamic() || s.world.body(*t.body).isCompound()) {
            t.body.reset();
            continue;
        }
        // Up and down push along the long axis from the ends; the side pairs sit at 80% of the
        // half height, on the side opposite to their push (a flame shows where it burns).
        const carom::Shape& shape = carom::soleShape(s.world.body(*t.body));
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

// The recording gets the world as it is now: the start, a rebuild, a path taken anew. `at`: the
// step the world it replaces had reached.
void recordWorld(Session& s, std::uint64_t at) {
    if (s.recorder)
        s.recorder->write(at,
                          carom::input::Replace{std::make_shared<carom::WorldState>(stateNow(s))});
}

// Takes a freshly built world: thrusters, a clean stepper, the energy reference, a new history.
// The caller records it (recordWorld) once it is complete.
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
    if (s.historyOn) s.history.start(s.world);
}

} // namespace

void relinkThrusters(Session& s) {
    for (int k = 0; k < 2; ++k) {
        BlockThrusters& t = s.thrusters[k];
        t.body = s.world.findBody(kBlockNames[k]);
        std::size_t slot = 0; // addThrusters made the six in the slots' order
        for (carom::ThrusterId id = 0; t.body && id < s.world.thrusters().size(); ++id)
            if (s.world.thrusters()[id].body == *t.body && slot < SlotCount) t.ids[slot++] = id;
        if (slot != SlotCount) t.body.reset();
    }
}

void rebuild(Session& s, bool keepSettings) {
    carom::World world = carom::buildWorld(s.scene);
    if (keepSettings) world.setSettings(s.world.settings());
    const std::uint64_t at = s.world.stepCount();
    adopt(s, std::move(world));
    recordWorld(s, at);
    s.replaying = false;
}

carom::Scene sceneNow(const Session& s) {
    return carom::captureScene(s.world, s.scene.name, s.scene.description);
}
carom::WorldState stateNow(const Session& s) {
    return carom::captureState(s.world, s.scene.name, s.scene.description);
}

void replaceScene(Session& s, carom::Scene scene, std::string path) {
    carom::World world = carom::buildWorld(scene); // throws before anything changes
    s.scene = std::move(scene);
    s.path = std::move(path);
    const std::uint64_t at = s.world.stepCount();
    adopt(s, std::move(world));
    s.undoStates.clear(); // another scene: the edits were another's
    s.redoStates.clear();
    recordWorld(s, at);
    s.resetNote.clear();
    s.replaying = false;
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

void dropOwnCoefficients(Session& s, Coefficient c) {
    for (carom::BodyId i = 0; i < s.world.bodies().size(); ++i) {
        const carom::Body& b = s.world.body(i);
        if (c == Coefficient::Restitution && b.restitution)
            apply(s, carom::input::Restitution{i, std::nullopt});
        else if (c == Coefficient::Friction && b.friction)
            apply(s, carom::input::Friction{i, std::nullopt});
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
    ++s.jumps;
    divert(s);
    return false;
}

void divert(Session& s) {
    if (s.historyOn) {
        if (s.history.atEnd(s.world) && s.world.stepCount() == s.history.last()) return;
        s.history.truncate(s.world);
    }
    if (s.world.mouseSpring() && !s.springHeld) { // in the world line recorded below
        carom::applyInput(s.world, carom::input::SpringOff{});
        if (s.historyOn) s.history.log(s.world, carom::input::SpringOff{});
    }
    s.pending.clear(); // a replay's later worlds belonged to the path left
    s.replaying = false;
    // A set-back can leave an older good state on the path left: this one is good and on the new.
    if (s.lastGood.stepCount() > s.world.stepCount()) s.lastGood = s.world;
    recordWorld(s, s.world.stepCount());
}

void apply(Session& s, const carom::Input& input) {
    if (s.historyOn && !s.history.atEnd(s.world)) divert(s);
    carom::applyInput(s.world, input);
    if (s.historyOn) s.history.log(s.world, input);
    if (s.recorder) s.recorder->write(s.world.stepCount(), input);
}

void stepSession(Session& s) {
    // The physics on every core the drawing leaves (the same bits on any number of threads).
    static const int threads = std::max(1, carom::World::cores() - 1);
    s.world.setThreads(threads);
    if (s.historyOn && !s.history.atEnd(s.world)) {
        s.history.stepAlong(s.world);
        return;
    }
    s.world.step();
    if (s.historyOn) s.history.stepped(s.world);
}

void seek(Session& s, std::uint64_t n, const std::function<void(const carom::World&)>& eachStep) {
    if (!s.historyOn || s.history.empty()) return;
    s.history.seek(s.world, n, eachStep);
    relinkThrusters(s); // the moment may be before or after a build edit
    s.stepper.paused = true;
    s.stepper.jumped();
    ++s.jumps;
}

namespace {

// Adopts a recorded world: the scene's bodies with the thrusters this app makes, then the
// recorded firing, spring and clock. A recording whose thrusters are others (not made by this
// app: carom-cli replays any that its reader accepts, and so does the app) keeps its own, which
// the keys do not fire.
void adoptState(Session& s, const carom::WorldState& state) {
    carom::World world = carom::buildWorld(state.scene);
    s.scene = state.scene;
    const std::uint64_t at = s.world.stepCount();
    adopt(s, std::move(world));
    s.undoStates.clear();
    s.redoStates.clear();
    const auto& made = s.world.thrusters();
    bool same = made.size() == state.thrusters.size();
    for (std::size_t i = 0; same && i < made.size(); ++i)
        same = made[i].body == state.thrusters[i].body &&
               made[i].localPoint == state.thrusters[i].localPoint &&
               made[i].direction == state.thrusters[i].direction;
    if (!same) {
        carom::World own = carom::buildWorld(state.scene);
        for (const carom::Thruster& t : state.thrusters)
            own.addThruster(t.body, t.localPoint, t.direction);
        s.world = std::move(own);
        for (BlockThrusters& t : s.thrusters)
            t.body.reset();
    }
    for (std::size_t i = 0; i < state.thrusters.size(); ++i)
        s.world.setThrusterFiring(i, state.thrusters[i].firing);
    if (const auto& sp = state.spring)
        s.world.setMouseSpring(sp->body, sp->localAnchor, sp->target, sp->dampingRatio);
    s.world.setClock(state.time, state.steps);
    s.lastGood = s.world;
    if (s.historyOn) s.history.start(s.world);
    recordWorld(s, at);
}

// The history of the world begun last: its inputs, up to the next world's (left in s.pending),
// and its end: the next world's "at" (the step the app left this world at), or the recording's.
// Appended to the history's inputs when the world line was a branch (takeBranch).
void loadSegment(Session& s, bool branch = false) {
    const auto next = std::find_if(s.pending.begin(), s.pending.end(), [](const auto& in) {
        return std::holds_alternative<carom::input::Replace>(in.input);
    });
    std::vector<carom::RecordedInput> inputs;
    if (next == s.pending.end()) {
        inputs = std::move(s.pending); // the rest of the recording, as it is
        s.pending.clear();
    } else {
        inputs.assign(std::make_move_iterator(s.pending.begin()), std::make_move_iterator(next));
        s.pending.erase(s.pending.begin(), next);
    }
    const std::uint64_t end = s.pending.empty() ? s.recordingEnd : s.pending.front().step;
    if (branch)
        s.history.extend(s.world, std::move(inputs), std::max(end, s.world.stepCount()));
    else
        s.history.load(s.world, std::move(inputs), std::max(end, s.world.stepCount()));
}

// A world line that takes the replay back to a moment of its own timeline: the recorded session
// went back there and took another path (divert). The timeline keeps what came before that
// moment, as the session's did, and goes on from it, the world line an input there like any
// other. Known by its step within the timeline and its scene, bit for bit the timeline's at that
// step; a scene opened, a reset or a state loaded begins a new timeline instead.
bool takeBranch(Session& s, const carom::RecordedInput& line) {
    const carom::WorldState& state = *std::get<carom::input::Replace>(line.input).state;
    if (!s.historyOn || state.steps <= s.history.first() || state.steps > s.history.last())
        return false;
    carom::World then = s.world;
    s.history.seek(then, state.steps);
    if (carom::serializeScene(carom::captureScene(
            then, state.scene.name, state.scene.description)) != carom::serializeScene(state.scene))
        return false;
    s.world = std::move(then);
    s.history.truncate(s.world);
    carom::applyInput(s.world, line.input);
    s.history.log(s.world, line.input);
    relinkThrusters(s);
    s.lastGood = s.world;
    s.stepper.jumped(); // no motion drawn between the moment left and this one
    loadSegment(s, true);
    return true;
}

} // namespace

void openRecording(Session& s, carom::Recording rec, const std::string& path) {
    s.recordingEnd = rec.end.value_or(rec.inputs.back().step);
    const carom::RecordedInput first = std::move(rec.inputs.front());
    s.pending = std::move(rec.inputs);
    s.pending.erase(s.pending.begin());
    adoptState(s, *std::get<carom::input::Replace>(first.input).state);
    s.path = path;
    s.replaying = true;
    loadSegment(s);
}

bool followRecording(Session& s) {
    if (!s.history.refused().empty()) { // the rest of the recording cannot be played
        std::fprintf(stderr, "warning: %s: %s; replayed up to there\n", s.path.c_str(),
                     s.history.refused().c_str());
        s.history.clearRefused();
        s.pending.clear();
    }
    if (s.pending.empty() || !s.historyOn || !s.history.atEnd(s.world)) return false;
    const carom::RecordedInput next = std::move(s.pending.front());
    s.pending.erase(s.pending.begin());
    try {
        if (takeBranch(s, next)) return true;
        adoptState(s, *std::get<carom::input::Replace>(next.input).state);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "warning: %s: line %zu: %s; replayed up to there\n", s.path.c_str(),
                     next.line, e.what());
        s.pending.clear();
        return false;
    }
    loadSegment(s);
    return true;
}

void finishRecording(Session& s) {
    if (!s.recorder) return;
    if (s.historyOn && s.world.stepCount() != s.history.last()) recordWorld(s, s.world.stepCount());
    s.recorder->end(s.world.stepCount());
}

} // namespace app
