// The world: bodies, the forces on them, and one fixed step of the simulation.
#pragma once

#include "carom/body.h"
#include "carom/joint.h"
#include "carom/settings.h"
#include "carom/soft_body.h"
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace carom {

// A contact point of a manifold, as found at the start of the last step. Its impulses carry over
// to the next step (warm starting) while its feature id stays the same.
struct ContactPoint {
    Vec2 point{0, 0};     // world, midway between the two surfaces
    double depth = 0;     // penetration along the normal; negative = a gap (speculative contact)
    std::uint32_t id = 0; // feature id: which edges/vertices made this point
    double normalImpulse = 0, tangentImpulse = 0; // accumulated over the step, N·s
};

// Up to two contact points between bodies a and b, of a's shape shapeA (its index in
// Body::shapes) and b's shape shapeB: a compound body has a manifold per shape pair in contact
// (0 and 0 for one-shape bodies). The normal points from a to b.
struct Manifold {
    BodyId a = 0, b = 0;
    std::uint32_t shapeA = 0, shapeB = 0;
    Vec2 normal{0, 1};
    int count = 0;
    ContactPoint points[2];
    double friction = 0, restitution = 0; // mixed from the two bodies
    bool fresh = false; // found in this step with no manifold of the pair in the last one
};

// Whether x's pair of shapes comes before y's in the contacts' order: by body a, body b, then
// their shapes (x, y: manifolds or where they were found).
template <class X, class Y> bool pairBefore(const X& x, const Y& y) {
    if (x.a != y.a) return x.a < y.a;
    if (x.b != y.b) return x.b < y.b;
    if (x.shapeA != y.shapeA) return x.shapeA < y.shapeA;
    return x.shapeB < y.shapeB;
}
template <class X, class Y> bool samePair(const X& x, const Y& y) {
    return x.a == y.a && x.b == y.b && x.shapeA == y.shapeA && x.shapeB == y.shapeB;
}

// Where the narrow phase found the manifold of a pair a < b, for the default method to reuse it
// while b has barely moved relative to a (contacts.cpp: recycling): b's pose in a's frame then,
// and the manifold in a's frame, each point as its places on the two surfaces.
struct FoundAt {
    BodyId a = 0, b = 0;
    std::uint32_t shapeA = 0, shapeB = 0; // as the manifold's
    Vec2 position{0, 0};                  // b's centre in a's frame
    double angle = 0;                     // b's angle less a's
    double margin = 0; // the narrow phase's: it reported every point closer than this
    Vec2 normal{0, 1}; // in a's frame, from a towards b
    int count = 0;
    std::uint32_t id[2]{}; // the points' feature ids
    Vec2 onA[2], onB[2];   // each point's place on a's surface, in a's frame, and on b's, in b's
};

struct Walls {
    double left = -6, right = 6, bottom = -6, top = 6, thickness = 1;
};

// A force at a point of a body, both in the body's frame: force = thrust setting × direction.
struct Thruster {
    BodyId body = 0;
    Vec2 localPoint{0, 0};
    Vec2 direction{0, 0}; // body frame; its length is the thruster's weight
    bool firing = false;
};
using ThrusterId = std::size_t;

// A zero-rest-length spring from a point of a body to a target in the world.
// Its damping is settings().springDamping unless the spring has its own damping ratio ζ: then
// c = 2ζ√(k m) for the body's mass m (ζ = 1: critical damping, no overshoot for a body pulled at
// its centre), which follows the stiffness when that changes.
// On a soft body (particle set): body is its SoftBodyId and the spring pulls that particle.
struct MouseSpring {
    BodyId body = 0;
    Vec2 localAnchor{0, 0};
    Vec2 target{0, 0};
    std::optional<double> dampingRatio;
    std::optional<std::size_t> particle;
};

// A soft body's particle near a point (World::particleNear).
struct ParticleHit {
    SoftBodyId body = 0;
    std::size_t particle = 0;
    double distance = 0;
};

// A body near a point (World::bodyNear): the body, its point nearest to the query point (the
// query point itself when inside) and the distance between them (0 inside).
struct BodyHit {
    BodyId body = 0;
    Vec2 point{0, 0};
    double distance = 0;
};

// Measured after every step (formulas in docs/cli.md).
// The guards that repair a state instead of preventing its cause, each counted where it fires
// (in a step, and in Diagnostics::totalGuards since the world was made). Each is a limit of the
// engine, documented in docs/architecture.md; none may fire in the analytic tests, which the
// CAROM_VALIDATE build checks (carom/guard_check.h).
struct GuardCounts {
    // A restitution pass that would have made energy, undone (the impulse method's solver; the
    // default method's substep solver bounces by Poisson's law, solver/poisson.h, and has none).
    int restitutionUndone = 0;
    // Impacts struck together whose bounce by Newton's law made energy: given Poisson's bounce
    // instead (impacts.cpp), and where that made energy too, the bounce cut to keep it.
    int bounceMadePoisson = 0;
    int bounceCut = 0;
    // A body moved back to where it first met a static body (stopAtStaticBodies), and one pushed
    // out of a static body it was pressed into (keepOutOfStaticBodies; continuous.cpp).
    int stoppedAtStatic = 0;
    int pushedOutOfStatic = 0;

    // Every kind, with the member that counts it and what it did in a few words (for listings).
    struct Kind {
        int GuardCounts::*count;
        const char* name;
    };
    static constexpr Kind kinds[] = {
        {&GuardCounts::restitutionUndone, "restitutionUndone"},
        {&GuardCounts::bounceMadePoisson, "bounceMadePoisson"},
        {&GuardCounts::bounceCut, "bounceCut"},
        {&GuardCounts::stoppedAtStatic, "stoppedAtStatic"},
        {&GuardCounts::pushedOutOfStatic, "pushedOutOfStatic"},
    };

    GuardCounts& operator+=(const GuardCounts& o) {
        for (const Kind& k : kinds)
            this->*k.count += o.*k.count;
        return *this;
    }
    int total() const {
        int n = 0;
        for (const Kind& k : kinds)
            n += this->*k.count;
        return n;
    }
};

// Where a step's time went, stage by stage (World::setProfiling; all 0 when off), seconds of wall
// time: the forces and free motion; the broad and narrow phase; the flights and their impacts;
// the pairs that only pass by; the solver (the exact method's whole step is its solver); the
// joints and positions of the methods that move them after solving; the checks against static
// bodies; the soft bodies; the measuring and the energy audit after the step. And the constraint
// colours and substeps of the default method's solver in the step (0 where it did not run).
struct StepProfile {
    double forces = 0, contacts = 0, flights = 0, misses = 0, solver = 0, positions = 0,
           staticChecks = 0, softBodies = 0, finish = 0;
    int colours = 0, substeps = 0;
    double total() const;
};

// The stages of StepProfile in the step's order: a name (carom-cli bench --profile prints
// profile_NAME_ms), the field, and a line saying what the stage does (the app's tooltip).
struct ProfileStage {
    const char* name;
    double StepProfile::*time;
    const char* what;
};
inline constexpr ProfileStage kProfileStages[] = {
    {"forces", &StepProfile::forces, "gravity, damping, thrusters, the spring; free motion"},
    {"contacts", &StepProfile::contacts, "broad and narrow phase"},
    {"flights", &StepProfile::flights, "bodies in free flight and their impacts"},
    {"misses", &StepProfile::misses, "pairs that only pass by, set aside"},
    {"solver", &StepProfile::solver, "the method's solver (the exact method: all of it)"},
    {"positions", &StepProfile::positions, "joints and positions after the solver"},
    {"static_checks", &StepProfile::staticChecks, "nothing through or into static bodies"},
    {"soft_bodies", &StepProfile::softBodies, "the soft bodies' springs and collisions"},
    {"finish", &StepProfile::finish, "energies, momenta and the energy audit"},
};
inline double StepProfile::total() const {
    double sum = 0;
    for (const ProfileStage& s : kProfileStages)
        sum += this->*s.time;
    return sum;
}

struct Diagnostics {
    double keLinear = 0, keAngular = 0, pe = 0, energy = 0;
    Vec2 momentum{0, 0};
    double angularMomentum = 0; // about the world origin
    int contactPoints = 0;      // touching or overlapping points after the step
    int collisions = 0; // impacts in the step (exact method: the contact points struck, each once)
    // Kinetic energy the step's collisions changed, J (0 in a step without one): in the exact
    // method that of the impacts alone; in the impulse and penalty methods that of all the
    // step's contact impulses, resting and friction ones included.
    double collisionEnergy = 0;
    // Since the world was made: collisions counted and the energy they changed.
    std::uint64_t totalCollisions = 0;
    // Exact method: chains of impacts that did not settle within kStrikesPerPoint strikes a point
    // (impacts.cpp), stopped by one simultaneous solve without bounce; in the step, and in all.
    int stoppedChains = 0;
    std::uint64_t totalStoppedChains = 0;
    // Exact method: steps whose intervals used up their work (kExactMaxAdvances, tuning.h) or
    // stopped getting on (kTinyIntervals), the rest of the step taken as the default method steps,
    // and the steps waited after them (ExactBackoff), taken so whole; in the step (0 or 1), and in
    // all.
    int stepsFinishedHeld = 0;
    std::uint64_t totalStepsFinishedHeld = 0;
    // Exact method: times of contact searched for (bisection, after an advance that overlapped;
    // at most kSearchesPerStep a step, exact.cpp); in the step, and in all.
    int contactSearches = 0;
    std::uint64_t totalContactSearches = 0;
    // The default method: batches whose bounce's solves stopped at their work bound
    // (kBounceWork, tuning.h) before converging; the bounce is then less accurate, its energy
    // still e² of what the compression took (solver/poisson.h); in the step, and in all.
    int bounceSolvesCut = 0;
    std::uint64_t totalBounceSolvesCut = 0;
    // The exact method: solves of the holds over an interval stopped at their work bound
    // (kHoldWork, tuning.h) while the holds still did work (sequential_impulses.cpp: solveHolds);
    // the energy they made is the audit's; in the step, and in all.
    int holdSolvesCut = 0;
    std::uint64_t totalHoldSolvesCut = 0;
    double totalCollisionEnergy = 0;
    double maxDepth = 0; // deepest overlap after the step, m
    // The energy audit (energy_audit.h): energy the step ended with beyond what it began with
    // (gravity's potential energy included), past round-off, J; since the world was made; and
    // the steps not audited because the user's inputs or a moving kinematic body did work.
    double energyMade = 0;
    double totalEnergyMade = 0;
    std::uint64_t stepsNotAudited = 0;
    GuardCounts guards;      // in the step
    GuardCounts totalGuards; // since the world was made
    StepProfile profile;     // the step's, when profiling (World::setProfiling)
};

// The exact method's back-off after a step it could not finish (exact.cpp, stepExact): the next
// `stepsLeft` steps are taken as the default method steps without trying, and the stall after them
// sets `wait` such steps, doubling each time up to kMaxBackoff (8); a step finished exactly sets
// `wait` back to 1. Solver state, as the contacts' impulses are: saved with the world.
struct ExactBackoff {
    int stepsLeft = 0;
    int wait = 1;
    bool operator==(const ExactBackoff& o) const {
        return stepsLeft == o.stepsLeft && wait == o.wait;
    }
};
constexpr int kMaxBackoff = 8;

// A force on a body as the step applies it, for drawing (World::forces): `force` acts at the world
// point `point`; `torque` is a pure couple (angular damping; zero for the others). Contact forces
// are the last step's impulses as their mean force over it, P / h, on the manifold's body B.
enum class ForceKind { Gravity, Damping, AngularDamping, Thruster, Spring, Contact };
struct AppliedForce {
    BodyId body = 0;
    ForceKind kind = ForceKind::Gravity;
    Vec2 point{0, 0};
    Vec2 force{0, 0};
    double torque = 0;
};

struct ContactEvent {
    BodyId a = 0, b = 0;
    bool begin = true; // false: the bodies stopped touching
};

// Where a body came from, which the step never reads: what a saved scene must say again.
struct BodyOrigin {
    std::optional<double> density; // kg/m², as given (unset: the mass was given, or the default)
    bool massGiven = false;        // the mass came from the definition or setMass, not from density
    bool wall = false;             // one of addWalls's four (scene files save them as "walls")
    std::optional<ChainLink> chain; // a link of a scene file's chain (saved as that chain)
};

struct EnergyAudit; // internal: the step's energy audit (energy_audit.h)
class Crew;         // internal: the threads a step shares its stages with (parallel/crew.h)

class World {
  public:
    explicit World(const WorldSettings& settings = {});

    const WorldSettings& settings() const { return settings_; }
    void setSettings(const WorldSettings& settings); // validated; throws std::invalid_argument

    // Bodies. Every input is checked; a bad one throws std::invalid_argument and changes nothing.
    BodyId addBody(const BodyDef& def);
    void addWalls(const Walls& walls); // four static boxes, inner faces at the given lines
    // Takes a body out, with its contacts, joints, thrusters and the mouse spring on it; every
    // later body's id moves down by one (ThrusterIds and JointIds past the ones removed too). A
    // wall taken out leaves the other three as ordinary static bodies (walls() becomes unset).
    void removeBody(BodyId id);
    const std::optional<Walls>& walls() const { return walls_; }
    const std::vector<Body>& bodies() const { return bodies_; }
    const Body& body(BodyId id) const { return bodies_.at(id); }
    const BodyOrigin& origin(BodyId id) const { return origins_.at(id); }
    std::optional<BodyId> findBody(std::string_view name) const;
    std::optional<BodyId> bodyAt(Vec2 worldPoint) const; // the topmost dynamic body there
    // The dynamic body nearest to worldPoint within maxDistance (≥ 0); of bodies that contain
    // the point (or lie at the same distance), the topmost. Pickable::NotWalls looks at the
    // static and kinematic bodies too, the walls left out (the app's build mode edits them).
    enum class Pickable { Dynamic, NotWalls };
    std::optional<BodyHit> bodyNear(Vec2 worldPoint, double maxDistance,
                                    Pickable which = Pickable::Dynamic) const;
    void setPosition(BodyId id, Vec2 position, double angle);
    void setVelocity(BodyId id, Vec2 velocity, double angularVelocity);
    void setMass(BodyId id, double mass); // keeps the shape's inertia per mass
    void setRestitution(BodyId id, std::optional<double> restitution);
    void setFriction(BodyId id, std::optional<double> friction);

    // Soft bodies (carom/soft_body.h), beside the rigid ones: their names are unique among both.
    // A bad definition throws std::invalid_argument "path: what" (makeSoftBody).
    SoftBodyId addSoftBody(const SoftBodyDef& def);
    const std::vector<SoftBody>& softBodies() const { return softBodies_; }
    // How many rigid bodies were added before the soft body: its place among them in the order
    // of the scene (the CSV's columns and saved files keep it).
    std::size_t softPlace(SoftBodyId id) const { return softPlaces_.at(id); }
    // The particle nearest to worldPoint within maxDistance, of any soft body.
    std::optional<ParticleHit> particleNear(Vec2 worldPoint, double maxDistance) const;
    // Moves a particle (the app's paused drag); its velocity is kept.
    void setParticlePosition(SoftBodyId id, std::size_t particle, Vec2 position);
    double restitutionOf(const Body& b) const {
        return b.restitution.value_or(settings_.restitution);
    }
    double frictionOf(const Body& b) const { return b.friction.value_or(settings_.friction); }

    // Joints (carom/joint.h): a bad definition throws std::invalid_argument "field: what" and
    // changes nothing; so does a joint in a world whose method is the exact one, which does not
    // handle joints (docs/architecture.md). Names are unique among the joints.
    JointId addJoint(const JointDef& def);
    const std::vector<Joint>& joints() const { return joints_; }
    std::optional<JointId> findJoint(std::string_view name) const;
    // Changes what a joint does while it runs (the app's inspector): the motor, the limits and a
    // distance joint's lengths, stiffness and damping, checked as addJoint checks them; its
    // bodies, anchors, type and frame stay.
    void tuneJoint(JointId id, const JointDef& def);
    // The joint's anchors on a (or the world) and on b, world coordinates, now.
    std::pair<Vec2, Vec2> jointAnchors(JointId id) const;
    // The definition that makes the joint again as it is now (its frame and impulses included).
    JointDef definitionOf(JointId id) const;

    // Forces the user applies.
    ThrusterId addThruster(BodyId id, Vec2 localPoint, Vec2 direction);
    void setThrusterFiring(ThrusterId id, bool firing);
    const std::vector<Thruster>& thrusters() const { return thrusters_; }
    // dampingRatio: see MouseSpring (unset: the settings' springDamping); ≥ 0 and finite.
    void setMouseSpring(BodyId id, Vec2 localAnchor, Vec2 target,
                        std::optional<double> dampingRatio = std::nullopt);
    // The same spring on a soft body's particle.
    void setMouseSpringOnParticle(SoftBodyId id, std::size_t particle, Vec2 target,
                                  std::optional<double> dampingRatio = std::nullopt);
    void moveMouseSpring(Vec2 target);
    void clearMouseSpring();
    const std::optional<MouseSpring>& mouseSpring() const { return spring_; }
    // Every force on the bodies now, with the formulas the step uses (forces.cpp).
    std::vector<AppliedForce> forces() const;

    // One fixed step of settings().timeStep. Contact events are queued during the step and
    // delivered to the listener after it.
    void step();
    double time() const { return time_; }
    std::uint64_t stepCount() const { return steps_; }
    // Sets the clock of a restored state (a recording's or a history's): the step reads neither.
    void setClock(double time, std::uint64_t steps);
    const std::vector<Manifold>& contacts() const { return contacts_; }
    // The contacts of a saved world (their impulses are the solver's state, for warm starting):
    // each pair a < b of existing bodies once, one or two points, finite numbers, impulses ≥ 0.
    void restoreContacts(std::vector<Manifold> contacts);
    // Where the default method's last step found its manifolds (recycling), sorted by pair.
    const std::vector<FoundAt>& found() const { return found_; }
    // A saved world's: pairs a < b of existing bodies, once each, sorted here; a record is kept
    // only where the narrow phase finds it again (a shape edited by hand, or a made-up record,
    // would carry points that are not there); the others are found anew at the next step.
    void restoreFound(std::vector<FoundAt> found);
    const ExactBackoff& exactBackoff() const { return exactBackoff_; }
    // A saved world's back-off: 0 <= stepsLeft <= kMaxBackoff, 1 <= wait <= kMaxBackoff.
    void restoreExactBackoff(const ExactBackoff& backoff);
    const Diagnostics& diagnostics() const { return diagnostics_; }
    void setContactListener(std::function<void(const ContactEvent&)> listener);

    // The threads the step shares its stages with (≥ 1; 1 by default): the same bits for any
    // number. A copy of the world shares them (a copy stepped on another thread at the same time
    // steps on that thread alone). Throws std::invalid_argument below 1 or above kMaxThreads.
    void setThreads(int threads);
    int threads() const;
    // Whether each step times its stages (Diagnostics::profile); off by default: a clock read
    // between stages costs a few percent of a small scene's step.
    void setProfiling(bool on) { profiling_ = on; }
    bool profiling() const { return profiling_; }
    static constexpr int kMaxThreads = 256;
    // The cores this process may run on, at least 1.
    static int cores();

  private:
    WorldSettings settings_;
    std::vector<Body> bodies_;
    std::vector<SoftBody> softBodies_;
    std::vector<std::size_t> softPlaces_; // per soft body: bodies_.size() when it was added
    std::vector<BodyOrigin> origins_;     // per body
    std::unordered_map<std::string, BodyId> names_; // body name -> id, for findBody
    std::optional<Walls> walls_;
    std::vector<Thruster> thrusters_;
    std::vector<Joint> joints_;
    std::unordered_map<std::string, JointId> jointNames_; // for findJoint
    // The pairs (a < b) of bodies joined without "collide", sorted before a step (apartSorted_):
    // the broad phase skips them.
    std::vector<std::pair<BodyId, BodyId>> apart_;
    bool apartSorted_ = true;
    bool profiling_ = false;
    std::optional<MouseSpring> spring_;
    std::vector<Manifold> contacts_;
    std::vector<FoundAt> found_;
    ExactBackoff exactBackoff_;
    // Where the exact method's last step found the world's contacts (each body's x, y and angle),
    // while nothing has moved or changed the bodies since: the next step starts from them instead
    // of finding the same contacts again. Empty when not known; not saved with the world, as the
    // contacts found again would be the same.
    std::vector<double> exactContactsAt_;
    std::vector<Manifold> previousContacts_; // the last step's, for the contact events
    std::vector<ContactEvent> pendingEvents_;
    std::function<void(const ContactEvent&)> listener_;
    std::shared_ptr<Crew> crew_; // none: one thread
    Diagnostics diagnostics_;
    double time_ = 0;
    std::uint64_t steps_ = 0;

    // Events, clock and diagnostics after the stages, the step's energy audited (energy_audit.h).
    void finishStep(const Diagnostics& stepped, const EnergyAudit& audit);
};

Diagnostics measure(const World& world); // energies and momenta now, soft bodies' too
bool finiteState(const World& world);    // every body's and particle's pose and velocity finite

} // namespace carom
