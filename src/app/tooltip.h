// The help of the last ImGui item, shown while the mouse rests on it.
#pragma once

namespace app {

// Shown while the mouse rests on the last item (not while it is dragged), wrapped at about 40
// characters.
void tooltip(const char* text);
// The same for an item drawn disabled (greyed), which ImGui otherwise reports as not hovered.
void disabledTooltip(const char* text);

} // namespace app
