// mayBeSceneFile (carom/scene.h): a look at a .json file before it is offered as a scene.
#include "carom/scene.h"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

namespace carom {

bool mayBeSceneFile(const std::string& path) {
    // A large file is offered unread: the browser lists a folder at every visit.
    constexpr std::uintmax_t kLookedInto = 4u << 20;
    std::error_code ec;
    const std::uintmax_t size = std::filesystem::file_size(path, ec);
    if (ec || size > kLookedInto) return true;
    std::ifstream in(path, std::ios::binary);
    if (!in) return true;
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const nlohmann::json doc = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (doc.is_discarded()) return true; // not JSON: a scene with a typo, loadScene will say where
    return doc.is_object() && doc.contains("format");
}

} // namespace carom
