// The timeline strip's text, without ImGui so that the tests can check it.
#pragma once

#include "session.h"
#include <string>

namespace app {

// "T s  (step N of M)": the world's own clock and step, as the clock under the view shows them,
// and the history's last step. Not counted from the history's first step: a recording that
// branched starts its history again at the branch (carom --replay), and the strip said 3.78 s
// where the clock said 10.07 s. A replay gone on past the recording's last step adds "past the
// recording's end" (it ran on unmarked).
std::string timelineLabel(const Session& s);

} // namespace app
