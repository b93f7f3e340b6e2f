// The file browser window (file_browser.h): places on the left (the presets, the home and current
// folders, the recent files), the folder's entries on the right, a name field and the action at
// the bottom. Opening and saving go through openSceneFile and saveSceneFile (panels.cpp), so a
// refused file leaves the current scene in place and its error shows here and in the panel.
#include "file_browser.h"

#include "panels.h"
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <imgui.h>
#include <imgui_stdlib.h>

namespace app {
namespace fs = std::filesystem;

void FileBrowser::go(const std::string& dir) {
    folder = resolvePath(dir.empty() ? "." : dir);
    folderField = folder;
    entries = listFolder(folder, &listError);
    confirmPath.clear();
}

void FileBrowser::show(Mode m, const std::string& dir) {
    if (m != mode) name.clear(); // a name typed to save is not one to open, nor the reverse
    mode = m;
    open = true;
    focusName = true;
    go(!dir.empty() ? dir : !folder.empty() ? folder : ".");
}

namespace {

// The name field as a path: a whole path as it is, else inside the folder shown.
std::string target(const FileBrowser& b) {
    if (b.name.empty()) return "";
    const std::string n = b.mode == FileBrowser::Mode::Save     ? withJsonExtension(b.name)
                          : b.mode == FileBrowser::Mode::Export ? withCsvExtension(b.name)
                                                                : b.name;
    if (n[0] == '/' || n[0] == '~') return resolvePath(n);
    return resolvePath((fs::path(b.folder) / n).string());
}

// Opens or saves the named file; a folder named there is entered instead.
void act(UiContext& ui, FileBrowser& b) {
    const std::string path = target(b);
    if (path.empty()) return;
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
        b.go(path);
        b.name.clear();
        return;
    }
    if (b.mode == FileBrowser::Mode::Open) {
        if (openSceneFile(ui, path)) b.open = false;
        return;
    }
    if (saveNeedsConfirmation(path) && b.confirmPath != path) {
        b.confirmPath = path; // ask first
        return;
    }
    b.confirmPath.clear();
    if (b.mode == FileBrowser::Mode::Export ? exportFile(ui, path) : saveSceneFile(ui, path)) {
        b.open = false;
        b.go(b.folder);
    }
}

void place(FileBrowser& b, const char* label, const std::string& dir, const char* help) {
    if (dir.empty()) return;
    if (ImGui::Selectable(label, b.folder == resolvePath(dir))) b.go(dir);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s\n%s", help, resolvePath(dir).c_str());
}

void placesColumn(UiContext& ui, FileBrowser& b) {
    PanelState& p = ui.panels;
    ImGui::TextDisabled("places");
    place(b, "presets", (fs::path(p.assetDir) / "scenes").string(), "the preset scenes");
    place(b, "current folder", ".", "the folder the app was started in");
    if (const char* home = std::getenv("HOME"); home && *home) place(b, "home", home, "your home");
    ImGui::Spacing();
    ImGui::TextDisabled("recent");
    if (p.recent.empty()) ImGui::TextDisabled("  (none yet)");
    for (std::size_t i = 0; i < p.recent.size(); ++i) {
        const std::string& r = p.recent[i];
        ImGui::PushID(int(i));
        const std::string label = fs::path(r).filename().string();
        if (ImGui::Selectable(label.c_str(), false)) {
            b.go(fs::path(r).parent_path().string());
            b.name = label;
            if (b.mode == FileBrowser::Mode::Open) act(ui, b);
        }
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", r.c_str());
        ImGui::PopID();
    }
}

void entriesList(UiContext& ui, FileBrowser& b) {
    if (!b.listError.empty())
        wrappedText("cannot read this folder: " + b.listError, {1, 0.4f, 0.4f, 1});
    const FileEntry* enter = nullptr;
    for (const FileEntry& e : b.entries) {
        const bool chosen = !e.folder && e.name == b.name;
        if (e.folder)
            ImGui::PushStyleColor(ImGuiCol_Text,
                                  ImGui::GetStyleColorVec4(ImGuiCol_PlotLinesHovered));
        const bool clicked =
            ImGui::Selectable(e.name.c_str(), chosen, ImGuiSelectableFlags_AllowDoubleClick);
        if (e.folder) ImGui::PopStyleColor();
        if (!clicked) continue;
        if (e.folder) {
            enter = &e;
        } else {
            b.name = e.name;
            b.confirmPath.clear();
            if (ImGui::IsMouseDoubleClicked(0)) act(ui, b);
        }
    }
    if (enter) {
        const std::string dir = enter->path; // go() replaces the entries
        b.go(dir);
    }
    if (b.entries.size() <= (b.folder == "/" ? 0u : 1u) && b.listError.empty())
        ImGui::TextDisabled("no folders or scene files here");
}

} // namespace

void fileBrowserWindow(UiContext& ui, const Rect& view) {
    FileBrowser& b = ui.panels.browser;
    if (!b.open) return;
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    const ImVec2 size{std::min(560.0f, display.x - 20), std::min(440.0f, display.y - 20)};
    // Over the middle of the view, and wholly inside the window however small it is.
    const ImVec2 at{std::clamp(view.center().x - size.x / 2, 10.0f, display.x - size.x - 10),
                    std::clamp(view.center().y - size.y / 2, 10.0f, display.y - size.y - 10)};
    ImGui::SetNextWindowSize(size, ImGuiCond_Appearing);
    ImGui::SetNextWindowPos(at, ImGuiCond_Appearing);
    ImGui::SetNextWindowSizeConstraints({300, 240}, display);
    const bool save = b.mode != FileBrowser::Mode::Open;
    const bool exporting = b.mode == FileBrowser::Mode::Export;
    ImGui::Begin(exporting ? "Export the run (.csv, .rec, .gif) or the window (.png)###files"
                 : save    ? "Save the scene###files"
                           : "Open a scene###files",
                 &b.open, ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoCollapse);
    noteOverlay(ui.panels, "files");

    // The folder: typed (Enter goes there) or one up.
    const float upWidth = ImGui::CalcTextSize("Up").x + 2 * ImGui::GetStyle().FramePadding.x;
    ImGui::SetNextItemWidth(-upWidth - ImGui::GetStyle().ItemSpacing.x);
    if (ImGui::InputText("##folder", &b.folderField, ImGuiInputTextFlags_EnterReturnsTrue))
        b.go(b.folderField);
    ImGui::SameLine();
    if (ImGui::Button("Up")) b.go(fs::path(b.folder).parent_path().string());

    const float bottom =
        3 * ImGui::GetFrameHeightWithSpacing() + 2 * ImGui::GetTextLineHeightWithSpacing();
    const float placesWidth = std::min(150.0f, 0.3f * ImGui::GetContentRegionAvail().x);
    ImGui::BeginChild("places", {placesWidth, -bottom}, true);
    placesColumn(ui, b);
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginChild("entries", {0, -bottom}, true);
    entriesList(ui, b);
    ImGui::EndChild();
    if (!b.open) { // opened a recent file or a double-clicked one
        ImGui::End();
        return;
    }

    // The name and the action.
    const char* action = exporting ? "Export" : save ? "Save" : "Open";
    const float buttons = ImGui::CalcTextSize("Cancel").x + ImGui::CalcTextSize(action).x +
                          4 * ImGui::GetStyle().FramePadding.x +
                          2 * ImGui::GetStyle().ItemSpacing.x;
    ImGui::SetNextItemWidth(-buttons);
    if (b.focusName) {
        ImGui::SetKeyboardFocusHere();
        b.focusName = false;
    }
    bool go =
        ImGui::InputTextWithHint("##name",
                                 exporting ? "name: .csv the run, .png a picture (.csv is added)"
                                 : save    ? "file name (.json is added)"
                                           : "file name or path",
                                 &b.name,
                                 ImGuiInputTextFlags_EnterReturnsTrue |
                                     ImGuiInputTextFlags_AutoSelectAll); // typing replaces it
    if (ImGui::IsItemEdited()) b.confirmPath.clear();
    ImGui::SameLine();
    go |= ImGui::Button(action);
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) b.open = false;
    if (!b.confirmPath.empty()) {
        wrappedText(b.confirmPath + " exists. Replace it?", {1, 0.8f, 0.3f, 1});
        if (ImGui::Button("Replace")) act(ui, b);
        ImGui::SameLine();
        if (ImGui::Button("Keep it")) b.confirmPath.clear();
    } else if (go) {
        act(ui, b);
        b.focusName = true; // still open (a refused file, a folder): the cursor stays in the name
    }
    if (!ui.panels.fileMessage.empty() && b.confirmPath.empty())
        wrappedText(ui.panels.fileMessage,
                    ui.panels.fileError ? ImVec4{1, 0.4f, 0.4f, 1} : ImVec4{0, 0, 0, 0});
    ImGui::End();
}

} // namespace app
