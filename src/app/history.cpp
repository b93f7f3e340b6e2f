// Keyframes and inputs: the history behind the timeline (history.h).
#include "history.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>

namespace app {

std::size_t worldBytes(const carom::World& world) {
    std::size_t n = sizeof(carom::World);
    for (const carom::Body& b : world.bodies()) {
        // The body, its polygon's vertices and normals, a long name, its entry in the name map
        // (a node with the name and the id, and a bucket) and its origin.
        n += sizeof(carom::Body);
        for (const carom::BodyShape& shape : b.shapes)
            n += sizeof shape + 2 * shape.shape.vertices().size() * sizeof(carom::Vec2);
        const std::size_t name = b.name.size() > 15 ? b.name.size() + 1 : 0;
        n += 2 * name + sizeof(std::string) + 2 * sizeof(void*) + sizeof(carom::BodyId) +
             sizeof(void*) + sizeof(carom::BodyOrigin);
    }
    // The contacts and the last step's (kept for the contact events), and where they were found.
    n += 2 * world.contacts().size() * sizeof(carom::Manifold);
    n += world.found().size() * sizeof(carom::FoundAt);
    n += world.thrusters().size() * sizeof(carom::Thruster);
    return n;
}

std::uint64_t History::spacingFor(const carom::World& world, std::size_t bytes) const {
    const double h = world.settings().timeStep;
    const double least = std::max(1.0, std::round(kKeyframeSeconds / h));
    double steps = std::ceil(double(bytes) / (kBytesPerSecond * h)); // memory: at most the rate
    if (stepSeconds > 0) steps = std::min(steps, std::floor(kReplaySeconds / stepSeconds));
    return std::uint64_t(std::max(least, steps)) << thinned_;
}

void History::start(const carom::World& world) {
    keys_.clear();
    inputs_.clear();
    thinned_ = 0;
    last_ = world.stepCount();
    keys_.push_back(Keyframe{last_, 0, world, worldBytes(world)});
}

void History::load(carom::World& world, std::vector<carom::RecordedInput> inputs,
                   std::uint64_t end) {
    inputs_ = std::move(inputs);
    last_ = std::max(end, inputs_.empty() ? last_ : inputs_.back().step);
    std::size_t next = 0;
    applyInputsAt(world, next);
}

void History::extend(carom::World& world, std::vector<carom::RecordedInput> inputs,
                     std::uint64_t end) {
    std::size_t next = inputs_.size();
    inputs_.insert(inputs_.end(), std::make_move_iterator(inputs.begin()),
                   std::make_move_iterator(inputs.end()));
    last_ = std::max({last_, end, inputs_.empty() ? last_ : inputs_.back().step});
    applyInputsAt(world, next);
}

void History::log(const carom::World& world, const carom::Input& input) {
    inputs_.push_back(carom::RecordedInput{world.stepCount(), input, 0});
}

void History::stepped(const carom::World& world) {
    last_ = world.stepCount();
    keepKeyframe(world);
}

std::size_t History::nextInputAfter(std::uint64_t step) const {
    return std::size_t(std::upper_bound(inputs_.begin(), inputs_.end(), step,
                                        [](std::uint64_t s, const carom::RecordedInput& in) {
                                            return s < in.step;
                                        }) -
                       inputs_.begin());
}

void History::applyInputsAt(carom::World& world, std::size_t& next) {
    for (; next < inputs_.size() && inputs_[next].step == world.stepCount(); ++next) {
        try {
            carom::applyInput(world, inputs_[next].input);
        } catch (const std::exception& e) { // checked setters: the world is as it was
            refused_ = "line " + std::to_string(inputs_[next].line) + ": " + e.what();
            inputs_.erase(inputs_.begin() + std::ptrdiff_t(next), inputs_.end());
            last_ = world.stepCount();
            return;
        }
    }
}

// Called right after a step, before the inputs at the step reached: the keyframe holds the
// inputs before that step. One is kept when the keyframes on either side are a spacing away
// (steps along the history and seeks fill in the keyframes a replay has not made yet).
void History::keepKeyframe(const carom::World& world) {
    const std::uint64_t step = world.stepCount();
    if (keys_.empty()) return;
    const std::uint64_t spacing = spacingFor(world, keys_.back().bytes);
    auto at = std::lower_bound(keys_.begin(), keys_.end(), step,
                               [](const Keyframe& k, std::uint64_t s) { return k.step < s; });
    if (at != keys_.end() && at->step - step < spacing) return; // also: one here already
    if (at != keys_.begin() && step - std::prev(at)->step < spacing) return;
    const std::size_t before = step > 0 ? nextInputAfter(step - 1) : 0;
    const std::size_t size = worldBytes(world);
    keys_.insert(at, Keyframe{step, before, world, size});
    // Over the budget: every other keyframe gone (never the first), twice the spacing.
    while (bytes() > budgetBytes && keys_.size() > 2) {
        ++thinned_;
        std::vector<Keyframe> kept;
        for (std::size_t i = 0; i < keys_.size(); i += 2)
            kept.push_back(std::move(keys_[i]));
        keys_ = std::move(kept);
    }
}

void History::stepAlong(carom::World& world) {
    world.step();
    keepKeyframe(world);
    std::size_t next = nextInputAfter(world.stepCount() - 1);
    applyInputsAt(world, next);
}

void History::seek(carom::World& world, std::uint64_t n,
                   const std::function<void(const carom::World&)>& eachStep) {
    if (keys_.empty()) return;
    n = std::clamp(n, first(), last_);
    auto key = std::upper_bound(keys_.begin(), keys_.end(), n,
                                [](std::uint64_t s, const Keyframe& k) { return s < k.step; });
    --key; // the first keyframe is at first() <= n
    world = key->world;
    std::size_t next = key->inputs;
    applyInputsAt(world, next);
    while (world.stepCount() < n) {
        world.step();
        keepKeyframe(world);
        applyInputsAt(world, next);
        if (eachStep) eachStep(world);
    }
}

void History::writeRecording(carom::RecordingWriter& out, std::uint64_t n, const std::string& name,
                             const std::string& description) const {
    if (keys_.empty()) return;
    n = std::clamp(n, first(), last_);
    const Keyframe& start = keys_.front();
    out.write(start.step, carom::input::Replace{std::make_shared<carom::WorldState>(
                              carom::captureState(start.world, name, description))});
    for (std::size_t i = start.inputs; i < inputs_.size() && inputs_[i].step <= n; ++i)
        out.write(inputs_[i].step, inputs_[i].input);
    out.end(n);
}

void History::truncate(const carom::World& world) {
    const std::uint64_t n = world.stepCount();
    inputs_.erase(inputs_.begin() + std::ptrdiff_t(nextInputAfter(n)), inputs_.end());
    keys_.erase(std::upper_bound(keys_.begin(), keys_.end(), n,
                                 [](std::uint64_t s, const Keyframe& k) { return s < k.step; }),
                keys_.end());
    if (keys_.empty()) start(world);
    last_ = n;
}

std::size_t History::bytes() const {
    std::size_t n = inputs_.capacity() * sizeof(carom::RecordedInput);
    for (const Keyframe& k : keys_)
        n += sizeof(Keyframe) + k.bytes;
    return n;
}

} // namespace app
