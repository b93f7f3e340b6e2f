// The default method's solver, the substep solver: sequential impulses on spring-damped contacts
// over substeps. Its origin: Catto's soft step ("Solver2D", 2024; Box2D v3's solver.c and
// contact_solver.c), named here for what it does, since "soft" in Carom means the deformable
// bodies.
//
// The step of h is cut into n substeps of h/n. In each substep:
//   1. velocities: the forces' velocity change, a share 1/n of the step's (the integrator's)
//   2. warm start: the last substep's impulses applied again
//   3. solve: one pass of sequential impulses on the contacts as spring-dampers, with position
//      feedback (below)
//   4. positions: each body moved by h/n times its velocity
//   5. relax, in every second substep and the last: one pass without position feedback, with
//      Coulomb friction; it takes back the velocity the feedback added, so the feedback moves
//      positions without adding energy (in the substep between, the feedback's velocity moves
//      the positions once more, and the next solve pass starts from it)
// and after the substeps, restitution once, by Poisson's law (solver/poisson.h: at the contacts
// that met faster than the threshold and pushed, e times the impulse that stopped their approach).
//
// The contacts' separations follow the bodies within the step without a new narrow phase: a
// point's separation is its separation when found plus the relative displacement of its anchors
// along the normal, s = s0 + n · ((Δp_B + ΔR_B r_B) − (Δp_A + ΔR_A r_A)) − n · (r_B − r_A).
//
// A contact here (Catto, "Soft Constraints", GDC 2011) is a spring-damper of frequency f and
// damping ratio ζ integrated implicitly over the substep h: with ω = 2πf, a1 = 2ζ + hω,
// a2 = hω a1, a3 = 1 / (1 + a2), the impulse at a point with separation s < 0 is
//   Δλ = −m_eff (m_s v_n + m_s b s) − i_s λ,   b = ω / a1, m_s = a2 a3, i_s = a3
// where λ is the impulse accumulated in the substep; an approach at more than a maximum speed is
// not pushed back faster than that speed. A gap (s > 0) is a speculative contact: the bodies may
// close it in the substep, no more (a rigid constraint, v_n ≥ −s / h).
//
// The constraints are solved by colour: each constraint takes the first colour in which neither
// of its moving bodies has a constraint yet (graph colouring; static and kinematic bodies, which
// no contact moves, do not count), so the constraints of a colour share no moving body and are
// solved side by side in SIMD lanes, colours in order: four at a time, or eight on a processor
// with AVX-512 (substep_lanes.h; the same bits either way).
#include "collision/broad_phase.h"
#include "collision/collide.h"
#include "joints/joint_solver.h"
#include "parallel/crew.h"
#include "solver/colouring.h"
#include "solver/contact_math.h"
#include "solver/islands.h"
#include "solver/poisson.h"
#include "solver/substep_lanes.h"
#include "step/step_context.h"
#include "tuning.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

namespace carom {
namespace substep {

Spring contactSpring(double hertz, double zeta, double h) {
    const double omega = 2 * M_PI * hertz;
    const double a1 = 2 * zeta + h * omega, a2 = h * omega * a1, a3 = 1 / (1 + a2);
    return {omega / a1, a2 * a3, a3};
}

Spring jointSpring(double h) {
    return contactSpring(std::min(kJointHertz, kQuarterOfTheSubstepRate / h), kJointDampingRatio,
                         h);
}

namespace {

// What preparing the constraints reads of a body, packed: a Body is ten times larger, and in a
// large scene preparing read the bodies from beyond the cache.
struct Inertia {
    Vec2 p; // centre of mass
    double invMass, invInertia;
    bool moves; // dynamic: contacts move it
    bool fixed; // static: nothing moves it
};

// A pass in four lanes, compiled for AVX2 and for any x86-64; the one the processor runs is chosen
// when the program starts (as sequential_impulses.cpp's passes). Processors with AVX-512 run eight
// lanes instead (substep_lanes_avx512.cpp).
[[gnu::target_clones("avx2", "default")]] void pass4(Pass pass, const States& states,
                                                     WideConstraint<4>* groups, std::size_t begin,
                                                     std::size_t end, const Springs& springs,
                                                     bool warmNext, double invH) {
    passOver<4>(pass, states, groups, begin, end, springs, warmNext, invH);
}
template <int N>
void passOf(Pass pass, const States& states, WideConstraint<N>* groups, std::size_t begin,
            std::size_t end, const Springs& springs, bool warmNext, double invH) {
    if constexpr (N == 8)
        pass8(pass, states, groups, begin, end, springs, warmNext, invH);
    else
        pass4(pass, states, groups, begin, end, springs, warmNext, invH);
}
// Whether the processor runs substep_lanes_avx512.cpp: AVX-512 F, CD, BW, DQ and VL (x86-64-v4).
bool hasAvx512() {
    static const bool has =
        __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512cd") &&
        __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
        __builtin_cpu_supports("avx512vl");
    return has;
}

struct Batch {
    std::size_t groupsBegin = 0, groupsEnd = 0, sharesBegin = 0, sharesEnd = 0;
};

// A batch as its substeps see it: its moving bodies' shares, its groups of N constraints colour
// after colour (colourEnd[c]: past colour c's last group), and its joints (nullptr: none).
template <int N> struct BatchLanes {
    Share* shares;
    std::size_t shareCount;
    WideConstraint<N>* groups;
    const std::size_t* colourEnd;
    std::size_t colours;
    JointSolver::Batch* joints;
};

// The substeps over a batch (steps 1-5 above), the joints' first where there are some, as Box2D v3
// orders them: each substep warm starts them (their springs' forces with it), solves them with
// position feedback, and relaxes them after the positions move, on the driving thread. Each
// colour's groups, and the moving bodies' shares, are shared with the crew (crew.h) in blocks:
// the constraints of a colour share no moving body, so its blocks may run at once, and the next
// colour reads what this one wrote.
template <int N>
void substeps(Crew* crew, const States& states, const BatchLanes<N>& batch, const Springs& springs,
              double h, int relaxEvery) {
    const double hs = h / kSubsteps, invH = 1 / hs;
    auto overColours = [&](Pass pass, bool warmNext) {
        std::size_t begin = 0;
        for (std::size_t c = 0; c < batch.colours; ++c) {
            const std::size_t end = batch.colourEnd[c];
            Crew::forEach(crew, end - begin, kGroupsPerBlock,
                          [&](std::size_t b, std::size_t e, int) {
                              passOf<N>(pass, states, batch.groups, begin + b, begin + e, springs,
                                        warmNext, invH);
                          });
            begin = end;
        }
    };
    const Crew::BlockFn forces = [&](std::size_t b, std::size_t e, int) {
        addForces(states, batch.shares, b, e);
    };
    const Crew::BlockFn positions = [&](std::size_t b, std::size_t e, int) {
        movePositions(states, batch.shares, b, e, hs);
    };
    for (int i = 0; i < kSubsteps; ++i) {
        Crew::forEach(crew, batch.shareCount, kSharesPerBlock, forces);
        if (batch.joints) batch.joints->warmStart(states);
        // The step's first warm start, from the impulses the last step kept.
        if (i == 0) overColours(Pass::WarmStart, false);
        // The next substep's warm start is gathered by this substep's last pass.
        const bool relax = i % relaxEvery == relaxEvery - 1 || i + 1 == kSubsteps;
        if (batch.joints) batch.joints->solve(states, true);
        overColours(Pass::Solve, !relax);
        Crew::forEach(crew, batch.shareCount, kSharesPerBlock, positions);
        if (batch.joints) batch.joints->solve(states, false);
        if (relax) overColours(Pass::Relax, i + 1 < kSubsteps);
    }
}

// Restitution, once after a batch's substeps, by Poisson's law (solver/poisson.h): each point that
// met faster than the threshold and pushed bounces e times the impulse that stopped its approach,
// measured at the velocities the step began with (before the forces: gravity's share of the step
// is not an impact), all such points of the batch together. The bounce is not kept for the next
// step's warm start: it parts the bodies.
template <int N>
void restitute(const StepContext& c, const States& states, const WideConstraint<N>* wide,
               const WideBounce<N>* bounce, std::size_t groupCount,
               std::atomic<int>& bounceSolvesCut) {
    static thread_local std::vector<PoissonPoint> points;
    static thread_local std::vector<PoissonBody> start;
    static thread_local std::vector<BodyId> ids;
    static thread_local std::vector<std::uint32_t> place; // a body's index in `start`, or kNoPlace
    constexpr std::uint32_t kNoPlace = ~std::uint32_t{0};
    points.clear();
    start.clear();
    ids.clear();
    place.resize(c.bodies.size(), kNoPlace);
    auto placeOf = [&](BodyId id) {
        if (place[id] == kNoPlace) {
            const Body& b = c.bodies[id];
            const Motion& m = c.motion[id];
            place[id] = static_cast<std::uint32_t>(start.size());
            start.push_back(PoissonBody{b.v - m.dv, b.w - m.dw, b.invMass, b.invInertia});
            ids.push_back(id);
        }
        return std::size_t{place[id]};
    };
    const double threshold = c.settings.restitutionThreshold;
    for (std::size_t j = 0; j < groupCount; ++j)
        for (int l = 0; l < N; ++l) {
            const double e = bounce[j].restitution[l];
            const Manifold& m = c.contacts[bounce[j].manifold[l]];
            bool previous = false; // the manifold's first point bounces
            for (int i = 0; i < bounce[j].count[l]; ++i) {
                const WidePoint<N>& p = wide[j].points[i];
                if (!(e > 0 && bounce[j].relativeVelocity[i][l] < -threshold &&
                      p.totalNormalImpulse[l] > 0)) {
                    previous = false;
                    continue;
                }
                if (previous) points.back().pairedWithNext = true;
                points.push_back(PoissonPoint{placeOf(m.a), placeOf(m.b), Vec2{p.rAx[l], p.rAy[l]},
                                              Vec2{p.rBx[l], p.rBy[l]},
                                              Vec2{wide[j].nx[l], wide[j].ny[l]}, e, false});
                previous = true;
            }
        }
    if (!points.empty()) {
        const Compression compression = compress(points, start);
        // The bounce, at the velocities the substeps reached.
        std::vector<PoissonBody>& end = start;
        for (std::size_t k = 0; k < ids.size(); ++k) {
            const Velocity& v = states.v[ids[k]];
            end[k].v = {v.vx, v.vy};
            end[k].w = v.w;
        }
        const bool cut = bounceAt(points, compression, end);
        if (compression.cut || cut) bounceSolvesCut.fetch_add(1, std::memory_order_relaxed);
        for (std::size_t k = 0; k < ids.size(); ++k)
            if (c.bodies[ids[k]].isDynamic()) {
                Velocity& v = states.v[ids[k]];
                v.vx = end[k].v.x;
                v.vy = end[k].v.y;
                v.w = end[k].w;
            }
    }
    for (BodyId id : ids)
        place[id] = kNoPlace;
}

// Lane l of a point that is not there (a single point's second, or padding): zeros, which push
// nothing.
template <int N> void clearPoint(WidePoint<N>& p, int l) {
    p.rAx[l] = p.rAy[l] = p.rBx[l] = p.rBy[l] = p.baseSeparation[l] = 0;
    p.normalMass[l] = p.normalImpulse[l] = p.tangentImpulse[l] = 0;
    p.totalNormalImpulse[l] = 0;
}

// A padding lane: no masses, the null state.
template <int N>
void clearLane(WideConstraint<N>& k, WideBounce<N>& e, int l, std::uint32_t nullState) {
    k.a[l] = k.b[l] = stateOffset(nullState);
    k.invInertiaA[l] = k.invInertiaB[l] = 0;
    k.nx[l] = k.ny[l] = k.friction[l] = 0;
    for (WidePoint<N>& p : k.points)
        clearPoint(p, l);
    k.k11[l] = k.k12[l] = k.k22[l] = k.invDet[l] = 0;
    e.restitution[l] = e.relativeVelocity[0][l] = e.relativeVelocity[1][l] = 0;
    e.manifold[l] = 0;
    e.count[l] = 0;
}

template <int N>
void prepareLane(const StepContext& c, const std::vector<Inertia>& bodies, const Velocity* velocity,
                 std::size_t j, WideConstraint<N>& k, WideBounce<N>& e, int l) {
    const Manifold& m = c.contacts[j];
    const Inertia& A = bodies[m.a];
    const Inertia& B = bodies[m.b];
    const Vec2 n = m.normal;
    k.a[l] = stateOffset(m.a);
    k.b[l] = stateOffset(m.b);
    k.invInertiaA[l] = A.invInertia;
    k.invInertiaB[l] = B.invInertia;
    k.nx[l] = n.x;
    k.ny[l] = n.y;
    k.friction[l] = m.friction;
    e.restitution[l] = m.restitution;
    e.manifold[l] = j;
    e.count[l] = m.count;
    const Velocity& a = velocity[m.a];
    const Velocity& b = velocity[m.b];
    // The impulses kept are the step's (N·s); a substep's is 1/n of it.
    const double warm = c.settings.warmStarting ? 1.0 / kSubsteps : 0.0;
    for (int i = 0; i < 2; ++i) {
        WidePoint<N>& p = k.points[i];
        if (i == m.count) { // a single point: the second pushes nothing
            clearPoint(p, l);
            e.relativeVelocity[i][l] = 0;
            break;
        }
        const ContactPoint& cp = m.points[i];
        const Vec2 rA = cp.point - A.p, rB = cp.point - B.p; // anchorsOf (contact_math.h)
        p.rAx[l] = rA.x;
        p.rAy[l] = rA.y;
        p.rBx[l] = rB.x;
        p.rBy[l] = rB.y;
        p.baseSeparation[l] = -cp.depth - glm::dot(rB - rA, n);
        p.normalMass[l] = effectiveMass(A, B, rA, rB, n);
        p.normalImpulse[l] = warm * cp.normalImpulse;
        p.tangentImpulse[l] = warm * cp.tangentImpulse;
        p.totalNormalImpulse[l] = 0;
        const Vec2 vA{a.vx, a.vy}, vB{b.vx, b.vy};
        e.relativeVelocity[i][l] = glm::dot(vB + cross(b.w, rB) - vA - cross(a.w, rA), n);
    }
    BlockMatrix K;
    if (m.count == 2) {
        const Vec2 p1 = m.points[0].point, p2 = m.points[1].point;
        K = blockMatrix(A, B, p1 - A.p, p1 - B.p, p2 - A.p, p2 - B.p, n);
    }
    k.k11[l] = K.k11;
    k.k12[l] = K.k12;
    k.k22[l] = K.k22;
    k.invDet[l] = m.count == 2 && K.invertible ? 1 / K.det : 0;
}

// Each body's batch (kNoBatch for a body no contact reaches), and how many batches: whole islands
// in batches of kBatchContacts contacts or more (the last may have fewer), in the order the
// contacts meet them. A kinematic body joins the bodies it touches into one island, as a moving one
// does (the substeps move it, and its constraints read where it is). The islands change little
// from step to step: the last step's batches are kept while every contact still joins bodies of
// one batch (any division into whole islands gives the same bits; finding the islands anew each
// step took 2% of the large pyramid's), and found anew when one does not.
constexpr std::uint32_t kNoBatch = ~std::uint32_t{0};
struct BodyBatches {
    std::vector<std::uint32_t> of;
    std::size_t count = 0;
};
// A contact's body that is not static (the broad phase pairs no two bodies that contacts cannot
// move).
BodyId unfixed(const BodyPair& e, const std::vector<Inertia>& bodies) {
    return bodies[e.a].fixed ? e.b : e.a;
}
const BodyBatches& batchesOf(const std::vector<BodyPair>& ends,
                             const std::vector<Inertia>& bodies) {
    static thread_local BodyBatches batches;
    std::vector<std::uint32_t>& of = batches.of;
    auto joined = [&](const BodyPair& e) { return !bodies[e.a].fixed && !bodies[e.b].fixed; };
    bool kept = of.size() == bodies.size();
    for (std::size_t j = 0; kept && j < ends.size(); ++j)
        kept = of[unfixed(ends[j], bodies)] != kNoBatch &&
               (!joined(ends[j]) || of[ends[j].a] == of[ends[j].b]);
    if (kept) return batches;
    const std::vector<std::uint32_t> island =
        islands(ends, bodies.size(), [&](BodyId id) { return !bodies[id].fixed; });
    auto islandOf = [&](const BodyPair& e) { return island[unfixed(e, bodies)]; };
    std::vector<std::uint32_t> contactsIn(bodies.size(), 0), batchOfIsland(bodies.size(), kNoBatch);
    for (const BodyPair& e : ends)
        ++contactsIn[islandOf(e)];
    std::uint32_t batch = 0;
    std::size_t filled = 0;
    for (const BodyPair& e : ends)
        if (const std::uint32_t i = islandOf(e); batchOfIsland[i] == kNoBatch) {
            if (filled >= kBatchContacts) ++batch, filled = 0;
            batchOfIsland[i] = batch;
            filled += contactsIn[i];
        }
    of.resize(bodies.size());
    for (std::size_t i = 0; i < bodies.size(); ++i)
        of[i] = batchOfIsland[island[i]];
    batches.count = ends.empty() ? 0 : batch + 1;
    return batches;
}

// Where the constraints go: in batches of whole islands (Batch, batchesOf), and in each the
// constraints of each colour in groups of N lanes, colours in order, written lane after lane
// (`ends`: each contact's two bodies). Each contact's slot (its group slot / N and lane slot % N,
// counted over all the batches), each batch's contacts in their order, and the lanes that round
// a colour up to a whole group (each key's, a key being a batch's colour: batch × colours + colour,
// from end[key] to next[key + 1]).
struct Layout {
    std::vector<std::uint32_t> slot;
    std::vector<std::uint32_t> contacts; // empty with one batch: all of them, in order
    std::vector<std::size_t> contactsAt; // where each batch's begin in `contacts`, and the end
    std::vector<std::size_t> next, end;
    std::size_t colours = 0;
};

template <int N>
void layOut(const std::vector<Inertia>& bodies, const std::vector<BodyPair>& ends,
            const BodyBatches& batchOf, Layout& out, std::vector<Batch>& batches) {
    std::size_t& count = out.colours;
    // Each contact's colour, then its key, then its slot, each in place of the last.
    std::vector<std::uint32_t>& slot = out.slot;
    slot = colours(
        ends, bodies.size(), [&](BodyId id) { return bodies[id].moves; }, count);
    const std::size_t batchCount = batchOf.count;
    out.contactsAt.assign(batchCount + 1, 0);
    for (std::size_t j = 0; j < slot.size(); ++j) {
        const std::uint32_t batch = batchOf.of[unfixed(ends[j], bodies)];
        slot[j] += static_cast<std::uint32_t>(batch * count);
        ++out.contactsAt[batch + 1];
    }
    std::partial_sum(out.contactsAt.begin(), out.contactsAt.end(), out.contactsAt.begin());
    // Where each key's lanes begin: its constraints rounded up to whole groups.
    std::vector<std::size_t>& next = out.next;
    next.assign(batchCount * count + 1, 0);
    for (const std::uint32_t key : slot)
        ++next[key + 1];
    for (std::size_t k = 0; k + 1 < next.size(); ++k)
        next[k + 1] = next[k] + (next[k + 1] + N - 1) / N * N;
    out.end.assign(next.begin(), next.end() - 1); // past each key's filled lanes
    out.contacts.resize(batchCount > 1 ? slot.size() : 0);
    std::vector<std::size_t> at(out.contactsAt.begin(), out.contactsAt.end() - 1);
    for (std::size_t j = 0; j < slot.size(); ++j) {
        if (batchCount > 1) out.contacts[at[slot[j] / count]++] = static_cast<std::uint32_t>(j);
        slot[j] = static_cast<std::uint32_t>(out.end[slot[j]]++);
    }
    batches.assign(batchCount, Batch{});
    for (std::size_t b = 0; b < batchCount; ++b) {
        batches[b].groupsBegin = next[b * count] / N;
        batches[b].groupsEnd = next[(b + 1) * count] / N;
    }
}

// Batch b's constraints into `wide` and `bounce` from their first group, those of [begin, end)
// (indices into the batch's list of contacts): the manifolds read in their order in memory, each
// written to its lane (read in colour order, out of their order, the manifolds of a large scene
// came from beyond the cache). Returns whether some point overlaps by more than the linear slop.
template <int N>
bool prepare(const StepContext& c, const std::vector<Inertia>& bodies, const Velocity* velocity,
             const Layout& layout, const Batch& batch, std::size_t begin, std::size_t end,
             WideConstraint<N>* wide, WideBounce<N>* bounce) {
    const std::size_t first = batch.groupsBegin * N;
    bool deep = false;
    for (std::size_t i = begin; i < end; ++i) {
        const std::size_t j = layout.contacts.empty() ? i : layout.contacts[i];
        const std::size_t lane = layout.slot[j] - first;
        prepareLane(c, bodies, velocity, j, wide[lane / N], bounce[lane / N],
                    static_cast<int>(lane % N));
        deep = deep || deepestDepth(c.contacts[j]) > c.settings.linearSlop;
    }
    return deep;
}

// Batch b's lanes that round a colour up to a whole group, cleared.
template <int N>
void clearPadding(const StepContext& c, const Layout& layout, const Batch& batch, std::size_t b,
                  WideConstraint<N>* wide, WideBounce<N>* bounce) {
    const std::size_t first = batch.groupsBegin * N;
    const auto nullState = static_cast<std::uint32_t>(c.bodies.size());
    for (std::size_t k = b * layout.colours; k < (b + 1) * layout.colours; ++k)
        for (std::size_t slot = layout.end[k]; slot < layout.next[k + 1]; ++slot)
            clearLane(wide[(slot - first) / N], bounce[(slot - first) / N],
                      static_cast<int>(slot % N), nullState);
}

// The impulses of a batch's groups [begin, end) back into their manifolds (in N·s: a substep's
// times n); returns the collisions among them.
template <int N>
int keepImpulses(StepContext& c, const WideConstraint<N>* wide, const WideBounce<N>* bounce,
                 std::size_t begin, std::size_t end) {
    int collisions = 0;
    for (std::size_t j = begin; j < end; ++j)
        for (int l = 0; l < N; ++l)
            for (int i = 0; i < bounce[j].count[l]; ++i) {
                const WidePoint<N>& p = wide[j].points[i];
                ContactPoint& cp = c.contacts[bounce[j].manifold[l]].points[i];
                cp.normalImpulse = kSubsteps * p.normalImpulse[l];
                cp.tangentImpulse = kSubsteps * p.tangentImpulse[l];
                if (bounce[j].relativeVelocity[i][l] < -c.settings.restitutionThreshold &&
                    p.totalNormalImpulse[l] > 0)
                    ++collisions;
            }
    return collisions;
}

// What every batch's solve reads, and the step's arrays it writes (each batch its own bodies'
// states and its own contacts).
template <int N> struct StepLanes {
    StepContext& c;
    const States& states;
    const std::vector<Batch>& batches;
    const Layout& layout;
    const std::vector<Inertia>& bodies;
    const Velocity* startVelocity; // at the step's start
    Share* shares;
    const std::size_t* colourEnds; // each batch's colours' ends, in groups from its first
    JointSolver& joints;
    const Springs& springs;
    std::atomic<int>& collisions;      // counted as the impulses are kept
    std::atomic<int>& bounceSolvesCut; // batches whose bounce's solves reached their work bound
};

// A batch's lanes: the ones a thread fills, and solves in, for the batches it takes.
template <int N> struct LaneStore {
    std::vector<WideConstraint<N>> wide;
    std::vector<WideBounce<N>> bounce;
};

// Batch b with the crew's help (or alone: a batch taken whole by one of its threads, crew.h): its
// constraints prepared, its substeps, its restitution and its impulses kept, in `lanes`.
template <int N>
void solveBatch(const StepLanes<N>& s, Crew* crew, std::size_t b, LaneStore<N>& lanes) {
    const Batch& batch = s.batches[b];
    const std::size_t groups = batch.groupsEnd - batch.groupsBegin;
    if (lanes.wide.size() < groups) {
        lanes.wide.resize(groups);
        lanes.bounce.resize(groups);
    }
    WideConstraint<N>* const wide = lanes.wide.data();
    WideBounce<N>* const bounce = lanes.bounce.data();
    std::atomic<bool> deep{false};
    const std::size_t first = s.layout.contactsAt[b];
    Crew::forEach(crew, s.layout.contactsAt[b + 1] - first, kContactsPerBlock,
                  [&](std::size_t i, std::size_t e, int) {
                      if (prepare(s.c, s.bodies, s.startVelocity, s.layout, batch, first + i,
                                  first + e, wide, bounce))
                          deep.store(true, std::memory_order_relaxed);
                  });
    clearPadding(s.c, s.layout, batch, b, wide, bounce);
    JointSolver::Batch joints = s.joints.batch(b);
    const BatchLanes<N> lanesOfBatch{s.shares + batch.sharesBegin,
                                     batch.sharesEnd - batch.sharesBegin,
                                     wide,
                                     s.colourEnds + b * s.layout.colours,
                                     s.layout.colours,
                                     joints.empty() ? nullptr : &joints};
    // In a batch where some point overlaps by more than the slop, a relax pass in every substep:
    // the feedback pushes it out fast, and its velocity, carried into the next substep's warm
    // start, can be more than a relax pass takes back (energy made: stress seeds 10 and 214).
    substeps(crew, s.states, lanesOfBatch, s.springs, s.c.h, deep ? 1 : kRelaxEvery);
    restitute(s.c, s.states, wide, bounce, groups, s.bounceSolvesCut);
    Crew::forEach(crew, groups, kGroupsPerBlock * 4, [&](std::size_t i, std::size_t e, int) {
        s.collisions.fetch_add(keepImpulses(s.c, wide, bounce, i, e), std::memory_order_relaxed);
    });
}

// The substep solver on the step's contacts, in groups of N; the bodies no contact reaches move
// freely.
template <int N> void solveSubsteps(StepContext& c) {
    // Scratch kept from step to step: a large scene's arrays are not allocated anew each step.
    static thread_local std::vector<Velocity> velocity, warm;
    static thread_local std::vector<Displacement> displacement;
    static thread_local std::vector<Share> shares;
    static thread_local std::vector<char> inSolver;
    const double hs = c.h / kSubsteps;
    const std::size_t n = c.bodies.size();
    static thread_local std::vector<Inertia> inertia;
    // Each body's state, and the null state of padding lanes: at rest, not displaced.
    velocity.resize(n + 1);
    displacement.assign(n + 1, Displacement{0, 0, 1, 0});
    warm.resize(n + 1);
    inertia.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        const Body& b = c.bodies[i];
        const Motion& m = c.motion[i];
        // The velocity at the step's start: the free velocity less the forces' change.
        const Vec2 v = b.v - m.dv;
        velocity[i] = Velocity{v.x, v.y, b.w - m.dw, b.invMass};
        warm[i] = Velocity{0, 0, 0, b.invMass};
        inertia[i] =
            Inertia{b.xf().p, b.invMass, b.invInertia, b.isDynamic(), b.type == BodyType::Static};
    }
    velocity[n] = warm[n] = Velocity{0, 0, 0, 0};
    const States states{velocity.data(), displacement.data(), warm.data()};
    // Each contact's two bodies, apart from the rest of its manifold: the passes that need no more
    // read only these (a large scene's manifolds are megabytes).
    static thread_local std::vector<BodyPair> ends;
    ends.resize(c.contacts.size());
    for (std::size_t j = 0; j < c.contacts.size(); ++j)
        ends[j] = BodyPair{c.contacts[j].a, c.contacts[j].b};
    // The joints join bodies into islands as the contacts do (a joint to the world: its body
    // alone), and bring their moving bodies into the substeps.
    static thread_local std::vector<BodyPair> joined;
    joined.assign(ends.begin(), ends.end());
    if (c.joints)
        for (const Joint& j : *c.joints)
            if (movesSomething(j, c.bodies)) joined.push_back(BodyPair{j.a.value_or(j.b), j.b});
    const BodyBatches& batchOf = batchesOf(joined, inertia);
    static thread_local std::vector<Batch> batches;
    static thread_local Layout layout;
    layOut<N>(inertia, ends, batchOf, layout, batches);
    c.diagnostics.profile.colours = static_cast<int>(layout.colours);
    c.diagnostics.profile.substeps = kSubsteps;

    // The moving bodies the contacts reach go through the substeps, batch by batch; the others
    // move as the integrator (or their flight) says, below.
    inSolver.assign(n, 0);
    for (const BodyPair& e : joined)
        inSolver[e.a] = inSolver[e.b] = 1;
    std::vector<std::size_t> at(batches.size() + 1, 0); // where each batch's shares begin
    for (std::size_t i = 0; i < n; ++i)
        if (inSolver[i] && !inertia[i].fixed) ++at[batchOf.of[i] + 1];
    std::partial_sum(at.begin(), at.end(), at.begin());
    shares.resize(at.back());
    for (std::size_t b = 0; b < batches.size(); ++b) {
        batches[b].sharesBegin = at[b];
        batches[b].sharesEnd = at[b + 1];
    }
    for (std::size_t i = 0; i < n; ++i) {
        if (!inSolver[i] || inertia[i].fixed) continue;
        const Motion& m = c.motion[i];
        shares[at[batchOf.of[i]]++] =
            Share{i, m.dv.x / kSubsteps, m.dv.y / kSubsteps, m.dw / kSubsteps, 0};
    }
    // Where each batch's colours end, in groups from the batch's first.
    static thread_local std::vector<std::size_t> colourEnd;
    colourEnd.resize(batches.size() * layout.colours);
    for (std::size_t b = 0; b < batches.size(); ++b)
        for (std::size_t k = 0; k < layout.colours; ++k)
            colourEnd[b * layout.colours + k] =
                layout.next[b * layout.colours + k + 1] / N - batches[b].groupsBegin;

    // Batch after batch, its constraints prepared, its substeps, its restitution and its impulses
    // kept, in lanes that one batch after another takes: they stay in the cache from the first of
    // these to the last (laid out for the whole scene, the many pyramids' 13 MB of constraints went
    // out to memory and back in between). With threads (tuning.h: kGroupsPerThread), the large
    // batches first, each cut among all of them, then the others, each taken whole by one.
    const double hertz = kQuarterOfTheSubstepRate / hs;
    const Springs springs{contactSpring(2 * hertz, kDampingRatio, hs),
                          contactSpring(hertz, kDampingRatio, hs)};
    static thread_local JointSolver joints;
    joints.prepare(c.joints, c.bodies, hs, kSubsteps, jointSpring(hs), &batchOf.of, batches.size());
    const int crew = c.crew ? c.crew->size() : 1;
    const std::size_t totalGroups = batches.empty() ? 0 : batches.back().groupsEnd;
    static thread_local std::vector<std::size_t> cut, whole;
    cut.clear();
    whole.clear();
    for (std::size_t b = 0; b < batches.size(); ++b) {
        const std::size_t groups = batches[b].groupsEnd - batches[b].groupsBegin;
        const bool large = groups >= kGroupsPerThread * crew && groups * 2 * crew >= totalGroups;
        (crew > 1 && large ? cut : whole).push_back(b);
    }
    static thread_local std::vector<LaneStore<N>> stores;
    stores.resize(crew);
    std::atomic<int> collisions{0}, bounceSolvesCut{0};
    // The crew's threads run the blocks below, where the names of this function's thread_local
    // scratch would be their own, empty, copies: they reach this thread's through these.
    const StepLanes<N> step{c,       states,          batches,       layout,
                            inertia, velocity.data(), shares.data(), colourEnd.data(),
                            joints,  springs,         collisions,    bounceSolvesCut};
    const std::vector<std::size_t>& wholeBatches = whole;
    std::vector<LaneStore<N>>& storeOf = stores;
    // The moving bodies' poses and velocities after the substeps.
    const Displacement* const moved = displacement.data();
    const Velocity* const ended = velocity.data();
    const Share* const share = shares.data();
    auto placeBodies = [&](std::size_t i, std::size_t e, int) {
        for (std::size_t k = i; k < e; ++k) {
            Body& b = c.bodies[share[k].body];
            const Displacement& d = moved[share[k].body];
            const Velocity& v = ended[share[k].body];
            b.setPose(b.xf().p + Vec2{d.dpx, d.dpy}, b.angle() + share[k].angle);
            b.v = {v.vx, v.vy};
            b.w = v.w;
        }
    };
    const std::size_t shareCount = shares.size();
    auto solveAll = [&] {
        for (std::size_t b : cut)
            solveBatch(step, c.crew, b, storeOf[0]);
        Crew::forEach(c.crew, wholeBatches.size(), 1, [&](std::size_t i, std::size_t e, int w) {
            for (std::size_t k = i; k < e; ++k)
                solveBatch<N>(step, nullptr, wholeBatches[k], storeOf[w]);
        });
        Crew::forEach(c.crew, shareCount, kSharesPerBlock, placeBodies);
    };
    if (c.crew && (!cut.empty() || whole.size() > 1))
        c.crew->run(solveAll);
    else
        solveAll();
    c.diagnostics.collisions += collisions.load();
    c.diagnostics.bounceSolvesCut += bounceSolvesCut.load();
    joints.store(states);
    for (std::size_t i = 0; i < n; ++i) {
        c.bodies[i].force = {0, 0};
        c.bodies[i].torque = 0;
        if (!inSolver[i]) moveFreely(c, i);
    }
}

// The substep solver in eight lanes where the processor has AVX-512, in four elsewhere.
void solveSubsteps(StepContext& c) {
    if (hasAvx512())
        solveSubsteps<8>(c);
    else
        solveSubsteps<4>(c);
}

} // namespace
} // namespace substep

void stepSubsteps(StepContext& c) {
    // The pairs left with a body in flight (flight_impacts.cpp: a strike there was unsure, or the
    // pair struck too often) go to the impulse method's solver, whose restitution fits the
    // flight's closed form; their bodies touch nothing the substep solver moves.
    bool flown = false;
    for (const Motion& m : c.motion)
        flown = flown || m.flown;
    if (!flown) return substep::solveSubsteps(c);
    std::vector<Manifold> all, inFlight;
    all.swap(c.contacts);
    for (const Manifold& m : all)
        (c.motion[m.a].flown || c.motion[m.b].flown ? inFlight : c.contacts).push_back(m);
    std::swap(c.contacts, inFlight);
    solveImpulses(c);
    std::swap(c.contacts, inFlight);
    substep::solveSubsteps(c);
    returnSettledContacts(c, inFlight);
}

} // namespace carom
