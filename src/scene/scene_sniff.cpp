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

namespace {

// nlohmann's SAX events: the strings at the top level's keys "name" and "description" kept, the
// parse stopped (false) once both are in.
struct CaptionReader : nlohmann::json_sax<nlohmann::json> {
    SceneCaption caption;
    int depth = 0;
    std::string at; // the key just read at the top level
    bool haveName = false, haveDescription = false;

    bool value() {
        at.clear();
        return true;
    }
    bool null() override { return value(); }
    bool boolean(bool) override { return value(); }
    bool number_integer(number_integer_t) override { return value(); }
    bool number_unsigned(number_unsigned_t) override { return value(); }
    bool number_float(number_float_t, const string_t&) override { return value(); }
    bool binary(binary_t&) override { return value(); }
    bool string(string_t& s) override {
        if (depth == 1 && at == "name") caption.name = s, haveName = true;
        if (depth == 1 && at == "description") caption.description = s, haveDescription = true;
        at.clear();
        return !(haveName && haveDescription);
    }
    bool start_object(std::size_t) override {
        ++depth;
        at.clear();
        return true;
    }
    bool end_object() override {
        --depth;
        return true;
    }
    bool start_array(std::size_t n) override { return start_object(n); }
    bool end_array() override { return end_object(); }
    bool key(string_t& k) override {
        if (depth == 1) at = k;
        return true;
    }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
        return false;
    }
};

} // namespace

SceneCaption readSceneCaption(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return {};
    CaptionReader reader;
    try {
        nlohmann::json::sax_parse(in, &reader);
    } catch (const std::exception&) { // what was read before stays
    }
    return reader.caption;
}

} // namespace carom
