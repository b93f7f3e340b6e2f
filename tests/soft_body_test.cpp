// Soft bodies (docs/scene-format.md, "Soft bodies"): the barycentric impulse against its formula,
// no particle through a thin wall or another soft body, energy kept when nothing dissipates,
// rigid and soft bodies resting together, and bad input refused with the field's path.
#include "carom/scene.h"
#include "softbody/soft_collide.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace carom;

namespace {

const std::string kAssets = CAROM_ASSET_DIR "/scenes/";

const SoftResolution kBoth[] = {SoftResolution::Sequential, SoftResolution::Parallel};

const char* nameOf(SoftResolution r) {
    return r == SoftResolution::Sequential ? "sequential" : "parallel";
}

WorldSettings weightless(SoftResolution r) {
    WorldSettings s;
    s.gravity = {0, 0};
    s.friction = 0;
    s.softResolution = r;
    return s;
}

SoftBodyDef lone(const char* name, Vec2 x, Vec2 v, double m) {
    SoftBodyDef d;
    d.name = name;
    d.particles = {ParticleDef{x, v, m}};
    d.boundary = {0};
    return d;
}

// A ring of n particles about c with spokes (addRing), moving at v.
SoftBodyDef ring(const char* name, Vec2 c, double radius, int n, Vec2 v, double stiffness) {
    SoftBodyDef d;
    d.name = name;
    d.stiffness = stiffness;
    addRing(d, c, radius, n, 1.0, v);
    return d;
}

// Whether p is inside the closed polygon (crossing number).
bool inside(Vec2 p, const std::vector<Vec2>& poly) {
    bool in = false;
    for (std::size_t i = 0, j = poly.size() - 1; i < poly.size(); j = i++)
        if ((poly[i].y > p.y) != (poly[j].y > p.y) &&
            p.x < (poly[j].x - poly[i].x) * (p.y - poly[i].y) / (poly[j].y - poly[i].y) + poly[i].x)
            in = !in;
    return in;
}

std::vector<Vec2> outline(const SoftBody& b) {
    std::vector<Vec2> out;
    for (std::size_t k : b.boundary)
        out.push_back(b.particles[k].x);
    return out;
}

} // namespace

TEST(SoftCollide, QuadraticRootsInTheInterval) {
    double r[2];
    ASSERT_EQ(quadraticRootsIn(1, -3, 2, 5, r), 2); // (τ − 1)(τ − 2)
    EXPECT_DOUBLE_EQ(r[0], 1);
    EXPECT_DOUBLE_EQ(r[1], 2);
    ASSERT_EQ(quadraticRootsIn(1, -3, 2, 1.5, r), 1);
    EXPECT_DOUBLE_EQ(r[0], 1);
    ASSERT_EQ(quadraticRootsIn(0, 2, -1, 1, r), 1); // linear: 2τ − 1
    EXPECT_DOUBLE_EQ(r[0], 0.5);
    EXPECT_EQ(quadraticRootsIn(1, 0, 1, 10, r), 0); // τ² + 1: none
    // A tiny leading coefficient loses no digits: 1e-20 τ² + τ − 0.25.
    ASSERT_EQ(quadraticRootsIn(1e-20, 1, -0.25, 1, r), 1);
    EXPECT_DOUBLE_EQ(r[0], 0.25);
}

// A lone particle x strikes the edge (y, z) of another soft body at p = α y + β z. By CS5643,
// γ = −(1 + e) m_eff v_n with 1/m_eff = 1/m_x + α²/m_y + β²/m_z, and the ends take −α γ and −β γ.
TEST(SoftCollide, BarycentricImpulseAsTheFormulaSays) {
    const double mx = 1, my = 2, mz = 3, speed = 2;
    for (SoftResolution r : kBoth)
        for (double alpha : {0.5, 0.2})
            for (double e : {1.0, 0.5}) {
                SCOPED_TRACE(std::string(nameOf(r)) + " alpha " + std::to_string(alpha) + " e " +
                             std::to_string(e));
                WorldSettings s = weightless(r);
                s.restitution = e;
                World w(s);
                const double beta = 1 - alpha;
                // The edge from y = (0, 0) to z = (1, 0): p = α y + β z lies at x = β.
                w.addSoftBody(lone("x", {beta, 0.05}, {0, -speed}, mx));
                SoftBodyDef edge;
                edge.name = "edge";
                edge.particles = {ParticleDef{{0, 0}, {0, 0}, my}, ParticleDef{{1, 0}, {0, 0}, mz}};
                edge.boundary = {0, 1};
                w.addSoftBody(edge);
                for (int i = 0; i < 20; ++i)
                    w.step();
                const auto& x = w.softBodies()[0].particles[0];
                const auto& y = w.softBodies()[1].particles[0];
                const auto& z = w.softBodies()[1].particles[1];
                const double vn = -speed; // along n = (0, 1), the edge at rest
                const double gamma =
                    -(1 + e) * vn / (1 / mx + alpha * alpha / my + beta * beta / mz);
                EXPECT_NEAR(x.v.y - (-speed), gamma / mx, 1e-9);
                EXPECT_NEAR(y.v.y, -alpha * gamma / my, 1e-9);
                EXPECT_NEAR(z.v.y, -beta * gamma / mz, 1e-9);
                for (const Particle* p : {&x, &y, &z})
                    EXPECT_NEAR(p->v.x, 0, 1e-12);
                EXPECT_GT(x.x.y, y.x.y); // still above the edge
            }
}

// The same against a rigid body: its side's inverse mass at the point is Hecker's
// 1/m + (r × n)²/I, and the impulse turns it.
TEST(SoftCollide, ImpulseOnARigidEdgeUsesItsEffectiveMass) {
    for (SoftResolution r : kBoth) {
        SCOPED_TRACE(nameOf(r));
        WorldSettings s = weightless(r);
        s.restitution = 1;
        World w(s);
        BodyDef box;
        box.name = "box";
        box.shape = Shape::box(2, 0.5);
        box.mass = 4;
        const BodyId id = w.addBody(box); // top face at y = 0.25
        const double offset = 0.6, mx = 0.5, speed = 3;
        w.addSoftBody(lone("x", {offset, 0.3}, {0, -speed}, mx));
        for (int i = 0; i < 10; ++i)
            w.step();
        const Body& b = w.body(id);
        const double rx = offset; // r = p − centre, r × n = rx for n = (0, 1)
        const double gamma = 2 * speed / (1 / mx + 1 / b.mass + rx * rx / b.inertia);
        EXPECT_NEAR(w.softBodies()[0].particles[0].v.y, -speed + gamma / mx, 1e-9);
        EXPECT_NEAR(b.v.y, -gamma / b.mass, 1e-9);
        EXPECT_NEAR(b.w, -rx * gamma / b.inertia, 1e-9);
    }
}

// A soft ball at 100 m/s (0.4 m a step, more than its radius) against a 2 cm wall: no particle
// ever beyond it, in every method.
TEST(SoftCollide, NothingPassesThroughAThinWall) {
    for (SoftResolution r : kBoth)
        for (Method m : allMethods()) {
            SCOPED_TRACE(std::string(nameOf(r)) + " " + std::string(toString(m)));
            WorldSettings s = weightless(r);
            s.timeStep = 1.0 / 240; // the ball's springs need it (h ω < 2 for semi-implicit Euler)
            s.method = m;
            s.restitution = 0.5;
            World w(s);
            BodyDef wall;
            wall.name = "wall";
            wall.type = BodyType::Static;
            wall.shape = Shape::box(0.02, 4);
            wall.position = {1.01, 0}; // left face at x = 1
            w.addBody(wall);
            w.addSoftBody(ring("ball", {-2, 0.1}, 0.3, 16, {100, 0}, 500));
            for (int i = 0; i < 120; ++i) {
                w.step();
                for (const Particle& p : w.softBodies()[0].particles)
                    ASSERT_LT(p.x.x, 1.0) << "step " << i;
            }
        }
}

// Two soft balls meeting head on at 20 m/s each: no particle of one ever inside the other. (Stiff
// enough not to fold through themselves: a soft body does not collide with itself.)
TEST(SoftCollide, SoftBodiesDoNotPassThroughEachOther) {
    for (SoftResolution r : kBoth) {
        SCOPED_TRACE(nameOf(r));
        WorldSettings s = weightless(r);
        s.timeStep = 1.0 / 1000;
        s.restitution = 0.8;
        World w(s);
        w.addSoftBody(ring("a", {-2, 0}, 0.4, 20, {20, 0}, 5000));
        w.addSoftBody(ring("b", {2, 0.1}, 0.4, 20, {-20, 0}, 5000));
        for (int i = 0; i < 400; ++i) {
            w.step();
            const SoftBody &a = w.softBodies()[0], &b = w.softBodies()[1];
            for (const Particle& p : a.particles)
                ASSERT_FALSE(inside(p.x, outline(b))) << "step " << i;
            for (const Particle& p : b.particles)
                ASSERT_FALSE(inside(p.x, outline(a))) << "step " << i;
        }
        EXPECT_LT(w.softBodies()[0].centreOfMass().x, w.softBodies()[1].centreOfMass().x);
    }
}

// With e = 1, no damping and no gravity, a soft body thrown around a box of walls keeps its
// kinetic plus spring energy within 1% over 10 s.
TEST(SoftEnergy, SlowElasticSoftBodyInABoxKeepsItsEnergy) {
    const Scene scene = loadScene(kAssets + "soft-energy-box.json");
    for (SoftResolution r : kBoth) {
        SCOPED_TRACE(nameOf(r));
        Scene sc = scene;
        sc.settings.softResolution = r;
        // The error of a fixed step through a collision is in proportion to the step: 1/8000 s.
        sc.settings.timeStep = 1.0 / 8000;
        World w = buildWorld(sc);
        const double e0 = measure(w).energy;
        double worst = 0;
        const int steps = int(std::lround(10 / sc.settings.timeStep));
        std::uint64_t collisions = 0;
        for (int i = 0; i < steps; ++i) {
            w.step();
            worst = std::max(worst, std::abs(measure(w).energy - e0) / e0);
            collisions += w.diagnostics().collisions;
        }
        EXPECT_LT(worst, 0.01);
        EXPECT_GT(collisions, 20u); // it did strike the walls, many times
    }
}

// A jelly on a floor with a box on it: after they settle, 60 s without sinking or jitter.
TEST(SoftRest, SlowRigidAndSoftRestTogetherFor60s) {
    const Scene scene = loadScene(kAssets + "soft-jelly-box-rest.json");
    for (SoftResolution r : kBoth) {
        SCOPED_TRACE(nameOf(r));
        Scene sc = scene;
        sc.settings.softResolution = r;
        World w = buildWorld(sc);
        const BodyId box = *w.findBody("box");
        const double h = sc.settings.timeStep;
        auto run = [&](double seconds, auto each) {
            for (int i = 0, n = int(std::lround(seconds / h)); i < n; ++i) {
                w.step();
                each();
            }
        };
        run(20, [] {}); // settle
        const double boxY = w.body(box).xf().p.y;
        const Vec2 jelly = w.softBodies()[0].centreOfMass();
        double fastest = 0, lowest = INFINITY;
        run(60, [&] {
            fastest = std::max(fastest, glm::length(w.body(box).v));
            for (const Particle& p : w.softBodies()[0].particles) {
                fastest = std::max(fastest, glm::length(p.v));
                lowest = std::min(lowest, p.x.y);
            }
        });
        EXPECT_LT(std::abs(w.body(box).xf().p.y - boxY), 1e-4); // no sinking: < 0.1 mm
        EXPECT_LT(glm::length(w.softBodies()[0].centreOfMass() - jelly), 1e-4);
        // No jitter beyond the step's own: the rigid stages give the box a step's gravity, g h, at
        // once, which the soft stage's substeps take back over the step (soft_step.cpp), so that
        // the box and the particles under it end a step moving by less than g h.
        EXPECT_LT(fastest, glm::length(sc.settings.gravity) * h);
        EXPECT_GT(lowest, 0.0); // nothing into the floor
    }
}

// ---- scene files ----

namespace {

std::string softScene(const std::string& body) {
    return R"({"format": 1, "bodies": [)" + body + "]}";
}

void expectRefused(const std::string& body, const std::string& pointerAndMessage) {
    try {
        parseScene(softScene(body), "s.json");
        FAIL() << "accepted: " << body;
    } catch (const SceneError& e) {
        EXPECT_NE(std::string(e.what()).find("s.json: " + pointerAndMessage), std::string::npos)
            << e.what();
    }
}

const std::string kThree =
    R"("particles": [{"position": [0, 0], "mass": 1}, {"position": [1, 0], "mass": 1},
                     {"position": [0, 1], "mass": 1}])";

} // namespace

TEST(SoftScene, BadInputIsRefusedWithItsPath) {
    expectRefused(
        R"({"type": "soft", )" + kThree +
            R"(, "springs": [{"i": 0, "j": 1}, {"i": 1, "j": 5}], "boundary": [0, 1, 2]})",
        "/bodies/0/springs/1/j: particle index 5 out of range 0..2");
    expectRefused(R"({"type": "soft", )" + kThree +
                      R"(, "springs": [{"i": 2, "j": 2}], "boundary": [0, 1, 2]})",
                  "/bodies/0/springs/0/j: a spring from particle 2 to itself");
    expectRefused(R"({"type": "soft", )" + kThree + R"(, "boundary": [0, 1, 3]})",
                  "/bodies/0/boundary/2: particle index 3 out of range 0..2");
    expectRefused(R"({"type": "soft", "particles": [{"position": [0, 0], "mass": -1}],
                      "boundary": [0]})",
                  "/bodies/0/particles/0/mass: must be > 0, got -1");
    expectRefused(R"({"type": "soft", "stiffness": -3, )" + kThree + R"(, "boundary": [0, 1, 2]})",
                  "/bodies/0/stiffness: must be >= 0, got -3");
    expectRefused(R"({"type": "soft", )" + kThree +
                      R"(, "springs": [{"i": 0, "j": 1, "stiffness": -1}], "boundary": [0, 1, 2]})",
                  "/bodies/0/springs/0/stiffness: must be >= 0, got -1");
    // A bow tie, (0,0) (1,1) (1,0) (0,1), crosses itself: read as it is, since the step lets a
    // squashed body fold so and a saved state must load back (issue 46).
    EXPECT_NO_THROW(parseScene(softScene(R"({"type": "soft", "particles": [
        {"position": [0, 0], "mass": 1}, {"position": [1, 1], "mass": 1},
        {"position": [1, 0], "mass": 1}, {"position": [0, 1], "mass": 1}],
        "boundary": [0, 1, 2, 3]})"),
                               "s.json"));
    expectRefused(R"({"type": "soft", )" + kThree + R"(, "boundary": [0, 1, 1]})",
                  "/bodies/0/boundary/2: particle 1 is already boundary/1");
    expectRefused(R"({"type": "soft", )" + kThree + R"(, "boundary": [0, 1], "closed": true})",
                  "/bodies/0/closed: a closed boundary needs 3 or more particles");
    expectRefused(R"({"type": "soft", )" + kThree + R"(, "boundary": [0, 1, 2], "shape": 1})",
                  "/bodies/0/shape: unknown field");
    expectRefused(R"({"type": "soft", )" + kThree + R"(})", "/bodies/0/boundary: missing");
    expectRefused(R"({"type": "soft", "grid": {"position": [0, 0], "columns": 0, "rows": 2,
                      "spacing": 0.1, "mass": 1}})",
                  "/bodies/0/grid/columns: must be a whole number in 1..1000, got 0");
    expectRefused(R"({"name": "a", "type": "soft", "ring": {"position": [0, 0], "radius": 1,
                      "count": 5, "mass": 1}}, {"name": "a", "shape": {"type": "circle",
                      "radius": 1}, "position": [5, 5]})",
                  "/bodies/1/name: duplicate name \"a\"");
}

TEST(SoftScene, DefaultsAndShapes) {
    const Scene s = parseScene(softScene(R"({"type": "soft", "damping": 0.5, )" + kThree +
                                         R"(, "springs": [{"i": 0, "j": 1}, {"i": 1, "j": 2,
                                         "stiffness": 7, "rest_length": 2}], "boundary": [0, 1, 2]})"),
                               "s.json");
    const World w = buildWorld(s);
    const SoftBody& b = w.softBodies().at(0);
    EXPECT_EQ(b.name, "body0");
    EXPECT_TRUE(b.closed);                  // 3 or more
    EXPECT_EQ(b.springs[0].stiffness, 100); // the body's default
    EXPECT_EQ(b.springs[0].damping, 0.5);
    EXPECT_EQ(b.springs[0].restLength, 1); // the distance at the start
    EXPECT_EQ(b.springs[1].stiffness, 7);
    EXPECT_EQ(b.springs[1].restLength, 2);
    EXPECT_EQ(b.mass(), 3);
    // A grid of 4 × 3: 12 particles, 3·3 + 4·2 + 2·3·2 springs, an outline of 10.
    const World g = buildWorld(parseScene(
        softScene(R"({"type": "soft", "grid": {"position": [0, 0], "columns": 4, "rows": 3,
                  "spacing": 0.5, "mass": 6}})"),
        "g.json"));
    EXPECT_EQ(g.softBodies()[0].particles.size(), 12u);
    EXPECT_EQ(g.softBodies()[0].springs.size(), 9u + 8u + 12u);
    EXPECT_EQ(g.softBodies()[0].boundary.size(), 10u);
    EXPECT_NEAR(g.softBodies()[0].mass(), 6, 1e-12);
    EXPECT_NEAR(glm::length(g.softBodies()[0].centreOfMass()), 0, 1e-12);
}

// Spring energy is potential energy: ½ k (l − L)² per spring, in pe and energy.
TEST(SoftScene, SpringEnergyCountsAsPotential) {
    World w(weightless(SoftResolution::Sequential));
    SoftBodyDef d;
    d.particles = {ParticleDef{{0, 0}, {1, 0}, 2}, ParticleDef{{1.5, 0}, {0, 0}, 2}};
    d.springs = {SpringDef{0, 1, 10.0, 0.0, 1.0}};
    d.boundary = {0, 1};
    w.addSoftBody(d);
    const Diagnostics m = measure(w);
    EXPECT_DOUBLE_EQ(m.pe, 0.5 * 10 * 0.5 * 0.5);
    EXPECT_DOUBLE_EQ(m.keLinear, 0.5 * 2 * 1);
    EXPECT_DOUBLE_EQ(m.energy, m.pe + m.keLinear);
    EXPECT_DOUBLE_EQ(m.momentum.x, 2);
}

// The mouse spring on a particle pulls that particle, F = k (target − x) − c v, and no rigid body
// (body 0 here, whose id the spring's soft body shares).
TEST(SoftScene, MouseSpringPullsTheGrabbedParticle) {
    WorldSettings s = weightless(SoftResolution::Sequential);
    s.springStiffness = 3;
    s.springFrequency = 0; // the fixed stiffness
    s.springDamping = 0.5;
    World w(s);
    BodyDef ball;
    ball.name = "ball";
    ball.position = {5, 5};
    w.addBody(ball);
    w.addSoftBody(lone("p", {0, 0}, {0, 0}, 2));
    const auto hit = w.particleNear({0.1, 0}, 0.2);
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->body, 0u);
    EXPECT_EQ(hit->particle, 0u);
    EXPECT_DOUBLE_EQ(hit->distance, 0.1);
    EXPECT_FALSE(w.particleNear({1, 0}, 0.2));
    w.setMouseSpringOnParticle(0, 0, {1, 0});
    w.step();
    const double h = s.timeStep;
    EXPECT_DOUBLE_EQ(w.softBodies()[0].particles[0].v.x, h * 3 * 1 / 2); // h k (target − x) / m
    EXPECT_EQ(w.body(0).v, Vec2(0, 0));
    const Vec2 v = w.softBodies()[0].particles[0].v, x = w.softBodies()[0].particles[0].x;
    w.step();
    // Drift–kick–drift (soft_step.cpp): the force at the half drift's position.
    const Vec2 f = 3.0 * (Vec2{1, 0} - (x + 0.5 * h * v)) - 0.5 * v;
    EXPECT_NEAR(w.softBodies()[0].particles[0].v.x, v.x + h * f.x / 2, 1e-15);
}

// A rigid body's vertex against a soft edge: a diamond (a box turned 45°) falls corner first on
// an edge of two particles. Its corner never gets past the edge, and the impulses, equal and
// opposite, keep the momentum.
TEST(SoftCollide, RigidVertexStrikesASoftEdge) {
    for (SoftResolution r : kBoth) {
        SCOPED_TRACE(nameOf(r));
        WorldSettings s = weightless(r);
        s.restitution = 0.5;
        World w(s);
        BodyDef diamond;
        diamond.name = "diamond";
        diamond.shape = Shape::box(0.4, 0.4);
        diamond.angle = M_PI / 4;
        diamond.position = {0.1, 0.5};
        diamond.velocity = {0, -4};
        diamond.mass = 2;
        const BodyId id = w.addBody(diamond);
        SoftBodyDef edge;
        edge.name = "edge";
        edge.particles = {ParticleDef{{-1, 0}, {0, 0}, 5}, ParticleDef{{1, 0}, {0, 0}, 3}};
        edge.boundary = {0, 1};
        w.addSoftBody(edge);
        const Vec2 p0 = measure(w).momentum;
        for (int i = 0; i < 60; ++i) {
            w.step();
            const SoftBody& e = w.softBodies()[0];
            const Vec2 y = e.particles[0].x, z = e.particles[1].x;
            for (Vec2 v :
                 soleShape(w.body(id)).vertices()) // above the edge's line: (z − y) × (v − y) > 0
                ASSERT_GT(cross(z - y, w.body(id).worldPoint(v) - y), 0) << "step " << i;
        }
        EXPECT_GT(w.body(id).v.y, -4);                // it was stopped, or bounced
        EXPECT_LT(w.softBodies()[0].velocity().y, 0); // and pushed the edge down
        const Vec2 p1 = measure(w).momentum;
        EXPECT_NEAR(p1.x, p0.x, 1e-12);
        EXPECT_NEAR(p1.y, p0.y, 1e-12);
    }
}

// A rigid circle strikes a soft edge with its outline: the same formula, with the ball's
// 1/m for the node's side (its arm r = −ρ n is along n: no turn).
TEST(SoftCollide, CircleStrikesASoftEdgeByTheFormula) {
    const double mb = 1, my = 2, mz = 3, speed = 2, radius = 0.1;
    for (SoftResolution r : kBoth)
        for (double alpha : {0.5, 0.2}) {
            SCOPED_TRACE(std::string(nameOf(r)) + " alpha " + std::to_string(alpha));
            WorldSettings s = weightless(r);
            s.restitution = 1;
            World w(s);
            const double beta = 1 - alpha;
            BodyDef ball;
            ball.name = "ball";
            ball.shape = Shape::circle(radius);
            ball.position = {beta, radius + 0.05};
            ball.velocity = {0, -speed};
            ball.mass = mb;
            const BodyId id = w.addBody(ball);
            SoftBodyDef edge;
            edge.name = "edge";
            edge.particles = {ParticleDef{{0, 0}, {0, 0}, my}, ParticleDef{{1, 0}, {0, 0}, mz}};
            edge.boundary = {0, 1};
            w.addSoftBody(edge);
            for (int i = 0; i < 20; ++i)
                w.step();
            const double gamma = 2 * speed / (1 / mb + alpha * alpha / my + beta * beta / mz);
            EXPECT_NEAR(w.body(id).v.y, -speed + gamma / mb, 1e-9);
            EXPECT_NEAR(w.body(id).w, 0, 1e-12);
            EXPECT_NEAR(w.softBodies()[0].particles[0].v.y, -alpha * gamma / my, 1e-9);
            EXPECT_NEAR(w.softBodies()[0].particles[1].v.y, -beta * gamma / mz, 1e-9);
        }
}

// A ball smaller than a jelly's particle spacing stays on it, on its surface between two
// particles, instead of sinking through (it may roll about in the dimple it makes).
TEST(SoftRest, SmallBallRestsOnAJellyBetweenItsParticles) {
    for (SoftResolution r : kBoth) {
        SCOPED_TRACE(nameOf(r));
        Scene sc = loadScene(kAssets + "soft-jelly-box-rest.json");
        sc.settings.softResolution = r;
        sc.bodies[1].shape = Shape::circle(0.06); // the box made a ball, 0.12 m across
        sc.bodies[1].position = {0.1, 1.5};       // above the gap between two top particles
        sc.bodies[1].mass = 0.5;
        World w = buildWorld(sc);
        for (int i = 0; i < int(3 / sc.settings.timeStep); ++i)
            w.step();
        double top = -INFINITY;
        for (const Particle& p : w.softBodies()[0].particles)
            top = std::max(top, p.x.y);
        const Body& ball = w.body(*w.findBody("box"));
        EXPECT_GT(ball.xf().p.y, top + 0.04);    // on the surface, its radius above the top row
        EXPECT_LT(std::abs(ball.xf().p.x), 0.4); // on the jelly, not rolled off it
    }
}
