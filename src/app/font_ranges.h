// The characters the UI font is loaded with (app.cpp's loadFont), without ImGui so that a test can
// check that every character the UI's texts use is among them: one outside shows as '?' (the √ of
// "c = 2√(k m)" once did).
#pragma once

#include <cstddef>
#include <iterator>

namespace app {

// Pairs of first and last code points, as ImGui's glyph ranges: Latin-1, Greek (ω, θ, μ, Δ),
// general punctuation (–, …), arrows (→) and mathematical operators (−, √, ≤).
constexpr unsigned kFontRanges[] = {0x0020, 0x00FF, 0x0370, 0x03FF, 0x2010,
                                    0x2027, 0x2190, 0x21FF, 0x2200, 0x22FF};

constexpr bool fontCovers(unsigned codepoint) {
    for (std::size_t i = 0; i + 1 < std::size(kFontRanges); i += 2)
        if (codepoint >= kFontRanges[i] && codepoint <= kFontRanges[i + 1]) return true;
    return false;
}

} // namespace app
