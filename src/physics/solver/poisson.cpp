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

void push(std::vector<PoissonBody>& bodies, const PoissonPoint& p, double j) {
    applyImpulse(bodies[p.a], bodies[p.b], p.rA, p.rB, j * p.n);
}

// Normal impulses at the points, found together by projected Gauss-Seidel until a pass changes no
// velocity by more than round-off: that stop every approach and are ≥ 0 (`bilateral` false, the
// linear complementarity problem), or that bring every normal velocity to zero, of either sign.
// Changes the bodies' velocities by them.
std::vector<double> solveNormals(const std::vector<PoissonPoint>& points,
                                 std::vector<PoissonBody>& bodies, bool bilateral) {
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
    double least = INFINITY; // the smallest change of a pass yet: stalled past kStalledPasses
    for (int pass = 0, stalled = 0; pass < kImpactMaxPasses && stalled < kStalledPasses; ++pass) {
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

std::vector<double> bounceImpulses(const std::vector<PoissonPoint>& points,
                                   std::vector<PoissonBody> bodies) {
    std::vector<double> approach(points.size()), e(points.size());
    for (std::size_t i = 0; i < points.size(); ++i) {
        approach[i] = normalVelocity(bodies, points[i]);
        e[i] = points[i].restitution;
    }
    // Each point's island: its moving body's (either, when both move).
    const std::vector<std::uint32_t> of =
        islands(points, bodies.size(), [&](std::size_t k) { return moves(bodies[k]); });
    std::vector<std::uint32_t> island(points.size());
    for (std::size_t i = 0; i < points.size(); ++i) {
        island[i] = of[moves(bodies[points[i].a]) ? points[i].a : points[i].b];
    }
    std::vector<double> bounce = solveNormals(points, bodies, false);
    const std::vector<double> restitution = islandRestitutions(island, e, bounce, approach);
    for (std::size_t i = 0; i < points.size(); ++i)
        bounce[i] *= restitution[i];
    return bounce;
}

void bounceAt(const std::vector<PoissonPoint>& points, const std::vector<double>& bounce,
              std::vector<PoissonBody>& bodies) {
    solveNormals(points, bodies, true);
    for (std::size_t i = 0; i < points.size(); ++i)
        push(bodies, points[i], bounce[i]);
}

} // namespace carom
