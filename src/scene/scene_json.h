// Reading a scene file's JSON: the text to a document (bad JSON and duplicate keys refused with
// line and column), and typed access to fields whose errors name the file and the JSON pointer.
#pragma once

#include "carom/math.h"
#include "carom/scene.h"
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace carom::scene_json {

using Json = nlohmann::json;

// Where in a file: the file's name for messages and a JSON pointer ("/bodies/2/shape").
struct Where {
    const std::string& file;
    std::string pointer;
    Where at(const std::string& key) const;
    Where at(std::size_t index) const;
    [[noreturn]] void fail(const std::string& what) const; // throws SceneError
};

// Parses text; throws SceneError "FILE: line L, column C: bad JSON: ..." or for duplicate keys
// "FILE: /pointer/key: duplicate key".
Json parseText(const std::string& text, const std::string& file);

// A short rendering of a value for messages: 1.5, "abc", an object or array abbreviated.
std::string describe(const Json& value);
// A number in the shortest text that reads back as the same double ("6", "0.1", "1e+300").
std::string number(double x);

// Refuses fields of obj that are neither in allowed nor start with "x-".
void checkFields(const Json& obj, const Where& where, const std::vector<std::string_view>& allowed);
// Requires obj to be an object ("must be an object, got ...").
void requireObject(const Json& obj, const Where& where);

const Json* find(const Json& obj, const char* key);
const Json& require(const Json& obj, const char* key, const Where& where); // "missing ..."

double toFinite(const Json& v, const Where& where); // any finite number
double toNumber(const Json& v, const Where& where); // finite, |x| <= kMaxMagnitude
Vec2 toVec2(const Json& v, const Where& where);     // [x, y]
std::string toText(const Json& v, const Where& where);

// A number > 0 ("must be > 0, got -1"): sizes and masses. Settings are checked by their table.
double positive(const Json& v, const Where& where);

} // namespace carom::scene_json
