// The timeline strip's text, without ImGui so that the tests can check it.
#pragma once

#include "session.h"
#include <string>

namespace app {

// "T s  (step N of M)": the world's own clock and step, as the clock under the view shows them,
// and the history's last step. Not counted from the history's first step (the strip said 3.78 s
// where the clock said 10.07 s when a replay's history began again at a branch).
std::string timelineLabel(const Session& s);
// A replay gone on past the recording's last step: the steps now are new ones (it ran on
// unmarked); the strip says so on a line of its own, under the slider its text would overflow.
bool pastRecordingEnd(const Session& s);

} // namespace app
