// The guards on the presets (docs/architecture.md, "The guards"): each preset steps in every
// method, and only the guards that table lists for it may fire. A guard repairs a state whose
// cause the engine does not yet prevent; one firing where it never did is a new failure, as in
// the CAROM_VALIDATE build's tests (guard_check.h).
#include "carom/scene.h"
#include "carom/world.h"
#include "guard_check.h"
#include "presets.h"

#include <gtest/gtest.h>
#include <stdexcept>
#include <string>
#include <vector>

using namespace carom;

namespace {

using Kind = int GuardCounts::*;

// What fired in 10 s of each preset (`carom-cli run assets/scenes/P.json --time 10 --method M`,
// 2026-11-28); a preset and method not listed fire none.
struct Documented {
    const char* preset;
    Method method;
    std::vector<Kind> kinds;
};
const Kind kStopped = &GuardCounts::stoppedAtStatic;
const Kind kPushedOut = &GuardCounts::pushedOutOfStatic;
const Documented kDocumented[] = {
    {"capsules-and-chains.json", Method::ImpulseProjection, {kStopped}},
    {"capsules-and-chains.json", Method::Impulse, {kStopped, kPushedOut}},
    {"capsules-and-chains.json", Method::Projection, {kStopped}},
    {"capsules-and-chains.json", Method::Penalty, {kStopped, kPushedOut}},
    {"capsules-and-chains.json", Method::Exact, {kStopped}},
    {"compound-bodies.json", Method::Impulse, {kPushedOut}},
    {"compound-bodies.json", Method::Penalty, {kStopped, kPushedOut}},
    {"motor-car.json", Method::Impulse, {kPushedOut}},
    {"polygons.json", Method::Penalty, {kStopped}},
    {"pyramid-100.json", Method::Penalty, {kStopped, kPushedOut}},
    {"ragdoll.json", Method::Impulse, {kStopped, kPushedOut}},
    {"ragdoll.json", Method::Projection, {kStopped, kPushedOut}},
    {"ragdoll.json", Method::Penalty, {kStopped, kPushedOut}},
    {"thin-wall.json", Method::Projection, {kStopped}},
    {"thin-wall.json", Method::Penalty, {kStopped, kPushedOut}},
};

bool documented(const std::string& preset, Method m, Kind kind) {
    for (const Documented& d : kDocumented)
        if (preset == d.preset && m == d.method)
            for (Kind k : d.kinds)
                if (k == kind) return true;
    return false;
}

} // namespace

// Three simulated seconds of each (half a second of the two large ones): fewer than the table's
// ten, so a guard listed may not fire here, but none that is not may.
TEST(Guards, SlowOnThePresetsOnlyWhereDocumented) {
    const carom_test::ExpectGuards expected; // what fires is checked here, kind by kind
    for (const std::string& name : carom_test::presetNames()) {
        const Scene scene = loadScene(carom_test::kPresetDir + name);
        for (Method m : allMethods()) {
            SCOPED_TRACE(name + " " + std::string(toString(m)));
            World w = buildWorld(scene);
            WorldSettings s = w.settings();
            s.method = m;
            try {
                w.setSettings(s);
            } catch (const std::invalid_argument&) {
                continue; // a method the scene cannot take (the exact one, with joints)
            }
            const double seconds = carom_test::isLargePreset(name) ? 0.5 : 3;
            while (w.time() < seconds)
                w.step();
            const GuardCounts& fired = w.diagnostics().totalGuards;
            for (const GuardCounts::Kind& k : GuardCounts::kinds)
                EXPECT_TRUE(fired.*k.count == 0 || documented(name, m, k.count))
                    << fired.*k.count << " " << k.name << " (not in the table)";
        }
    }
}
