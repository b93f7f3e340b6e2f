// Reading a scene file's JSON with messages that say where: line and column for bad JSON, a JSON
// pointer (RFC 6901) for everything found after parsing.
#include "scene_json.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <vector>

namespace carom::scene_json {
namespace {

// A refused value as the message quotes it: at most 40 bytes.
std::string shorten(std::string s) {
    if (s.size() <= 40) return s;
    // Cut between characters, not inside one: a UTF-8 character's continuation bytes are
    // 10xxxxxx (RFC 3629, §3). Cut inside a character, the string is invalid UTF-8, and the JSON
    // writer throws on that (found by the fuzzer: a refused value of accented letters).
    std::size_t cut = 37;
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80)
        --cut;
    return s.substr(0, cut) + "...";
}

// RFC 6901: "~" is written "~0" and "/" is written "~1" inside a pointer's reference token. A
// key longer than 40 characters is cut short: the pointer is for a message.
std::string escapeToken(const std::string& key) {
    std::string out;
    for (char c : key) {
        if (c == '~')
            out += "~0";
        else if (c == '/')
            out += "~1";
        else
            out += c;
    }
    return shorten(out);
}

// The 1-based line and column of a byte offset of text.
std::string lineColumn(const std::string& text, std::size_t offset) {
    std::size_t line = 1, column = 1;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

constexpr std::size_t kMaxDepth = 32;

// nlohmann's parse error text, "[json.exception.parse_error.101] parse error at line L, column C:
// why; last read: 'TOKEN'", as "line L, column C: bad JSON: why; last read: 'TOKE...'" (the token
// may be as long as the file). Read by hand, not with std::regex, which recurses once per
// character and overflows the stack on a long token.
std::optional<std::string> parseErrorText(const std::string& message) {
    const std::size_t at = message.find("at line ");
    if (at == std::string::npos) return std::nullopt;
    const std::size_t colon = message.find(": ", at);
    if (colon == std::string::npos) return std::nullopt;
    std::string why = message.substr(colon + 2);
    const std::string last = "last read: '";
    if (const std::size_t l = why.find(last); l != std::string::npos) {
        std::string token = why.substr(l + last.size());
        if (!token.empty() && token.back() == '\'') token.pop_back();
        why = why.substr(0, l + last.size()) + shorten(token) + "'";
    }
    return message.substr(at + 3, colon - at - 3) + ": bad JSON: " + why;
}

// A first pass over the text with nlohmann's SAX interface, building nothing: it follows the
// events to know the pointer of the current value, refuses a key that appears twice in one
// object (nlohmann would silently keep the last) and nesting deeper than a scene needs (before
// anything recursive, printing a value, meets it), and keeps the parser's error. The document
// is then built by the plain parser, which is linear in the text (the callback parser that did
// these checks before scans the whole parent array at the end of every object: quadratic).
class Checker : public nlohmann::json_sax<Json> {
  public:
    explicit Checker(const std::string& file) : file_(file) {}

    bool null() override { return value(); }
    bool boolean(bool) override { return value(); }
    bool number_integer(number_integer_t) override { return value(); }
    bool number_unsigned(number_unsigned_t) override { return value(); }
    bool number_float(number_float_t, const string_t&) override { return value(); }
    bool string(string_t&) override { return value(); }
    bool binary(binary_t&) override { return value(); }
    bool start_object(std::size_t) override { return open(false); }
    bool start_array(std::size_t) override { return open(true); }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }
    bool key(string_t& k) override {
        Level& top = levels_.back();
        top.key = k;
        if (!top.keys.insert(k).second) Where{file_, pointer()}.fail("duplicate key");
        return true;
    }
    bool parse_error(std::size_t position, const std::string& token,
                     const nlohmann::detail::exception& e) override {
        error = Error{e.id, position, token, e.what()};
        return false;
    }

    struct Error {
        int id;
        std::size_t position;
        std::string token, message;
    };
    std::optional<Error> error;

  private:
    struct Level {
        bool isArray;
        std::size_t index; // arrays: the current element
        std::string key;   // objects: the current key
        std::set<std::string> keys;
    };

    bool value() {
        enterElement();
        return true;
    }

    bool open(bool isArray) {
        enterElement();
        if (levels_.size() >= kMaxDepth)
            Where{file_, pointer()}.fail("nested deeper than " + std::to_string(kMaxDepth) +
                                         " arrays and objects");
        levels_.push_back(Level{isArray, static_cast<std::size_t>(-1), {}, {}});
        return true;
    }

    bool close() {
        levels_.pop_back();
        return true;
    }

    void enterElement() {
        if (!levels_.empty() && levels_.back().isArray) ++levels_.back().index;
    }

    std::string pointer() const {
        std::string p;
        for (const Level& l : levels_)
            p += "/" + (l.isArray ? std::to_string(l.index) : escapeToken(l.key));
        return p;
    }

    const std::string& file_;
    std::vector<Level> levels_;
};

const char* typeName(const Json& v) {
    if (v.is_number()) return "a number";
    if (v.is_string()) return "a string";
    if (v.is_boolean()) return "a boolean";
    if (v.is_null()) return "null";
    if (v.is_array()) return "an array";
    return "an object";
}

} // namespace

Where Where::at(const std::string& key) const {
    return Where{file, pointer + "/" + escapeToken(key)};
}

Where Where::at(std::size_t index) const {
    return Where{file, pointer + "/" + std::to_string(index)};
}

void Where::fail(const std::string& what) const { // the whole document has no pointer to name
    throw SceneError(file + ": " + (pointer.empty() ? "" : pointer + ": ") + what);
}

Json parseText(const std::string& text, const std::string& file) {
    // The JSON reader would end the document at a NUL byte and ignore what follows.
    if (const std::size_t nul = text.find('\0'); nul != std::string::npos)
        throw SceneError(file + ": " + lineColumn(text, nul) + ": bad JSON: a NUL byte");
    Checker checker(file);
    if (Json::sax_parse(text, &checker)) return Json::parse(text);
    const Checker::Error& e = *checker.error;
    if (e.id == 406) // a number too large for a double: "number overflow parsing '1e400'"
        throw SceneError(file + ": " + lineColumn(text, text.find(e.token)) +
                         ": bad JSON: number " + shorten(e.token) + " is too large for a double");
    if (const auto why = parseErrorText(e.message)) throw SceneError(file + ": " + *why);
    throw SceneError(file + ": " + lineColumn(text, e.position) + ": bad JSON");
}

std::string describe(const Json& value) {
    // A long string is cut before it is printed, not after.
    const std::string s =
        shorten(value.is_string() ? Json(shorten(value.get<std::string>())).dump() : value.dump());
    if (value.is_array() || value.is_object()) return std::string(typeName(value)) + " " + s;
    return s;
}

std::string number(double x) {
    std::string s = Json(x).dump(); // shortest round-trip form; "6.0" for whole numbers
    if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
    return s;
}

void checkFields(const Json& obj, const Where& where,
                 const std::vector<std::string_view>& allowed) {
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        const std::string& key = it.key();
        if (key.rfind("x-", 0) == 0) continue;
        if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
            where.at(key).fail("unknown field (names starting with \"x-\" are free for comments)");
    }
}

void requireObject(const Json& obj, const Where& where) {
    if (!obj.is_object()) where.fail(std::string("must be an object, got ") + describe(obj));
}

const Json* find(const Json& obj, const char* key) {
    auto it = obj.find(key);
    return it == obj.end() ? nullptr : &*it;
}

const Json& require(const Json& obj, const char* key, const Where& where) {
    const Json* v = find(obj, key);
    if (!v) where.at(key).fail("missing (required)");
    return *v;
}

double toFinite(const Json& v, const Where& where) {
    if (!v.is_number()) where.fail("must be a number, got " + describe(v));
    const double x = v.get<double>();
    if (!std::isfinite(x)) where.fail("must be finite, got " + describe(v));
    return x;
}

double toNumber(const Json& v, const Where& where) {
    const double x = toFinite(v, where);
    if (std::abs(x) > kMaxMagnitude) where.fail("must be at most 1e12 in size, got " + describe(v));
    return x;
}

Vec2 toVec2(const Json& v, const Where& where) {
    if (!v.is_array() || v.size() != 2)
        where.fail("must be [x, y] (two numbers), got " + describe(v));
    return {toNumber(v[0], where.at(std::size_t{0})), toNumber(v[1], where.at(std::size_t{1}))};
}

std::string toText(const Json& v, const Where& where) {
    if (!v.is_string()) where.fail("must be a string, got " + describe(v));
    return v.get<std::string>();
}

double positive(const Json& v, const Where& where) {
    const double x = toNumber(v, where);
    if (!(x > 0)) where.fail("must be > 0, got " + describe(v));
    return x;
}

} // namespace carom::scene_json
