// Four doubles side by side, for solving four independent constraints at once (SIMD lanes, as in
// Box2D v3's contact_solver.c). GCC/Clang vector extensions: arithmetic and comparisons act lane
// by lane, in the same IEEE operations as the scalar code, so a lane's result is the scalar
// result to the last bit (no reassociation, no fused multiply-add).
#pragma once

namespace carom {

using Wide = double __attribute__((vector_size(32), aligned(32)));
using Mask = long long __attribute__((vector_size(32), aligned(32))); // per lane: all ones (true) or zero

inline Wide splat(double x) {
    return Wide{x, x, x, x};
}
inline Wide select(Mask m, Wide a, Wide b) {
    return m ? a : b;
}
// std::max(x, 0.0) and std::clamp(x, lo, hi), lane by lane, with their exact tie rules.
inline Wide maxZero(Wide x) {
    return select(x < splat(0), splat(0), x);
}
inline Wide clamp(Wide x, Wide lo, Wide hi) {
    return select(x < lo, lo, select(hi < x, hi, x));
}

} // namespace carom
