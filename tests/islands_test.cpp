// Islands (src/physics/solver/islands.h) and the substep solver's batches of them
// (substep_solver.cpp): the sets of moving bodies that contacts join, and the property the batches
// rest on, that an island moves the same whatever else is in the world, bit for bit.
#include "carom/world.h"
#include "solver/islands.h" // internal to the engine: carom_physics_internal (CMakeLists.txt)

#include <gtest/gtest.h>

#include <vector>

using namespace carom;

namespace {

Manifold between(BodyId a, BodyId b) {
    Manifold m;
    m.a = a;
    m.b = b;
    return m;
}

// Body 0 is static (a shelf); 1 and 2 stand on it, 2 on 1; 3 stands on it alone; 4 (kinematic,
// counted as moving here, as the substep solver counts it) touches 3 and 5; 6 touches nothing.
TEST(Islands, AStaticBodyJoinsNothing) {
    const std::vector<Manifold> contacts{between(0, 1), between(1, 2), between(0, 3),
                                         between(3, 4), between(0, 5), between(4, 5)};
    const std::vector<std::uint32_t> island =
        islands(contacts, 7, [](BodyId id) { return id != 0; });
    EXPECT_EQ(island, (std::vector<std::uint32_t>{0, 1, 1, 3, 3, 3, 6}));
}

TEST(Islands, AChainJoinedFromBothEndsIsOneIsland) {
    // Joined out of order: 5-6, 1-2, 2-6, 3-4, 4-1: one island named by its lowest body, 1.
    const std::vector<Manifold> contacts{between(5, 6), between(1, 2), between(2, 6), between(3, 4),
                                         between(1, 4)};
    const std::vector<std::uint32_t> island = islands(contacts, 7, [](BodyId) { return true; });
    EXPECT_EQ(island, (std::vector<std::uint32_t>{0, 1, 1, 1, 1, 1, 1}));
}

// A pyramid of boxes on a ground of its own, centred at x.
void addPyramid(World& w, double x, int base) {
    BodyDef ground;
    ground.type = BodyType::Static;
    ground.shape = Shape::box(base + 10.0, 1);
    ground.position = {x, -0.5};
    w.addBody(ground);
    for (int row = 0; row < base; ++row)
        for (int i = 0; i < base - row; ++i) {
            BodyDef b;
            b.shape = Shape::box(1, 1);
            b.position = {x + i - 0.5 * (base - row - 1), 0.5 + row};
            w.addBody(b);
        }
}

// A stack of boxes beside a pyramid of 1,275 (2,500 contacts: more than a batch of the substep
// solver, so the stack is solved in a batch of its own) moves as the stack alone does, to the bit:
// the bodies of one island share no contact with another's.
TEST(Islands, AStackMovesTheSameBesideAPyramidAsAlone) {
    WorldSettings s;
    s.gravity = {0, -9.81};
    World alone(s), beside(s);
    addPyramid(beside, 1000, 50);
    for (World* w : {&alone, &beside})
        addPyramid(*w, 0, 3);
    for (int i = 0; i < 60; ++i) {
        alone.step();
        beside.step();
    }
    const std::size_t offset = beside.bodies().size() - alone.bodies().size();
    for (std::size_t i = 0; i < alone.bodies().size(); ++i) {
        const Body& a = alone.bodies()[i];
        const Body& b = beside.bodies()[offset + i];
        EXPECT_EQ(a.xf().p.x, b.xf().p.x) << i;
        EXPECT_EQ(a.xf().p.y, b.xf().p.y) << i;
        EXPECT_EQ(a.angle(), b.angle()) << i;
        EXPECT_EQ(a.v.x, b.v.x) << i;
        EXPECT_EQ(a.v.y, b.v.y) << i;
        EXPECT_EQ(a.w, b.w) << i;
    }
}

} // namespace
