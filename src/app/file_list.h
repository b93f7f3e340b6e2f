// What the file browser lists and decides, without ImGui or SDL (so that the tests can check it):
// a folder's entries (folders first, then the .json files), the recent files, the paths people
// type (relative ones resolve against the current directory), and when saving must ask first.
#pragma once

#include <string>
#include <vector>

namespace app {

struct FileEntry {
    std::string name; // shown: a folder ends in '/', ".." is the parent
    std::string path; // absolute
    bool folder = false;
};

// The entries of `dir`: ".." (unless dir is the root), its folders, then its .json files (any
// case of the extension) that may be scenes (carom::mayBeSceneFile: not JSON of another kind,
// such as CMakePresets.json), each group sorted by name case-insensitively; hidden entries (a
// name starting with '.') are left out. An unreadable folder gives just "..". `error` says why a
// folder could not be read (empty when it could).
std::vector<FileEntry> listFolder(const std::string& dir, std::string* error = nullptr);

// `path` made absolute against the current directory and normalised ("a/../b" -> "b"); "~/" at
// the start is the home folder. Empty stays empty.
std::string resolvePath(const std::string& path);

// A file name for saving: `name` with ".json" added when it has no extension.
std::string withJsonExtension(const std::string& name);
std::string withCsvExtension(const std::string& name); // the same with .csv

// Saving to `path` must ask before replacing: something is already there.
bool saveNeedsConfirmation(const std::string& path);

// The recent files, newest first: `path` moved (or added) to the front, at most `limit` kept.
void addRecent(std::vector<std::string>& recent, const std::string& path, std::size_t limit = 8);

} // namespace app
