// Recordings (docs/recording-format.md): a run as the world it started from and every input
// that changed the world, each at the step where it came. The step is deterministic, so applying
// the same inputs at the same steps gives the same bits: that is what a replay does.
#pragma once

#include "carom/build_edits.h"
#include "carom/scene.h"
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

namespace carom {

// A world's complete state: what a scene file holds (bodies, settings, the contacts with their
// warm-start impulses) and what it does not (the thrusters, the mouse spring, the clock).
// buildState(captureState(w)) steps on exactly as w does.
struct WorldState {
    Scene scene;
    std::vector<Thruster> thrusters;
    std::optional<MouseSpring> spring;
    double time = 0;
    std::uint64_t steps = 0;
};
WorldState captureState(const World& world, const std::string& name,
                        const std::string& description = "");
World buildState(const WorldState& state); // throws std::invalid_argument

// The inputs that change a world, one for each of World's setters that the app calls.
namespace input {
// A large value held behind a shared pointer, so that an Input (one a line of a recording, and a
// recording may hold millions of spring moves) stays as small as its small kinds (issue 46: a
// 308 MB recording took 2.5 GB in the app).
template <class T> class Held {
  public:
    Held(T value) : value_(std::make_shared<const T>(std::move(value))) {}
    operator const T&() const { return *value_; }
    const T& operator*() const { return *value_; }
    const T* operator->() const { return value_.get(); }

  private:
    std::shared_ptr<const T> value_;
};
struct Replace { // the start, a reset, a scene opened, a state gone back to
    std::shared_ptr<const WorldState> state;
};
struct Settings {
    Held<WorldSettings> settings;
};
struct SpringOn {
    BodyId body = 0; // a soft body's id when `particle` is set (the anchor is then unused)
    Vec2 anchor{0, 0}, target{0, 0};
    std::optional<double> dampingRatio;
    std::optional<std::size_t> particle; // the spring on a soft body's particle
};
struct SpringTarget {
    Vec2 target{0, 0};
};
struct SpringOff {};
struct Thrust {
    ThrusterId thruster = 0;
    bool firing = false;
};
struct Pose {
    BodyId body = 0;
    Vec2 position{0, 0};
    double angle = 0;
};
struct ParticlePosition { // a soft body's particle moved while paused
    SoftBodyId body = 0;
    std::size_t particle = 0;
    Vec2 position{0, 0};
};
struct Velocity {
    BodyId body = 0;
    Vec2 velocity{0, 0};
    double angularVelocity = 0;
};
struct Mass {
    BodyId body = 0;
    double mass = 1;
};
struct Restitution {
    BodyId body = 0;
    std::optional<double> value; // unset: the world's
};
struct Friction {
    BodyId body = 0;
    std::optional<double> value;
};
// What a joint does, changed in the inspector: every field World::tuneJoint reads, as the joint's
// type reads them (carom/joint.h; `maxMotor` is the torque or the force of its motor).
struct JointTune {
    JointId joint = 0;
    std::optional<double> motorSpeed, maxMotor, lower, upper;
    std::optional<double> length, minLength, maxLength, stiffness, damping;
};
// A joint's current tuning, as an input that sets it again.
JointTune tuningOf(const World& world, JointId joint);
// Build mode (carom/build_edits.h): a body drawn or pasted, one deleted, one pinned or freed, a
// rope between two bodies' points.
struct AddBody {
    Held<BodyDef> def;
};
struct RemoveBody {
    BodyId body = 0;
};
struct Pin {
    BodyId body = 0;
    bool pinned = true;
};
struct Rope {
    BodyId a = 0, b = 0;
    Vec2 anchorA{0, 0}, anchorB{0, 0}; // world
};
} // namespace input

using Input =
    std::variant<input::Replace, input::Settings, input::SpringOn, input::SpringTarget,
                 input::SpringOff, input::Thrust, input::Pose, input::ParticlePosition,
                 input::Velocity, input::Mass, input::Restitution, input::Friction,
                 input::JointTune, input::AddBody, input::RemoveBody, input::Pin, input::Rope>;

// Applies an input through World's setters, which check it: a bad one throws
// std::invalid_argument and leaves the world as it was. A Replace makes a new world.
void applyInput(World& world, const Input& input);

// An input and the world's step count when it came (applied before the step from there).
struct RecordedInput {
    std::uint64_t step = 0;
    Input input;
    std::size_t line = 0; // in the file it was read from
};

// A recording that cannot be replayed at all (no header, no start).
class RecordingError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

struct Recording {
    std::vector<RecordedInput> inputs; // the first is a Replace: the start
    // The step count at which the recording ended (its "end" line); unset when it was cut short.
    std::optional<std::uint64_t> end;
    // Empty, or why reading stopped early ("RUN: line 7: ..."): the inputs before it are kept.
    std::string damage;
};

// Reads a recording; a damaged line ends it there (Recording::damage says where and what). Throws
// RecordingError "RUN: line L: what" when the header or the start cannot be read.
Recording parseRecording(const std::string& text, const std::string& name);
Recording loadRecording(const std::string& path);

// Writes a recording as it goes, a line per input, flushed at once: what was written survives a
// crash. The file is written in place (not through a temporary: a crash must leave the inputs up
// to it), created anew, never through a symbolic link.
class RecordingWriter {
  public:
    explicit RecordingWriter(const std::string& path); // throws std::runtime_error
    ~RecordingWriter();
    RecordingWriter(const RecordingWriter&) = delete;
    RecordingWriter& operator=(const RecordingWriter&) = delete;

    void write(std::uint64_t step, const Input& input);
    void end(std::uint64_t step); // the last line; nothing is written after it
    const std::string& path() const { return path_; }

  private:
    std::string path_;
    std::FILE* file_ = nullptr;
    void line(const std::string& text);
};

constexpr const char* kRecordingFormat = "carom-recording";
constexpr int kRecordingVersion = 1;
// The largest step count a recording may hold ("at", a world's "steps"): a billion steps is 190
// days at 60 steps a second; a larger one (up to 2^64 - 1) would never finish replaying.
constexpr std::uint64_t kMaxRecordedSteps = 1000000000;

} // namespace carom
