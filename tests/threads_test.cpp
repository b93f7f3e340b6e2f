// The step's threads (World::setThreads, parallel/crew.h): any number of them gives the same bits,
// since each stage is cut among them by index into parts that touch disjoint bodies and contacts.
#include "carom/scene.h"
#include "carom/world.h"
#include "guard_check.h"
#include "presets.h"
#include "test_worlds.h"

#include <cstring>
#include <gtest/gtest.h>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

using namespace carom;

namespace {

// Every body's pose and velocity, and every contact's impulses, as bytes.
std::string stateBytes(const World& w) {
    std::string out;
    auto add = [&](double x) { out.append(reinterpret_cast<const char*>(&x), sizeof x); };
    for (const Body& b : w.bodies()) {
        add(b.xf().p.x), add(b.xf().p.y), add(b.angle());
        add(b.v.x), add(b.v.y), add(b.w);
    }
    for (const Manifold& m : w.contacts())
        for (int i = 0; i < m.count; ++i)
            add(m.points[i].normalImpulse), add(m.points[i].tangentImpulse);
    return out;
}

std::string after(World w, int threads, int steps) {
    w.setThreads(threads);
    for (int i = 0; i < steps; ++i)
        w.step();
    return stateBytes(w);
}

void expectSameBitsOnAnyThreads(const std::string& name, int steps) {
    SCOPED_TRACE(name);
    const World w = buildWorld(loadScene(carom_test::kPresetDir + name));
    const std::string one = after(w, 1, steps);
    EXPECT_EQ(after(w, 2, steps), one);
    EXPECT_EQ(after(w, 3, steps), one);
}

} // namespace

TEST(Threads, EveryPresetTakesTheSameBitsOnOneTwoOrThreeThreads) {
    // Guards expected: bits, not guards (the presets' guards:
    // Guards.SlowOnThePresetsOnlyWhereDocumented).
    const carom_test::ExpectGuards expected;
    for (const std::string& name : carom_test::presetNames())
        if (!carom_test::isLargePreset(name)) expectSameBitsOnAnyThreads(name, 120);
}

TEST(Threads, SlowTheLargePresetsTakeTheSameBitsOnOneTwoOrThreeThreads) {
    // The many pyramids: islands in many batches; the large one: one island of 10,000 contacts.
    expectSameBitsOnAnyThreads("pyramid-100.json", 40);
    expectSameBitsOnAnyThreads("many-pyramids.json", 10);
}

TEST(Threads, AnIslandOfSmallBodiesBouncingTakesTheSameBits) {
    // Guards expected: bits, not guards: the continuous check (stopAtStaticBodies) is what holds
    // its fast bodies.
    const carom_test::ExpectGuards expected;
    // Restitution (Poisson's, on one thread after the substeps) and friction in one island.
    WorldSettings s;
    s.gravity = {0, -9.81};
    s.restitution = 0.7;
    s.friction = 0.3;
    World w(s);
    w.addBody(test::ground({0, -1}, 40, 2));
    for (int i = 0; i < 200; ++i)
        w.addBody(test::circle("", {-10 + 0.5 * (i % 40), 0.3 + 0.6 * (i / 40)}, 0.25, 1,
                               {(i % 7) - 3.0, -(i % 5) * 1.0}));
    const std::string one = after(w, 1, 100);
    EXPECT_EQ(after(w, 2, 100), one);
    EXPECT_EQ(after(w, 4, 100), one); // more threads than this machine's cores
}

TEST(Threads, TwoWorldsSharingThreadsStepAtOnceWithTheSameBits) {
    // A copy shares the world's threads; stepped at the same time on another thread, one of the
    // two steps alone on its own thread, with the same bits.
    World a = test::pyramid(20);
    a.setThreads(2);
    World b = a;
    const std::string alone = after(test::pyramid(20), 1, 60);
    std::thread other([&] {
        for (int i = 0; i < 60; ++i)
            b.step();
    });
    for (int i = 0; i < 60; ++i)
        a.step();
    other.join();
    EXPECT_EQ(stateBytes(a), alone);
    EXPECT_EQ(stateBytes(b), alone);
}

TEST(Threads, ACountOutsideOneTo256IsRefused) {
    World w = test::pyramid(3);
    EXPECT_THROW(w.setThreads(0), std::invalid_argument);
    EXPECT_THROW(w.setThreads(World::kMaxThreads + 1), std::invalid_argument);
    EXPECT_EQ(w.threads(), 1);
    w.setThreads(3);
    EXPECT_EQ(w.threads(), 3);
    EXPECT_GE(World::cores(), 1);
}
