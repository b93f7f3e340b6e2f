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
inline Wide maxWide(Wide a, Wide b) {
    return select(a < b, b, a);
}

// Rows to columns: out[j][i] = in[i][j] (four bodies' states, one per vector, into one vector per
// quantity with a lane per body, and back: Box2D v3's b2GatherBodies and b2ScatterBodies).
[[gnu::always_inline]] inline void transpose(const Wide in[4], Wide out[4]) {
    const Wide t0 = __builtin_shufflevector(in[0], in[1], 0, 4, 2, 6);
    const Wide t1 = __builtin_shufflevector(in[0], in[1], 1, 5, 3, 7);
    const Wide t2 = __builtin_shufflevector(in[2], in[3], 0, 4, 2, 6);
    const Wide t3 = __builtin_shufflevector(in[2], in[3], 1, 5, 3, 7);
    out[0] = __builtin_shufflevector(t0, t2, 0, 1, 4, 5);
    out[1] = __builtin_shufflevector(t1, t3, 0, 1, 4, 5);
    out[2] = __builtin_shufflevector(t0, t2, 2, 3, 6, 7);
    out[3] = __builtin_shufflevector(t1, t3, 2, 3, 6, 7);
}

} // namespace carom
