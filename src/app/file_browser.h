// The file browser: an ImGui window to open and save scene files, and to export the run as CSV
// (folders, .json files, the presets, the recent files, a name field for saving, a question before
// replacing a file). Its
// listing and path rules are in file_list.h; the window is fileBrowserWindow (panels.h).
#pragma once

#include "file_list.h"
#include <string>
#include <vector>

namespace app {

struct FileBrowser {
    enum class Mode { Open, Save, Export };
    bool open = false;
    Mode mode = Mode::Open;
    std::string folder;      // the folder shown, absolute
    std::string folderField; // the folder as typed in its field
    std::string name;        // the file name field (relative to `folder`, or a whole path)
    std::vector<FileEntry> entries;
    std::string listError;   // why `folder` could not be read
    std::string confirmPath; // Save: the existing file waiting for "Replace"
    bool focusName = false;  // put the cursor in the name field on the next frame

    // Shows `dir` (resolved against the current directory).
    void go(const std::string& dir);
    // Opens the window in `m`, in `dir` if not empty, else where it last was (or the current
    // directory).
    void show(Mode m, const std::string& dir = "");
};

} // namespace app
