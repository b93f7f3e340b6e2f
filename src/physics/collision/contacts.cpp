// Contacts for the step: broad phase, narrow phase, impulses carried over from the last step
// for points with the same feature id (warm starting); begin/end events after the step.
#include "collision/broad_phase.h"
#include "collision/collide.h"
#include "solver/contact_math.h"
#include "step/step_context.h"
#include "tuning.h"

#include <algorithm>
#include <optional>

namespace carom {
namespace {

// Looks up the entries (manifolds, or where they were found) of a list sorted by pair, for pairs
// asked in increasing order: one walk along the list (merging two sorted lists) rather than a
// binary search per pair.
template <class Entry> class PairFinder {
  public:
    explicit PairFinder(const std::vector<Entry>& sorted)
        : next_(sorted.begin()), end_(sorted.end()) {}

    // The entry of the pair of shapes `key` has (a manifold, or where one was found).
    template <class Key> const Entry* find(const Key& key) {
        while (next_ != end_ && pairBefore(*next_, key))
            ++next_;
        return next_ != end_ && samePair(*next_, key) ? &*next_ : nullptr;
    }

  private:
    typename std::vector<Entry>::const_iterator next_, end_;
};
using ManifoldFinder = PairFinder<Manifold>;

// A list sorted by pair (the contacts, or where they were found) brought up to this step in place:
// a large scene's lists are megabytes, and building new ones each step, then reading the old ones
// again, wrote and read some 45 MB a step of the many pyramids. Pairs are asked for in increasing
// order (`last`: the last step's entry of the pair, if it had one; those of the pairs before it
// are dropped), and each pair's entry for this step is put in the slot of its last entry or of one
// dropped before it (in a scene at rest, where it already is). At the first new pair with no slot
// left before it, the last step's entries not yet read are moved aside, and the rest are appended.
template <class Entry> class MergeInPlace {
  public:
    explicit MergeInPlace(std::vector<Entry>& list) : list_(list), aside_(asideScratch()) {
        aside_.clear();
    }

    template <class Key> const Entry* last(const Key& key) {
        std::vector<Entry>& from = moved_ ? aside_ : list_;
        std::size_t& read = moved_ ? readAside_ : read_;
        while (read < from.size() && pairBefore(from[read], key))
            ++read;
        return read < from.size() && samePair(from[read], key) ? &from[read++] : nullptr;
    }

    // The entry `last` gave, if it is in its slot already (in a scene at rest, nearly all are), to
    // be brought up to date where it is; null otherwise (then put this step's entry).
    Entry* inPlace(const Entry* last) {
        if (moved_ || !last || last != &list_[write_]) return nullptr;
        return &list_[write_++];
    }

    void put(const Entry& e) {
        if (!moved_ && write_ < read_) {
            if (&e != &list_[write_]) list_[write_] = e;
            ++write_;
            return;
        }
        const Entry entry = e; // it may be a last step's entry, which moving them aside moves
        if (!moved_) {
            aside_.assign(list_.begin() + static_cast<std::ptrdiff_t>(read_), list_.end());
            list_.resize(write_);
            moved_ = true;
        }
        list_.push_back(entry);
    }

    void finish() {
        if (!moved_) list_.resize(write_);
    }

  private:
    std::vector<Entry>& list_;
    std::size_t read_ = 0, write_ = 0; // in list_ until moved_
    bool moved_ = false;
    std::vector<Entry>& aside_;
    std::size_t readAside_ = 0;

    static std::vector<Entry>& asideScratch() { // kept from step to step
        static thread_local std::vector<Entry> aside;
        return aside;
    }
};

// Touching in the step: some point within the slop of the surfaces, or pushed by the solver
// (a speculative point whose gap closed within the step).
bool touching(const Manifold& m, double slop) {
    for (int i = 0; i < m.count; ++i)
        if (m.points[i].depth > -slop || m.points[i].normalImpulse > 0) return true;
    return false;
}

// A pair of bodies with manifolds, and whether any of them touches: a compound body touches
// another while any of its shapes does. Its shapes are 0 and 0 (for PairFinder).
struct Touch {
    BodyId a = 0, b = 0;
    std::uint32_t shapeA = 0, shapeB = 0;
    bool touching = false;
};

// The pairs of bodies of a list of manifolds sorted by pair, in its order.
std::vector<Touch> touchesOf(const std::vector<Manifold>& list, double slop) {
    std::vector<Touch> out;
    for (const Manifold& m : list)
        if (!out.empty() && out.back().a == m.a && out.back().b == m.b)
            out.back().touching = out.back().touching || touching(m, slop);
        else
            out.push_back(Touch{m.a, m.b, 0, 0, touching(m, slop)});
    return out;
}

// How far a body may travel in the step: |v| h plus the sweep of its farthest point, |ω| r h.
double sweep(const Body& b, double h) {
    return (glm::length(b.v) + std::abs(b.w) * b.boundingRadius()) * h;
}

// How much nearer two bodies' surfaces may come in the step, each moving as it moves now: a
// point of B moves relative to a point of A at |v_B − v_A + ω_B × r_B − ω_A × r_A| ≤ |v_B − v_A| +
// |ω_A| R_A + |ω_B| R_B (R: bounding radii). At most the sum of the two sweeps, and nothing for
// two bodies moving as one: a crowd drifting together (Box2D's smash after its impact) has no
// contacts between bodies that cannot meet, where the sum of sweeps gave three in four of them.
double closingReach(const Body& A, const Body& B, double h) {
    return closingReach(A, A.v, A.w, B, B.v, B.w, h);
}

// The distance between two boxes, 0 if they overlap: no point of one is nearer the other.
double distanceBetween(const Aabb& a, const Aabb& b) {
    const double dx = std::max({a.lo.x - b.hi.x, b.lo.x - a.hi.x, 0.0});
    const double dy = std::max({a.lo.y - b.hi.y, b.lo.y - a.hi.y, 0.0});
    return std::sqrt(dx * dx + dy * dy);
}

// A manifold's friction and restitution, mixed from its bodies' and the settings'.
void mixMaterials(const WorldSettings& s, const Body& A, const Body& B, Manifold& m) {
    m.restitution = mix(s.restitutionMix, A.restitution.value_or(s.restitution),
                        B.restitution.value_or(s.restitution));
    m.friction =
        mix(s.frictionMix, A.friction.value_or(s.friction), B.friction.value_or(s.friction));
}

// Recycling (Box2D v3's contact recycling, physics_world.c: b2CollideTask; after the persistent
// manifolds of PhysX): the default method keeps a pair's manifold from where the narrow phase
// found it, without a narrow phase, while body B has barely moved relative to body A since. Its
// points are carried by the bodies: each point's places on the two surfaces stay where they are
// on each body, the normal turns with A, and the depth is the distance between the two places
// along it, d = −n · (x_B − x_A), the point midway between them (the substep solver follows its
// points within a step in the same way). "Barely": no point of B more than the linear slop from
// where it was in A's frame (the drift, bounded by |Δp| + |Δθ| r_B: B's centre in A's frame and its
// angle less A's, r_B its bounding radius), and no point the narrow phase left out (farther apart
// than its margin then, and at most the drift closer now) able to touch in this step (the pair's
// closingReach). In a pile at rest nearly every pair is kept. For small bodies the drift is held
// to a tenth of the smaller one's inner radius instead (the slop is half a 1 cm box's width).

FoundAt foundAt(const Manifold& m, const Body& A, const Body& B, double margin) {
    FoundAt f;
    f.a = m.a;
    f.b = m.b;
    f.shapeA = m.shapeA;
    f.shapeB = m.shapeB;
    f.position = A.xf().applyInverse(B.xf().p);
    f.angle = B.angle() - A.angle();
    f.margin = margin;
    f.normal = A.xf().q.applyInverse(m.normal);
    f.count = m.count;
    for (int i = 0; i < m.count; ++i) {
        const SurfacePoints on = surfacePointsOf(A.xf(), B.xf(), m.normal, m.points[i]);
        f.id[i] = m.points[i].id;
        f.onA[i] = on.a;
        f.onB[i] = on.b;
    }
    return f;
}

bool recyclable(const StepContext& c, const FoundAt& f, const Body& A, const Body& B) {
    const double drift = glm::length(A.xf().applyInverse(B.xf().p) - f.position) +
                         std::abs((B.angle() - A.angle()) - f.angle) * B.boundingRadius();
    const double reach = std::min(
        c.settings.linearSlop,
        kRecycleReach * smallerInnerRadius(A.shapes[f.shapeA].shape, B.shapes[f.shapeB].shape));
    return drift <= reach && drift + closingReach(A, B, c.h) <= f.margin;
}

// The manifold found at f, carried by the bodies to where they are now, into m: its normal, its
// points' places and depths, and its materials (the settings, or a body's, may have changed).
void carry(const WorldSettings& s, const FoundAt& f, const Body& A, const Body& B, Manifold& m) {
    // Worked out in locals, then stored: m might share memory with f or the bodies as far as the
    // compiler knows, and its checks for that cost a sixth of the instructions (callgrind).
    const Vec2 n = A.xf().q.apply(f.normal);
    Vec2 point[2];
    double depth[2];
    for (int i = 0; i < f.count; ++i) {
        const Vec2 onA = A.xf().apply(f.onA[i]), onB = B.xf().apply(f.onB[i]);
        point[i] = 0.5 * (onA + onB);
        depth[i] = -glm::dot(n, onB - onA);
    }
    m.normal = n;
    mixMaterials(s, A, B, m);
    for (int i = 0; i < f.count; ++i) {
        m.points[i].point = point[i];
        m.points[i].depth = depth[i];
    }
}

// The same as a new manifold, without impulses.
Manifold carried(const WorldSettings& s, const FoundAt& f, const Body& A, const Body& B) {
    Manifold m;
    m.a = f.a;
    m.b = f.b;
    m.shapeA = f.shapeA;
    m.shapeB = f.shapeB;
    m.count = f.count;
    for (int i = 0; i < f.count; ++i)
        m.points[i].id = f.id[i];
    carry(s, f, A, B, m);
    return m;
}

// Whether m has f's points, in f's order: then carrying f over m keeps m's impulses where they
// are, as matching them by feature id would.
bool samePoints(const Manifold& m, const FoundAt& f) {
    if (m.count != f.count) return false;
    for (int i = 0; i < f.count; ++i)
        if (m.points[i].id != f.id[i]) return false;
    return true;
}

// The broad phase: the pairs whose boxes, grown by their margins, overlap, in order of pair; not
// those a joint keeps from touching.
const std::vector<BodyPair>& pairsWithin(const StepContext& c, const std::vector<double>& margins) {
    static thread_local std::vector<BodyPair> pairs; // kept from step to step
    findPairs(c.bodies, margins, pairs);
    if (c.apart && !c.apart->empty())
        pairs.erase(std::remove_if(pairs.begin(), pairs.end(),
                                   [&](const BodyPair& p) { return !mayTouch(c, p.a, p.b); }),
                    pairs.end());
    return pairs;
}

// The narrow phase over the broad phase's pairs, in order of pair: each pair's manifold handed to
// `emit`, without impulses; recycled with `found` (above), which is brought up to date: a pair kept
// is handed to `keep` with its record and bodies. pairMargin(p, A, B): the distance within which
// the pair's points are reported, or a negative one for a pair known to be farther apart.
template <class PairMargin, class Emit, class Keep>
void eachManifold(const StepContext& c, const std::vector<BodyPair>& pairs,
                  const std::vector<double>& margins, PairMargin pairMargin,
                  std::vector<FoundAt>* found, Emit emit, Keep keep) {
    const WorldSettings& s = c.settings;
    std::optional<MergeInPlace<FoundAt>> records;
    if (found) records.emplace(*found);
    for (const BodyPair& p : pairs) {
        const Body& A = c.bodies[p.a];
        const Body& B = c.bodies[p.b];
        const double margin = pairMargin(p, A, B);
        if (margin < 0) continue;
        eachShapePair(A, margins[p.a], B, margins[p.b], [&](std::uint32_t i, std::uint32_t j) {
            const ShapePairKey key{p.a, p.b, i, j};
            const FoundAt* f = records ? records->last(key) : nullptr;
            if (f && recyclable(c, *f, A, B)) {
                keep(*f, A, B);
                records->put(*f);
                return;
            }
            ShapeManifold sm =
                collide(A.shapes[i].shape, A.shapeXf(i), B.shapes[j].shape, B.shapeXf(j), margin);
            if (sm.count == 0) return;
            const Manifold m = manifoldOf(s, key, A, B, sm);
            emit(m);
            if (records) records->put(foundAt(m, A, B, margin));
        });
    }
    if (records) records->finish();
}

// m's points counted in the diagnostics: those touching, and the deepest.
void count(StepContext& c, const Manifold& m) {
    for (int i = 0; i < m.count; ++i) {
        if (m.points[i].depth > -c.settings.linearSlop) ++c.diagnostics.contactPoints;
        c.diagnostics.maxDepth = std::max(c.diagnostics.maxDepth, m.points[i].depth);
    }
}

// The impulses of `last` (the pair's manifold in the last step, if it had one) carried over to m's
// points with the same feature ids (warm starting), and m's points counted.
// Only along a normal that turned little since (kCarriedNormalCos).
void carryOver(StepContext& c, const Manifold* last, Manifold& m) {
    m.fresh = !last;
    if (last && glm::dot(last->normal, m.normal) < kCarriedNormalCos) last = nullptr;
    for (int i = 0; i < m.count; ++i) {
        ContactPoint& cp = m.points[i];
        for (int j = 0; last && j < last->count; ++j)
            if (const ContactPoint& was = last->points[j]; was.id == cp.id) {
                cp.normalImpulse = was.normalImpulse;
                cp.tangentImpulse = was.tangentImpulse;
            }
    }
    count(c, m);
}

} // namespace

double closingReach(const Body& A, Vec2 vA, double wA, const Body& B, Vec2 vB, double wB,
                    double h) {
    return (glm::length(vB - vA) + std::abs(wA) * A.boundingRadius() +
            std::abs(wB) * B.boundingRadius()) *
           h;
}

std::vector<Manifold> findManifolds(const StepContext& c, const std::vector<double>& margins,
                                    std::vector<FoundAt>* found) {
    const std::vector<BodyPair>& pairs = pairsWithin(c, margins);
    std::vector<Manifold> out;
    out.reserve(pairs.size());
    auto sum = [&](const BodyPair& p, const Body&, const Body&) {
        return margins[p.a] + margins[p.b];
    };
    eachManifold(
        c, pairs, margins, sum, found, [&](const Manifold& m) { out.push_back(m); },
        [&](const FoundAt& f, const Body& A, const Body& B) {
            out.push_back(carried(c.settings, f, A, B));
        });
    return out;
}

Manifold manifoldOf(const WorldSettings& s, const ShapePairKey& key, const Body& A, const Body& B,
                    const ShapeManifold& sm) {
    Manifold m;
    m.a = key.a;
    m.b = key.b;
    m.shapeA = key.shapeA;
    m.shapeB = key.shapeB;
    m.normal = sm.normal;
    m.count = sm.count;
    mixMaterials(s, A, B, m);
    for (int i = 0; i < sm.count; ++i) {
        ContactPoint& cp = m.points[i];
        cp.point = sm.points[i].point;
        cp.depth = sm.points[i].depth;
        cp.id = sm.points[i].id;
    }
    return m;
}

bool foundAgain(const FoundAt& f, const Body& A, const Body& B) {
    if (!(f.margin > 0)) return false;
    if (f.shapeA >= A.shapes.size() || f.shapeB >= B.shapes.size()) return false;
    const Transform atB{f.position, Rot(f.angle)};
    const ShapeManifold sm =
        collide(A.shapes[f.shapeA].shape, placeShape(Transform{}, A.shapes[f.shapeA]),
                B.shapes[f.shapeB].shape, placeShape(atB, B.shapes[f.shapeB]), f.margin);
    // Round-off apart: the record was worked out from the two bodies' poses in the world. The same
    // points, not the same feature ids: where a corner meets a corner, the features that name the
    // point may come out otherwise in another frame's round-off (two small boxes tumbling), and
    // the record's own ids are the ones its manifold's impulses were kept under.
    const double tolerance =
        1e-9 * (1 + glm::length(f.position) + A.boundingRadius() + B.boundingRadius());
    bool same = sm.count == f.count && glm::length(sm.normal - f.normal) <= 1e-9;
    for (int i = 0; same && i < f.count; ++i) {
        const ShapeContact& p = sm.points[i];
        const Vec2 onA = p.point + 0.5 * p.depth * sm.normal;
        const Vec2 onB = atB.applyInverse(p.point - 0.5 * p.depth * sm.normal);
        same = glm::length(onA - f.onA[i]) <= tolerance && glm::length(onB - f.onB[i]) <= tolerance;
    }
    return same;
}

void updateContacts(StepContext& c, std::vector<FoundAt>* found) {
    const WorldSettings& s = c.settings;
    // The broad phase's boxes reach over each body's sweep, and so pair each body with all it could
    // meet; the narrow phase reaches over the pair's own closing (closingReach), within the boxes.
    static thread_local std::vector<double> margins;
    static thread_local std::vector<Aabb> boxes;
    margins.resize(c.bodies.size());
    boxes.resize(c.bodies.size());
    for (std::size_t i = 0; i < c.bodies.size(); ++i) {
        margins[i] = sweep(c.bodies[i], c.h) + s.linearSlop;
        boxes[i] = boundingBox(c.bodies[i], 0);
    }
    const std::vector<BodyPair>& pairs = pairsWithin(c, margins);
    auto closing = [&](const BodyPair& p, const Body& A, const Body& B) {
        const double margin = closingReach(A, B, c.h) + 2 * s.linearSlop;
        return distanceBetween(boxes[p.a], boxes[p.b]) > margin ? -1.0 : margin;
    };
    c.contacts.reserve(pairs.size()); // a manifold at most a pair, appended in place
    MergeInPlace<Manifold> contacts(c.contacts);
    auto put = [&](Manifold m) {
        carryOver(c, contacts.last(m), m);
        contacts.put(m);
    };
    // A kept pair whose manifold is in its slot with the same points is carried where it is, its
    // impulses left in place (in a pile at rest, nearly every pair).
    auto keep = [&](const FoundAt& f, const Body& A, const Body& B) {
        const Manifold* last = contacts.last(f);
        Manifold* here = last && samePoints(*last, f) ? contacts.inPlace(last) : nullptr;
        if (!here) {
            Manifold m = carried(s, f, A, B);
            carryOver(c, last, m);
            contacts.put(m);
            return;
        }
        carry(s, f, A, B, *here);
        here->fresh = false;
        count(c, *here);
    };
    eachManifold(c, pairs, margins, closing, found, put, keep);
    contacts.finish();
}

void setContacts(StepContext& c, std::vector<Manifold> next) {
    ManifoldFinder last(c.contacts);
    for (Manifold& m : next)
        carryOver(c, last.find(m), m);
    c.contacts.swap(next);
}

void queueContactEvents(const std::vector<Manifold>& contacts,
                        const std::vector<Manifold>& previous, double slop,
                        std::vector<ContactEvent>& events) {
    const std::vector<Touch> now = touchesOf(contacts, slop), before = touchesOf(previous, slop);
    PairFinder<Touch> was(before);
    for (const Touch& t : now) {
        const Touch* old = was.find(t);
        if (t.touching != (old && old->touching))
            events.push_back(ContactEvent{t.a, t.b, t.touching});
    }
    PairFinder<Touch> is(now);
    for (const Touch& t : before)
        if (t.touching && !is.find(t)) events.push_back(ContactEvent{t.a, t.b, false});
}

} // namespace carom
