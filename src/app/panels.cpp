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

// What the current choice of an enum setting is for, in a line under its combo.
void choiceLine(const carom::SettingInfo& s, std::size_t current) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("%s", s.choices[current].help);
    ImGui::PopTextWrapPos();
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
    if (changed && applySettings(ui, w)) dropOwnCoefficients(s.world, which);
}

// ---- the sections ----

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
    if (!ui.session.halted.empty()) {
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored({1, 0.4f, 0.4f, 1}, "%s", ui.session.halted.c_str());
        ImGui::PopTextWrapPos();
    }
    if (!ui.session.resetNote.empty()) {
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored({1, 0.8f, 0.3f, 1}, "Reset: %s", ui.session.resetNote.c_str());
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
    tooltip("Open one of the scenes that come with Carom.");
    if (isBlocksScene(ui.session.scene)) { // elsewhere there are no numbered blocks to count
        p.numObjects = std::clamp(countBlocks(ui.session.scene), 1, 6);
        if (slider("objects", &p.numObjects, 1, 6)) setNumObjects(ui, p.numObjects);
        tooltip("Number of 1 x 3 m blocks in this scene: more or fewer blocks rebuild it.");
    }

    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - 60);
    const bool enterOpen = ImGui::InputTextWithHint("##open", "scene.json", &p.openPath,
                                                    ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    if ((ImGui::Button("Open", {-1, 0}) || enterOpen) && !p.openPath.empty())
        openSceneFile(ui, p.openPath);
    tooltip("Open the scene file named on the left.");
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
    tooltip("Save the simulation as it is now as a scene file named on the left.");
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
    const bool changed = slider("mass of block1", &m, 0.1f, 10, "%.2f kg", true);
    tooltip("The mass of block1 (its inertia follows); Reset keeps it.");
    if (changed && m > 0) {
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
    settingWidget(ui, "method");
    choiceLine(carom::setting("method"), std::size_t(s.world.settings().method));
    settingWidget(ui, "integrator");
    choiceLine(carom::setting("integrator"), std::size_t(s.world.settings().integrator));
    settingWidget(ui, "collision_handling", "collisions");
    choiceLine(carom::setting("collision_handling"),
               std::size_t(s.world.settings().collisionHandling));
    float pe = float(ui.view.peOffset);
    if (ImGui::DragFloat("PE offset", &pe, 0.1f, -1000, 1000, "%.2f J",
                         ImGuiSliderFlags_AlwaysClamp))
        ui.view.peOffset = pe;
    tooltip("Added to potential energy in the energy bar and graphs: moves its zero.");
    settingWidget(ui, "spring_stiffness");
    settingWidget(ui, "spring_damping");

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
    if (!ui.panels.paramError.empty())
        ImGui::TextColored({1, 0.4f, 0.4f, 1}, "%s", ui.panels.paramError.c_str());
}

// The colours of the force arrows, as renderer.cpp's colourOf draws them.
void forceLegend() {
    static const struct {
        const char* name;
        ImU32 colour;
    } kinds[] = {{"gravity", IM_COL32(80, 220, 120, 230)},  {"damping", IM_COL32(180, 180, 180, 230)},
                 {"thruster", IM_COL32(255, 170, 40, 240)}, {"spring", IM_COL32(120, 200, 255, 240)},
                 {"contact", IM_COL32(255, 90, 200, 230)}};
    ImGui::Indent();
    for (std::size_t i = 0; i < std::size(kinds); ++i) {
        if (i % 3) ImGui::SameLine();
        const ImVec2 at = ImGui::GetCursorScreenPos();
        const float h = ImGui::GetFontSize();
        ImGui::GetWindowDrawList()->AddRectFilled({at.x, at.y + h / 2 - 1.5f},
                                                  {at.x + 14, at.y + h / 2 + 1.5f}, kinds[i].colour);
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
    checkbox("forces", &v.showForces, "Arrows for the forces on each body; the force scale sets "
                                      "their length.");
    ImGui::SameLine(150);
    checkbox("contacts", &v.showContacts, "Contact points and their normals.");
    if (v.showForces) forceLegend();
    checkbox("energy bar", &v.showEnergy, "The energies stacked in a bar over the view, with the "
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
    slider("trail length", &v.trailLength, 10, 1200, "%d frames");
    tooltip("How many frames of each body's path the trails keep.");
    slider("force scale", &v.forceScale, 0.01f, 5, "%.2f m/N", true);
    tooltip("Length of the force arrows: metres of arrow per newton.");
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
                 ImGuiWindowFlags_NoDecoration |
                     ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                     ImGuiWindowFlags_NoNav);
    noteOverlay(ui.panels);
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
    return view.showEnergy ? kEnergyBarTop + energyBarHeight(view.showMomentum) : 0;
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
    if (ui.view.showHint) hintWindow(ui, view);
}

} // namespace app
