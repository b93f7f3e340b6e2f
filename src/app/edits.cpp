// Build mode's edits, undo and redo (edits.h).
#include "edits.h"

#include <memory>
#include <utility>

namespace app {
namespace {

using State = std::shared_ptr<const carom::WorldState>;

State now(const Session& s) {
    return std::make_shared<const carom::WorldState>(stateNow(s));
}

// The world after an edit, an undo or a redo is where the session starts from: Reset returns to
// it, a set-back (guardFinite) does not go behind it, and the ids of the thrusters, the selected
// body and the graphs' bodies are those of the world as it is now.
void settle(Session& s) {
    s.scene = sceneNow(s);
    relinkThrusters(s);
    if (s.selected && *s.selected >= s.world.bodies().size()) s.selected.reset();
    s.lastGood = s.world;
    s.initialEnergy = carom::measure(s.world).energy;
    ++s.generation;
}

// Puts a kept state back as a new world, through apply() as any input.
void restore(Session& s, const State& state) {
    apply(s, carom::input::Replace{state});
    settle(s);
}

} // namespace

void edit(Session& s, const carom::Input& input) {
    State before = now(s);
    apply(s, input); // throws before anything changes
    s.undoStates.push_back(std::move(before));
    s.redoStates.clear();
    settle(s);
}

void beginEdit(Session& s) {
    s.undoStates.push_back(now(s));
    s.redoStates.clear();
}

void endEdit(Session& s) {
    settle(s);
}

bool undo(Session& s) {
    if (s.undoStates.empty()) return false;
    State back = std::move(s.undoStates.back());
    s.undoStates.pop_back();
    s.redoStates.push_back(now(s));
    restore(s, back);
    return true;
}

bool redo(Session& s) {
    if (s.redoStates.empty()) return false;
    State again = std::move(s.redoStates.back());
    s.redoStates.pop_back();
    s.undoStates.push_back(now(s));
    restore(s, again);
    return true;
}

carom::Scene emptyScene() {
    carom::Scene scene;
    scene.name = "untitled";
    scene.walls = carom::Walls{};
    scene.settings.gravity = {0, -9.81}; // what is built should stand or fall
    return scene;
}

std::string freeBodyName(const carom::World& world, const std::string& stem) {
    for (std::size_t k = 1;; ++k) {
        std::string name = stem + std::to_string(k);
        if (!world.findBody(name)) return name;
    }
}

} // namespace app
