// carom-cli: dispatch to `run`, `bench`, `replay` or `stress` (docs/cli.md); every failure
// becomes one line on stderr starting with "error:" and a non-zero status.
#include "commands.h"

#include "carom/output_file.h"

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

namespace {

int fail(const char* what, int status) {
    std::fprintf(stderr, "error: %s\n", what);
    return status;
}

} // namespace

int main(int argc, char** argv) {
    carom::removeTemporariesOnSignals(); // no OUT.part-* left by Ctrl+C or a kill
    const std::vector<std::string> all(argv + 1, argv + argc);
    for (const std::string& a : all)
        if (a == "--help" || a == "-h") {
            std::fputs(cli::usage().c_str(), stdout);
            return 0;
        }
    if (all.empty())
        return fail("missing command: run, bench, replay or stress (see carom-cli --help)", 2);
    const std::string command = all[0];
    const std::vector<std::string> args(all.begin() + 1, all.end());
    try {
        if (command == "run") return cli::run(cli::parseRunOptions(args));
        if (command == "bench") return cli::bench(cli::parseBenchOptions(args));
        if (command == "stress") return cli::stress(cli::parseStressOptions(args));
        if (command == "replay") return cli::replay(cli::parseReplayOptions(args));
        return fail(("unknown command '" + command +
                     "' (expected run, bench, replay or stress; see carom-cli "
                     "--help)")
                        .c_str(),
                    2);
    } catch (const cli::UsageError& e) {
        return fail(e.what(), 2);
    } catch (const std::exception& e) { // carom::SceneError, files, the engine's checks
        return fail(e.what(), 1);
    }
}
