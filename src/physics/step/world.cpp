// The world: bodies and user forces, every input checked where it enters, and the step.
#include "carom/world.h"
#include "parallel/crew.h"
#include "step/energy_audit.h"

#include "step/checks.h"
#include "step/guard_check_count.h"
#include "step/step_context.h"
#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>

namespace carom {
namespace {

// A body's own restitution or friction: what the world's setting of that name accepts.
void requireCoefficient(const char* what, std::optional<double> x) {
    if (x) checkValue(setting(what), *x);
}

// A saved world's contacts, or where they were found (`what`), sorted by pair, each checked: a
// pair a < b of the world's `bodies` and shapes of theirs, once, with one or two points.
template <class Entry>
void sortByPair(std::vector<Entry>& entries, const std::vector<Body>& bodies, const char* what) {
    std::sort(entries.begin(), entries.end(),
              [](const Entry& x, const Entry& y) { return pairBefore(x, y); });
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const Entry& e = entries[i];
        std::string pair = what + (" " + str(e.a) + "-" + str(e.b));
        if (e.shapeA != 0 || e.shapeB != 0)
            pair += " (shapes " + str(e.shapeA) + "-" + str(e.shapeB) + ")";
        if (e.a >= e.b || e.b >= bodies.size())
            throw std::invalid_argument(pair + ": must join two bodies a < b of the world");
        if (e.shapeA >= bodies[e.a].shapes.size() || e.shapeB >= bodies[e.b].shapes.size())
            throw std::invalid_argument(pair + ": no such shape of its body");
        if (i > 0 && samePair(entries[i - 1], e))
            throw std::invalid_argument(pair + ": appears twice");
        if (e.count < 1 || e.count > 2)
            throw std::invalid_argument(pair + ": must have 1 or 2 points");
    }
}

// The point of the segment from a to b nearest to p (Ericson §5.1.2).
Vec2 nearestOnSegment(Vec2 a, Vec2 b, Vec2 p) {
    const Vec2 e = b - a;
    const double len2 = lengthSquared(e);
    return a + (len2 > 0 ? std::clamp(glm::dot(p - a, e) / len2, 0.0, 1.0) : 0.0) * e;
}

// A capsule or a segment: the points within its radius of its core (shape.h); a segment, having
// no inside, contains none.
bool containsRounded(const Shape& s, Vec2 p) {
    const double r = s.radius();
    return lengthSquared(p - nearestOnSegment(s.vertices()[0], s.vertices()[1], p)) < r * r;
}

// Soft bodies collide with the rigid ones' vertices, edges and circles (soft_collide.cpp), not yet
// with a capsule's rounded sides: a world with both is refused.
constexpr const char* kCapsulesAndSoftBodies =
    "shape: capsules do not collide with soft bodies yet; a world may not have both";

// Soft bodies collide with one shape a body at its centre of mass (soft_collide.cpp), not yet with
// a compound body's several: a world with both is refused.
constexpr const char* kCompoundsAndSoftBodies =
    "shapes: compound bodies do not collide with soft bodies yet; a world may not have both";

// The exact method keys its contacts by pair of bodies (exact.cpp), one manifold a pair: it does
// not handle a compound body's several.
constexpr const char* kCompoundsAndExact =
    "shapes: the exact method does not handle compound bodies: choose another method, or a scene "
    "without them";

// Whether the shape contains the point p of its own frame.
bool contains(const Shape& s, Vec2 p) {
    if (s.type() == ShapeType::Circle) return lengthSquared(p) <= s.radius() * s.radius();
    if (s.vertices().size() == 2) return containsRounded(s, p);
    const auto& v = s.vertices();
    const auto& n = s.normals();
    for (std::size_t i = 0; i < v.size(); ++i)
        if (glm::dot(n[i], p - v[i]) > 0) return false;
    return true;
}

bool contains(const Body& b, Vec2 worldPoint) {
    for (std::size_t i = 0; i < b.shapes.size(); ++i)
        if (contains(b.shapes[i].shape, b.shapeXf(i).applyInverse(worldPoint))) return true;
    return false;
}

// The point of the shape nearest to p, both in the shape's frame (p outside it).
Vec2 nearestPoint(const Shape& s, Vec2 p) {
    if (s.type() == ShapeType::Circle) return p * (s.radius() / glm::length(p));
    if (s.vertices().size() == 2) { // the core's nearest point, out by the radius
        const Vec2 q = nearestOnSegment(s.vertices()[0], s.vertices()[1], p);
        const Vec2 d = p - q;
        const double dist = glm::length(d);
        return dist > 0 ? q + s.radius() / dist * d : q;
    }
    const auto& v = s.vertices();
    Vec2 best = v[0];
    double bestD2 = INFINITY;
    for (std::size_t i = 0; i < v.size(); ++i) {
        const Vec2 a = v[i], e = v[(i + 1) % v.size()] - a;
        const double len2 = lengthSquared(e);
        const double t = len2 > 0 ? std::clamp(glm::dot(p - a, e) / len2, 0.0, 1.0) : 0.0;
        const Vec2 q = a + t * e;
        if (lengthSquared(p - q) < bestD2) {
            bestD2 = lengthSquared(p - q);
            best = q;
        }
    }
    return best;
}

// The point of b's shapes nearest to worldPoint (worldPoint itself when inside one).
Vec2 nearestPoint(const Body& b, Vec2 worldPoint) {
    if (contains(b, worldPoint)) return worldPoint;
    Vec2 best = worldPoint;
    double bestD2 = INFINITY;
    for (std::size_t i = 0; i < b.shapes.size(); ++i) {
        const Transform x = b.shapeXf(i);
        const Vec2 q = x.apply(nearestPoint(b.shapes[i].shape, x.applyInverse(worldPoint)));
        if (lengthSquared(q - worldPoint) < bestD2) {
            bestD2 = lengthSquared(q - worldPoint);
            best = q;
        }
    }
    return best;
}

// The entry id of one of the world's lists (`what`: "body", "thruster"), or the
// std::invalid_argument that World's header promises for a bad input (vector::at's
// std::out_of_range would say only "vector::_M_range_check").
template <class List> auto& entry(List& list, std::size_t id, const char* what) {
    if (id >= list.size())
        throw std::invalid_argument(std::string(what) + " " + std::to_string(id) + ": no such " +
                                    what + " (there are " + std::to_string(list.size()) + ")");
    return list[id];
}

bool findSoftBody(const std::vector<SoftBody>& soft, const std::string& name) {
    return std::any_of(soft.begin(), soft.end(), [&](const SoftBody& b) { return b.name == name; });
}

void requireDampingRatio(std::optional<double> dampingRatio) {
    if (dampingRatio && !(*dampingRatio >= 0 && *dampingRatio <= 1e6))
        throw std::invalid_argument("spring damping ratio: must be >= 0 and finite");
}

} // namespace

World::World(const WorldSettings& settings) {
    setSettings(settings);
}

void World::setSettings(const WorldSettings& settings) {
    validate(settings);
    if (settings.method == Method::Exact && !joints_.empty())
        throw std::invalid_argument("method: the exact method does not handle joints: choose "
                                    "another method, or a scene without joints");
    if (settings.method == Method::Exact &&
        std::any_of(bodies_.begin(), bodies_.end(), [](const Body& b) { return b.isCompound(); }))
        throw std::invalid_argument(kCompoundsAndExact);
    settings_ = settings;
    exactContactsAt_.clear();
}

BodyId World::addBody(const BodyDef& def) {
    requireSize("position", def.position);
    requireSize("angle", def.angle);
    requireSize("velocity", def.velocity);
    requireSize("angular_velocity", def.angularVelocity);
    if (def.mass && def.density)
        throw std::invalid_argument("mass: give mass or density, not both");
    for (auto [what, x] : {std::pair{"mass", def.mass}, std::pair{"density", def.density}})
        if (x) {
            requirePositive(what, *x);
            requireSize(what, *x);
        }
    requireCoefficient("restitution", def.restitution);
    requireCoefficient("friction", def.friction);

    Body b;
    b.name = def.name.empty() ? "body" + std::to_string(bodies_.size()) : def.name;
    if (findBody(b.name) || findSoftBody(softBodies_, b.name))
        throw std::invalid_argument("name: duplicate body name \"" + b.name + "\"");
    MassProperties mp;
    if (def.shapes.empty()) {
        if (def.shape.type() == ShapeType::Segment && def.type != BodyType::Static)
            throw std::invalid_argument("shape: a segment is for static bodies only");
        if (def.shape.type() == ShapeType::Capsule && !softBodies_.empty())
            throw std::invalid_argument(kCapsulesAndSoftBodies);
        b.setShape(def.shape);
        mp = def.shape.massProperties();
    } else {
        if (!softBodies_.empty()) throw std::invalid_argument(kCompoundsAndSoftBodies);
        if (settings_.method == Method::Exact) throw std::invalid_argument(kCompoundsAndExact);
        CompoundShapes compound = compoundShapes(def.shapes);
        b.setShapes(std::move(compound.shapes));
        mp = compound.mass;
    }
    b.type = def.type;
    b.setPose(def.position, def.angle);
    if (def.type != BodyType::Static) {
        b.v = def.velocity;
        b.w = def.angularVelocity;
    }
    b.mass = def.mass ? *def.mass : def.density.value_or(1.0) * mp.area;
    b.inertia = b.mass * mp.inertiaPerMass;
    if (b.isDynamic()) {
        b.invMass = 1 / b.mass;
        b.invInertia = 1 / b.inertia;
    }
    b.restitution = def.restitution;
    b.friction = def.friction;
    if (def.group < 0)
        throw std::invalid_argument("group: must be >= 0, got " + std::to_string(def.group));
    b.group = def.group;
    names_.emplace(b.name, bodies_.size());
    bodies_.push_back(std::move(b));
    exactContactsAt_.clear();
    origins_.push_back(BodyOrigin{def.density, def.mass.has_value(), def.wall, def.chain});
    return bodies_.size() - 1;
}

void World::addWalls(const Walls& w) {
    for (double x : {w.left, w.right, w.bottom, w.top, w.thickness})
        requireSize("walls", x);
    if (!(w.right > w.left) || !(w.top > w.bottom))
        throw std::invalid_argument("walls: need left < right and bottom < top");
    if (!(w.thickness > 0)) throw std::invalid_argument("walls: thickness must be > 0");
    const double t = w.thickness, width = w.right - w.left + 2 * t, height = w.top - w.bottom;
    const double cx = (w.left + w.right) / 2, cy = (w.bottom + w.top) / 2;
    auto wall = [&](const char* name, Vec2 centre, double wx, double wy) {
        BodyDef d;
        d.name = name;
        d.type = BodyType::Static;
        d.shape = Shape::box(wx, wy);
        d.position = centre;
        d.wall = true;
        addBody(d);
    };
    wall("wall-left", {w.left - t / 2, cy}, t, height);
    wall("wall-right", {w.right + t / 2, cy}, t, height);
    wall("wall-bottom", {cx, w.bottom - t / 2}, width, t);
    wall("wall-top", {cx, w.top + t / 2}, width, t);
    walls_ = w;
}

std::optional<BodyId> World::findBody(std::string_view name) const {
    const auto it = names_.find(std::string(name));
    if (it == names_.end()) return std::nullopt;
    return it->second;
}

std::optional<BodyId> World::bodyAt(Vec2 p) const {
    for (BodyId i = bodies_.size(); i-- > 0;)
        if (bodies_[i].isDynamic() && contains(bodies_[i], p)) return i;
    return std::nullopt;
}

std::optional<BodyHit> World::bodyNear(Vec2 p, double maxDistance, Pickable which) const {
    requireSize("point", p);
    std::optional<BodyHit> best;
    for (BodyId i = bodies_.size(); i-- > 0;) {
        const Body& b = bodies_[i];
        if (which == Pickable::Dynamic ? !b.isDynamic() : origins_[i].wall) continue;
        // A cheap test first: the bounding circle about the centre.
        if (glm::length(p - b.xf().p) - b.boundingRadius() > maxDistance) continue;
        const Vec2 q = nearestPoint(b, p);
        const double d = glm::length(p - q);
        if (d <= maxDistance && (!best || d < best->distance)) best = BodyHit{i, q, d};
    }
    return best;
}

void World::setPosition(BodyId id, Vec2 position, double angle) {
    requireSize("position", position);
    requireSize("angle", angle);
    Body& b = entry(bodies_, id, "body");
    // A wall is saved as the box's lines ("walls"), not as itself: moved, it would be saved
    // where it was, and the file would not go on as the world did.
    if (origins_[id].wall)
        throw std::invalid_argument("body \"" + b.name + "\": a wall of the box cannot be moved");
    b.setPose(position, angle);
    exactContactsAt_.clear();
}

void World::setVelocity(BodyId id, Vec2 velocity, double angularVelocity) {
    requireSize("velocity", velocity);
    requireSize("angular_velocity", angularVelocity);
    Body& b = entry(bodies_, id, "body");
    if (b.type == BodyType::Static) return;
    b.v = velocity;
    b.w = angularVelocity;
}

void World::restoreContacts(std::vector<Manifold> contacts) {
    sortByPair(contacts, bodies_, "contact");
    for (const Manifold& m : contacts) {
        const std::string pair = "contact " + str(m.a) + "-" + str(m.b);
        requireFinite("contact normal", m.normal);
        for (int k = 0; k < m.count; ++k) {
            const ContactPoint& cp = m.points[k];
            requireFinite("contact point", cp.point);
            requireFinite("contact depth", cp.depth);
            requireFinite("contact tangent impulse", cp.tangentImpulse);
            if (!std::isfinite(cp.normalImpulse) || cp.normalImpulse < 0)
                throw std::invalid_argument(pair + ": normal impulse must be >= 0");
        }
    }
    contacts_ = std::move(contacts);
    exactContactsAt_.clear();
}

void World::restoreFound(std::vector<FoundAt> found) {
    sortByPair(found, bodies_, "found");
    std::vector<FoundAt> kept;
    for (const FoundAt& f : found)
        if (foundAgain(f, bodies_[f.a], bodies_[f.b])) kept.push_back(f);
    found_ = std::move(kept);
}

void World::restoreExactBackoff(const ExactBackoff& backoff) {
    if (backoff.stepsLeft < 0 || backoff.stepsLeft > kMaxBackoff)
        throw std::invalid_argument("exact back-off: steps left must be in [0, " +
                                    str(kMaxBackoff) + "]");
    if (backoff.wait < 1 || backoff.wait > kMaxBackoff)
        throw std::invalid_argument("exact back-off: wait must be in [1, " + str(kMaxBackoff) +
                                    "]");
    exactBackoff_ = backoff;
}

void World::setClock(double time, std::uint64_t steps) {
    requireFinite("time", time);
    time_ = time;
    steps_ = steps;
}

void World::setMass(BodyId id, double mass) {
    requirePositive("mass", mass);
    requireSize("mass", mass);
    Body& b = entry(bodies_, id, "body");
    if (b.shapes[0].shape.type() == ShapeType::Segment) // a compound has no segment
        throw std::invalid_argument("mass: a segment has no area and takes no mass");
    const double inertia = b.inertia * (mass / b.mass);
    // What the scene reader asks of a dynamic body's mass: the solver divides by both.
    if (b.isDynamic() && (!std::isnormal(mass) || !std::isnormal(inertia) ||
                          !std::isfinite(1 / mass) || !std::isfinite(1 / inertia)))
        throw std::invalid_argument("mass: " + str(mass) + " kg and moment of inertia " +
                                    str(inertia) + " kg m^2 must be finite and > 0");
    b.inertia = inertia;
    b.mass = mass;
    origins_[id] = BodyOrigin{std::nullopt, true, origins_[id].wall, origins_[id].chain};
    if (b.isDynamic()) {
        b.invMass = 1 / b.mass;
        b.invInertia = 1 / b.inertia;
    }
}

void World::setRestitution(BodyId id, std::optional<double> restitution) {
    requireCoefficient("restitution", restitution);
    entry(bodies_, id, "body").restitution = restitution;
    exactContactsAt_.clear();
}

void World::setFriction(BodyId id, std::optional<double> friction) {
    requireCoefficient("friction", friction);
    entry(bodies_, id, "body").friction = friction;
    exactContactsAt_.clear();
}

SoftBodyId World::addSoftBody(const SoftBodyDef& def) {
    requireCoefficient("restitution", def.restitution);
    requireCoefficient("friction", def.friction);
    SoftBody b = makeSoftBody(def);
    for (const Body& rigid : bodies_) {
        if (rigid.isCompound()) throw std::invalid_argument(kCompoundsAndSoftBodies);
        if (rigid.shapes[0].shape.type() == ShapeType::Capsule)
            throw std::invalid_argument(kCapsulesAndSoftBodies);
    }
    if (b.name.empty()) b.name = "soft" + std::to_string(softBodies_.size());
    if (findBody(b.name) || findSoftBody(softBodies_, b.name))
        throw std::invalid_argument("name: duplicate body name \"" + b.name + "\"");
    softBodies_.push_back(std::move(b));
    softPlaces_.push_back(bodies_.size());
    return softBodies_.size() - 1;
}

std::optional<ParticleHit> World::particleNear(Vec2 p, double maxDistance) const {
    requireSize("point", p);
    std::optional<ParticleHit> best;
    for (SoftBodyId id = 0; id < softBodies_.size(); ++id) {
        const auto& particles = softBodies_[id].particles;
        for (std::size_t k = 0; k < particles.size(); ++k) {
            const double d = glm::length(particles[k].x - p);
            if (d <= maxDistance && (!best || d < best->distance)) best = ParticleHit{id, k, d};
        }
    }
    return best;
}

void World::setParticlePosition(SoftBodyId id, std::size_t particle, Vec2 position) {
    requireSize("position", position);
    entry(entry(softBodies_, id, "soft body").particles, particle, "particle").x = position;
}

ThrusterId World::addThruster(BodyId id, Vec2 localPoint, Vec2 direction) {
    entry(bodies_, id, "body");
    requireSize("thruster point", localPoint);
    requireSize("thruster direction", direction);
    thrusters_.push_back(Thruster{id, localPoint, direction, false});
    return thrusters_.size() - 1;
}

void World::setThrusterFiring(ThrusterId id, bool firing) {
    entry(thrusters_, id, "thruster").firing = firing;
}

void World::setMouseSpring(BodyId id, Vec2 localAnchor, Vec2 target,
                           std::optional<double> dampingRatio) {
    entry(bodies_, id, "body");
    requireSize("spring anchor", localAnchor);
    requireSize("spring target", target);
    requireDampingRatio(dampingRatio);
    spring_ = MouseSpring{id, localAnchor, target, dampingRatio, std::nullopt};
}

void World::setMouseSpringOnParticle(SoftBodyId id, std::size_t particle, Vec2 target,
                                     std::optional<double> dampingRatio) {
    entry(entry(softBodies_, id, "soft body").particles, particle, "particle");
    requireSize("spring target", target);
    requireDampingRatio(dampingRatio);
    spring_ = MouseSpring{id, Vec2{0, 0}, target, dampingRatio, particle};
}

void World::moveMouseSpring(Vec2 target) {
    requireSize("spring target", target);
    if (spring_) spring_->target = target;
}

void World::clearMouseSpring() {
    spring_.reset();
}

void World::setContactListener(std::function<void(const ContactEvent&)> listener) {
    listener_ = std::move(listener);
}

void World::setThreads(int threads) {
    if (threads < 1 || threads > kMaxThreads)
        throw std::invalid_argument("threads: must be 1 to " + std::to_string(kMaxThreads) +
                                    ", got " + std::to_string(threads));
    if (threads != this->threads()) crew_ = threads > 1 ? std::make_shared<Crew>(threads) : nullptr;
}

int World::threads() const {
    return crew_ ? crew_->size() : 1;
}

int World::cores() {
    return Crew::cores();
}

// ---- The step ---------------------------------------------------------------------------------
namespace {

// Which stages each method runs (docs/architecture.md), as box2d-lite's World::Step reads: the
// four velocity-level methods share one step and differ only in this table; the exact method
// finds each collision at its time of contact instead, in a step of its own (exact.cpp).
enum class Solver {
    None,     // no impulses
    Impulses, // sequential impulses over the step: contacts hold, rub and bounce
    Substeps, // the same on spring-damped contacts over substeps, the positions moved within them
};
struct Stages {
    bool exact;            // the exact method's own step, none of the columns below
    bool partsByPositions; // deep overlap at the step's start parted by positions first
    Solver solver;         // which impulses
    bool penaltyForces;    // spring-damper forces at the overlaps
    bool projection;       // overlap pushed out after the positions move
    Correction correction; // whether the velocities follow the position corrections
};

const Stages& stagesOf(Method method) {
    static const Stages table[] = {
        // exact  parts  solver            penalty projection velocities
        {false, true, Solver::Substeps, false, false, Correction::PositionsOnly},  // default
        {false, false, Solver::Impulses, false, false, Correction::PositionsOnly}, // impulse
        {false, false, Solver::None, false, true, Correction::WithVelocities},     // projection
        {false, false, Solver::None, true, false, Correction::PositionsOnly},      // penalty
        {true, false, Solver::None, false, false, Correction::PositionsOnly},      // exact
    };
    static_assert(static_cast<int>(Method::ImpulseProjection) == 0 &&
                  static_cast<int>(Method::Exact) == 4);
    return table[static_cast<int>(method)];
}

// The per-body free motion of a step (integrate.cpp), kept from step to step so that a large
// scene's array is not allocated anew each step; one per thread, as worlds may step on several.
std::vector<Motion>& motionScratch(std::size_t bodies) {
    static thread_local std::vector<Motion> motion;
    motion.resize(bodies);
    return motion;
}

// The pairs the flights settle in a step, kept aside until the solver is done (memory kept).
std::vector<Manifold>& settledScratch() {
    static thread_local std::vector<Manifold> settled;
    return settled;
}

} // namespace

void World::step() {
    if (!apartSorted_) {
        std::sort(apart_.begin(), apart_.end());
        apartSorted_ = true;
    }
    const EnergyAudit audit = auditStart(*this);
    pendingEvents_.clear();
    if (listener_) previousContacts_ = contacts_; // for the listener's events after the step
    Diagnostics d;
    StepContext c{settings_,      bodies_,   thrusters_,
                  spring_,        contacts_, motionScratch(bodies_.size()),
                  pendingEvents_, d,         settings_.timeStep,
                  &joints_,       &apart_,   crew_.get()};
    const Stages& s = stagesOf(settings_.method);
    // Profiling: each stage's wall time, from the last lap to now, added to its field.
    StepProfile& profile = d.profile;
    auto last =
        profiling_ ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
    auto lap = [&](double& into) {
        if (!profiling_) return;
        const auto now = std::chrono::steady_clock::now();
        into += std::chrono::duration<double>(now - last).count();
        last = now;
    };
    // The rigid bodies' poses at the step's start: the soft bodies' collisions sweep from them (a
    // world without soft bodies saves nothing).
    const std::vector<Pose> stepStart = softBodies_.empty() ? std::vector<Pose>{} : save(bodies_);
    if (s.exact) {
        // Each collision at its time of contact (exact.cpp).
        stepExact(c, softBodies_.empty(), exactBackoff_, exactContactsAt_);
        lap(profile.solver);
    } else {
        integrateVelocities(c); // forces (gravity, damping, thrusters, spring) and free motion
        lap(profile.forces);
        // Broad and narrow phase; impulses kept from the last step; the substep solver's manifolds
        // kept too where their bodies have barely moved (contacts.cpp: recycling).
        updateContacts(c, s.solver == Solver::Substeps ? &found_ : nullptr);
        const double ke = kineticEnergy(bodies_);
        lap(profile.contacts);
        // Flights and their impacts (flight_impacts.cpp). Not beside soft bodies: their stage
        // strikes rigid bodies too, after the step, where the flights' clocks do not see it.
        std::vector<Manifold>& settled = settledScratch();
        settled.clear();
        if (s.solver != Solver::None && softBodies_.empty()) strikeImpactsInFlight(c, settled);
        lap(profile.flights);
        // Contacts whose bodies only pass each other, set aside too (misses.cpp): no solver
        // stops a body at a corner it passes.
        setAsidePairsThatMiss(c, settled);
        lap(profile.misses);
        const std::vector<Pose> start = save(bodies_);
        // Overlap the step starts with, deeper than the slop allows, parted without a push that
        // nobody pays for (projection.cpp).
        if (s.partsByPositions) partOverlapsByPositions(c, start);
        if (s.solver == Solver::Substeps) {
            stepSubsteps(c); // substep_solver.cpp: the contacts, the joints and the positions
        } else {
            if (s.solver == Solver::Impulses) solveImpulses(c); // sequential_impulses.cpp
            if (s.penaltyForces) applyPenaltyForces(c);         // penalty.cpp
        }
        if (d.collisions > 0) d.collisionEnergy = kineticEnergy(bodies_) - ke;
        lap(profile.solver);
        if (s.solver != Solver::Substeps) {
            solveJoints(c);        // joints_over_the_step.cpp
            integratePositions(c); // the free displacement plus what the contacts changed
            relaxJoints(c, start);
            if (s.projection) projectContacts(c, settings_.positionIterations, s.correction, start);
        }
        returnSettledContacts(c, settled);
        lap(profile.positions);
        stopAtStaticBodies(c, start, s.correction); // no body through a thin wall
        keepOutOfStaticBodies(c, s.correction);     // nor pressed into one by heavier bodies
        lap(profile.staticChecks);
    }
    // Soft bodies, in every method: their springs over substeps, their collisions swept in each
    // (soft_step.cpp).
    if (!softBodies_.empty()) stepSoftBodies(c, softBodies_, stepStart);
    lap(profile.softBodies);
    finishStep(d, audit);
    lap(diagnostics_.profile.finish);
}

void World::finishStep(const Diagnostics& stepped, const EnergyAudit& audit) {
    if (listener_) // contact events are for the listener alone
        queueContactEvents(contacts_, previousContacts_, settings_.linearSlop, pendingEvents_);
    time_ += settings_.timeStep;
    ++steps_;
    Diagnostics m = measure(*this);
    m.contactPoints = stepped.contactPoints;
    m.collisions = stepped.collisions;
    m.collisionEnergy = stepped.collisionEnergy;
    m.totalCollisions = diagnostics_.totalCollisions + stepped.collisions;
    m.stoppedChains = stepped.stoppedChains;
    m.totalStoppedChains = diagnostics_.totalStoppedChains + stepped.stoppedChains;
    m.stepsFinishedHeld = stepped.stepsFinishedHeld;
    m.totalStepsFinishedHeld = diagnostics_.totalStepsFinishedHeld + stepped.stepsFinishedHeld;
    m.contactSearches = stepped.contactSearches;
    m.totalContactSearches = diagnostics_.totalContactSearches + stepped.contactSearches;
    m.bounceSolvesCut = stepped.bounceSolvesCut;
    m.totalBounceSolvesCut = diagnostics_.totalBounceSolvesCut + stepped.bounceSolvesCut;
    m.holdSolvesCut = stepped.holdSolvesCut;
    m.totalHoldSolvesCut = diagnostics_.totalHoldSolvesCut + stepped.holdSolvesCut;
    m.totalCollisionEnergy = diagnostics_.totalCollisionEnergy + stepped.collisionEnergy;
    m.maxDepth = stepped.maxDepth;
    m.profile = stepped.profile;
    m.energyMade = energyMade(audit, *this, m);
    m.totalEnergyMade = diagnostics_.totalEnergyMade + m.energyMade;
    m.stepsNotAudited = diagnostics_.stepsNotAudited + (audit.applies ? 0 : 1);
    m.guards = stepped.guards;
    m.totalGuards = diagnostics_.totalGuards;
    m.totalGuards += stepped.guards;
    guard_check::count(stepped.guards);
    diagnostics_ = m;
    if (listener_)
        for (const ContactEvent& e : pendingEvents_)
            listener_(e);
}

} // namespace carom
