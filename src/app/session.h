// The simulation the app shows: the scene it came from, the running world, the stepper that
// turns real time into fixed steps, and the keyboard thrusters of block1 and block2.
#pragma once

#include "carom/recording.h"
#include "carom/scene.h"
#include "carom/world.h"
#include "history.h"
#include "stepper.h"
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace app {

// The six thrusters of one block, as in myPhysicsLab: up and down through the centre (weight 1),
// and a left/right pair at the top and at the bottom (weight 0.4 each). Left fires both left
// ones (a push); Shift+left fires top-left and bottom-right (a counter-clockwise spin).
enum ThrusterSlot { Up, Down, TopLeft, TopRight, BottomLeft, BottomRight, SlotCount };
struct BlockThrusters {
    std::optional<carom::BodyId> body;
    std::array<carom::ThrusterId, SlotCount> ids{};
};

struct Session {
    carom::Scene scene; // what Reset returns to (parameters changed live are kept)
    std::string path;   // the file it came from; empty for a generated scene
    carom::World world;
    Stepper stepper;
    std::array<BlockThrusters, 2> thrusters;       // block1, block2
    std::optional<carom::BodyId> selected;         // the body in the inspector
    std::optional<carom::SoftBodyId> selectedSoft; // or the soft body
    double initialEnergy = 0;                      // total energy after the last (re)build
    double realTime = 0;                           // real seconds the simulation has run since then
    std::uint64_t generation = 0; // bumps on every rebuild: plots and trails restart
    carom::World lastGood;        // a recent state with every number finite (guardFinite)
    std::string halted;           // why the simulation was stopped and set back; empty when running
    std::set<std::string>
        inspectorEdits;    // bodies edited in the inspector, not applied to the scene
    std::string resetNote; // what the last Reset did not keep ("inspector edits dropped")

    // The timeline: the world's history since the last rebuild (off: --no-history).
    bool historyOn = true;
    History history;
    std::uint64_t jumps = 0; // bumps when the world jumps to another moment: trails restart
    // --record: every input is written there as it comes.
    std::shared_ptr<carom::RecordingWriter> recorder;
    // --replay: the recording's later worlds (after a reset, a scene opened, a step back) with
    // their inputs, each world begun when the history before it has played to its end. The
    // recording's own list, moved (one copy of a recording of millions of lines).
    std::vector<carom::RecordedInput> pending;
    std::uint64_t recordingEnd = 0;
    bool replaying = false; // on the recording's path: until an input, a reset or a scene leaves it
    // Build mode's undo and redo (edits.h): the worlds before the edits, and after those undone.
    std::vector<std::shared_ptr<const carom::WorldState>> undoStates, redoStates;
    std::array<std::array<bool, SlotCount>, 2> thrustKeys{}; // what the keys asked last frame
    bool springHeld = false; // the mouse button holds a spring now (input.cpp)
};

// The one door for inputs that change the world (the mouse spring, thrusters, settings, the
// inspector, bodies moved while paused): the input is applied through the world's checked setters
// (std::invalid_argument when refused, nothing changed), then logged in the history and the
// recording. At a moment before the history's end it first takes another path (divert).
void apply(Session& s, const carom::Input& input);
// The world left the history's path (an input in the past, a set-back): the later history goes
// and the recording gets the world as it is now, to go on from. The new path starts from the mouse
// of now: a spring the world held then, with no button holding one now, is let go (the keys of
// now set the thrusters at the next frame: input.cpp).
void divert(Session& s);
// One step: along the history when the world is before its end, else a new step at the end.
void stepSession(Session& s);
// Shows the world at step n of the history (paused there; nothing is dropped until an input
// comes). eachStep sees the states re-simulated on the way.
void seek(Session& s, std::uint64_t n,
          const std::function<void(const carom::World&)>& eachStep = {});
// --replay: opens the recording's first world with its inputs as the history to play along.
// A world whose thrusters are not the ones this app makes keeps its own (the keys fire none).
void openRecording(Session& s, carom::Recording recording, const std::string& path);
// --replay: begins the recording's next world once the history before it has played to its end;
// a world that goes back to a moment of the timeline (the session went back there and took
// another path) keeps the timeline before it and goes on from there. Returns whether it did. An
// input or a world the app refuses ends the replay there, with a warning on stderr.
bool followRecording(Session& s);
// The recording's last lines when the app quits: the world as it is, if that is not the
// history's end, and the end.
void finishRecording(Session& s);

// Makes the world from session.scene (throws carom::SceneError or std::invalid_argument).
// keepSettings: carry the live world settings (gravity, elasticity, ...) over to the new world.
void rebuild(Session& s, bool keepSettings);
// Replaces the scene; on failure throws and leaves the session as it was.
void replaceScene(Session& s, carom::Scene scene, std::string path);
// The world's state now as a scene, and with the thrusters, spring and clock, under the scene's
// name and description: what Save, Copy, --save-on-exit, the edits and recordings keep.
carom::Scene sceneNow(const Session& s);
carom::WorldState stateNow(const Session& s);
// Finds block1's and block2's thrusters in the world as it is (after an edit took bodies out or
// put a world back): the keys fire none of a block whose six the world does not have.
void relinkThrusters(Session& s);
// Back to the scene's initial state, live settings kept. Inspector edits not applied to the
// scene are lost, and resetNote says so.
void reset(Session& s);

// The per-body coefficients that also have a world setting (elasticity and friction).
enum class Coefficient { Restitution, Friction };
// The one value every body uses (its own, or the world's), or none when they differ: the
// world's slider then says "mixed".
std::optional<double> commonCoefficient(const carom::World& world, Coefficient c);
// The world's slider was moved: every body's own value is dropped in the world (not in the
// scene, so that Reset brings the scene's values back), each through apply().
void dropOwnCoefficients(Session& s, Coefficient c);

// Whether the scene is made of numbered blocks (block1, block2, ... and walls or static bodies
// only besides): the "objects" slider applies to it alone.
bool isBlocksScene(const carom::Scene& scene);

// The inspector changed a body: remembered until Reset (which drops it) or applyToScene.
void noteInspectorEdit(Session& s, carom::BodyId id);
// The body's state as it is now (pose, velocity, mass, own coefficients) becomes its start in
// the scene, which Reset returns to. False when the scene has no body of that name.
bool applyToScene(Session& s, carom::BodyId id);

// After an advance: a world whose state has become non-finite (a NaN or an infinity in any
// body's pose or velocity, from an unstable time step, say) is paused, set back to the last good
// state and s.halted says so; otherwise, once a simulated second has passed since the last good
// state was kept, the current one is. Returns false when it had to set the world back.
bool guardFinite(Session& s);

// Thruster weights (myPhysicsLab's ThrusterSet): the force is thrust × weight.
constexpr double kUpDownWeight = 1.0;
constexpr double kSideWeight = 0.4;

} // namespace app
