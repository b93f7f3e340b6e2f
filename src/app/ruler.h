// The ruler (issue 44, "see the physics", a tape measure as PhET's and Algodoo's): two ends in the
// world, each dragged by the mouse (the tape between them moves both), and what it reads: the
// length, its x and y parts and its angle. The geometry has no SDL or ImGui drawing
// (tests/measure_tools_test.cpp); drawRuler draws it.
#pragma once

#include "carom/math.h"

#include <string>

struct ImDrawList;

namespace app {

struct Camera;

struct Ruler {
    carom::Vec2 a{0, 0}, b{0, 0};
    bool placed = false;
    enum class Part { None, A, B, Tape };
    Part held = Part::None;
    carom::Vec2 cursor{0, 0}; // the cursor's world point at the last move of a held part
};

// Across the middle of a view `width` metres wide centred on `centre`: as long as the round length
// (1, 2 or 5 × 10^k m) nearest below a third of the width, its ends at whole multiples of a tenth
// of that.
void placeRuler(Ruler& r, carom::Vec2 centre, double width);
// The part at the world point p: an end within `grab` metres of it (the nearer), else the tape
// within `grab`, else None.
Ruler::Part rulerPartAt(const Ruler& r, carom::Vec2 p, double grab);
// A held part follows the cursor's world point: an end goes to it, the tape moves by its motion.
void dragRuler(Ruler& r, carom::Vec2 cursor);
// "2.000 m   Δx 2.000 m, Δy 0.000 m, 0.0°" (the angle from +x, counter-clockwise, in (−180, 180]).
std::string rulerReading(const Ruler& r);
void drawRuler(const Ruler& r, const Camera& cam, ImDrawList* dl);

} // namespace app
