// Soft bodies' motion in a step: the springs, gravity, the world's damping and the mouse spring,
// integrated over substeps chosen from the stiffest spring, with the collisions of each substep
// swept in its drift (soft_collide.cpp), after the rigid stages have moved the rigid bodies.
//
// The scheme is leapfrog, drift–kick–drift (Störmer–Verlet; Hairer, Lubich and Wanner, "Geometric
// numerical integration illustrated by the Störmer–Verlet method", Acta Numerica 2003):
//   x ← x + (hs/2) v,   v ← v + hs a(x),   x ← x + (hs/2) v,
// the two half drifts of consecutive substeps taken as one; every drift is swept for collisions.
// Drifts, not kicks, at the ends: the velocity a strike turns back is then the one the energy is
// measured with, which an elastic strike keeps. It is symplectic: over a free motion it keeps a
// modified energy, so that the energy does not drift (CS5643's semi-implicit Euler, which this
// replaces, is symplectic too but of first order: its energy error is of order hs ω, not
// (hs ω)²). It is stable for hs ω < 2, ω the fastest vibration, which is at most
//   ω² ≤ max_i Σ_{springs s at i} k_s (1/m_i + 1/√(m_i m_j))
// (Gershgorin's circle theorem on M^(−1/2) K M^(−1/2); a spring's 2 × 2 stiffness block, k along it
// and k (1 − L/l) across, has no eigenvalue above k); the mouse spring adds k_m / m_i to its
// particle's row, and the dampings bound their rate γ the same way with c for k. The substeps are
//   n = ⌈h max(ω, γ) / kSoftRate⌉,
// so that each substep has hs ω and hs γ ≤ kSoftRate: the energy then swings by at most (hs ω)²/4
// of a spring's, and the strikes, whose error is of the order of hs, stay within the 1%
// (tuning.h and docs/architecture.md, "Soft bodies", for the
// measurements). A body that would need more than kMaxSoftSubsteps takes that many, with its
// springs solved implicitly: each spring's backward-Euler impulse alone (Baraff and Witkin, "Large
// steps in cloth simulation", SIGGRAPH 1998, Eq. 6 for one spring), in turn (Gauss–Seidel, as
// Box2D v3 solves its soft constraints): stable at any stiffness, at the price of damping the
// vibrations the substeps cannot follow.
#include "softbody/soft_collide.h"
#include "tuning.h"

#include <algorithm>
#include <cmath>

namespace carom {
namespace {

// The mouse spring's stiffness and damping on a grabbed particle of body `id`, if any.
struct MousePull {
    std::size_t particle = 0;
    double stiffness = 0, damping = 0;
    Vec2 target{0, 0};
};
std::optional<MousePull> mousePull(const StepContext& c, const SoftBody& b, SoftBodyId id) {
    if (!c.spring || !c.spring->particle || c.spring->body != id) return std::nullopt;
    const WorldSettings& s = c.settings;
    const std::size_t k = *c.spring->particle;
    const MouseSpringLaw law = mouseSpringLaw(s, b.particles[k].mass, c.spring->dampingRatio);
    return MousePull{k, law.stiffness, law.damping, c.spring->target};
}

// The substeps body b needs: ⌈h max(ω, γ) / kSoftRate⌉ from the bounds above (at least 1).
double substepsNeeded(const StepContext& c, const SoftBody& b, SoftBodyId id) {
    std::vector<double> stiffness(b.particles.size(), 0), damping(b.particles.size(), 0);
    for (const Spring& sp : b.springs) {
        const Particle &pi = b.particles[sp.i], &pj = b.particles[sp.j];
        const double cross = std::sqrt(pi.invMass * pj.invMass); // 1/√(m_i m_j)
        stiffness[sp.i] += sp.stiffness * (pi.invMass + cross);
        stiffness[sp.j] += sp.stiffness * (pj.invMass + cross);
        damping[sp.i] += sp.damping * (pi.invMass + cross);
        damping[sp.j] += sp.damping * (pj.invMass + cross);
    }
    if (const auto pull = mousePull(c, b, id)) {
        stiffness[pull->particle] += pull->stiffness * b.particles[pull->particle].invMass;
        damping[pull->particle] += pull->damping * b.particles[pull->particle].invMass;
    }
    double rate = 0;
    for (std::size_t k = 0; k < b.particles.size(); ++k)
        rate = std::max({rate, std::sqrt(stiffness[k]),
                         damping[k] + c.settings.damping * b.particles[k].invMass});
    return std::max(1.0, std::ceil(c.h * rate / kSoftRate));
}

// Each particle's force: gravity, the world's damping (−c v, as on rigid bodies), the mouse
// spring (k (target − x) − c v, as forces.cpp's), and with `springs` Hooke plus damping along
// each spring (CS5643): on i, f = [k (l − L) + c (v_j − v_i)·d] d with d the unit vector from i
// to j; −f on j.
void forcesOn(const StepContext& c, const SoftBody& b, SoftBodyId id, bool springs, Vec2* force) {
    const WorldSettings& s = c.settings;
    for (std::size_t k = 0; k < b.particles.size(); ++k) {
        const Particle& p = b.particles[k];
        force[k] = p.mass * s.gravity - s.damping * p.v;
    }
    if (springs)
        for (const Spring& sp : b.springs) {
            const Particle &pi = b.particles[sp.i], &pj = b.particles[sp.j];
            const Vec2 delta = pj.x - pi.x;
            const double l = glm::length(delta);
            if (l == 0) continue; // no direction: the spring pulls nowhere
            const Vec2 d = delta / l;
            const Vec2 f =
                (sp.stiffness * (l - sp.restLength) + sp.damping * glm::dot(pj.v - pi.v, d)) * d;
            force[sp.i] += f;
            force[sp.j] -= f;
        }
    if (const auto pull = mousePull(c, b, id)) {
        const Particle& p = b.particles[pull->particle];
        force[pull->particle] += pull->stiffness * (pull->target - p.x) - pull->damping * p.v;
    }
}

// The springs' backward-Euler impulses over hs, one spring at a time: with C = l − L, the rate
// ċ = (v_j − v_i)·d and w = 1/m_i + 1/m_j, the impulse P on i along d (−P on j) that makes
// P = hs [k (C + hs ċ') + c ċ'] with the rate after it, ċ' = ċ − w P:
//   P = hs (k C + (k hs + c) ċ) / (1 + w hs (k hs + c)).
void springImpulses(SoftBody& b, double hs) {
    for (const Spring& sp : b.springs) {
        Particle &pi = b.particles[sp.i], &pj = b.particles[sp.j];
        const Vec2 delta = pj.x - pi.x;
        const double l = glm::length(delta);
        if (l == 0) continue;
        const Vec2 d = delta / l;
        const double rate = glm::dot(pj.v - pi.v, d), w = pi.invMass + pj.invMass;
        const double resist = sp.stiffness * hs + sp.damping;
        const double P =
            hs * (sp.stiffness * (l - sp.restLength) + resist * rate) / (1 + w * hs * resist);
        pi.v += pi.invMass * P * d;
        pj.v -= pj.invMass * P * d;
    }
}

} // namespace

void stepSoftBodies(StepContext& c, std::vector<SoftBody>& soft, const std::vector<Pose>& start) {
    std::size_t particles = 0;
    double needed = 1;
    std::vector<double> need(soft.size());
    for (SoftBodyId id = 0; id < soft.size(); ++id) {
        particles += soft[id].particles.size();
        need[id] = substepsNeeded(c, soft[id], id);
        needed = std::max(needed, need[id]);
    }
    const int n = int(std::min<double>(needed, kMaxSoftSubsteps));
    const double hs = c.h / n;
    std::vector<char> implicitSprings(soft.size());
    for (SoftBodyId id = 0; id < soft.size(); ++id)
        implicitSprings[id] = need[id] > kMaxSoftSubsteps;

    std::vector<Vec2> force(particles), forced(particles, Vec2{0, 0});
    std::vector<Pose> from = start;
    // Drift–kick–drift: a half drift, then n kicks each followed by a drift of hs (the last of
    // hs/2). `forced` is each particle's velocity change by the last kick (none before the
    // first drift: the last step's ended with its drift).
    SoftCollisionCounts counts;
    double done = 0; // of the step
    auto drift = [&](double length) {
        collideSoftSubstep(c, soft, from, length, c.h - done, forced, counts);
        done += length;
    };
    drift(0.5 * hs);
    for (int k = 0; k < n; ++k) {
        for (SoftBodyId id = 0, first = 0; id < soft.size(); first += soft[id++].particles.size()) {
            SoftBody& b = soft[id];
            forcesOn(c, b, id, !implicitSprings[id], &force[first]);
            for (std::size_t i = 0; i < b.particles.size(); ++i) {
                Particle& p = b.particles[i];
                forced[first + i] = p.v;
                p.v += hs * p.invMass * force[first + i];
            }
            if (implicitSprings[id]) springImpulses(b, hs);
            for (std::size_t i = 0; i < b.particles.size(); ++i)
                forced[first + i] = b.particles[i].v - forced[first + i];
        }
        drift(k + 1 < n ? hs : c.h - done);
    }
    c.diagnostics.collisions += counts.impacts;
    c.diagnostics.contactPoints += counts.contacts;
}

} // namespace carom
