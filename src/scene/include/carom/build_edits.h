// Build mode's edits of a running world (the app's editor; recording inputs add_body, remove_body,
// pin and rope in docs/recording-format.md). Each keeps the order a scene file gives its bodies,
// the walls last, so that the edited world saved and reopened has the same ids and steps on with
// the same bits. A bad edit throws std::invalid_argument and leaves the world as it was.
#pragma once

#include "carom/world.h"

namespace carom {

// The body goes after the other bodies and before the walls, where a scene file would put it.
BodyId addBodyBeforeWalls(World& world, const BodyDef& def);
// Makes the body static (pinned: it stays where it is, its velocity dropped) or dynamic again; a
// wall stays a wall.
void setPinned(World& world, BodyId body, bool pinned);
// A rope between two bodies' points (world coordinates now): slack while shorter than it is now.
JointId addRope(World& world, BodyId a, BodyId b, Vec2 anchorA, Vec2 anchorB);

// The definition that makes the body again as it is now, as a saved scene file holds it (copy and
// paste). Throws std::invalid_argument for a body the world does not have or a wall.
BodyDef bodyDefinition(const World& world, BodyId body);

} // namespace carom
