// Issue 44, item 7: every character in the texts the app shows (the string literals of its
// sources, and of the settings' help, which its tooltips show) is among the characters its font
// is loaded with (src/app/font_ranges.h); one outside shows as '?' ("2?(k m)" for 2√(k m)).
#include "font_ranges.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

// The code points of the UTF-8 text s (a malformed byte is taken as itself).
std::vector<unsigned> codePoints(const std::string& s) {
    std::vector<unsigned> out;
    for (std::size_t i = 0; i < s.size();) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        const int extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
        unsigned cp = extra == 0 ? c : c & (0x3F >> extra);
        for (int k = 1; k <= extra && i + k < s.size(); ++k)
            cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
        out.push_back(cp);
        i += 1 + extra;
    }
    return out;
}

// The string literals of a C++ source's text, roughly: what lies between unescaped double quotes
// outside // comments, line by line (the sources keep their literals on one line each; a raw
// string's lines are read as if quoted, which only makes the check stricter).
std::vector<std::string> literals(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        bool quoted = false;
        std::string current;
        for (std::size_t i = 0; i < line.size(); ++i) {
            const char c = line[i];
            if (!quoted && c == '/' && i + 1 < line.size() && line[i + 1] == '/') break;
            if (!quoted && c == '\'' && i + 2 < line.size()) { // '"' is not a string
                i += line[i + 1] == '\\' ? 3 : 2;
                continue;
            }
            if (c == '\\' && quoted) {
                current += line.substr(i, 2);
                ++i;
            } else if (c == '"') {
                if (quoted) out.push_back(current);
                current.clear();
                quoted = !quoted;
            } else if (quoted) {
                current += c;
            }
        }
    }
    return out;
}

} // namespace

TEST(FontRanges, TheSquareRootAndTheGreekAreCovered) {
    for (unsigned cp : {0x221Au /* √ */, 0x03C9u /* ω */, 0x2212u /* − */, 0x00B2u /* ² */,
                        0x2192u /* → */, 0x2264u /* ≤ */, 0x2026u /* … */})
        EXPECT_TRUE(app::fontCovers(cp)) << std::hex << cp;
    EXPECT_FALSE(app::fontCovers(0x1F600)); // an emoji: not loaded
}

TEST(FontRanges, EveryCharacterTheAppShowsIsCovered) {
    const fs::path root = fs::path(CAROM_TEST_DIR).parent_path();
    std::vector<fs::path> sources{root / "src/physics/step/settings.cpp"};
    for (const auto& e : fs::directory_iterator(root / "src/app"))
        sources.push_back(e.path());
    int nonAscii = 0;
    for (const fs::path& p : sources) {
        std::ifstream in(p);
        std::stringstream ss;
        ss << in.rdbuf();
        for (const std::string& lit : literals(ss.str()))
            for (unsigned cp : codePoints(lit)) {
                if (cp < 0x80) continue;
                ++nonAscii;
                EXPECT_TRUE(app::fontCovers(cp))
                    << p.filename().string() << ": U+" << std::hex << cp << " in \"" << lit << '"';
            }
    }
    EXPECT_GT(nonAscii, 10); // the √, ω and − of the tooltips were read
}
