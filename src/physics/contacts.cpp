// Contacts for the step: broad phase, narrow phase, impulses carried over from the last step
// for points with the same feature id (warm starting); begin/end events after the step.
#include "broad_phase.h"
#include "collide.h"
#include "contact_math.h"
#include "step_context.h"

#include <algorithm>

namespace carom {
namespace {

bool pairLess(const Manifold& m, BodyId a, BodyId b) {
    return m.a != a ? m.a < a : m.b < b;
}

// Looks up the manifolds of a list sorted by pair, for pairs asked in increasing order: one walk
// along the list (merging two sorted lists) rather than a binary search per pair.
class ManifoldFinder {
  public:
    explicit ManifoldFinder(const std::vector<Manifold>& sorted)
        : next_(sorted.begin()), end_(sorted.end()) {}

    const Manifold* find(BodyId a, BodyId b) {
        while (next_ != end_ && pairLess(*next_, a, b))
            ++next_;
        return next_ != end_ && next_->a == a && next_->b == b ? &*next_ : nullptr;
    }

  private:
    std::vector<Manifold>::const_iterator next_, end_;
};

// Touching in the step: some point within the slop of the surfaces, or pushed by the solver
// (a speculative point whose gap closed within the step).
bool touching(const Manifold& m, double slop) {
    for (int i = 0; i < m.count; ++i)
        if (m.points[i].depth > -slop || m.points[i].normalImpulse > 0) return true;
    return false;
}

// How far a body may travel in the step: |v| h plus the sweep of its farthest point, |ω| r h.
double sweep(const Body& b, double h) {
    return (glm::length(b.v) + std::abs(b.w) * b.shape.boundingRadius()) * h;
}

} // namespace

std::vector<Manifold> findManifolds(const StepContext& c, const std::vector<double>& margins) {
    const WorldSettings& s = c.settings;
    static thread_local std::vector<BodyPair> pairs; // kept from step to step
    findPairs(c.bodies, margins, pairs);
    std::vector<Manifold> out;
    out.reserve(pairs.size());
    for (const BodyPair& p : pairs) {
        const Body& A = c.bodies[p.a];
        const Body& B = c.bodies[p.b];
        ShapeManifold sm = collide(A.shape, A.xf(), B.shape, B.xf(), margins[p.a] + margins[p.b]);
        if (sm.count > 0) out.push_back(manifoldOf(s, p.a, A, p.b, B, sm));
    }
    return out;
}

Manifold manifoldOf(const WorldSettings& s, BodyId a, const Body& A, BodyId b, const Body& B,
                    const ShapeManifold& sm) {
    Manifold m;
    m.a = a;
    m.b = b;
    m.normal = sm.normal;
    m.count = sm.count;
    m.restitution = mix(s.restitutionMix, A.restitution.value_or(s.restitution),
                        B.restitution.value_or(s.restitution));
    m.friction = mix(s.frictionMix, A.friction.value_or(s.friction), B.friction.value_or(s.friction));
    for (int i = 0; i < sm.count; ++i) {
        ContactPoint& cp = m.points[i];
        cp.point = sm.points[i].point;
        cp.depth = sm.points[i].depth;
        cp.id = sm.points[i].id;
    }
    return m;
}

void updateContacts(StepContext& c) {
    const WorldSettings& s = c.settings;
    std::vector<double> margins(c.bodies.size());
    for (std::size_t i = 0; i < c.bodies.size(); ++i)
        margins[i] = sweep(c.bodies[i], c.h) + s.linearSlop;
    setContacts(c, findManifolds(c, margins));
}

void setContacts(StepContext& c, std::vector<Manifold> next) {
    const WorldSettings& s = c.settings;
    ManifoldFinder last(c.contacts);
    for (Manifold& m : next) {
        const Manifold* old = last.find(m.a, m.b);
        for (int i = 0; i < m.count; ++i) {
            ContactPoint& cp = m.points[i];
            for (int j = 0; old && j < old->count; ++j)
                if (old->points[j].id == cp.id) {
                    cp.normalImpulse = old->points[j].normalImpulse;
                    cp.tangentImpulse = old->points[j].tangentImpulse;
                }
            if (cp.depth > -s.linearSlop) ++c.diagnostics.contactPoints;
            c.diagnostics.maxDepth = std::max(c.diagnostics.maxDepth, cp.depth);
        }
    }
    c.contacts.swap(next);
}

void queueContactEvents(const std::vector<Manifold>& contacts, const std::vector<Manifold>& previous,
                        double slop, std::vector<ContactEvent>& events) {
    ManifoldFinder before(previous);
    for (const Manifold& m : contacts) {
        const Manifold* old = before.find(m.a, m.b);
        bool was = old && touching(*old, slop), is = touching(m, slop);
        if (is != was) events.push_back(ContactEvent{m.a, m.b, is});
    }
    ManifoldFinder now(contacts);
    for (const Manifold& m : previous)
        if (touching(m, slop) && !now.find(m.a, m.b))
            events.push_back(ContactEvent{m.a, m.b, false});
}

} // namespace carom
