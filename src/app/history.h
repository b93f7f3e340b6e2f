// The history of the running world, for the timeline, stepping back and replays: keyframes (whole
// copies of the world) every so often and every input since the history began, each at its step.
// A moment is brought back by copying the nearest earlier keyframe and stepping on from it with
// the inputs re-applied at their steps; the step is deterministic, so this gives the same bits
// the world had. No SDL or ImGui here (tests/history_test.cpp).
#pragma once

#include "carom/recording.h"
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace app {

class History {
  public:
    // Keyframes every kKeyframeSeconds of simulated time, or further apart for a large world, so
    // that they take at most kBytesPerSecond of memory a simulated second, as long as going from
    // one to the next takes at most kReplaySeconds of stepping (stepSeconds: the app's measured
    // wall time of a step; 0 before it is known). Past budgetBytes every other keyframe is
    // dropped (the spacing doubles: more re-simulation, the same span).
    static constexpr double kKeyframeSeconds = 1.0;
    static constexpr double kBytesPerSecond = 64 * 1024;
    static constexpr double kReplaySeconds = 0.25;
    std::size_t budgetBytes = std::size_t(256) << 20;
    double stepSeconds = 0;

    // A new history that begins with this world (a scene opened, a reset): the old one is dropped.
    void start(const carom::World& world);
    // Future inputs of a recording (carom --replay), to step along: each step in [first, end].
    // Those at the world's step (the history's start) are applied to it now.
    void load(carom::World& world, std::vector<carom::RecordedInput> inputs, std::uint64_t end);
    // The same after the inputs the history has (a replay's branch taken at its end: the world's
    // step): the new ones follow them.
    void extend(carom::World& world, std::vector<carom::RecordedInput> inputs, std::uint64_t end);
    bool empty() const { return keys_.empty(); }

    std::uint64_t first() const { return keys_.empty() ? 0 : keys_.front().step; }
    std::uint64_t last() const { return last_; }
    // Whether the world is at the history's latest moment (where new steps and inputs go).
    bool atEnd(const carom::World& world) const { return world.stepCount() >= last_; }

    // An input just applied to the world at its end.
    void log(const carom::World& world, const carom::Input& input);
    // The world took a step at the end: the history grows by it (a keyframe when one is due).
    void stepped(const carom::World& world);
    // One step along the history from a moment before its end: the step, then the inputs
    // recorded at the step reached.
    void stepAlong(carom::World& world);
    // Brings the world to step n (clamped to [first, last]) from the nearest keyframe at or
    // before it; eachStep sees every state re-simulated on the way.
    void seek(carom::World& world, std::uint64_t n,
              const std::function<void(const carom::World&)>& eachStep = {});
    // Another path from the world's moment: what came after it is dropped.
    void truncate(const carom::World& world);
    // The history from its first step to step n (clamped to [first, last]) as a recording
    // (docs/recording-format.md): the first keyframe's world named `name`, the inputs after it up
    // to step n, the end at n. Replayed, it gives the world the history has at n, to the bit.
    void writeRecording(carom::RecordingWriter& out, std::uint64_t n, const std::string& name,
                        const std::string& description) const;

    std::size_t bytes() const; // keyframes and inputs, estimated from their sizes

    // A loaded input the world refused when it came (a body or thruster it does not have): the
    // history ends before it, and this says "line L: what"; empty when none was.
    const std::string& refused() const { return refused_; }
    void clearRefused() { refused_.clear(); }
    std::size_t keyframes() const { return keys_.size(); }

  private:
    struct Keyframe {
        std::uint64_t step;
        std::size_t inputs; // inputs_[0, inputs) are in the state
        carom::World world;
        std::size_t bytes;
    };
    std::vector<Keyframe> keys_;
    std::vector<carom::RecordedInput> inputs_;
    std::uint64_t last_ = 0;
    std::string refused_;
    int thinned_ = 0; // times the budget halved the keyframes

    void applyInputsAt(carom::World& world, std::size_t& next);
    std::size_t nextInputAfter(std::uint64_t step) const; // the first input at a later step
    void keepKeyframe(const carom::World& world);
    // Steps between keyframes, as the rule above gives for keyframes of this many bytes.
    std::uint64_t spacingFor(const carom::World& world, std::size_t bytes) const;
};

// The heap and object bytes of a world (its bodies, shapes, names, contacts): a keyframe's cost.
std::size_t worldBytes(const carom::World& world);

} // namespace app
