// The preset scenes (assets/scenes), for the tests that go over all of them.
#pragma once

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace carom_test {

inline const std::string kPresetDir = CAROM_ASSET_DIR "/scenes/";

// Their file names, sorted.
inline std::vector<std::string> presetNames() {
    std::vector<std::string> out;
    for (const auto& entry : std::filesystem::directory_iterator(kPresetDir))
        if (entry.path().extension() == ".json") out.push_back(entry.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

// The two that take seconds a simulated second (10,000 and 20,000 contacts).
inline bool isLargePreset(const std::string& name) {
    return name == "many-pyramids.json" || name == "pyramid-100.json";
}

} // namespace carom_test
