// carom-cli run: load a scene, step it, write the CSV and the final scene, print a summary.
#include "carom/csv.h"
#include "commands.h"
#include <algorithm>

#include "carom/output_file.h"

#include <cmath>
#include <cstdio>
#include <memory>
#include <stdexcept>

namespace cli {
bool finite(const carom::Diagnostics& d) {
    return std::isfinite(d.energy) && carom::isFinite(d.momentum) &&
           std::isfinite(d.angularMomentum);
}

// The guards that fired (GuardCounts: a state repaired rather than its cause prevented), each
// on a line of its own when it did.
void printGuards(const carom::GuardCounts& g) {
    const struct {
        int n;
        const char* what;
    } lines[] = {
        {g.restitutionUndone,
         "restitution undone (a restitution pass that would have made energy)"},
        {g.bounceMadePoisson, "impacts given Poisson's bounce (Newton's would have made energy)"},
        {g.bounceCut, "bounces cut (Poisson's would have made energy too)"},
        {g.stoppedAtStatic, "bodies stopped where they met a static body"},
        {g.pushedOutOfStatic, "bodies pushed out of a static body"},
    };
    for (const auto& l : lines)
        if (l.n > 0) std::printf("guard: %d %s\n", l.n, l.what);
}

int run(const RunOptions& o) {
    carom::Scene scene = carom::loadScene(o.scene);
    apply(o.overrides, scene);
    carom::World world = carom::buildWorld(scene);
    world.setThreads(o.threads);
    const double dt = world.settings().timeStep;
    const long long steps = o.steps ? *o.steps : stepsFor(o.time.value_or(10.0), dt);

    // Both outputs are opened before the run and committed together after it: a failure on
    // either way leaves neither behind.
    std::unique_ptr<carom::OutputFile> csv, save;
    if (!o.csv.empty()) csv = std::make_unique<carom::OutputFile>(o.csv);
    if (!o.save.empty()) save = std::make_unique<carom::OutputFile>(o.save);
    const carom::Diagnostics start = carom::measure(world);
    if (csv) {
        csv->write(carom::csvHeader(world));
        csv->write(carom::csvRow(world, 0.0, start));
    }
    double deepest = 0; // the deepest overlap after any step, m
    for (long long i = 1; i <= steps; ++i) {
        world.step();
        const carom::Diagnostics& d = world.diagnostics();
        deepest = std::max(deepest, d.maxDepth);
        if (!finite(d))
            throw std::runtime_error(o.scene + ": the simulation became non-finite at step " +
                                     std::to_string(i) + " (t = " + std::to_string(i * dt) +
                                     " s); try a smaller --dt or another --method");
        // t = steps × dt, not the world's running sum, so that rows fall on exact multiples.
        if (csv && i % o.every == 0) csv->write(carom::csvRow(world, i * dt, d));
    }
    if (save)
        save->write(carom::sceneFileText(carom::captureScene(world, scene.name, scene.description),
                                         o.save));
    if (csv) csv->commit();
    if (save) save->commit();

    const carom::Diagnostics end = steps > 0 ? world.diagnostics() : start;
    std::printf("scene: %s (%zu bodies)\n", scene.name.c_str(), world.bodies().size());
    std::printf("method: %s, integrator: %s, dt: %.17g s\n",
                std::string(carom::toString(world.settings().method)).c_str(),
                std::string(carom::toString(world.settings().integrator)).c_str(), dt);
    std::printf("steps: %lld\n", steps);
    std::printf("time: %.17g s\n", steps * dt);
    std::printf("energy: %.17g J at the start, %.17g J at the end\n", start.energy, end.energy);
    std::printf("energy made: %.17g J\n", end.totalEnergyMade);
    std::printf("deepest overlap: %.17g m (after any step; the linear slop is %.17g m)\n", deepest,
                world.settings().linearSlop);
    // Past the slop at the end, overlap the solver does not take back: a stack sinking, as one of a
    // heavy body on light ones does past the mass ratio its method holds (architecture.md).
    if (steps > 0 && end.maxDepth > world.settings().linearSlop)
        std::printf(
            "sinking: %.17g m of overlap at the end, beyond the linear slop (a heavy body on "
            "a light one holds to a mass ratio of 10^2 in the default method, less in the "
            "others; docs/architecture.md)\n",
            end.maxDepth);
    if (const std::uint64_t n = end.stepsNotAudited)
        std::printf("steps not audited: %llu (the mouse spring, a thruster, a joint's motor or a "
                    "moving kinematic body did work in them)\n",
                    static_cast<unsigned long long>(n));
    if (const std::uint64_t n = world.diagnostics().totalStoppedChains)
        std::printf("stopped impact chains: %llu (exact method: impacts that would not settle, "
                    "stopped together without bounce)\n",
                    static_cast<unsigned long long>(n));
    if (const std::uint64_t n = world.diagnostics().totalStepsFinishedHeld)
        std::printf("steps finished held: %llu (exact method: steps whose intervals used up their "
                    "work or stopped getting on, the rest taken as the default method steps, and "
                    "the steps waited after them)\n",
                    static_cast<unsigned long long>(n));
    if (const std::uint64_t n = world.diagnostics().totalContactSearches)
        std::printf("contact searches: %llu (exact method: times of contact found by bisection; "
                    "past three in a step, the rest of it taken as the default method steps)\n",
                    static_cast<unsigned long long>(n));
    if (const std::uint64_t n = world.diagnostics().totalBounceSolvesCut)
        std::printf("bounce solves cut: %llu (default method: bounces whose solve reached its "
                    "work bound; their energy still e^2 of the compression's)\n",
                    static_cast<unsigned long long>(n));
    if (const std::uint64_t n = world.diagnostics().totalHoldSolvesCut)
        std::printf("hold solves cut: %llu (exact method: solves of the resting contacts over an "
                    "interval that reached their work bound still doing work)\n",
                    static_cast<unsigned long long>(n));
    printGuards(end.totalGuards);
    if (csv) std::printf("csv: %s\n", o.csv.c_str());
    if (!o.save.empty()) std::printf("saved: %s\n", o.save.c_str());
    return 0;
}

} // namespace cli
