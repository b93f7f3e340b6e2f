// Build mode's edits of the session's world, with undo and redo. An edit is an input (a body
// drawn, pasted, deleted, pinned, a rope, a body moved or turned) applied through apply(), so the
// history and the recording get it as any other input; the world as it was before is kept, and
// undo puts it back as a new world (a "world" line in the recording), redo the world after. The
// scene becomes the edited world, so that Reset and Save keep what was built. No SDL or ImGui here
// (tests/edits_test.cpp).
#pragma once

#include "session.h"

#include <string>

namespace app {

// One input as one edit. Throws std::invalid_argument (from the world's checks) and changes
// nothing when the world refuses it.
void edit(Session& s, const carom::Input& input);
// An edit made of many inputs (a drag's poses, applied with apply()): beginEdit keeps the world
// as it is for undo, endEdit makes the scene of the world as the inputs left it.
void beginEdit(Session& s);
void endEdit(Session& s);
// False when there is nothing to undo or redo.
bool undo(Session& s);
bool redo(Session& s);

// A scene to build in: the walls alone (the default box) under Earth's gravity.
carom::Scene emptyScene();
// The first of stem1, stem2, ... that no body of the world has.
std::string freeBodyName(const carom::World& world, const std::string& stem);

} // namespace app
