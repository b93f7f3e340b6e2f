// carom-cli's command line (docs/cli.md): the options of `run` and `bench`, checked
// strictly ("--steps 10x", "--dt -1" and "--every 0" are errors that say so).
#pragma once

#include "carom/scene.h"
#include "carom/world.h"
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace cli {

// A bad command line; main prints "error: " + what() and exits with status 2.
class UsageError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// Settings the command line may override in the scene it loads.
struct Overrides {
    std::optional<double> dt;
    std::optional<carom::Method> method;
    std::optional<carom::Integrator> integrator;
    std::optional<carom::SoftResolution> softResolution;
};

struct RunOptions {
    std::string scene;
    int threads = carom::World::cores(); // --threads: the step's threads (the same bits for any)
    std::optional<double> time; // simulated seconds; 10 when neither time nor steps is given
    std::optional<long long> steps;
    Overrides overrides;
    std::string csv;     // empty: no CSV
    long long every = 1; // a CSV row every this many steps
    std::string save;    // empty: no saved scene
};

struct BenchOptions {
    std::string scene;
    int threads = carom::World::cores();
    long long steps = 500;
    long long profile = 0; // steps stepped again with the stages timed, after the timed ones
    Overrides overrides;
};

struct ReplayOptions {
    std::string recording;
    int threads = carom::World::cores();
    std::string csv;
    long long every = 1;
    std::string save;
    std::optional<double> until; // simulated seconds; unset: the end of the recording
};

// stress's scenes: random closed ones, or the heavy stacks.
enum class StressFamily { Random, Stacks };
struct StressOptions {
    StressFamily family = StressFamily::Random;
    std::uint64_t seed = 1;
    long long scenes = 100;
    std::optional<double> time;          // simulated seconds per run: 3 (random), 10 (stacks)
    double timeLimit = 20;               // wall-clock seconds per run before it counts as over time
    long long listed = 50;               // failing runs listed by seed
    std::optional<carom::Method> method; // all when not given
    std::string saveScene; // write seed S's scene there instead of running (replay with `run`)
};

// args: what follows the command's name. Throw UsageError.
RunOptions parseRunOptions(const std::vector<std::string>& args);
BenchOptions parseBenchOptions(const std::vector<std::string>& args);
StressOptions parseStressOptions(const std::vector<std::string>& args);
ReplayOptions parseReplayOptions(const std::vector<std::string>& args);

// Applies the overrides; the scene's settings stay valid (the values were checked when parsed).
void apply(const Overrides& o, carom::Scene& scene);

// The number of steps that covers `seconds` at step dt (at least the time asked for).
long long stepsFor(double seconds, double dt);

std::string usage(); // the --help text, with the method and integrator names of this build

} // namespace cli
