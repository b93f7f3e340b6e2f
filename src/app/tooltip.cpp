// The help of the last ImGui item (tooltip.h).
#include "tooltip.h"

#include <imgui.h>

namespace app {

void tooltip(const char* text) {
    if (!ImGui::IsItemHovered() || ImGui::IsItemActive()) return;
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(20 * ImGui::GetFontSize());
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}

} // namespace app
