// Checks of public inputs where they enter the engine: a bad value throws std::invalid_argument
// naming the field and the value ("radius: must be > 0, got -1"). Internal to the engine.
#pragma once

#include "carom/math.h"
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

namespace carom {

// A double in full (17 significant digits), for messages.
inline std::string str(double x) {
    std::ostringstream s;
    s.precision(17);
    s << x;
    return s.str();
}

inline void requireFinite(const char* what, double x) {
    if (!std::isfinite(x)) throw std::invalid_argument(std::string(what) + ": must be finite");
}

inline void requireFinite(const char* what, Vec2 v) {
    if (!isFinite(v)) throw std::invalid_argument(std::string(what) + ": must be finite");
}

// Finite and at most kMaxMagnitude in size.
inline void requireSize(const char* what, double x) {
    requireFinite(what, x);
    if (std::abs(x) > kMaxMagnitude)
        throw std::invalid_argument(std::string(what) + ": must be at most 1e12 in size, got " +
                                    str(x));
}

inline void requireSize(const char* what, Vec2 v) {
    requireSize(what, v.x);
    requireSize(what, v.y);
}

inline void requirePositive(const char* what, double x) {
    if (!std::isfinite(x) || x <= 0)
        throw std::invalid_argument(std::string(what) + ": must be > 0, got " + str(x));
}

} // namespace carom
