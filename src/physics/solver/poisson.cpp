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
// `converged` (if given) says whether a pass changed no velocity by more than round-off, rather
// than the solve stalling or using up its passes.
std::vector<double> solveNormals(const std::vector<PoissonPoint>& points,
                                 std::vector<PoissonBody>& bodies, bool bilateral,
                                 bool* converged = nullptr) {
    if (converged) *converged = false;
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
        if (change <= kImpactConvergence * scale) {
            if (converged) *converged = true;
            break;
        }
        // Progress is a change at most half the least before it: round-off's noise about the
        // tolerance sets a new least now and then, and counted as progress it kept solves of a
        // crowd or a pile going for all kImpactMaxPasses passes (issue 46: 10,000 passes over
        // 700-1,000 points, most of a step of 200 fast bodies in a 1 m box).
        if (change <= 0.5 * least) {
            least = change;
            stalled = 0;
        } else {
            ++stalled;
        }
    }
    return lambda;
}

// P·AP for impulses P at the points: twice the kinetic energy they give bodies at rest.
double twiceEnergyOf(const std::vector<PoissonPoint>& points, const std::vector<double>& impulse,
                     const std::vector<PoissonBody>& bodies) {
    std::vector<PoissonBody> alone(bodies.size());
    for (std::size_t k = 0; k < bodies.size(); ++k) {
        alone[k].invMass = bodies[k].invMass;
        alone[k].invInertia = bodies[k].invInertia;
    }
    for (std::size_t i = 0; i < points.size(); ++i)
        push(alone, points[i], impulse[i]);
    double q = 0;
    for (const PoissonBody& b : alone) {
        if (b.invMass > 0) q += glm::dot(b.v, b.v) / b.invMass;
        if (b.invInertia > 0) q += b.w * b.w / b.invInertia;
    }
    return q;
}

double twiceKineticEnergy(const std::vector<PoissonBody>& bodies) {
    double e = 0;
    for (const PoissonBody& b : bodies) {
        if (b.invMass > 0) e += glm::dot(b.v, b.v) / b.invMass;
        if (b.invInertia > 0) e += b.w * b.w / b.invInertia;
    }
    return e;
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
    const double before = twiceKineticEnergy(bodies);
    bool converged = false;
    std::vector<double> bounce = solveNormals(points, bodies, false, &converged);
    if (!converged) {
        // Stalled short of round-off, the compression λ need not have taken ½ λ·Aλ (it does when
        // complementary: above, poisson.h), and the bounce would give back more than was taken:
        // λ is scaled so that ½ λ·Aλ is no more than what the compression took.
        const double taken = before - twiceKineticEnergy(bodies),
                     q = twiceEnergyOf(points, bounce, bodies);
        if (q > taken) {
            const double s = taken > 0 ? std::sqrt(taken / q) : 0.0;
            for (double& l : bounce)
                l *= s;
        }
    }
    const std::vector<double> restitution = islandRestitutions(island, e, bounce, approach);
    for (std::size_t i = 0; i < points.size(); ++i)
        bounce[i] *= restitution[i];
    return bounce;
}

void bounceAt(const std::vector<PoissonPoint>& points, const std::vector<double>& bounce,
              std::vector<PoissonBody>& bodies) {
    bool converged = false;
    solveNormals(points, bodies, true, &converged);
    // Stalled short of round-off, some points still approach or part a little, and the bounce P
    // pushed against a part gives it more than ½ P·AP (the energy it adds from velocities with no
    // point approaching or parting: above, poisson.h): by c = Σ P_i v_i, the points' normal
    // velocities v_i now. Then the bounce is scaled by s, the root of s c + ½ s² P·AP = ½ P·AP.
    double scale = 1;
    if (!converged) {
        double c = 0;
        for (std::size_t i = 0; i < points.size(); ++i)
            c += bounce[i] * normalVelocity(bodies, points[i]);
        const double q = twiceEnergyOf(points, bounce, bodies); // P·AP
        if (c > 0 && q > 0) scale = (std::sqrt(c * c + q * q) - c) / q;
    }
    for (std::size_t i = 0; i < points.size(); ++i)
        push(bodies, points[i], scale * bounce[i]);
}

} // namespace carom
