// The app's file browser, its listing and path rules (src/app/file_list.h): folders first, then
// the .json files, hidden entries left out; the presets' folder lists every preset; relative
// paths resolve against the current directory; saving over a file asks first; the recent files.
#include "file_list.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

namespace fs = std::filesystem;

fs::path freshDir(const std::string& name) {
    fs::path d =
        fs::temp_directory_path() / ("carom-files-test-" + name + "-" + std::to_string(getpid()));
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

std::vector<std::string> names(const std::vector<app::FileEntry>& entries) {
    std::vector<std::string> out;
    for (const app::FileEntry& e : entries)
        out.push_back(e.name);
    return out;
}

} // namespace

TEST(FileList, FoldersFirstThenJsonFilesHiddenLeftOut) {
    const fs::path d = freshDir("list");
    for (const char* f : {"beta", "Alpha", ".hidden"})
        fs::create_directories(d / f);
    for (const char* f : {"z.json", "a.JSON", "notes.txt", ".secret.json", "m.json.bak"})
        std::ofstream(d / f) << R"({"format": 1})";
    const std::vector<app::FileEntry> entries = app::listFolder(d.string());
    EXPECT_EQ(names(entries),
              (std::vector<std::string>{"..", "Alpha/", "beta/", "a.JSON", "z.json"}));
    EXPECT_TRUE(entries[0].folder);
    EXPECT_EQ(entries[0].path, d.parent_path().string());
    EXPECT_TRUE(entries[1].folder);
    EXPECT_FALSE(entries[3].folder);
    EXPECT_EQ(entries[4].path, (d / "z.json").string());
    fs::remove_all(d);
}

// Issue 44, item 7: a .json file that is JSON of another kind (CMakePresets.json, an array, an
// object without "format") is not offered as a scene; a scene is, and so is a file that is not
// JSON at all (a scene with a typo: opening it says where) and an empty one.
TEST(FileList, OnlyFilesThatMayBeScenesAreOffered) {
    const fs::path d = freshDir("scenes-only");
    std::ofstream(d / "CMakePresets.json") << R"({"version": 6, "configurePresets": []})";
    std::ofstream(d / "list.json") << "[1, 2, 3]";
    std::ofstream(d / "package.json") << R"({"name": "x", "formats": 1})";
    std::ofstream(d / "scene.json") << R"({"format": 1, "bodies": []})";
    std::ofstream(d / "typo.json") << R"({"format": 1, "bodies": [}")";
    std::ofstream(d / "empty.json");
    EXPECT_EQ(names(app::listFolder(d.string())),
              (std::vector<std::string>{"..", "empty.json", "scene.json", "typo.json"}));
    fs::remove_all(d);
}

TEST(FileList, AFolderThatCannotBeReadSaysWhy) {
    std::string error;
    const auto entries = app::listFolder("/nonexistent/carom/folder", &error);
    EXPECT_FALSE(error.empty());
    EXPECT_EQ(names(entries), std::vector<std::string>{".."});
}

TEST(FileList, ThePresetsFolderListsEveryPreset) {
    const fs::path scenes = fs::path(CAROM_ASSET_DIR) / "scenes";
    std::vector<std::string> expected;
    for (const auto& e : fs::directory_iterator(scenes))
        if (e.path().extension() == ".json") expected.push_back(e.path().filename().string());
    ASSERT_GE(expected.size(), 10u);
    std::vector<std::string> listed;
    for (const app::FileEntry& e : app::listFolder(scenes.string()))
        if (!e.folder) listed.push_back(e.name);
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(listed, expected);
}

TEST(FileList, RelativePathsResolveAgainstTheCurrentDirectory) {
    const fs::path cwd = fs::current_path();
    EXPECT_EQ(app::resolvePath("scene.json"), (cwd / "scene.json").string());
    EXPECT_EQ(app::resolvePath("a/../b/./scene.json"), (cwd / "b" / "scene.json").string());
    EXPECT_EQ(app::resolvePath("/tmp/x/"), "/tmp/x");
    EXPECT_EQ(app::resolvePath("/"), "/");
    EXPECT_EQ(app::resolvePath(""), "");
    if (const char* home = std::getenv("HOME"); home && *home) {
        EXPECT_EQ(app::resolvePath("~/s.json"),
                  (fs::path(home) / "s.json").lexically_normal().string());
    }
}

TEST(FileList, SavingOverAFileAsksFirst) {
    const fs::path d = freshDir("save");
    const fs::path f = d / "out.json";
    EXPECT_FALSE(app::saveNeedsConfirmation(f.string()));
    std::ofstream(f) << "{}";
    EXPECT_TRUE(app::saveNeedsConfirmation(f.string()));
    EXPECT_EQ(app::withJsonExtension("out"), "out.json");
    EXPECT_EQ(app::withJsonExtension("out.json"), "out.json");
    EXPECT_EQ(app::withJsonExtension("dir.v2/out"), "dir.v2/out.json");
    fs::remove_all(d);
}

TEST(FileList, RecentFilesNewestFirstWithoutRepeats) {
    std::vector<std::string> recent;
    for (const char* p : {"/a.json", "/b.json", "/c.json", "/a.json", ""})
        app::addRecent(recent, p, 3);
    EXPECT_EQ(recent, (std::vector<std::string>{"/a.json", "/c.json", "/b.json"}));
    app::addRecent(recent, "/d.json", 3);
    EXPECT_EQ(recent, (std::vector<std::string>{"/d.json", "/a.json", "/c.json"}));
}
