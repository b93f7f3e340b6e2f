// The time graph (three variables over a sliding window) and the X–Y graph (any variable against
// any other), their recorded data, and the ImGui widgets that show them.
#pragma once

#include "history.h"
#include "plot_range.h"
#include "variables.h"
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace app {

struct TimeGraph {
    std::array<std::string, 3> names{"kinetic energy", "potential energy", "total energy"};
    std::array<Variable, 3> vars{};
    std::array<bool, 3> valid{};
    double window = 10; // seconds of simulated time shown
    bool paused = false;
    bool refill = false; // a series was changed: its past is drawn again from the history
    std::vector<double> t;
    std::array<std::vector<double>, 3> y;
    std::size_t start = 0; // first sample still inside the window (older ones are dropped lazily)
};

struct XYGraph {
    std::string xName = "block1.x", yName = "block1.vx";
    Variable x{}, y{};
    bool valid = false;
    bool paused = false;
    std::size_t maxPoints = 100000; // as myPhysicsLab's graph
    std::vector<double> xs, ys;
    std::vector<double> ts;   // each point's simulated time (for rewindPlots)
    bool follow = true;       // the range follows the recent points; off after "fit"
    bool equalScales = false; // a unit as long across as up: trajectories undistorted
    std::size_t recent = 600; // the points the range follows (about 10 s at 60 frames a second)
    Range shownX, shownY;     // the range shown (before equal scales)
};

// The bounds of the last `count` points (all of them when count is 0), false when there are none.
bool pointBounds(const XYGraph& g, std::size_t count, Range& x, Range& y);
// Follows the recent points, or, when not following, keeps the range (fitting all the points
// when there is none yet).
void updateXYRange(XYGraph& g);
void fitXYGraph(XYGraph& g); // every point held in view; stops following

struct PlotState {
    TimeGraph time;
    XYGraph xy;
    std::uint64_t generation = ~std::uint64_t(0); // the session generation the data belongs to
    double lastTime = -1;                         // the simulated time last recorded
    // The data areas' heights as last drawn, in pixels (for --report); 0 when not drawn.
    float timeFrameHeight = 0, xyFrameHeight = 0;
};

// The least height of a graph's data area, in pixels: a graph is given at least this much with
// its legend and titles added (the panel scrolls then), not squeezed to a strip (45 px at 800 ×
// 600, under three rows of legend).
constexpr float kMinGraphFrame = 120;

// Called once per frame: re-resolves the names after a rebuild, then records one sample if the
// simulated time moved, or, if it did not (paused), puts the values now in the last sample, so
// that edits made while paused show.
void updatePlots(PlotState& p, const carom::World& world, std::uint64_t generation,
                 const Sample& s);
void clearTimeGraph(TimeGraph& g);
// The time graph drawn again from the history, as if it had been recording its series all along
// (a series was changed: it started empty): the last `window` seconds before the world `now`, at
// most maxSteps of them, re-simulated on a copy, a sample a step; the history gains keyframes on
// the way as a seek would give it. A graph paused keeps what it has.
void refillTimeGraph(PlotState& p, History& history, const carom::World& now, double peOffset,
                     std::uint64_t maxSteps);
// What the time graph's cursor reads of series i at time t (issue 44, as PhET's graphs read
// them): the value between the two samples around t (on the straight line the graph draws), the
// slope of that line, and the area under the series from the time `from` (the left edge of the
// graph, or its first sample if later) to t, by trapezoids: exact for the line drawn. False when t
// is not between two samples from `from` on.
struct CursorReading {
    double value = 0, slope = 0, area = 0;
    double from = 0; // where the area begins
};
bool readTimeGraph(const TimeGraph& g, int i, double t, double from, CursorReading& r);
// The world went back to simulated time t (the timeline): the samples after it are dropped.
void rewindPlots(PlotState& p, double t);
void clearXYGraph(XYGraph& g);

// ImGui content (inside a window the caller opened), `height` pixels high, or more where the
// data area would be under kMinGraphFrame.
void timeGraphWidget(PlotState& p, const carom::World& world, float height);
void xyGraphWidget(PlotState& p, const carom::World& world, float height);

} // namespace app
