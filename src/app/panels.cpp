// The side panels: controls on the left, graphs on the right; help and statistics windows.
#include "panels.h"

#include "energy_bar.h"
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
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
        ui.session.world.setSettings(s);
        ui.panels.paramError.clear();
        return true;
    } catch (const std::invalid_argument& e) {
        ui.panels.paramError = e.what();
        return false;
    }
}

// The last item's help, shown while the mouse rests on it (not while it is dragged), wrapped at
// about 40 characters.
void tooltip(const char* text) {
    if (!ImGui::IsItemHovered() || ImGui::IsItemActive()) return;
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(20 * ImGui::GetFontSize());
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
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
bool settingSlider(const carom::SettingInfo& s, const char* label, T& value, T low, T high) {
    constexpr ImGuiDataType type =
        std::is_same_v<T, int> ? ImGuiDataType_S32 : ImGuiDataType_Double;
    char format[32];
    std::snprintf(format, sizeof format, "%s%s%s", s.slider.format, *s.unit ? " " : "", s.unit);
    const ImGuiSliderFlags flags =
        ImGuiSliderFlags_AlwaysClamp | (s.slider.logarithmic ? ImGuiSliderFlags_Logarithmic : 0);
    const bool changed = ImGui::SliderScalar(label, type, &value, &low, &high, format, flags);
    tooltip(s.help);
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
    if (!std::visit([&](auto member) { return widget(s, label, w.*member); }, s.member))
        return false;
    if (alsoChange) alsoChange(w);
    return applySettings(ui, w);
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

// Elasticity and friction are one value for every body, as in myPhysicsLab: the world's, each
// body's own dropped, in the world and in the scene that Reset rebuilds.
void coefficientSlider(UiContext& ui, const char* name, const char* label,
                       void (carom::World::*setOwn)(carom::BodyId, std::optional<double>),
                       std::optional<double> carom::BodyDef::*own) {
    if (!settingWidget(ui, name, label)) return;
    Session& s = ui.session;
    for (carom::BodyId i = 0; i < s.world.bodies().size(); ++i)
        (s.world.*setOwn)(i, std::nullopt);
    for (carom::BodyDef& d : s.scene.bodies)
        (d.*own).reset();
}

// ---- the sections ----

void playback(UiContext& ui) {
    Stepper& st = ui.session.stepper;
    const float w = (ImGui::GetContentRegionAvail().x - 3 * ImGui::GetStyle().ItemSpacing.x) / 4;
    if (ImGui::Button(st.paused ? "Play" : "Pause", {w, 0})) st.paused = !st.paused;
    ImGui::SameLine();
    if (ImGui::Button("Step", {w, 0})) {
        st.paused = true;
        st.requestSingleStep();
    }
    ImGui::SameLine();
    if (ImGui::Button("Reset", {w, 0})) ui.commands.reset = true;
    ImGui::SameLine();
    if (ImGui::Button("Fit", {w, 0})) ui.commands.fitView = true;
    if (!ui.session.halted.empty()) {
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored({1, 0.4f, 0.4f, 1}, "%s", ui.session.halted.c_str());
        ImGui::PopTextWrapPos();
    }
    const std::string& name = ui.session.scene.name;
    ImGui::TextDisabled("%s", name.empty() ? "(unnamed scene)" : name.c_str());
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
    if (ImGui::BeginCombo("preset", current.c_str())) {
        for (const Preset& pr : p.presets)
            if (ImGui::Selectable(pr.name.c_str(), pr.path == ui.session.path))
                openSceneFile(ui, pr.path);
        ImGui::EndCombo();
    }
    if (slider("objects", &p.numObjects, 1, 6)) setNumObjects(ui, p.numObjects);
    tooltip("Number of 1 x 3 m blocks in the Rigid Body Collisions scene (rebuilds it).");

    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - 60);
    const bool enterOpen = ImGui::InputTextWithHint("##open", "scene.json", &p.openPath,
                                                    ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    if ((ImGui::Button("Open", {-1, 0}) || enterOpen) && !p.openPath.empty())
        openSceneFile(ui, p.openPath);
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - 60);
    const bool enterSave = ImGui::InputTextWithHint("##save", "out.json", &p.savePath,
                                                    ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    if ((ImGui::Button("Save", {-1, 0}) || enterSave) && !p.savePath.empty()) {
        try {
            carom::saveScene(carom::captureScene(ui.session.world, ui.session.scene.name),
                             p.savePath);
            p.fileMessage = "saved " + p.savePath;
            p.fileError = false;
        } catch (const std::exception& e) {
            p.fileMessage = e.what();
            p.fileError = true;
        }
    }
    if (!p.fileMessage.empty()) {
        ImGui::PushTextWrapPos(0);
        if (p.fileError)
            ImGui::TextColored({1, 0.4f, 0.4f, 1}, "%s", p.fileMessage.c_str());
        else
            ImGui::TextDisabled("%s", p.fileMessage.c_str());
        ImGui::PopTextWrapPos();
    }
}

void block1Mass(UiContext& ui) {
    Session& s = ui.session;
    const auto id = s.world.findBody("block1");
    if (!id || !s.world.body(*id).isDynamic()) return;
    float m = float(s.world.body(*id).mass);
    if (slider("mass of block1", &m, 0.1f, 10, "%.2f kg", true) && m > 0) {
        s.world.setMass(*id, m);
        for (carom::BodyDef& d : s.scene.bodies) // Reset keeps it
            if (d.name == "block1") {
                d.mass = m;
                d.density.reset();
            }
    }
}

void physicsSection(UiContext& ui) {
    Session& s = ui.session;
    coefficientSlider(ui, "restitution", "elasticity", &carom::World::setRestitution,
                      &carom::BodyDef::restitution);
    coefficientSlider(ui, "friction", "friction", &carom::World::setFriction,
                      &carom::BodyDef::friction);
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
    settingWidget(ui, "method");
    settingWidget(ui, "integrator");
    settingWidget(ui, "collision_handling", "collisions");
    float pe = float(ui.view.peOffset);
    if (ImGui::DragFloat("PE offset", &pe, 0.1f, -1000, 1000, "%.2f J",
                         ImGuiSliderFlags_AlwaysClamp))
        ui.view.peOffset = pe;
    tooltip("Added to potential energy in the energy bar and graphs: moves its zero.");
    settingWidget(ui, "spring_stiffness");
    settingWidget(ui, "spring_damping");

    if (ImGui::TreeNode("solver")) {
        settingWidget(ui, "velocity_iterations");
        settingWidget(ui, "position_iterations");
        settingWidget(ui, "warm_starting");
        settingWidget(ui, "distance_tolerance");
        gravitySlider(ui, false);
        ImGui::TreePop();
    }
    if (!ui.panels.paramError.empty())
        ImGui::TextColored({1, 0.4f, 0.4f, 1}, "%s", ui.panels.paramError.c_str());
}

void viewSection(UiContext& ui) {
    ViewOptions& v = ui.view;
    ImGui::Checkbox("forces", &v.showForces);
    ImGui::SameLine(150);
    ImGui::Checkbox("contacts", &v.showContacts);
    ImGui::Checkbox("energy bar", &v.showEnergy);
    ImGui::SameLine(150);
    ImGui::Checkbox("clock", &v.showClock);
    ImGui::Checkbox("trails", &v.showTrails);
    ImGui::SameLine(150);
    ImGui::Checkbox("names", &v.showNames);
    ImGui::Checkbox("light background", &v.lightBackground);
    ImGui::SameLine(150);
    ImGui::Checkbox("graphs", &v.showGraphs);
    ImGui::Checkbox("stats", &v.showStats);
    ImGui::SameLine(150);
    ImGui::Checkbox("help", &v.showHelp);
    slider("trail length", &v.trailLength, 10, 1200, "%d frames");
    slider("force scale", &v.forceScale, 0.01f, 5, "%.2f m/N", true);
}

void controlsWindow(UiContext& ui, ImVec2 display) {
    ImGui::SetNextWindowPos({0, 0});
    ImGui::SetNextWindowSize({leftPanelWidth(display), display.y});
    ImGui::Begin("Controls", nullptr,
                 ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                     ImGuiWindowFlags_NoSavedSettings);
    ImGui::PushItemWidth(-120);
    playback(ui);
    if (ImGui::CollapsingHeader("Scene", ImGuiTreeNodeFlags_DefaultOpen)) sceneSection(ui);
    if (ImGui::CollapsingHeader("Physics", ImGuiTreeNodeFlags_DefaultOpen)) physicsSection(ui);
    if (ImGui::CollapsingHeader("View", ImGuiTreeNodeFlags_DefaultOpen)) viewSection(ui);
    ImGui::PopItemWidth();
    ImGui::End();
}

void graphsWindow(UiContext& ui, ImVec2 display) {
    ImGui::SetNextWindowPos({display.x - rightPanelWidth(display), 0});
    ImGui::SetNextWindowSize({rightPanelWidth(display), display.y});
    ImGui::Begin("Graphs", &ui.view.showGraphs,
                 ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                     ImGuiWindowFlags_NoSavedSettings);
    const float h = std::max(140.0f, (display.y - 260) / 2);
    if (ImGui::CollapsingHeader("Time graph", ImGuiTreeNodeFlags_DefaultOpen))
        timeGraphWidget(ui.plots, ui.session.world, h);
    if (ImGui::CollapsingHeader("X-Y graph", ImGuiTreeNodeFlags_DefaultOpen))
        xyGraphWidget(ui.plots, ui.session.world, h);
    ImGui::End();
}

void statsWindow(UiContext& ui, const Rect& view) {
    // Bottom right, beside the clock; in a narrow view, top right under the energy bar.
    if (!statsOnTop(view)) {
        ImGui::SetNextWindowPos({view.max.x - 10, view.max.y - 10}, ImGuiCond_Always, {1, 1});
    } else {
        ImGui::SetNextWindowPos({view.max.x - 10, view.min.y + belowEnergyBar(ui.view) + 10},
                                ImGuiCond_Always, {1, 0});
    }
    ImGui::SetNextWindowBgAlpha(0.55f);
    ImGui::Begin("Stats", &ui.view.showStats,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                     ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                     ImGuiWindowFlags_NoNav);
    noteOverlay(ui.panels);
    const Stats& st = ui.stats;
    const carom::World& w = ui.session.world;
    const carom::Diagnostics& d = w.diagnostics();
    const CollisionReadout& c = st.collisions;
    ImGui::Text("%.0f fps  frame %.1f ms  step %.3g ms x%d", st.fps, st.frameMs, st.msPerStep,
                st.stepsLastFrame);
    ImGui::Text("bodies %zu  contacts %zu (%d points)", w.bodies().size(), w.contacts().size(),
                d.contactPoints);
    ImGui::Text("collisions %d last step, %llu in all", d.collisions,
                static_cast<unsigned long long>(d.totalCollisions));
    if (c.lastCount > 0) {
        ImGui::Text("last %d at %.2f s: dE %+.2g J each", c.lastCount, c.lastTime,
                    c.lastEnergy / c.lastCount);
        ImGui::Text("mean dE per collision %+.2g J", d.totalCollisionEnergy / d.totalCollisions);
    }
    ImGui::End();
}

void helpWindow(UiContext& ui, const Rect& view) {
    ImGui::SetNextWindowPos(view.center(), ImGuiCond_Appearing, {0.5f, 0.5f});
    ImGui::Begin("Help", &ui.view.showHelp, ImGuiWindowFlags_AlwaysAutoResize);
    noteOverlay(ui.panels);
    static const char* rows[][2] = {
        {"Space", "play / pause"},
        {"R", "reset to the scene's start"},
        {". (period)", "single step (pauses)"},
        {"Home", "fit the view to the scene"},
        {"Tab", "hide / show all panels"},
        {"H or F1", "this help"},
        {"Ctrl+Q", "quit"},
        {"S F E D", "block1 thrusters: left, right, up, down"},
        {"J L I K, arrows", "block2 thrusters: left, right, up, down"},
        {"Shift + left/right", "spin instead of push"},
        {"drag a body", "mouse spring (running) / move it (paused)"},
        {"Ctrl/Alt + drag", "rotate the body (paused)"},
        {"click a body", "open it in the inspector"},
        {"drag empty space", "pan (also middle/right button, Shift+drag)"},
        {"wheel", "zoom about the cursor"},
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

void noteCollisions(CollisionReadout& r, const Session& s) {
    const carom::Diagnostics& d = s.world.diagnostics();
    if (r.generation != s.generation) r = CollisionReadout{s.generation};
    if (d.totalCollisions > r.total) {
        r.lastCount = int(d.totalCollisions - r.total);
        r.lastEnergy = d.totalCollisionEnergy - r.totalEnergy;
        r.lastTime = s.world.time();
    }
    r.total = d.totalCollisions;
    r.totalEnergy = d.totalCollisionEnergy;
}

Rect simViewRect(const ViewOptions& v, ImVec2 display) {
    Rect r{{0, 0}, display};
    if (v.showUi && v.showControls) r.min.x = leftPanelWidth(display);
    if (v.showUi && v.showGraphs) r.max.x = display.x - rightPanelWidth(display);
    if (r.max.x - r.min.x < 100) r = {{0, 0}, display};
    return r;
}

bool openSceneFile(UiContext& ui, const std::string& path) {
    try {
        replaceScene(ui.session, carom::loadScene(path), path);
        ui.panels.fileMessage = "opened " + path;
        ui.panels.fileError = false;
        ui.panels.numObjects = std::max(1, countBlocks(ui.session.scene));
        ui.commands.fitView = true;
        return true;
    } catch (const std::exception& e) { // SceneError, or a world the engine refused
        ui.panels.fileMessage = e.what();
        ui.panels.fileError = true;
        return false;
    }
}

bool statsOnTop(const Rect& view) {
    return view.size().x < 540;
}

float belowEnergyBar(const ViewOptions& view) {
    return view.showEnergy ? kEnergyBarTop + energyBarHeight() : 0;
}

void noteOverlay(PanelState& panels) {
    const ImVec2 at = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
    panels.overlays.push_back(Rect{at, {at.x + size.x, at.y + size.y}});
}

void drawPanels(UiContext& ui) {
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    const Rect view = simViewRect(ui.view, display);
    ui.panels.overlays.clear();
    if (ui.view.showUi) {
        if (ui.view.showControls) controlsWindow(ui, display);
        if (ui.view.showGraphs) graphsWindow(ui, display);
        if (ui.view.showStats) statsWindow(ui, view);
        if (ui.session.selected) inspectorWindow(ui, view);
    }
    if (ui.view.showHelp) helpWindow(ui, view);
}

} // namespace app
