#pragma once
// The CAROM_VALIDATE build (a CMake option, on in the debug and asan presets, so in CI's sanitizer
// run): the guards (GuardCounts) are limits of the engine, each documented, which must not fire
// on the presets or in the analytic tests. In that build every guard that fires, in any world of
// the process, is also counted here, and the test harness (tests/guard_check.cpp) fails a test in
// which one fired, unless the test says it expects them (a test of a guard itself, or of random
// and hostile scenes).
#include "carom/world.h"

namespace carom::guard_check {

#ifdef CAROM_VALIDATE
constexpr bool kOn = true;
#else
constexpr bool kOn = false;
#endif

// The guards fired since the process started, in every world (none unless kOn).
GuardCounts fired();

} // namespace carom::guard_check
