// The ruler drawn over the view: a yellow tape with ticks, round handles at its ends, and its
// reading beside its middle.
#include "ruler.h"

#include "camera.h"
#include "plot_range.h"

#include <algorithm>
#include <cmath>
#include <imgui.h>

namespace app {

void drawRuler(const Ruler& r, const Camera& cam, ImDrawList* dl) {
    const ImU32 tape = IM_COL32(250, 210, 60, 230), dark = IM_COL32(20, 20, 24, 220);
    const ImVec2 a = cam.toScreen(r.a), b = cam.toScreen(r.b);
    const double pixels = std::hypot(double(b.x - a.x), double(b.y - a.y));
    dl->AddLine(a, b, dark, 6);
    dl->AddLine(a, b, tape, 3);
    // Ticks every round length that leaves at least 8 pixels between them, longer each fifth.
    const double length = pixels / cam.scale;
    if (pixels > 1) {
        const double step = roundAbove(8 / cam.scale);
        const ImVec2 u{float((b.x - a.x) / pixels), float((b.y - a.y) / pixels)};
        const ImVec2 n{-u.y, u.x};
        const int ticks = int(std::min(length / step, 2000.0));
        for (int i = 1; i <= ticks; ++i) {
            const float at = float(i * step * cam.scale), h = i % 5 == 0 ? 7.0f : 4.0f;
            const ImVec2 p{a.x + u.x * at, a.y + u.y * at};
            dl->AddLine({p.x - n.x * h, p.y - n.y * h}, {p.x + n.x * h, p.y + n.y * h}, tape, 1);
        }
    }
    for (const ImVec2& end : {a, b}) {
        dl->AddCircleFilled(end, 6, dark);
        dl->AddCircle(end, 6, tape, 0, 2);
    }
    // The reading beside the middle, on a dark box.
    const std::string text = rulerReading(r);
    const ImVec2 size = ImGui::CalcTextSize(text.c_str());
    const ImVec2 mid{(a.x + b.x) / 2 - size.x / 2, (a.y + b.y) / 2 - size.y - 14};
    dl->AddRectFilled({mid.x - 4, mid.y - 2}, {mid.x + size.x + 4, mid.y + size.y + 2}, dark, 3);
    dl->AddText(mid, tape, text.c_str());
}

} // namespace app
