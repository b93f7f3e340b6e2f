// Restitution by Poisson's law: poisson.h says why.
#include "solver/poisson.h"
#include "solver/contact_math.h"
#include "solver/islands.h"
#include "tuning.h"

#include <algorithm>
#include <cmath>

namespace carom {
namespace {

double normalVelocity(const std::vector<PoissonBody>& bodies, const PoissonPoint& p) {
    return glm::dot(relativeVelocity(bodies[p.a], bodies[p.b], p.rA, p.rB), p.n);
}

bool moves(const PoissonBody& b) {
    return b.invMass > 0 || b.invInertia > 0;
}

double kineticEnergy(const PoissonBody& b) {
    return 0.5 * ((b.invMass > 0 ? glm::dot(b.v, b.v) / b.invMass : 0) +
                  (b.invInertia > 0 ? b.w * b.w / b.invInertia : 0));
}

void push(std::vector<PoissonBody>& bodies, const PoissonPoint& p, double j) {
    applyImpulse(bodies[p.a], bodies[p.b], p.rA, p.rB, j * p.n);
}

// Normal impulses at the points, found together by projected Gauss-Seidel until a pass changes no
// velocity by more than round-off: that stop every approach and are ≥ 0 (`bilateral` false, the
// linear complementarity problem), or that bring every normal velocity to zero, of either sign.
// Changes the bodies' velocities by them. Each update of one point minimises the kinetic energy
// along its impulse, so every pass lowers it: stopped at any pass, the solve has made none. It
// stops at kBounceWork point updates (at least kBounceMinPasses passes), setting `cut`.
std::vector<double> solveNormals(const std::vector<PoissonPoint>& points,
                                 std::vector<PoissonBody>& bodies, bool bilateral, bool& cut) {
    const std::size_t n = points.size();
    std::vector<double> lambda(n, 0.0), mass(n, 0.0);
    std::vector<BlockMatrix> blocks(n);
    // Converged to round-off of the largest speed of a point's bodies (as the impacts:
    // impacts.cpp), at least of 1 m/s.
    double scale = 1;
    for (std::size_t i = 0; i < n; ++i) {
        const PoissonPoint& p = points[i];
        const PoissonBody &A = bodies[p.a], &B = bodies[p.b];
        mass[i] = effectiveMass(A, B, p.rA, p.rB, p.n);
        if (p.pairedWithNext && i + 1 < n) {
            const PoissonPoint& q = points[i + 1];
            blocks[i] = blockMatrix(A, B, p.rA, p.rB, q.rA, q.rB, p.n);
        }
        scale = std::max(scale, speedScale(A, B, p.rA, p.rB));
    }
    const int passes = static_cast<int>(std::min<std::size_t>(
        kImpactMaxPasses,
        std::max<std::size_t>(kBounceMinPasses, kBounceWork / std::max<std::size_t>(n, 1))));
    cut = false;
    double least = INFINITY; // the smallest change of a pass yet: stalled past kStalledPasses
    for (int pass = 0, stalled = 0; stalled < kStalledPasses; ++pass) {
        if (pass == passes) {
            cut = true;
            break;
        }
        double change = 0; // the pass's largest change of a normal velocity, m/s
        auto set = [&](std::size_t i, double next) {
            push(bodies, points[i], next - lambda[i]);
            if (mass[i] > 0) change = std::max(change, std::abs(next - lambda[i]) / mass[i]);
            lambda[i] = next;
        };
        for (std::size_t i = 0; i < n;) {
            const bool pair = points[i].pairedWithNext && i + 1 < n;
            // The block's b: the normal velocities with the accumulated impulses taken back out.
            const BlockMatrix& K = blocks[i];
            const double b1 = pair ? normalVelocity(bodies, points[i]) -
                                         (K.k11 * lambda[i] + K.k12 * lambda[i + 1])
                                   : 0,
                         b2 = pair ? normalVelocity(bodies, points[i + 1]) -
                                         (K.k12 * lambda[i] + K.k22 * lambda[i + 1])
                                   : 0;
            double x1 = 0, x2 = 0;
            if (pair && bilateral && K.invertible) { // K x = −b
                set(i, (K.k12 * b2 - K.k22 * b1) / K.det);
                set(i + 1, (K.k12 * b1 - K.k11 * b2) / K.det);
            } else if (pair && !bilateral && solveBlockLcp(K, b1, b2, x1, x2)) {
                set(i, x1);
                set(i + 1, x2);
            } else {
                for (std::size_t k = i; k < i + (pair ? 2 : 1); ++k) {
                    const double next = lambda[k] - mass[k] * normalVelocity(bodies, points[k]);
                    set(k, bilateral ? next : maxZero(next));
                }
            }
            i += pair ? 2 : 1;
        }
        if (change <= kImpactConvergence * scale) break;
        stalled = change < least ? 0 : stalled + 1;
        least = std::min(least, change);
    }
    return lambda;
}

} // namespace

std::vector<double> islandRestitutions(const std::vector<std::uint32_t>& island,
                                       const std::vector<double>& e,
                                       const std::vector<double>& lambda,
                                       const std::vector<double>& approach) {
    std::vector<double> weighted, weight; // per island: Σ e_i² λ_i |v_i| and Σ λ_i |v_i|
    for (std::size_t i = 0; i < island.size(); ++i) {
        if (island[i] >= weight.size())
            weighted.resize(island[i] + 1), weight.resize(island[i] + 1);
        const double w = lambda[i] * std::max(-approach[i], 0.0);
        weighted[island[i]] += e[i] * e[i] * w;
        weight[island[i]] += w;
    }
    std::vector<double> out(island.size(), 0.0);
    for (std::size_t i = 0; i < island.size(); ++i)
        if (weight[island[i]] > 0) out[i] = std::sqrt(weighted[island[i]] / weight[island[i]]);
    return out;
}

namespace {

// Per island, λ·Aλ: twice the kinetic energy the impulses λ give the moving bodies from rest.
std::vector<double> twiceTheEnergyOf(const std::vector<PoissonPoint>& points,
                                     const std::vector<double>& lambda,
                                     std::vector<PoissonBody> bodies,
                                     const std::vector<std::uint32_t>& bodyIsland) {
    for (PoissonBody& b : bodies)
        b.v = {0, 0}, b.w = 0;
    for (std::size_t i = 0; i < points.size(); ++i)
        push(bodies, points[i], lambda[i]);
    std::vector<double> a(bodies.size(), 0.0);
    for (std::size_t k = 0; k < bodies.size(); ++k)
        if (moves(bodies[k])) a[bodyIsland[k]] += 2 * kineticEnergy(bodies[k]);
    return a;
}

} // namespace

Compression compress(const std::vector<PoissonPoint>& points, std::vector<PoissonBody> bodies) {
    Compression c;
    std::vector<double> approach(points.size()), e(points.size());
    for (std::size_t i = 0; i < points.size(); ++i) {
        approach[i] = normalVelocity(bodies, points[i]);
        e[i] = points[i].restitution;
    }
    // Each point's island: its moving body's (either, when both move).
    c.bodyIsland = islands(points, bodies.size(), [&](std::size_t k) { return moves(bodies[k]); });
    c.island.resize(points.size());
    for (std::size_t i = 0; i < points.size(); ++i)
        c.island[i] = c.bodyIsland[moves(bodies[points[i].a]) ? points[i].a : points[i].b];
    c.impulse = solveNormals(points, bodies, false, c.cut);
    c.restitution = islandRestitutions(c.island, e, c.impulse, approach);
    // The energy taken, −(λ·J v0 + ½ λ·Aλ): the kinetic energy λ changes, measured in relative
    // velocities, so that a kinematic body's own motion is no energy taken (in its frame, it is the
    // kinetic energy the compression took).
    c.twiceEnergy = twiceTheEnergyOf(points, c.impulse, bodies, c.bodyIsland);
    c.taken.assign(c.twiceEnergy.size(), 0.0);
    for (std::size_t i = 0; i < points.size(); ++i)
        c.taken[c.island[i]] -= c.impulse[i] * approach[i];
    for (std::size_t k = 0; k < c.taken.size(); ++k)
        c.taken[k] = std::max(c.taken[k] - 0.5 * c.twiceEnergy[k], 0.0);
    return c;
}

bool bounceAt(const std::vector<PoissonPoint>& points, const Compression& compression,
              std::vector<PoissonBody>& bodies) {
    bool cut = false;
    solveNormals(points, bodies, true, cut);
    // Per island, b = λ·J v1, and its restitution.
    const std::vector<double>& a = compression.twiceEnergy;
    std::vector<double> b(a.size(), 0.0), e(a.size(), 0.0);
    for (std::size_t i = 0; i < points.size(); ++i) {
        b[compression.island[i]] += compression.impulse[i] * normalVelocity(bodies, points[i]);
        e[compression.island[i]] = compression.restitution[i];
    }
    std::vector<double> scale(a.size(), 0.0);
    for (std::size_t k = 0; k < a.size(); ++k)
        if (a[k] > 0) {
            const double given = e[k] * e[k] * compression.taken[k];
            scale[k] = (std::sqrt(b[k] * b[k] + 2 * a[k] * given) - b[k]) / a[k];
        }
    for (std::size_t i = 0; i < points.size(); ++i)
        push(bodies, points[i], scale[compression.island[i]] * compression.impulse[i]);
    return cut;
}

} // namespace carom
