// The stats box's collision lines (collision_readout.h).
#include "collision_readout.h"

#include <cstdio>

namespace app {

void noteCollisions(CollisionReadout& r, const Session& s) {
    const carom::Diagnostics& d = s.world.diagnostics();
    if (r.generation != s.generation) r = CollisionReadout{s.generation};
    // Gone back in its history: the readout starts again from there, at that moment.
    if (d.totalCollisions < r.total || s.world.time() < r.lastTime) {
        r = CollisionReadout{s.generation, d.totalCollisions, d.totalCollisionEnergy};
        r.lastTime = s.world.time();
    }
    if (d.totalCollisions > r.total) {
        r.lastCount = int(d.totalCollisions - r.total);
        r.lastEnergy = d.totalCollisionEnergy - r.totalEnergy;
        r.lastTime = s.world.time();
    }
    r.total = d.totalCollisions;
    r.totalEnergy = d.totalCollisionEnergy;
}

std::array<std::string, 2> collisionLines(const CollisionReadout& r, const carom::Diagnostics& d) {
    char last[128], mean[128];
    if (r.lastCount > 0)
        std::snprintf(last, sizeof last, "last %d at %.2f s: dE %+.2g J each", r.lastCount,
                      r.lastTime, r.lastEnergy / r.lastCount);
    else if (d.totalCollisions > 0)
        std::snprintf(last, sizeof last, "none since %.2f s", r.lastTime);
    else
        std::snprintf(last, sizeof last, "no collision yet");
    if (d.totalCollisions > 0)
        std::snprintf(mean, sizeof mean, "mean dE per collision %+.2g J",
                      d.totalCollisionEnergy / double(d.totalCollisions));
    else
        std::snprintf(mean, sizeof mean, " ");
    return {last, mean};
}

} // namespace app
