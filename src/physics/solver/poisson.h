// Restitution by Poisson's law (Stronge, "Impact Mechanics", 2000), the default method's bounce
// (substep_solver.cpp; the exact method's impacts fall back to it where Newton's would make
// energy, impacts.cpp): at an impact, the impulse that drives the bodies apart is e times the
// impulse that stopped their approach, the compression impulse.
//
// Why it keeps energy. Points struck together, frictionless, with A = J M⁻¹ Jᵀ: the compression
// impulses λ ≥ 0 stop every approach, J v0 + A λ ≥ 0, complementary to it, λ · (J v0 + A λ) = 0
// (the projection of v0 onto the velocities with no point approaching, in the metric of M; Moreau).
// The compression takes ½ λ·Aλ of kinetic energy; the bounce e λ, applied where the points then
// touch and no longer approach or part (λ · J v1 = 0), gives back e² ½ λ·Aλ: never more than was
// taken, exactly that at e = 1. Newton's law (each point leaves at −e times its approach) has no
// such bound when points touch one another: a light body between two heavy ones is sent off the
// first at e times their speed, into the second, and off it, faster at every step.
//
// Points of one restitution each. With restitutions that differ from point to point, e_i λ_i has
// no such bound (a light body between a lively and a dead one, stress seed 39, gained 40% in a
// step). Points struck together through moving bodies (an island of them) take one restitution,
// each point's e weighted by its share of the energy the compression took (Stronge's energetic
// coefficient over the island): that share is ½ λ_i |v_i|, v_i the point's approach (from the
// complementarity above, ½ λ·Aλ = −½ Σ λ_i v_i), and
//   e² = Σ e_i² λ_i |v_i| / Σ λ_i |v_i|,
// so that the bounce e λ gives back e_i² of what each point took: Poisson's law for one point,
// and for any number struck with one restitution.
//
// A solver that holds the contacts over a step (the substep solver) measures the compression at
// the velocities the step began with, before its forces, on the points that strike: their
// compression takes less energy than the solve that held them together with every other contact
// (a projection onto fewer constraints moves v0 less), and the bounce gives back e² of that.
// Friction loses that bound; the energy audit (step/energy_audit.h) sees what it makes.
// Internal to the engine.
#pragma once

#include "carom/math.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace carom {

// A body's velocity and inverse masses (zero for one no contact moves).
struct PoissonBody {
    Vec2 v{0, 0};
    double w = 0, invMass = 0, invInertia = 0;
};

// A point that struck: its two bodies (indices into the PoissonBody array), the point relative to
// each centre of mass, the normal from a to b, and its coefficient of restitution. Two points of
// one manifold are given one after the other, the first with `pairedWithNext`: they are solved
// together (Catto's block solver), which converges where one at a time crawls.
struct PoissonPoint {
    std::size_t a = 0, b = 0;
    Vec2 rA{0, 0}, rB{0, 0}, n{0, 1};
    double restitution = 0;
    bool pairedWithNext = false;
};

// The compression of the points struck at the bodies' velocities: its impulses λ (N·s, each ≥ 0),
// normal impulses found together by projected Gauss-Seidel until a pass changes no velocity by
// more than round-off of the largest speed (kImpactConvergence), within the work bound below;
// each point's island (as named by islands.h) and its island's restitution (above); and per island
// the energy the compression took, W = −(λ·J v0 + ½ λ·Aλ) (the change of kinetic energy in
// relative velocities, the same in any frame: a kinematic body's motion is none of it).
struct Compression {
    std::vector<double> impulse;
    std::vector<std::uint32_t> island;
    std::vector<std::uint32_t> bodyIsland; // per body (of a body that moves)
    std::vector<double> restitution;       // per point: its island's
    std::vector<double> taken;             // indexed by island: W, J
    std::vector<double> twiceEnergy;       // indexed by island: λ·Aλ, J
    bool cut = false;                      // its solve reached the work bound before converging
};
Compression compress(const std::vector<PoissonPoint>& points, std::vector<PoissonBody> bodies);

// The restitution of each point's island, e² = Σ e_i² λ_i |v_i| / Σ λ_i |v_i| over the island's
// points (above): island[i] names point i's island, e its restitution, lambda its compression
// impulse and approach its normal velocity before it (< 0 approaching).
std::vector<double> islandRestitutions(const std::vector<std::uint32_t>& island,
                                       const std::vector<double>& e,
                                       const std::vector<double>& lambda,
                                       const std::vector<double>& approach);

// The bounce at the points: first the end of their compression, every normal velocity brought to
// zero by impulses of either sign (the substeps' soft contacts may have begun to part a point, or
// left it still closing across a gap it had), a projection in the metric of M that never adds
// energy; then s λ at each point of an island, s fixed by the energy (Stronge's energetic
// coefficient): the bounce gives back e² of what the compression took, W. At velocities v1 the
// bounce s λ changes the kinetic energy by s λ·J v1 + ½ s² λ·Aλ; with a = λ·Aλ and b = λ·J v1,
//   ½ a s² + b s = e² W   gives   s = (−b + √(b² + 2 a e² W)) / a.
// Both solves converged, b = 0 and W = ½ a, so s = e: Poisson's law. Stopped at their work bound,
// the bounce still gives back exactly e² W, and no more: the bound can cut the solve's accuracy,
// never make energy. Returns whether the solve here was cut.
bool bounceAt(const std::vector<PoissonPoint>& points, const Compression& compression,
              std::vector<PoissonBody>& bodies);

} // namespace carom
