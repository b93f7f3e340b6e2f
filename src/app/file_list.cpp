// The file browser's listing and path rules (file_list.h).
#include "file_list.h"

#include "carom/scene.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>

namespace app {
namespace fs = std::filesystem;

namespace {

std::string lower(std::string s) {
    for (char& c : s)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

bool byName(const FileEntry& a, const FileEntry& b) {
    const std::string x = lower(a.name), y = lower(b.name);
    return x != y ? x < y : a.name < b.name;
}

} // namespace

std::vector<FileEntry> listFolder(const std::string& dir, std::string* error) {
    const fs::path here = fs::path(resolvePath(dir.empty() ? "." : dir));
    std::vector<FileEntry> folders, files;
    std::error_code ec;
    fs::directory_iterator it(here, fs::directory_options::skip_permission_denied, ec);
    if (error) *error = ec ? ec.message() : "";
    for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
        const fs::path& p = it->path();
        const std::string name = p.filename().string();
        if (name.empty() || name[0] == '.') continue;
        std::error_code e2;
        if (it->is_directory(e2))
            folders.push_back({name + "/", p.string(), true});
        else if (lower(p.extension().string()) == ".json" && it->is_regular_file(e2) &&
                 carom::mayBeSceneFile(p.string())) // not CMakePresets.json nor package.json
            files.push_back({name, p.string(), false});
    }
    std::sort(folders.begin(), folders.end(), byName);
    std::sort(files.begin(), files.end(), byName);
    std::vector<FileEntry> out;
    if (here.has_relative_path()) out.push_back({"..", here.parent_path().string(), true});
    out.insert(out.end(), folders.begin(), folders.end());
    out.insert(out.end(), files.begin(), files.end());
    return out;
}

std::string resolvePath(const std::string& path) {
    if (path.empty()) return path;
    fs::path p(path);
    if (path == "~" || path.rfind("~/", 0) == 0)
        if (const char* home = std::getenv("HOME"); home && *home)
            p = fs::path(home) / path.substr(std::min<std::size_t>(2, path.size()));
    std::error_code ec;
    fs::path abs = fs::absolute(p, ec);
    if (ec) abs = p;
    abs = abs.lexically_normal();
    // "dir/" normalises to "dir/" with an empty file name: drop the trailing separator.
    if (!abs.has_filename() && abs.has_relative_path()) abs = abs.parent_path();
    return abs.string();
}

std::string withJsonExtension(const std::string& name) {
    return fs::path(name).has_extension() ? name : name + ".json";
}

std::string withCsvExtension(const std::string& name) {
    return fs::path(name).has_extension() ? name : name + ".csv";
}

bool saveNeedsConfirmation(const std::string& path) {
    std::error_code ec;
    return fs::exists(fs::path(path), ec);
}

void addRecent(std::vector<std::string>& recent, const std::string& path, std::size_t limit) {
    if (path.empty()) return;
    recent.erase(std::remove(recent.begin(), recent.end(), path), recent.end());
    recent.insert(recent.begin(), path);
    if (recent.size() > limit) recent.resize(limit);
}

} // namespace app
