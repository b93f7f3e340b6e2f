// carom-cli replay: a recording's inputs applied to its world at their steps, the world stepped in
// between, the CSV and the final scene written as run writes them.
#include "carom/csv.h"
#include "commands.h"

#include "carom/output_file.h"
#include "carom/recording.h"

#include <cstdio>
#include <memory>
#include <stdexcept>

namespace cli {
namespace {

// The names of the CSV's body columns: a new world or a build edit with others would change them.
std::vector<std::string> movingBodies(const carom::World& world) {
    std::vector<std::string> names;
    for (const carom::Body& b : world.bodies())
        if (b.type != carom::BodyType::Static) names.push_back(b.name);
    return names;
}

// The world's clock as the CSV's t: t0 + (n − n0) h since the last new world or new time step,
// so that a recording without inputs gives run's t = n h exactly (World::time() is a running sum).
struct Clock {
    double t0 = 0;
    std::uint64_t n0 = 0;
    double h = 0;
    double at(const carom::World& w) const { return t0 + double(w.stepCount() - n0) * h; }
    void restart(const carom::World& w, double t) {
        t0 = t;
        n0 = w.stepCount();
        h = w.settings().timeStep;
    }
};

} // namespace

int replay(const ReplayOptions& o) {
    const carom::Recording rec = carom::loadRecording(o.recording);
    if (!rec.damage.empty())
        std::fprintf(stderr, "warning: %s; replayed up to there\n", rec.damage.c_str());
    else if (!rec.end)
        std::fprintf(stderr,
                     "warning: %s: no end line (the app did not quit normally); "
                     "replayed to its last input\n",
                     o.recording.c_str());

    const auto& start = std::get<carom::input::Replace>(rec.inputs.front().input);
    std::string name = start.state->scene.name; // the scene of the last world begun
    std::string description = start.state->scene.description;
    carom::World world = carom::buildState(*start.state);
    world.setThreads(o.threads);
    Clock clock;
    clock.restart(world, start.state->time);
    const std::vector<std::string> columns = movingBodies(world);

    std::unique_ptr<carom::OutputFile> csv, save;
    if (!o.csv.empty()) csv = std::make_unique<carom::OutputFile>(o.csv);
    if (!o.save.empty()) save = std::make_unique<carom::OutputFile>(o.save);
    const carom::Diagnostics first = carom::measure(world);
    if (csv) {
        csv->write(carom::csvHeader(world));
        csv->write(carom::csvRow(world, clock.at(world), first));
    }
    long long taken = 0;
    // --until T: the first state whose clock reaches T (with stepsFor's tolerance of rounding).
    auto reached = [&] { return o.until && clock.at(world) >= *o.until - 1e-9 * clock.h; };
    auto stepTo = [&](std::uint64_t step) {
        while (world.stepCount() < step && !reached()) {
            world.step();
            ++taken;
            const carom::Diagnostics& d = world.diagnostics();
            if (!finite(d))
                throw std::runtime_error(o.recording +
                                         ": the simulation became non-finite at step " +
                                         std::to_string(world.stepCount()));
            if (csv && taken % o.every == 0) csv->write(carom::csvRow(world, clock.at(world), d));
        }
    };

    bool damaged = false;
    for (std::size_t k = 1; k < rec.inputs.size() && !damaged; ++k) {
        const carom::RecordedInput& in = rec.inputs[k];
        // A new world's "at" is the old one's step then: behind it when the app went back.
        stepTo(in.step);
        if (reached()) break;
        const double now = clock.at(world);
        try {
            carom::applyInput(world, in.input);
            world.setThreads(o.threads);    // a new world begun keeps the threads
        } catch (const std::exception& e) { // a body or thruster the world does not have
            std::fprintf(stderr, "warning: %s: line %zu: %s; replayed up to there\n",
                         o.recording.c_str(), in.line, e.what());
            damaged = true;
            break;
        }
        // A new world, or a body drawn, deleted or pinned in build mode.
        if (csv && movingBodies(world) != columns)
            throw std::runtime_error(o.recording + ": line " + std::to_string(in.line) +
                                     ": the moving bodies change here (another scene, or a build "
                                     "edit), and the CSV's columns with them; replay with --until "
                                     "before it, or without --csv");
        if (const auto* r = std::get_if<carom::input::Replace>(&in.input)) {
            clock.restart(world, r->state->time);
            name = r->state->scene.name;
            description = r->state->scene.description;
        } else if (world.settings().timeStep != clock.h) {
            clock.restart(world, now);
        }
    }
    if (!damaged) stepTo(rec.end.value_or(rec.inputs.back().step));

    if (save)
        save->write(carom::sceneFileText(carom::captureScene(world, name, description), o.save));
    if (csv) csv->commit();
    if (save) save->commit();
    std::printf("recording: %s (%zu inputs)\n", o.recording.c_str(), rec.inputs.size());
    std::printf("scene: %s (%zu bodies)\n", name.c_str(), world.bodies().size());
    std::printf("steps: %lld\n", taken);
    std::printf("time: %.17g s\n", clock.at(world));
    if (csv) std::printf("csv: %s\n", o.csv.c_str());
    if (save) std::printf("saved: %s\n", o.save.c_str());
    return 0;
}

} // namespace cli
