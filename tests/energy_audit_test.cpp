// The energy audit (energy_audit.h): each step's energy beyond its start's, against answers known
// in advance.
#include "test_worlds.h"

#include <gtest/gtest.h>

using namespace carom;
using namespace carom::test;

// A ball thrown under gravity in an empty world keeps E = ½ m v² − m g·p exactly (its flight is
// in closed form): no step makes energy, in any method.
TEST(EnergyAudit, AFreeFlightMakesNone) {
    for (Method m : {Method::ImpulseProjection, Method::Impulse, Method::Projection,
                     Method::Penalty, Method::Exact}) {
        WorldSettings s;
        s.gravity = {0, -9.81};
        s.method = m;
        World w(s);
        w.addBody(circle("ball", {0, 0}, 0.5, 2, {3, 7}));
        for (int i = 0; i < 120; ++i)
            w.step();
        EXPECT_EQ(w.diagnostics().totalEnergyMade, 0.0) << toString(m);
        EXPECT_EQ(w.diagnostics().stepsNotAudited, 0u);
    }
}

// A ball dropped onto the ground in the penalty method: its contact is a stiff spring integrated
// step by step, which gains energy in some steps. The audit reports the sum of each step's gain in
// E = ½ m v² − m g·p (beyond round-off), as measured here from the outside.
TEST(EnergyAudit, SumsEachStepsGain) {
    WorldSettings s;
    s.gravity = {0, -9.81};
    s.restitution = 1;
    s.method = Method::Penalty;
    World w(s);
    w.addBody(ground({0, -0.5}, 20, 1));
    w.addBody(circle("ball", {0, 2}, 0.5, 1));
    double made = 0, before = measure(w).energy;
    for (int i = 0; i < 600; ++i) {
        w.step();
        const double now = measure(w).energy;
        if (now - before > 1e-9) made += now - before;
        before = now;
    }
    ASSERT_GT(made, 0.0);
    EXPECT_NEAR(w.diagnostics().totalEnergyMade, made, 1e-6 * made); // round-off steps aside
}

// A step in which the mouse spring pulls does work the audit does not measure: it is counted,
// not judged.
TEST(EnergyAudit, StepsWithTheMouseSpringAreNotAudited) {
    World w;
    const BodyId id = w.addBody(circle("ball", {0, 0}, 0.5, 1));
    w.setMouseSpring(id, {0, 0}, {2, 0});
    for (int i = 0; i < 10; ++i)
        w.step();
    EXPECT_EQ(w.diagnostics().stepsNotAudited, 10u);
    EXPECT_EQ(w.diagnostics().totalEnergyMade, 0.0);
}

// Issue 45: two boxes 1 m across placed half overlapping, at rest, without gravity. Every method
// that corrects positions parts them by positions alone (the default one, projection, penalty
// and exact: their centres end at least 1 m apart, less the linear slop the projection leaves), and
// none makes energy: they end at rest. (The impulse method moves no position: the overlap stays,
// and still nothing moves.)
TEST(EnergyAudit, OverlappingBoxesPartWithoutEnergy) {
    for (Method m : {Method::ImpulseProjection, Method::Impulse, Method::Projection,
                     Method::Penalty, Method::Exact}) {
        WorldSettings s;
        s.method = m;
        World w(s);
        w.addBody(box("a", {0, 0}, 1, 1, 1));
        w.addBody(box("b", {0.5, 0}, 1, 1, 1));
        for (int i = 0; i < 120; ++i)
            w.step();
        const Diagnostics& d = w.diagnostics();
        EXPECT_EQ(d.totalEnergyMade, 0.0) << toString(m);
        EXPECT_LT(d.keLinear + d.keAngular, 1e-20) << toString(m);
        const double apart = w.bodies()[1].xf().p.x - w.bodies()[0].xf().p.x;
        if (m != Method::Impulse) {
            EXPECT_GE(apart, 1 - s.linearSlop - 1e-12) << toString(m);
        }
    }
}
