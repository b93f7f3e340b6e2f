// Export... (issue 44): the run from the history's first step to the moment shown as a CSV file,
// re-simulated (history.h: the same bits the world had), a row a step with carom-cli run's columns
// and numbers (carom/csv.h), so that a row is the row carom-cli gives for the same moment; or as a
// recording (History::writeRecording); or, asked of the app, an animation or a picture.
#include "carom/csv.h"
#include "carom/output_file.h"
#include "panels.h"
#include "session.h"

#include <filesystem>
#include <stdexcept>
#include <string>
#include <utility>

namespace app {

bool exportCsvFile(UiContext& ui, const std::string& path) {
    return reportFileAction(ui, [&] {
        Session& s = ui.session;
        carom::World world = s.world;
        const std::uint64_t now = s.world.stepCount();
        s.history.seek(world, s.history.first());
        // t as carom-cli's: t0 + (n − n0) h, restarted where the time step changes.
        double t0 = world.time(), h = world.settings().timeStep;
        std::uint64_t n0 = world.stepCount();
        auto clock = [&] { return t0 + double(world.stepCount() - n0) * h; };
        // The columns: a build edit that adds or removes a moving body, a soft body or a joint
        // changes them.
        std::string header = carom::csvHeader(world);
        std::string text = header + carom::csvRow(world, clock(), carom::measure(world));
        std::string note;
        while (world.stepCount() < now) {
            s.history.stepAlong(world);
            const double t = clock();
            // The columns changed: the file begins again there, with the new ones.
            if (std::string columns = carom::csvHeader(world); columns != header) {
                header = std::move(columns);
                text = header;
                note = " (from t = " + std::to_string(t) + " s, where the columns last changed)";
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
        return "exported the run to " + path + note;
    });
}

bool exportRecording(UiContext& ui, const std::string& path) {
    return reportFileAction(ui, [&] {
        const Session& s = ui.session;
        if (!s.historyOn || s.history.empty())
            throw std::runtime_error(path + ": no timeline to save (started with --no-history)");
        carom::RecordingWriter out(path);
        s.history.writeRecording(out, s.world.stepCount(), s.scene.name, s.scene.description);
        return "saved the run as the recording " + path + " (carom --replay plays it)";
    });
}

bool exportFile(UiContext& ui, const std::string& path) {
    const std::filesystem::path extension = std::filesystem::path(path).extension();
    if (extension == ".rec") return exportRecording(ui, path);
    if (extension == ".gif") {
        ui.panels.animation = path; // the app draws and writes it (app.cpp, GifCapture)
        return true;
    }
    if (extension != ".png") return exportCsvFile(ui, path);
    ui.panels.screenshot = path;
    ui.panels.screenshotFrames = 1;
    return true;
}

} // namespace app
