// The timeline strip's text (timeline_label.h).
#include "timeline_label.h"

#include <algorithm>
#include <cstdio>

namespace app {

std::string timelineLabel(const Session& s) {
    const std::uint64_t now = std::clamp(s.world.stepCount(), s.history.first(), s.history.last());
    char text[96]; // an ImGui slider's text: no '%' in it
    std::snprintf(text, sizeof text, "%.2f s  (step %llu of %llu)", s.world.time(),
                  static_cast<unsigned long long>(now),
                  static_cast<unsigned long long>(s.history.last()));
    return text;
}

bool pastRecordingEnd(const Session& s) {
    return s.replaying && s.pending.empty() && s.world.stepCount() > s.recordingEnd;
}

} // namespace app
