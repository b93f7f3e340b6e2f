// carom-cli's commands; each returns the process's exit status and throws on bad input
// (cli::UsageError, carom::SceneError, std::runtime_error for files), which main reports.
#pragma once

#include "options.h"

namespace cli {

// Whether a step's energy and momenta are finite (run and replay stop when they are not).
bool finite(const carom::Diagnostics& d);

int run(const RunOptions& options);
int bench(const BenchOptions& options);
int stress(const StressOptions& options);
int replay(const ReplayOptions& options);

} // namespace cli
