// The stats box's collision lines: the collisions of the last frame that had any, read from the
// world's running totals (a frame may take several steps), and what the box says of them. Without
// ImGui, so that the tests can check the words.
#pragma once

#include "session.h"
#include <array>
#include <cstdint>
#include <string>

namespace app {

struct CollisionReadout {
    std::uint64_t generation = 0; // the session's: a rebuilt world counts from zero again, and
                                  // one gone back in its history from where it is
    std::uint64_t total = 0;      // world.diagnostics().totalCollisions when last seen
    double totalEnergy = 0;       // world.diagnostics().totalCollisionEnergy when last seen
    int lastCount = 0;            // collisions in the last frame that had any
    double lastEnergy = 0;        // the kinetic energy they changed, J
    double lastTime = 0;          // simulated time at the end of that frame, or of the moment
                                  // gone back to when none came since, s
};

// Takes the collisions of the steps since the last call into the readout.
void noteCollisions(CollisionReadout& r, const Session& s);

// The two lines under "collisions N last step, M in all": the last frame's collisions and the
// mean energy change, or, when none has been seen since the world was made or taken back in time,
// "no collision yet" at its start and "none since T s" after it (it said "no collision yet"
// beside "4 in all" after a step back).
std::array<std::string, 2> collisionLines(const CollisionReadout& r, const carom::Diagnostics& d);

} // namespace app
