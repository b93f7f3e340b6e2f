// The run as a CSV file, from the app (issue 44, Export): the history from its first step to the
// moment shown, re-simulated (history.h: the same bits the world had), a row a step with carom-cli
// run's columns and numbers (carom/csv.h), so that a row is the row carom-cli gives for the same
// moment.
#include "carom/csv.h"
#include "carom/output_file.h"
#include "panels.h"
#include "session.h"

#include <filesystem>
#include <string>
#include <vector>

namespace app {
namespace {

// The bodies with columns; a scene opened or a build edit with others changes them.
std::vector<std::string> movingBodies(const carom::World& world) {
    std::vector<std::string> names;
    for (const carom::Body& b : world.bodies())
        if (b.type != carom::BodyType::Static) names.push_back(b.name);
    for (const carom::SoftBody& b : world.softBodies())
        names.push_back(b.name);
    return names;
}

} // namespace

bool exportCsvFile(UiContext& ui, const std::string& path) {
    Session& s = ui.session;
    try {
        carom::World world = s.world;
        const std::uint64_t now = s.world.stepCount();
        s.history.seek(world, s.history.first());
        // t as carom-cli's: t0 + (n − n0) h, restarted where the time step changes.
        double t0 = world.time(), h = world.settings().timeStep;
        std::uint64_t n0 = world.stepCount();
        auto clock = [&] { return t0 + double(world.stepCount() - n0) * h; };
        std::vector<std::string> columns = movingBodies(world);
        std::string text =
            carom::csvHeader(world) + carom::csvRow(world, clock(), carom::measure(world));
        std::string note;
        while (world.stepCount() < now) {
            s.history.stepAlong(world);
            const double t = clock();
            // The bodies changed (a build edit): the file begins again there, with their columns.
            if (movingBodies(world) != columns) {
                columns = movingBodies(world);
                text = carom::csvHeader(world);
                note = " (from t = " + std::to_string(t) + " s, where the bodies last changed)";
            }
            text += carom::csvRow(world, t, world.diagnostics());
            if (world.settings().timeStep != h) {
                t0 = t;
                n0 = world.stepCount();
                h = world.settings().timeStep;
            }
        }
        carom::OutputFile out(path);
        out.write(text);
        out.commit();
        ui.panels.fileMessage = "exported the run to " + path + note;
        ui.panels.fileError = false;
        return true;
    } catch (const std::exception& e) {
        ui.panels.fileMessage = e.what();
        ui.panels.fileError = true;
        return false;
    }
}

bool exportFile(UiContext& ui, const std::string& path) {
    if (std::filesystem::path(path).extension() != ".png") return exportCsvFile(ui, path);
    ui.panels.screenshot = path;
    ui.panels.screenshotFrames = 1;
    return true;
}

} // namespace app
