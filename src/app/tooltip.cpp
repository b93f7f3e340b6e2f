// The help of the last ImGui item (tooltip.h).
#include "tooltip.h"

#include <imgui.h>

namespace app {

namespace {
void show(const char* text) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(20 * ImGui::GetFontSize());
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}
} // namespace

void tooltip(const char* text) {
    if (ImGui::IsItemHovered() && !ImGui::IsItemActive()) show(text);
}

void disabledTooltip(const char* text) {
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) show(text);
}

} // namespace app
