// Parsing carom-cli's options: every value checked whole (no trailing junk), finite and in range.
#include "options.h"

#include "carom/file_identity.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <set>
#include <sstream>

namespace cli {
namespace {

constexpr long long kMaxSteps = 1000000000000LL; // 1e12: more would never finish anyway

std::string quoted(const std::string& s) {
    return "'" + s + "'";
}

std::string shortest(double x) { // "1e+300", not three hundred digits
    std::ostringstream s;
    s << x;
    return s.str();
}

long long parseCount(const std::string& option, const std::string& text, long long min) {
    bool digits = !text.empty();
    for (char c : text)
        digits = digits && c >= '0' && c <= '9';
    if (!digits) throw UsageError(option + ": expected a whole number, got " + quoted(text));
    errno = 0;
    const unsigned long long n = std::strtoull(text.c_str(), nullptr, 10);
    if (errno == ERANGE || n > static_cast<unsigned long long>(kMaxSteps))
        throw UsageError(option + ": must be <= " + std::to_string(kMaxSteps) + ", got " + text);
    if (static_cast<long long>(n) < min)
        throw UsageError(option + ": must be >= " + std::to_string(min) + ", got " + text);
    return static_cast<long long>(n);
}

// A decimal number ("0.5", "-1e-3"); strtod alone would also take hex ("0x10"), "inf" and
// leading spaces.
double parseNumber(const std::string& option, const std::string& text) {
    const bool decimal =
        !text.empty() && text.find_first_not_of("0123456789+-.eE") == std::string::npos;
    char* end = nullptr;
    errno = 0;
    const double x = decimal ? std::strtod(text.c_str(), &end) : 0;
    if (end == nullptr || end == text.c_str() || *end != '\0')
        throw UsageError(option + ": expected a number, got " + quoted(text));
    if (!std::isfinite(x) || errno == ERANGE)
        throw UsageError(option + ": must be a finite number, got " + quoted(text));
    return x;
}

// A value of a setting, checked as its row of the settings table says (carom/settings.h).
double parseSetting(const std::string& option, const std::string& text, const char* name) {
    const carom::SettingInfo& s = carom::setting(name);
    const double x = parseNumber(option, text);
    if (carom::brokenRule(s, x))
        throw UsageError(option + ": must be " + carom::rangeText(s) + ", got " + text);
    return x;
}

// The names an enum setting accepts: "euler, rk4".
std::string choiceNames(const char* name) {
    std::string names;
    for (const carom::Choice& c : carom::setting(name).choices)
        names += (names.empty() ? "" : ", ") + std::string(c.name);
    return names;
}

carom::Method parseMethodName(const std::string& text) {
    if (auto m = carom::parseMethod(text)) return *m;
    throw UsageError("--method: unknown method " + quoted(text) +
                     " (known: " + choiceNames("method") + ")");
}

carom::Integrator parseIntegratorName(const std::string& text) {
    if (auto i = carom::parseIntegrator(text)) return *i;
    throw UsageError("--integrator: unknown integrator " + quoted(text) +
                     " (known: " + choiceNames("integrator") + ")");
}

carom::SoftResolution parseSoftResolutionName(const std::string& text) {
    const carom::SettingInfo& row = carom::setting("soft_resolution");
    for (std::size_t i = 0; i < row.choices.size(); ++i)
        if (text == row.choices[i].name) return static_cast<carom::SoftResolution>(i);
    throw UsageError("--soft-resolution: unknown resolution " + quoted(text) +
                     " (known: " + choiceNames("soft_resolution") + ")");
}

// Walks "SCENE --opt value ...": exactly one positional argument, each option once, each with a
// value (the next argument, even when it starts with '-': "--dt -1" is a negative step).
class ArgWalker {
  public:
    ArgWalker(const std::vector<std::string>& args, const char* command,
              std::set<std::string> options, bool takesScene = true,
              const char* positional = "the scene file", const char* example = "SCENE.json")
        : args_(args), command_(command), options_(std::move(options)), takesScene_(takesScene),
          positionalName_(positional), example_(example) {}

    template <class OnOption> std::string walk(OnOption onOption) {
        std::string positional;
        std::set<std::string> seen;
        for (std::size_t i = 0; i < args_.size(); ++i) {
            const std::string& a = args_[i];
            if (a.size() > 1 && a[0] == '-') {
                if (!options_.count(a))
                    throw UsageError(std::string(command_) + ": unknown option " + quoted(a) +
                                     (a.find('=') != std::string::npos
                                          ? " (an option's value is the next argument)"
                                          : " (see carom-cli --help)"));
                if (!seen.insert(a).second) throw UsageError(a + ": given twice");
                if (i + 1 >= args_.size()) throw UsageError(a + ": missing value");
                onOption(a, args_[i + 1]);
                ++i;
            } else if (positional.empty() && takesScene_) {
                positional = a;
            } else {
                throw UsageError(std::string(command_) + ": unexpected argument " + quoted(a) +
                                 (takesScene_ ? " (" + std::string(positionalName_) + " is " +
                                                    quoted(positional) + ")"
                                              : std::string(" (it takes no scene)")));
            }
        }
        if (positional.empty() && takesScene_)
            throw UsageError(std::string(command_) + ": missing " + positionalName_ +
                             " (carom-cli " + command_ + " " + example_ + " ...)");
        return positional;
    }

  private:
    const std::vector<std::string>& args_;
    const char* command_;
    std::set<std::string> options_;
    bool takesScene_;
    const char* positionalName_;
    const char* example_;
};

// The options both commands take, applied to the scene by apply().
const std::set<std::string> kOverrideOptions = {"--dt", "--method", "--integrator",
                                                "--soft-resolution"};

std::set<std::string> withOverrides(std::set<std::string> options) {
    options.insert(kOverrideOptions.begin(), kOverrideOptions.end());
    return options;
}

// --threads N: 1 to World::kMaxThreads.
int parseThreads(const std::string& option, const std::string& value) {
    const long long n = parseCount(option, value, 1);
    if (n > carom::World::kMaxThreads)
        throw UsageError(option + ": at most " + std::to_string(carom::World::kMaxThreads) +
                         ", got " + value);
    return static_cast<int>(n);
}

void parseOverride(Overrides& o, const std::string& option, const std::string& value) {
    if (option == "--dt") {
        o.dt = parseSetting(option, value, "time_step");
    } else if (option == "--method") {
        o.method = parseMethodName(value);
    } else if (option == "--integrator") {
        o.integrator = parseIntegratorName(value);
    } else if (option == "--soft-resolution") {
        o.softResolution = parseSoftResolutionName(value);
    }
}

// An enum setting's choices, one a paragraph: its name, "(default)" for the default, and its
// help, wrapped to 92 columns beside the names.
void listChoices(std::ostream& out, const char* name) {
    const carom::SettingInfo& row = carom::setting(name);
    const std::size_t byDefault = carom::choiceOf(row, carom::WorldSettings{});
    const std::size_t indent = 22, width = 92;
    for (std::size_t i = 0; i < row.choices.size(); ++i) {
        std::string line = "  " + std::string(row.choices[i].name);
        std::istringstream words(std::string(i == byDefault ? "(default) " : "") +
                                 row.choices[i].help);
        for (std::string word; words >> word;) {
            if (line.size() < indent) {
                line.resize(indent, ' ');
            } else if (line.size() + 1 + word.size() > width) {
                out << line << "\n";
                line = std::string(indent, ' ');
            } else {
                line += ' ';
            }
            line += word;
        }
        out << line << "\n";
    }
}

} // namespace

RunOptions parseRunOptions(const std::vector<std::string>& args) {
    RunOptions r;
    const auto options =
        withOverrides({"--time", "--steps", "--every", "--csv", "--save", "--threads"});
    r.scene =
        ArgWalker(args, "run", options).walk([&](const std::string& opt, const std::string& value) {
            if (opt == "--time") {
                const double t = parseNumber(opt, value);
                if (t < 0) throw UsageError("--time: must be >= 0, got " + value);
                r.time = t;
            } else if (opt == "--steps") {
                r.steps = parseCount(opt, value, 0);
            } else if (opt == "--every") {
                r.every = parseCount(opt, value, 1);
            } else if (opt == "--csv") {
                r.csv = value;
            } else if (opt == "--save") {
                r.save = value;
            } else if (opt == "--threads") {
                r.threads = parseThreads(opt, value);
            } else {
                parseOverride(r.overrides, opt, value);
            }
        });
    if (r.time && r.steps) throw UsageError("run: give --time or --steps, not both");
    if (!r.csv.empty() && carom::sameFile(r.csv, r.save))
        throw UsageError("--csv and --save name the same file " + quoted(r.csv));
    for (const auto& [flag, out] : {std::pair{"--csv", r.csv}, std::pair{"--save", r.save}})
        if (!out.empty() && carom::sameFile(out, r.scene))
            throw UsageError(std::string(flag) + ": " + quoted(out) +
                             " is the input scene; write the output to another file");
    return r;
}

BenchOptions parseBenchOptions(const std::vector<std::string>& args) {
    BenchOptions b;
    b.scene = ArgWalker(args, "bench", withOverrides({"--steps", "--threads", "--profile"}))
                  .walk([&](const std::string& opt, const std::string& value) {
                      if (opt == "--steps")
                          b.steps = parseCount(opt, value, 1);
                      else if (opt == "--profile")
                          b.profile = parseCount(opt, value, 1);
                      else if (opt == "--threads")
                          b.threads = parseThreads(opt, value);
                      else
                          parseOverride(b.overrides, opt, value);
                  });
    return b;
}

StressOptions parseStressOptions(const std::vector<std::string>& args) {
    StressOptions s;
    const std::set<std::string> options = {"--seed", "--scenes",     "--time",  "--method",
                                           "--list", "--save-scene", "--family"};
    ArgWalker(args, "stress", options, false)
        .walk([&](const std::string& opt, const std::string& value) {
            if (opt == "--seed") {
                s.seed = static_cast<std::uint64_t>(parseCount(opt, value, 0));
            } else if (opt == "--scenes") {
                s.scenes = parseCount(opt, value, 1);
            } else if (opt == "--list") {
                s.listed = parseCount(opt, value, 0);
            } else if (opt == "--save-scene") {
                s.saveScene = value;
            } else if (opt == "--family") {
                if (value != "random" && value != "stacks")
                    throw UsageError("--family: random or stacks, got " + quoted(value));
                s.family = value == "stacks" ? StressFamily::Stacks : StressFamily::Random;
            } else if (opt == "--time") {
                const double t = parseNumber(opt, value);
                if (!(t > 0) || t > 3600)
                    throw UsageError("--time: must be > 0 and <= 3600 (seconds), got " + value);
                s.time = t;
            } else {
                s.method = parseMethodName(value);
            }
        });
    return s;
}

ReplayOptions parseReplayOptions(const std::vector<std::string>& args) {
    ReplayOptions r;
    const std::set<std::string> options = {"--csv", "--every", "--save", "--until", "--threads"};
    r.recording = ArgWalker(args, "replay", options, true, "the recording", "RUN")
                      .walk([&](const std::string& opt, const std::string& value) {
                          if (opt == "--until") {
                              const double t = parseNumber(opt, value);
                              if (t < 0) throw UsageError("--until: must be >= 0, got " + value);
                              r.until = t;
                          } else if (opt == "--every") {
                              r.every = parseCount(opt, value, 1);
                          } else if (opt == "--csv") {
                              r.csv = value;
                          } else if (opt == "--threads") {
                              r.threads = parseThreads(opt, value);
                          } else {
                              r.save = value;
                          }
                      });
    if (!r.csv.empty() && carom::sameFile(r.csv, r.save))
        throw UsageError("--csv and --save name the same file " + quoted(r.csv));
    for (const auto& [flag, out] : {std::pair{"--csv", r.csv}, std::pair{"--save", r.save}})
        if (!out.empty() && carom::sameFile(out, r.recording))
            throw UsageError(std::string(flag) + ": " + quoted(out) +
                             " is the recording; write the output to another file");
    return r;
}

void apply(const Overrides& o, carom::Scene& scene) {
    if (o.dt) scene.settings.timeStep = *o.dt;
    if (o.method) scene.settings.method = *o.method;
    if (o.integrator) scene.settings.integrator = *o.integrator;
    if (o.softResolution) scene.settings.softResolution = *o.softResolution;
}

long long stepsFor(double seconds, double dt) {
    // The small tolerance keeps 10 s at 1/60 s at 600 steps despite rounding in the division.
    const double n = std::ceil(seconds / dt - 1e-9);
    if (!(n <= static_cast<double>(kMaxSteps)))
        throw UsageError("--time: " + shortest(seconds) + " s needs more than " +
                         std::to_string(kMaxSteps) + " steps");
    return n > 0 ? static_cast<long long>(n) : 0;
}

std::string usage() {
    std::ostringstream s;
    s << "carom-cli: the Carom 2D rigid-body simulator without a window\n"
         "\n"
         "usage:\n"
         "  carom-cli run SCENE.json [--time SECONDS | --steps N] [--dt H] [--method M]\n"
         "                [--integrator I] [--soft-resolution R] [--csv OUT.csv] [--every K]\n"
         "                [--save OUT.json] [--threads N]\n"
         "  carom-cli bench SCENE.json [--steps N] [--profile N] [--method M] [--integrator I] "
         "[--dt H]\n"
         "                [--soft-resolution R] [--threads N]\n"
         "  carom-cli replay RUN [--csv OUT.csv] [--every K] [--save OUT.json] [--until T]\n"
         "                [--threads N]\n"
         "  carom-cli stress [--seed S] [--scenes N] [--time T] [--method M] [--list K]\n"
         "  carom-cli stress --seed S --save-scene OUT.json\n"
         "  carom-cli stress --family stacks [--time T] [--method M]\n"
         "  carom-cli --help\n"
         "\n"
         "run     simulates the scene for --time seconds (default 10) or --steps steps at the\n"
         "        scene's time step (or --dt); --csv writes energies, momenta and every moving\n"
         "        body's state at t = 0 and every K steps (--every, default 1); --save writes\n"
         "        the final state as a scene file that run can continue from.\n"
         "bench   steps the scene N times (default 500) after one untimed step and prints\n"
         "        ms_per_step: X as its last line.\n"
         "replay  replays a recording made by carom --record RUN, bit for bit: --csv, --every\n"
         "        and --save as for run; --until T stops at simulated time T (default: the end).\n"
         "        run, bench and replay step on --threads N threads (default: every core), with\n"
         "        the same results for any N.\n"
         "stress  runs N random closed scenes (default 100, from seed S, default 1) for T\n"
         "        simulated seconds (default 3) in every method (or --method) and integrator,\n"
         "        and counts the runs that went non-finite, let a body out of the walls, made\n"
         "        energy (beyond round-off; 1e-3 for projection and penalty) or took over 20 s;\n"
         "        the first K failures (default 50) are listed by seed; --save-scene writes\n"
         "        seed S's scene instead, to run it again with run. --family stacks: a box of\n"
         "        10^2..10^6 kg on 1 and on 9 boxes of 1 kg for T s (default 10) instead,\n"
         "        their deepest overlap, and those that sink past the linear slop as failures.\n"
         "\n"
         "methods (--method):\n";
    listChoices(s, "method");
    s << "integrators (--integrator):\n";
    listChoices(s, "integrator");
    s << "soft-body collision resolution (--soft-resolution):\n";
    listChoices(s, "soft_resolution");
    s << "\nOn bad input: one line on stderr starting with \"error:\" and a non-zero status.\n";
    return s.str();
}

} // namespace cli
