// The side panels: controls on the left, graphs on the right; help and statistics windows.
#include "panels.h"
#include "timeline_label.h"
#include "tooltip.h"

#include "energy_bar.h"
#include <SDL.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <imgui.h>
#include <imgui_stdlib.h>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <variant>

namespace app {
namespace {

// Gives the world new settings through World::setSettings (validated there); a refused value is
// reported and the old settings stay. Returns whether the world took them.
bool applySettings(UiContext& ui, const carom::WorldSettings& s) {
    try {
        apply(ui.session, carom::input::Settings{s});
        ui.panels.paramError.clear();
        return true;
    } catch (const std::invalid_argument& e) {
        ui.panels.paramError = e.what();
        return false;
    }
}

// Sliders whose typed values (Ctrl+click) stay within their range too: the text is applied at
// every keystroke, and "1e4" on the way to "1e400" must not become the gravity.
bool slider(const char* label, float* v, float lo, float hi, const char* format,
            bool logarithmic = false) {
    const ImGuiSliderFlags flags =
        ImGuiSliderFlags_AlwaysClamp | (logarithmic ? ImGuiSliderFlags_Logarithmic : 0);
    return ImGui::SliderFloat(label, v, lo, hi, format, flags);
}

bool slider(const char* label, int* v, int lo, int hi, const char* format = "%d") {
    return ImGui::SliderInt(label, v, lo, hi, format, ImGuiSliderFlags_AlwaysClamp);
}

// ---- world settings, each shown as its row of the settings table says (carom/settings.h) ----

// A number setting's slider over [low, high], printed with the row's format and unit, the row's
// help as its tooltip. Typed values stay within the range, as above.
template <class T>
bool settingSlider(const carom::SettingInfo& s, const char* label, T& value, T low, T high,
                   const char* shownAs = nullptr, const char* moreHelp = nullptr) {
    constexpr ImGuiDataType type =
        std::is_same_v<T, int> ? ImGuiDataType_S32 : ImGuiDataType_Double;
    char format[32];
    std::snprintf(format, sizeof format, "%s%s%s", s.slider.format, *s.unit ? " " : "", s.unit);
    const ImGuiSliderFlags flags =
        ImGuiSliderFlags_AlwaysClamp | (s.slider.logarithmic ? ImGuiSliderFlags_Logarithmic : 0);
    const bool changed =
        ImGui::SliderScalar(label, type, &value, &low, &high, shownAs ? shownAs : format, flags);
    if (moreHelp) {
        char help[600];
        std::snprintf(help, sizeof help, "%s.\n%s", s.help, moreHelp);
        tooltip(help);
    } else {
        tooltip(s.help);
    }
    return changed;
}

// A setting's widget by the type of its value.
bool widget(const carom::SettingInfo& s, const char* label, double& value) {
    return settingSlider(s, label, value, s.slider.low, s.slider.high);
}

bool widget(const carom::SettingInfo& s, const char* label, int& value) {
    return settingSlider(s, label, value, int(s.slider.low), int(s.slider.high));
}

bool widget(const carom::SettingInfo& s, const char* label, bool& value) {
    const bool changed = ImGui::Checkbox(label, &value);
    tooltip(s.help);
    return changed;
}

bool widget(const carom::SettingInfo&, const char*, carom::Vec2&) {
    return false; // gravity has its own sliders: gravitySlider
}

// An enum setting: a combo of its choices, each with its help.
template <class E> bool widget(const carom::SettingInfo& s, const char* label, E& value) {
    const auto current = static_cast<std::size_t>(value);
    if (!ImGui::BeginCombo(label, s.choices[current].name)) {
        char help[400];
        std::snprintf(help, sizeof help, "%s.\n%s: %s", s.help, s.choices[current].name,
                      s.choices[current].help);
        tooltip(help);
        return false;
    }
    bool changed = false;
    for (std::size_t i = 0; i < s.choices.size(); ++i) {
        if (ImGui::Selectable(s.choices[i].name, i == current)) {
            value = static_cast<E>(i);
            changed = true;
        }
        tooltip(s.choices[i].help);
    }
    ImGui::EndCombo();
    return changed;
}

// The widget of the world setting with this name, labelled with its name in words unless given
// a label; a change goes to the world with what alsoChange makes of it. Returns whether the world
// took a change.
bool settingWidget(UiContext& ui, const char* name, const char* label = nullptr,
                   void (*alsoChange)(carom::WorldSettings&) = nullptr) {
    const carom::SettingInfo& s = carom::setting(name);
    char words[48];
    if (!label) {
        std::snprintf(words, sizeof words, "%s", s.name);
        std::replace(std::begin(words), std::end(words), '_', ' ');
        label = words;
    }
    carom::WorldSettings w = ui.session.world.settings();
    // A setting the current method does not read is shown greyed, with the reason.
    const bool read = carom::isRead(s, w.method, !ui.session.world.softBodies().empty());
    ImGui::BeginDisabled(!read);
    const bool changed =
        std::visit([&](auto member) { return widget(s, label, w.*member); }, s.member);
    ImGui::EndDisabled();
    if (!read) {
        const std::string why = "Not read by the " + std::string(carom::toString(w.method)) +
                                " method: " + carom::readByText(s) + ".";
        disabledTooltip(why.c_str());
    }
    if (!changed) return false;
    if (alsoChange) alsoChange(w);
    return applySettings(ui, w);
}

// The mouse spring's damping: at 0 (the default) each grab is damped critically for the grabbed
// body's mass (c = 2√(k m): input.cpp gives the grab a damping ratio of 1, forces.cpp applies it),
// which the slider says instead of "0".
void springDampingSlider(UiContext& ui) {
    const carom::SettingInfo& s = carom::setting("spring_damping");
    carom::WorldSettings w = ui.session.world.settings();
    const bool automatic = w.springDamping == 0;
    if (settingSlider(s, "spring damping", w.springDamping, s.slider.low, s.slider.high,
                      automatic ? "auto: critical" : nullptr,
                      "At 0 (auto) each grab is damped critically, c = 2√(k m) for the grabbed "
                      "body's mass m: it follows the cursor without orbiting it."))
        applySettings(ui, w);
}

// Gravity as two sliders (y is up): "gravity", its downward part from 0 to the top of its
// practical range, and "gravity x" over the whole range.
void gravitySlider(UiContext& ui, bool downward) {
    const carom::SettingInfo& s = carom::setting("gravity");
    carom::WorldSettings w = ui.session.world.settings();
    double& part = downward ? w.gravity.y : w.gravity.x;
    double shown = downward ? -part + 0.0 : part; // + 0: no "-0.00"
    if (!settingSlider(s, downward ? "gravity" : "gravity x", shown, downward ? 0 : s.slider.low,
                       s.slider.high))
        return;
    part = downward ? -shown : shown;
    applySettings(ui, w);
}

// Elasticity and friction: the world's value, and bodies may have their own. The slider shows
// the value every body uses, or "mixed" when they differ; moved, it gives every body the new
// value in the world (their own ones dropped there), and Reset brings back the scene's values.
void coefficientSlider(UiContext& ui, const char* name, const char* label, Coefficient which) {
    const carom::SettingInfo& info = carom::setting(name);
    Session& s = ui.session;
    const std::optional<double> common = commonCoefficient(s.world, which);
    carom::WorldSettings w = s.world.settings();
    double& value = which == Coefficient::Restitution ? w.restitution : w.friction;
    if (common) value = *common;
    const bool changed = settingSlider(
        info, label, value, info.slider.low, info.slider.high, common ? nullptr : "mixed",
        common ? "Every body uses this value."
               : "The bodies have values of their own (mixed). Moving the slider gives every "
                 "body the new value; Reset brings back the scene's.");
    if (changed && applySettings(ui, w)) dropOwnCoefficients(s, which);
}

// ---- the sections ----

// One line that says which thruster keys work in this scene: block1's and block2's, when the
// scene has them. Lit while a key whose block is missing is held.
void thrusterStatus(UiContext& ui) {
    const bool one = ui.session.thrusters[0].body.has_value();
    const bool two = ui.session.thrusters[1].body.has_value();
    const char* text = one && two ? "thruster keys: S F E D, J L I K"
                       : one      ? "thrusters: S F E D (no block2)"
                       : two      ? "thrusters: J L I K (no block1)"
                                  : "no thrusters (no block1, block2)";
    bool pressed = false;
    if (!ImGui::GetIO().WantCaptureKeyboard) {
        const Uint8* k = SDL_GetKeyboardState(nullptr);
        const SDL_Scancode keys1[] = {SDL_SCANCODE_S, SDL_SCANCODE_F, SDL_SCANCODE_E,
                                      SDL_SCANCODE_D};
        const SDL_Scancode keys2[] = {SDL_SCANCODE_J,  SDL_SCANCODE_L,    SDL_SCANCODE_I,
                                      SDL_SCANCODE_K,  SDL_SCANCODE_LEFT, SDL_SCANCODE_RIGHT,
                                      SDL_SCANCODE_UP, SDL_SCANCODE_DOWN};
        for (SDL_Scancode c : keys1)
            pressed |= !one && k[c];
        for (SDL_Scancode c : keys2)
            pressed |= !two && k[c];
    }
    if (pressed)
        ImGui::TextColored({1, 0.8f, 0.3f, 1}, "%s", text);
    else
        ImGui::TextDisabled("%s", text);
    tooltip("The keyboard thrusters push the bodies named block1 (S F E D) and block2 (J L I K or "
            "the arrows); a scene without them has nothing for those keys to push.");
}

void playback(UiContext& ui) {
    Stepper& st = ui.session.stepper;
    const float w = (ImGui::GetContentRegionAvail().x - 3 * ImGui::GetStyle().ItemSpacing.x) / 4;
    if (ImGui::Button(st.paused ? "Play" : "Pause", {w, 0})) st.paused = !st.paused;
    tooltip("Run or stop the simulation (Space).");
    ImGui::SameLine();
    if (ImGui::Button("Step", {w, 0})) {
        st.paused = true;
        st.requestSingleStep();
    }
    tooltip("Advance one time step and pause (period key).");
    ImGui::SameLine();
    if (ImGui::Button("Reset", {w, 0})) ui.commands.reset = true;
    tooltip("Back to the scene's start, keeping the sliders' settings (R); bodies get their "
            "scene values again, inspector edits not applied to the scene are dropped.");
    ImGui::SameLine();
    if (ImGui::Button("Fit", {w, 0})) ui.commands.fitView = true;
    tooltip("Fit the view to the scene (Home).");
    const bool building = ui.build && ui.build->on;
    if (ImGui::Button(building ? "Leave build mode (B)" : "Build (B)", {-1, 0}))
        ui.commands.toggleBuild = true;
    tooltip("Draw boxes, circles, polygons, capsules and ropes with the mouse; move, turn, pin, "
            "copy and delete bodies; undo and redo (Ctrl+Z, Ctrl+Y). The simulation pauses.");
    if (!ui.session.halted.empty()) wrappedText(ui.session.halted, {1, 0.4f, 0.4f, 1});
    if (!ui.session.resetNote.empty())
        wrappedText("Reset: " + ui.session.resetNote, {1, 0.8f, 0.3f, 1});
    const std::string& name = ui.session.scene.name;
    ImGui::TextDisabled("%s", name.empty() ? "(unnamed scene)" : name.c_str());
    if (!ui.session.scene.description.empty()) wrappedText(ui.session.scene.description);
    thrusterStatus(ui);
}

// The file dialog to save the state, its name the scene file's (or scene.json) the first time.
void showSaveDialog(UiContext& ui) {
    PanelState& p = ui.panels;
    p.browser.show(FileBrowser::Mode::Save);
    if (p.browser.name.empty())
        p.browser.name = ui.session.path.empty()
                             ? std::string("scene.json")
                             : std::filesystem::path(ui.session.path).filename().string();
}

void setNumObjects(UiContext& ui, int n) {
    carom::Scene base = ui.panels.blocksBase;
    base.settings = ui.session.world.settings(); // parameters set live are kept, as myPhysicsLab
    carom::Scene scene = blocksScene(base, n);
    try {
        replaceScene(ui.session, std::move(scene), "");
        ui.commands.fitView = true;
    } catch (const std::exception& e) {
        ui.panels.fileMessage = e.what();
        ui.panels.fileError = true;
    }
}

void sceneSection(UiContext& ui) {
    PanelState& p = ui.panels;
    const std::string current = ui.session.path.empty()
                                    ? "(generated)"
                                    : std::filesystem::path(ui.session.path).stem().string();
    if (ImGui::BeginCombo("preset", current.c_str(), ImGuiComboFlags_HeightLargest)) {
        for (const Preset& pr : p.presets) {
            if (ImGui::Selectable(pr.name.c_str(), resolvePath(pr.path) == ui.session.path))
                openSceneFile(ui, pr.path);
            if (!pr.description.empty()) // what it shows and what to try
                tooltip(((pr.title.empty() ? pr.name : pr.title) + ": " + pr.description).c_str());
        }
        ImGui::EndCombo();
    }
    tooltip("Open one of the scenes that come with Carom.");
    if (isBlocksScene(ui.session.scene)) { // elsewhere there are no numbered blocks to count
        p.numObjects = std::clamp(countBlocks(ui.session.scene), 1, 6);
        if (slider("objects", &p.numObjects, 1, 6)) setNumObjects(ui, p.numObjects);
        tooltip("Number of 1 x 3 m blocks in this scene: more or fewer blocks rebuild it.");
    }

    const float w = (ImGui::GetContentRegionAvail().x - 2 * ImGui::GetStyle().ItemSpacing.x) / 3;
    if (ImGui::Button("Open...", {w, 0})) p.browser.show(FileBrowser::Mode::Open);
    tooltip("Browse for a scene file to open (folders, .json files, the presets, recent files). "
            "You can also drop a file on the window.");
    ImGui::SameLine();
    if (ImGui::Button("Save...", {w, 0})) showSaveDialog(ui);
    tooltip("Save the current state as a scene file (asks before replacing one). Ctrl+S.");
    ImGui::SameLine();
    ImGui::BeginDisabled(p.recent.empty());
    ImGui::SetNextItemWidth(-FLT_MIN);
    if (ImGui::BeginCombo("##recent", "Recent",
                          ImGuiComboFlags_NoArrowButton | ImGuiComboFlags_HeightLargest)) {
        for (std::size_t i = 0; i < p.recent.size(); ++i) {
            ImGui::PushID(int(i));
            const std::string path = p.recent[i];
            if (ImGui::Selectable(std::filesystem::path(path).filename().string().c_str()))
                openSceneFile(ui, path);
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", path.c_str());
            ImGui::PopID();
        }
        ImGui::EndCombo();
    }
    ImGui::EndDisabled();
    if (ImGui::Button("Copy", {w, 0})) copySceneToClipboard(ui);
    tooltip("Copy the scene as it is now, with its settings, to the clipboard as the text of a "
            "scene file: paste it into a message or a file, or into Carom (Ctrl+Shift+C).");
    ImGui::SameLine();
    if (ImGui::Button("Paste", {w, 0})) pasteSceneFromClipboard(ui);
    tooltip("Open the scene whose text is on the clipboard (Ctrl+Shift+V). Text that is not a "
            "scene is refused with the reason, and this scene stays.");
    ImGui::SameLine();
    if (ImGui::Button("Export...", {-FLT_MIN, 0})) {
        p.browser.show(FileBrowser::Mode::Export);
        p.browser.name = "run.csv";
    }
    tooltip("Save the run so far, from the start of the timeline to the moment shown, as a CSV "
            "file: a row a step with the time, the energies, the momenta and every moving body's "
            "position, angle and velocities (the columns of carom-cli run --csv; Ctrl+E). A name "
            "ending in .rec saves the same span as a recording (carom --replay plays it); .gif "
            "makes an animation of the view, 30 frames a simulated second (Esc stops it); .png "
            "a picture of the window (F12).");
    // The last file message, in a box of fixed height so that nothing below moves when it comes.
    ImGui::BeginChild("file message", {0, 2 * ImGui::GetTextLineHeightWithSpacing()}, false);
    if (!p.fileMessage.empty())
        wrappedText(p.fileMessage, p.fileError ? ImVec4{1, 0.4f, 0.4f, 1} : ImVec4{0, 0, 0, 0});
    else
        wrappedText("or drop a scene file on the window");
    ImGui::EndChild();
    if (!p.fileMessage.empty() && ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", p.fileMessage.c_str());
}

void block1Mass(UiContext& ui) {
    Session& s = ui.session;
    const auto id = s.world.findBody("block1");
    const bool has = id && s.world.body(*id).isDynamic();
    float m = has ? float(s.world.body(*id).mass) : 1.0f;
    ImGui::BeginDisabled(!has);
    const bool changed = slider("mass of block1", &m, 0.1f, 10, "%.2f kg", true);
    ImGui::EndDisabled();
    tooltip(has ? "The mass of block1 (its inertia follows); Reset keeps it."
                : "This scene has no body named block1.");
    if (has && changed && m > 0) {
        apply(s, carom::input::Mass{*id, m});
        for (carom::BodyDef& d : s.scene.bodies) // Reset keeps it
            if (d.name == "block1") {
                d.mass = m;
                d.density.reset();
            }
    }
}

void physicsSection(UiContext& ui) {
    Session& s = ui.session;
    coefficientSlider(ui, "restitution", "elasticity", Coefficient::Restitution);
    coefficientSlider(ui, "friction", "friction", Coefficient::Friction);
    settingWidget(ui, "damping", nullptr, [](carom::WorldSettings& w) {
        w.angularDamping = 0.1 * w.damping; // myPhysicsLab: force −k v and torque −0.1 k ω
    });
    gravitySlider(ui, true);
    settingWidget(ui, "thrust");
    block1Mass(ui);
    settingWidget(ui, "time_step");
    float rate = float(s.stepper.timeRate);
    if (slider("time rate", &rate, 0.05f, 4, "%.2f x", true))
        s.stepper.timeRate = std::clamp(double(rate), 0.01, 10.0);
    tooltip("Simulated seconds per real second: below 1 is slow motion (the time step stays).");
    // The enum settings' choices say what they do in their tooltips (the combo's, and each
    // choice's in the open list), not in lines under them: the panel fits a 1080 p screen.
    settingWidget(ui, "method");
    settingWidget(ui, "integrator");
    settingWidget(ui, "collision_handling", "collisions");
    settingWidget(ui, "soft_resolution", "soft collisions");
    float pe = float(ui.view.peOffset);
    if (ImGui::DragFloat("PE offset", &pe, 0.1f, -1000, 1000, "%.2f J",
                         ImGuiSliderFlags_AlwaysClamp))
        ui.view.peOffset = pe;
    tooltip("Added to potential energy in the energy bar and graphs: moves its zero.");
    settingWidget(ui, "spring_frequency");
    settingWidget(ui, "spring_stiffness");
    springDampingSlider(ui);

    const bool solverOpen = ImGui::TreeNode("solver");
    tooltip("The contact solver's finer settings, and sideways gravity.");
    if (solverOpen) {
        settingWidget(ui, "velocity_iterations");
        settingWidget(ui, "position_iterations");
        settingWidget(ui, "warm_starting");
        settingWidget(ui, "distance_tolerance");
        gravitySlider(ui, false);
        ImGui::TreePop();
    }
    if (!ui.panels.paramError.empty()) wrappedText(ui.panels.paramError, {1, 0.4f, 0.4f, 1});
}

// The colours of the force arrows, as renderer.cpp's colourOf draws them.
void forceLegend() {
    static const struct {
        const char* name;
        ImU32 colour;
    } kinds[] = {{"gravity", IM_COL32(80, 220, 120, 230)},
                 {"damping", IM_COL32(180, 180, 180, 230)},
                 {"thruster", IM_COL32(255, 170, 40, 240)},
                 {"spring", IM_COL32(120, 200, 255, 240)},
                 {"contact", IM_COL32(255, 90, 200, 230)}};
    ImGui::Indent();
    for (std::size_t i = 0; i < std::size(kinds); ++i) {
        if (i % 3) ImGui::SameLine();
        const ImVec2 at = ImGui::GetCursorScreenPos();
        const float h = ImGui::GetFontSize();
        ImGui::GetWindowDrawList()->AddRectFilled(
            {at.x, at.y + h / 2 - 1.5f}, {at.x + 14, at.y + h / 2 + 1.5f}, kinds[i].colour);
        ImGui::Dummy({16, h});
        ImGui::SameLine(0, 2);
        ImGui::TextUnformatted(kinds[i].name);
    }
    ImGui::Unindent();
}

// A checkbox with its one line of help.
void checkbox(const char* label, bool* v, const char* help) {
    ImGui::Checkbox(label, v);
    tooltip(help);
}

void viewSection(UiContext& ui) {
    ViewOptions& v = ui.view;
    checkbox("forces", &v.showForces,
             "Arrows for the forces on each body; the force scale sets "
             "their length.");
    ImGui::SameLine(150);
    checkbox("contacts", &v.showContacts, "Contact points and their normals.");
    if (v.showForces) forceLegend();
    checkbox("energy bar", &v.showEnergy,
             "The energies stacked in a bar over the view, with the "
             "total and its drift since the start.");
    ImGui::SameLine(150);
    checkbox("clock", &v.showClock, "Simulated and real time, bottom left of the view.");
    checkbox("trails", &v.showTrails, "A line behind each body's centre.");
    ImGui::SameLine(150);
    checkbox("names", &v.showNames, "Each body's name on it.");
    checkbox("light background", &v.lightBackground, "A light view instead of the dark one.");
    ImGui::SameLine(150);
    checkbox("graphs", &v.showGraphs, "The graphs panel on the right.");
    checkbox("stats", &v.showStats, "Frame and step times, contacts and collisions.");
    ImGui::SameLine(150);
    checkbox("help", &v.showHelp, "The keys and mouse actions (H or F1).");
    checkbox("momentum", &v.showMomentum, "Momentum and angular momentum under the energy bar.");
    ImGui::SameLine(150);
    checkbox(
        "velocities", &v.showVelocities,
        "An arrow on each moving body: its velocity, as far as it goes in a second (at most 4 m).");
    checkbox("centre of mass", &v.showCentreOfMass,
             "The centre of mass of the moving bodies (soft ones too), and its velocity, the total "
             "momentum over the total mass, as far as it goes in a second.");
    ImGui::SameLine(150);
    checkbox("ruler", &v.showRuler,
             "A tape measure over the view (M): drag an end, or the tape to move it; it reads the "
             "length, its x and y parts and its angle.");
    ImGui::SameLine(150);
    checkbox("stopwatch", &v.showStopwatch,
             "A stopwatch of simulated time: start, stop and reset it; going back on the timeline "
             "takes it back too.");
    checkbox("profile", &v.showProfile,
             "Where the step's time goes, stage by stage, and what it works on (bodies, "
             "contacts, colours, substeps, threads).");
    slider("trail length", &v.trailLength, 10, 1200, "%d frames");
    tooltip("How many frames of each body's path the trails keep.");
    slider("force scale", &v.forceScale, 0.01f, 5, "%.2f m/N", true);
    tooltip("Length of the force arrows: metres of arrow per newton.");
}

// The side panels' backgrounds are not ImGui's: renderFrame (app.cpp) clears their rectangles to
// the window colour before ImGui draws. Under Xvfb, Mesa's software renderer shades each pixel of
// a drawn rectangle (textured and blended) at about 3.5 ns, and the two panels cover 490,000
// pixels of a 1280x800 window: 1.5 to 2 ms of each frame, which a clear does for nothing.
constexpr ImGuiWindowFlags kPanelFlags =
    ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
    ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus |
    ImGuiWindowFlags_NoBackground;

void controlsContent(UiContext& ui) {
    ImGui::PushItemWidth(-120);
    playback(ui);
    if (ImGui::CollapsingHeader("Scene", ImGuiTreeNodeFlags_DefaultOpen)) sceneSection(ui);
    if (ImGui::CollapsingHeader("Physics", ImGuiTreeNodeFlags_DefaultOpen)) physicsSection(ui);
    if (ImGui::CollapsingHeader("View", ImGuiTreeNodeFlags_DefaultOpen)) viewSection(ui);
    ImGui::PopItemWidth();
}

// The two graphs, each `h` high at most: they share what is left of the panel's height, and do
// not shrink below what keeps them readable (the panel scrolls then).
void graphsContent(UiContext& ui, float h) {
    if (ImGui::CollapsingHeader("Time graph", ImGuiTreeNodeFlags_DefaultOpen))
        timeGraphWidget(ui.plots, ui.session.world, h);
    if (ImGui::CollapsingHeader("X-Y graph", ImGuiTreeNodeFlags_DefaultOpen))
        xyGraphWidget(ui.plots, ui.session.world, h);
}

float graphHeight(float panelHeight) {
    return std::max(140.0f, (panelHeight - 260) / 2);
}

void controlsWindow(UiContext& ui, ImVec2 display, const PanelLayout& layout) {
    ImGui::SetNextWindowPos({0, 0});
    ImGui::SetNextWindowSize({layout.left, display.y});
    ImGui::Begin(layout.tabbed ? "Panels###Controls" : "Controls###Controls", nullptr,
                 kPanelFlags | (layout.tabbed ? ImGuiWindowFlags_NoTitleBar : 0));
    if (!layout.tabbed) {
        ui.panels.controlsList = ImGui::GetWindowDrawList();
        controlsContent(ui);
        ui.panels.controlsScroll = ImGui::GetScrollMaxY();
    } else if (ImGui::BeginTabBar("panels")) {
        // A narrow window: controls and graphs as two tabs of one panel.
        if (ImGui::BeginTabItem("Controls")) {
            ImGui::BeginChild("controls");
            controlsContent(ui);
            ui.panels.controlsScroll = ImGui::GetScrollMaxY();
            ImGui::EndChild();
            ImGui::EndTabItem();
        }
        if (ImGui::BeginTabItem("Graphs")) {
            ImGui::BeginChild("graphs");
            graphsContent(ui, graphHeight(display.y - ImGui::GetFrameHeight()));
            ImGui::EndChild();
            ImGui::EndTabItem();
        }
        ImGui::EndTabBar();
    }
    ImGui::End();
}

void graphsWindow(UiContext& ui, ImVec2 display, const PanelLayout& layout) {
    ImGui::SetNextWindowPos({display.x - layout.right, 0});
    ImGui::SetNextWindowSize({layout.right, display.y});
    ImGui::Begin("Graphs", &ui.view.showGraphs, kPanelFlags);
    ui.panels.graphsList = ImGui::GetWindowDrawList();
    graphsContent(ui, graphHeight(display.y));
    ImGui::End();
}

// The stats box's height (five lines, or two when compact) and the clock's line at the bottom of
// the view.
float statsHeight(bool compact) {
    return (compact ? 2 : 5) * ImGui::GetTextLineHeightWithSpacing() +
           2 * ImGui::GetStyle().WindowPadding.y;
}
float clockLine() {
    return ImGui::GetFontSize() + 16;
}
// Too narrow a view for the clock and the stats side by side: the stats, short, go above the
// clock.
bool narrowView(const Rect& view) {
    const float clock = ImGui::CalcTextSize("time 000.00 s    real 000.00 s    paused").x;
    const float stats = ImGui::CalcTextSize("60 fps  frame 16.7 ms  step 0.0123 ms x2").x;
    return view.size().x < clock + stats + 60;
}

// The timeline strip's height: one slider in a window.
float timelineHeight() {
    return ImGui::GetFrameHeight() + 2 * ImGui::GetStyle().WindowPadding.y;
}

// How far above the bottom of the view the timeline's bottom is: over the clock, and in a narrow
// view over the short stats too, which fill its width there (at 800 × 600 they hid under it).
float timelineBelow(const ViewOptions& v, const Rect& view) {
    const float clock = v.showClock ? clockLine() : 10;
    if (!v.showStats || !narrowView(view)) return clock;
    return 10 + (v.showClock ? clockLine() : 0) + statsHeight(true) + 4;
}

void statsWindow(UiContext& ui, const Rect& view) {
    const Stats& st = ui.stats;
    const carom::World& w = ui.session.world;
    const carom::Diagnostics& d = w.diagnostics();
    const CollisionReadout& c = st.collisions;
    char lines[5][128];
    int n = 0;
    std::snprintf(lines[n++], sizeof lines[0], "%.0f fps  frame %.1f ms  step %.3g ms x%d", st.fps,
                  st.frameMs, st.msPerStep, st.stepsLastFrame);
    // A narrow view (a small window) gets the short form: two lines.
    const bool compact = narrowView(view);
    if (compact) {
        std::snprintf(lines[n++], sizeof lines[0], "bodies %zu  contacts %zu  collisions %llu",
                      w.bodies().size(), w.contacts().size(),
                      static_cast<unsigned long long>(d.totalCollisions));
    } else {
        std::snprintf(lines[n++], sizeof lines[0], "bodies %zu  contacts %zu (%d points)",
                      w.bodies().size(), w.contacts().size(), d.contactPoints);
        std::snprintf(lines[n++], sizeof lines[0], "collisions %d last step, %llu in all",
                      d.collisions, static_cast<unsigned long long>(d.totalCollisions));
        for (const std::string& line : collisionLines(c, d)) // two, always: the box keeps its size
            std::snprintf(lines[n++], sizeof lines[0], "%s", line.c_str());
    }
    // The window is sized from this frame's text (an auto-resizing window follows a frame late,
    // and clipped the first line while its numbers grew), a little wider so that it does not
    // change with every digit, and never wider than the view.
    float width = 0;
    for (int i = 0; i < n; ++i)
        width = std::max(width, ImGui::CalcTextSize(lines[i]).x);
    const ImVec2 pad = ImGui::GetStyle().WindowPadding;
    const float em = ImGui::GetFontSize();
    width = std::min(std::ceil((width + 2 * pad.x) / em + 0.5f) * em, view.size().x - 20);
    // Bottom right, beside the clock, or above it in a narrow view: in the strip that the
    // camera's fit leaves free (fitViewRect).
    const float below = compact && ui.view.showClock ? clockLine() : 0;
    ImGui::SetNextWindowPos({view.max.x - 10, view.max.y - 10 - below}, ImGuiCond_Always, {1, 1});
    ImGui::SetNextWindowSize({width, statsHeight(compact)});
    ImGui::SetNextWindowBgAlpha(0.55f);
    ImGui::Begin("Stats", &ui.view.showStats,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoSavedSettings |
                     ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav);
    noteOverlay(ui.panels, "stats");
    for (int i = 0; i < n; ++i)
        ImGui::TextUnformatted(lines[i]);
    ImGui::End();
}

// The first-start hint, low in the view, until the first click or key press anywhere (then
// remembered in the prefs).
void hintWindow(UiContext& ui, const Rect& view) {
    const ImGuiIO& io = ImGui::GetIO();
    bool interacted = io.InputQueueCharacters.Size > 0 || io.MouseWheel != 0;
    for (int b = 0; b < IM_ARRAYSIZE(io.MouseClicked); ++b)
        interacted |= io.MouseClicked[b];
    for (int k = 0; k < IM_ARRAYSIZE(io.KeysDown); ++k)
        interacted |= io.KeysDown[k] && io.KeysDownDuration[k] == 0.0f;
    if (interacted) {
        ui.view.showHint = false;
        return;
    }
    // Under the energy bar, in the middle, as wide as the view allows.
    const float width = std::min(view.size().x - 40, 34 * ImGui::GetFontSize());
    ImGui::SetNextWindowPos({view.center().x, view.min.y + belowEnergyBar(ui.view) + 10},
                            ImGuiCond_Always, {0.5f, 0});
    ImGui::SetNextWindowSize({width, 0});
    ImGui::SetNextWindowBgAlpha(0.85f);
    ImGui::Begin("First steps", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoSavedSettings |
                     ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav);
    noteOverlay(ui.panels, "hint");
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted("Drag a body to pull it on a spring (paused: to move it); drag empty "
                           "space to pan, wheel to zoom.");
    const auto& t = ui.session.thrusters;
    if (t[0].body && t[1].body)
        ImGui::TextUnformatted("Keys S F E D fly block1, J L I K or the arrows fly block2 "
                               "(Shift: spin).");
    else if (t[0].body)
        ImGui::TextUnformatted("Keys S F E D fly block1 (Shift: spin).");
    ImGui::TextUnformatted("Space plays and pauses. H or F1: every key and mouse action. "
                           "Rest the mouse on a control to see what it does.");
    ImGui::TextDisabled("(This hint goes at the first click or key.)");
    ImGui::PopTextWrapPos();
    ImGui::End();
}

void helpWindow(UiContext& ui, const Rect& view) {
    ImGui::SetNextWindowPos(view.center(), ImGuiCond_Appearing, {0.5f, 0.5f});
    ImGui::Begin("Help", &ui.view.showHelp, ImGuiWindowFlags_AlwaysAutoResize);
    noteOverlay(ui.panels, "help");
    static const char* rows[][2] = {
        {"Space", "play / pause"},
        {"R", "reset to the scene's start"},
        {". (period)", "one step forward (pauses; held, repeats)"},
        {", (comma)", "one step back (pauses; held, repeats)"},
        {"the timeline", "click or drag: see any moment again (paused)"},
        {"[ and ]", "elasticity down / up by 0.1"},
        {"Home", "fit the view to the scene"},
        {"Tab", "hide / show all panels"},
        {"H or F1", "this help"},
        {"Ctrl+Q", "quit"},
        {"Ctrl+O / Ctrl+S", "open a scene file / save the state as one"},
        {"Ctrl+Shift+C / V", "copy the scene as text / open the text copied"},
        {"Ctrl+E / F12", "export the run so far as CSV or GIF / the window as PNG"},
        {"M", "the ruler: drag its ends, or its tape to move it"},
        {"B",
         "build mode: draw (1-6: select, box, circle, polygon,\n capsule, rope), G grid, P pin, "
         "Q/W turn, Ctrl+D, Delete"},
        {"Ctrl+Z / Ctrl+Y", "undo / redo an edit"},
        {"S F E D", "block1 thrusters: left, right, up, down"},
        {"J L I K, arrows", "block2 thrusters: left, right, up, down"},
        {"", "(only in scenes with bodies named block1 / block2;\n the line under the scene name "
             "says)"},
        {"Shift + left/right", "spin instead of push"},
        {"drag a body", "mouse spring (running) / move it (paused);\n a press within 12 px of a "
                        "body grabs it"},
        {"Ctrl/Alt + drag", "rotate the body (paused)"},
        {"click a body", "open it in the inspector"},
        {"drag empty space", "pan (also middle/right button, Shift+drag)"},
        {"wheel", "zoom about the cursor"},
        {"drop a file", "opens it (Open... in Scene browses)"},
    };
    if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
        for (const auto& r : rows) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(r[0]);
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(r[1]);
        }
        ImGui::EndTable();
    }
    ImGui::End();
}

} // namespace

PanelLayout panelLayout(const ViewOptions& v, ImVec2 display) {
    PanelLayout l;
    if (!v.showUi) return l;
    const float left = std::clamp(0.22f * display.x, 260.0f, 330.0f);
    const float right = std::clamp(0.26f * display.x, 280.0f, 440.0f);
    if (v.showControls) l.left = left;
    if (v.showGraphs) l.right = right;
    if (l.left > 0 && l.right > 0 && l.left + l.right > 0.5f * display.x) {
        l.left = std::clamp(0.36f * display.x, 280.0f, 340.0f);
        l.right = 0;
        l.tabbed = true;
    }
    return l;
}

Rect simViewRect(const ViewOptions& v, ImVec2 display) {
    const PanelLayout l = panelLayout(v, display);
    Rect r{{l.left, 0}, {display.x - l.right, display.y}};
    if (r.max.x - r.min.x < 100) r = {{0, 0}, display};
    return r;
}

Rect fitViewRect(const ViewOptions& v, ImVec2 display) {
    Rect r = simViewRect(v, display);
    const float top = v.showEnergy ? belowEnergyBar(v) + 4 : 0;
    float bottom = v.showClock ? clockLine() : 0;
    if (v.showUi && v.showStats)
        bottom =
            narrowView(r) ? timelineBelow(v, r) + timelineHeight() + 4 : statsHeight(false) + 14;
    if (r.size().y - top - bottom > 100) {
        r.min.y += top;
        r.max.y -= bottom;
    }
    return r;
}

void wrappedText(const std::string& text, ImVec4 color) {
    // Lines broken at spaces, after a '/' (long paths) and at '\n'; never inside a number. A
    // piece wider than the line stands alone on its line.
    const float width = std::max(ImGui::GetContentRegionAvail().x, 20.0f);
    std::vector<std::string> lines;
    std::string line, piece;
    auto place = [&](const std::string& sep) { // `piece` onto the line, then `sep`
        if (!line.empty() && ImGui::CalcTextSize((line + piece).c_str()).x > width) {
            while (!line.empty() && line.back() == ' ')
                line.pop_back();
            lines.push_back(line);
            line.clear();
        }
        line += piece + sep;
        piece.clear();
    };
    for (char c : text) {
        if (c == ' ') {
            place(" ");
        } else if (c == '\n') {
            place("");
            lines.push_back(line);
            line.clear();
        } else {
            piece += c;
            if (c == '/') place("");
        }
    }
    place("");
    lines.push_back(line);
    for (const std::string& l : lines)
        if (color.w > 0)
            ImGui::TextColored(color, "%s", l.c_str());
        else
            ImGui::TextDisabled("%s", l.c_str());
}

namespace {

// A preset's file: they have their own list, and stay out of the recent files.
bool isPreset(const PanelState& p, const std::string& path) {
    return std::any_of(p.presets.begin(), p.presets.end(),
                       [&](const Preset& pr) { return resolvePath(pr.path) == path; });
}

} // namespace

bool reportFileAction(UiContext& ui, const std::function<std::string()>& action) {
    try {
        ui.panels.fileMessage = action();
        ui.panels.fileError = false;
        return true;
    } catch (const std::exception& e) { // SceneError, or a world the engine refused, ...
        ui.panels.fileMessage = e.what();
        ui.panels.fileError = true;
        return false;
    }
}

namespace {

// A scene opened (from a file or the clipboard): the session's, its view fitted.
void openScene(UiContext& ui, carom::Scene scene, const std::string& path) {
    replaceScene(ui.session, std::move(scene), path);
    ui.panels.numObjects = std::max(1, countBlocks(ui.session.scene));
    ui.commands.fitView = true;
}

} // namespace

bool openSceneFile(UiContext& ui, const std::string& path) {
    const std::string full = resolvePath(path);
    return reportFileAction(ui, [&] {
        openScene(ui, carom::loadScene(full), full);
        if (!isPreset(ui.panels, full)) addRecent(ui.panels.recent, full);
        return "opened " + full;
    });
}

// The scene as it is now, with its settings, as the text of a scene file (docs/scene-format.md):
// what Save writes, given to the system's clipboard, to paste into a message, a file or another
// Carom (myPhysicsLab shares a simulation as a URL).
bool copySceneToClipboard(UiContext& ui) {
    return reportFileAction(ui, [&] {
        const std::string text = carom::serializeScene(sceneNow(ui.session));
        if (SDL_SetClipboardText(text.c_str()) != 0)
            throw std::runtime_error(std::string("the clipboard refused the scene: ") +
                                     SDL_GetError());
        return "copied the scene to the clipboard (" + std::to_string(text.size()) +
               " bytes of text)";
    });
}

// The clipboard's text opened as a scene; text that is not one is refused with the reader's
// message (line, column, field), and the scene open stays.
bool pasteSceneFromClipboard(UiContext& ui) {
    return reportFileAction(ui, [&] {
        char* raw = SDL_GetClipboardText(); // "" when there is none; SDL's to free
        const std::string text = raw ? raw : "";
        SDL_free(raw);
        if (text.empty())
            throw std::runtime_error("the clipboard holds no text to open as a scene");
        openScene(ui, carom::parseScene(text, "the clipboard"), "");
        return "opened the scene on the clipboard (" + std::to_string(text.size()) + " bytes)";
    });
}

bool saveSceneFile(UiContext& ui, const std::string& path) {
    const std::string full = resolvePath(path);
    return reportFileAction(ui, [&] {
        carom::saveScene(sceneNow(ui.session), full);
        addRecent(ui.panels.recent, full);
        return "saved " + full;
    });
}

bool statsOnTop(const Rect&) {
    return false; // always at the bottom now, where the camera's fit leaves room for them
}

float belowEnergyBar(const ViewOptions& view) {
    return view.showEnergy ? kEnergyBarTop + energyBarHeight(view.showMomentum) : 0;
}

void noteOverlay(PanelState& panels, const char* name) {
    const ImVec2 at = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
    panels.overlays.push_back(Rect{at, {at.x + size.x, at.y + size.y}});
    panels.overlayNames.push_back(name);
}

// The timeline: a strip at the bottom of the view, above the clock and left of the stats, over
// the span the history holds. Its handle is the world's moment; dragged, the world (and the
// graphs, the energy bar, the trails, the clock) shows that moment, paused there.
void timelineStrip(UiContext& ui, const Rect& view) {
    Session& s = ui.session;
    if (!s.historyOn || s.history.empty()) return;
    const float stats = ui.view.showStats && !narrowView(view)
                            ? ImGui::CalcTextSize("60 fps  frame 16.7 ms  step 0.0123 ms x2").x + 40
                            : 0;
    const float width = std::max(200.0f, view.size().x - stats - 30);
    const float below = timelineBelow(ui.view, view);
    ImGui::SetNextWindowPos({view.min.x + 10, view.max.y - below}, ImGuiCond_Always, {0, 1});
    ImGui::SetNextWindowSize({width, 0});
    ImGui::SetNextWindowBgAlpha(0.55f);
    ImGui::Begin("Timeline", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoSavedSettings |
                     ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav);
    noteOverlay(ui.panels, "timeline");
    const std::uint64_t first = s.history.first(), last = s.history.last();
    std::uint64_t now = std::clamp(s.world.stepCount(), first, last);
    const std::string text = timelineLabel(s); // the clock's time (timeline_label.h)
    if (ImGui::Button("Save run...")) {
        ui.panels.browser.show(FileBrowser::Mode::Export);
        ui.panels.browser.name = "run.rec";
    }
    tooltip("Save the run, from the timeline's start to the moment shown, as a recording (.rec) "
            "that carom --replay and carom-cli replay play to the same bits; or, named .csv or "
            ".gif, its numbers or an animation of the view (Export... in Scene).");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-1);
    if (ImGui::SliderScalar("##timeline", ImGuiDataType_U64, &now, &first, &last, text.c_str()) &&
        now != s.world.stepCount())
        ui.commands.seekTo = now;
    tooltip("The recorded history: drag to see any moment again (paused there). Play follows the "
            "recording; a change made in the past drops what came after it. ',' and '.' step "
            "back and forward.");
    if (pastRecordingEnd(s))
        ImGui::TextColored({1, 0.75f, 0.3f, 1}, "past the recording's end: new steps");
    ImGui::End();
}

void drawPanels(UiContext& ui) {
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    const Rect view = simViewRect(ui.view, display);
    const PanelLayout layout = panelLayout(ui.view, display);
    ui.panels.drawn = ui.view.showUi ? layout : PanelLayout{};
    ui.panels.controlsList = ui.panels.graphsList = nullptr;
    ui.panels.overlays.clear();
    ui.panels.overlayNames.clear();
    ui.plots.timeFrameHeight = ui.plots.xyFrameHeight = 0; // until drawn in this frame
    const ImGuiIO& io = ImGui::GetIO();
    if (io.KeyCtrl && !io.WantTextInput && ImGui::IsKeyPressed(SDL_SCANCODE_O, false))
        ui.panels.browser.show(FileBrowser::Mode::Open); // Ctrl+O: the file browser
    if (io.KeyCtrl && !io.WantTextInput && ImGui::IsKeyPressed(SDL_SCANCODE_S, false))
        showSaveDialog(ui); // Ctrl+S: Save...
    if (io.KeyCtrl && !io.WantTextInput && ImGui::IsKeyPressed(SDL_SCANCODE_E, false)) {
        ui.panels.browser.show(FileBrowser::Mode::Export); // Ctrl+E: the run as CSV
        ui.panels.browser.name = "run.csv";
    }
    if (!io.WantTextInput && ImGui::IsKeyPressed(SDL_SCANCODE_F12, false)) {
        ui.panels.browser.show(FileBrowser::Mode::Export); // F12: a picture of the window
        ui.panels.browser.name = "carom.png";
    }
    if (io.KeyCtrl && io.KeyShift && !io.WantTextInput) { // the scene as text, to share
        if (ImGui::IsKeyPressed(SDL_SCANCODE_C, false)) copySceneToClipboard(ui);
        if (ImGui::IsKeyPressed(SDL_SCANCODE_V, false)) pasteSceneFromClipboard(ui);
    }
    if (!ui.panels.droppedPath.empty()) { // a file dropped on the window
        openSceneFile(ui, ui.panels.droppedPath);
        ui.panels.droppedPath.clear();
    }
    if (ui.view.showUi) {
        if (layout.left > 0) controlsWindow(ui, display, layout);
        if (layout.right > 0) graphsWindow(ui, display, layout);
        if (ui.view.showStats) statsWindow(ui, view);
        if (ui.view.showProfile) profileWindow(ui, view);
        if (ui.view.showStopwatch) stopwatchWindow(ui, view);
        timelineStrip(ui, view);
        const bool building = ui.build && ui.build->on; // its selection opens no inspector
        if (ui.session.selected && !building) inspectorWindow(ui, view);
        if (ui.session.selectedSoft) softInspectorWindow(ui, view);
        if (building) buildWindow(*ui.build, ui.session, view, belowEnergyBar(ui.view), ui.panels);
    }
    if (ui.view.showHelp) helpWindow(ui, view);
    if (ui.view.showHint) hintWindow(ui, view);
    fileBrowserWindow(ui, view);
}

} // namespace app
