// What the user chose to see; remembered between runs (prefs.cpp).
#pragma once

namespace app {

struct ViewOptions {
    bool showForces = false;   // gravity, thrust, spring, damping and contact impulses as arrows
    bool showContacts = false; // contact points and normals
    bool showClock = true;     // simulated and real time
    bool showEnergy = true;    // the energy bar over the simulation
    bool showTrails = false;
    bool showNames = true;
    bool lightBackground = false;
    int trailLength = 120;       // frames of history per body (short 60, long 600)
    float forceScale = 0.5f;     // metres of arrow per newton
    double peOffset = 0;         // added to potential energy in the graphs (myPhysicsLab's offset)
    bool showMomentum = false;   // momentum and angular momentum in the energy bar
    bool showVelocities = false; // each moving body's velocity as an arrow
    bool showCentreOfMass = false; // the moving bodies' centre of mass and its velocity
    bool showRuler = false;        // the ruler (M), ruler.h
    bool showStopwatch = false;    // the stopwatch window, stopwatch.h
    bool showHint = true;          // the first-start hint, until the first click or key
    // Panels.
    bool showUi = true; // Tab hides every panel
    bool showControls = true;
    bool showGraphs = true;
    bool showHelp = false;
    bool showStats = true;
    bool showProfile = false; // the step's stages timed (profile_window.cpp)
};

} // namespace app
