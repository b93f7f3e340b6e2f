// Doubles side by side, for solving independent constraints at once (SIMD lanes, as in Box2D v3's
// contact_solver.c). GCC/Clang vector extensions: arithmetic and comparisons act lane by lane, in
// the same IEEE operations as the scalar code, so a lane's result is the scalar result to the last
// bit (no reassociation, no fused multiply-add), whatever the number of lanes.
//
// Four lanes (Wide, Mask): the contact solver's, and the substep solver's on most processors; eight
// (Lanes<8>): the substep solver's where the processor has AVX-512 (substep_lanes.h). The
// constraints of a group share no moving body, so the number of lanes decides how many are solved
// side by side, never the result.
//
// Everything here is a template or has internal linkage: substep_lanes_avx512.cpp compiles these
// for AVX-512, and no copy of its own may stand in for another file's.
#pragma once

namespace carom {

template <int N> struct Lanes;
template <> struct Lanes<4> {
    using Wide = double __attribute__((vector_size(32), aligned(32)));
    using Mask = decltype(Wide{} < Wide{}); // per lane: all ones (true) or zero
};
template <> struct Lanes<8> {
    using Wide = double __attribute__((vector_size(64), aligned(64)));
    using Mask = decltype(Wide{} < Wide{});
};
using Wide = Lanes<4>::Wide;
using Mask = Lanes<4>::Mask;
// One body's state as the solvers keep it: four doubles, one vector load.
using Quad = Lanes<4>::Wide;

template <class W = Wide> [[gnu::always_inline]] inline W splat(double x) {
    return W{} + x;
}
template <class M, class W> [[gnu::always_inline]] inline W select(M m, W a, W b) {
    return m ? a : b;
}
// std::max(x, 0.0) and std::clamp(x, lo, hi), lane by lane, with their exact tie rules.
template <class W> [[gnu::always_inline]] inline W maxZero(W x) {
    return select(x < splat<W>(0), splat<W>(0), x);
}
template <class W> [[gnu::always_inline]] inline W clamp(W x, W lo, W hi) {
    return select(x < lo, lo, select(hi < x, hi, x));
}
template <class W> [[gnu::always_inline]] inline W maxWide(W a, W b) {
    return select(a < b, b, a);
}
template <class M> [[gnu::always_inline]] inline bool anyLane(const M& m) {
    bool any = false;
    for (unsigned l = 0; l < sizeof(M) / sizeof(m[0]); ++l)
        any = any | (m[l] != 0);
    return any;
}

// Rows to columns, four by four: out[j][i] = in[i][j].
[[gnu::always_inline]] static inline void transpose(const Quad in[4], Quad out[4]) {
    const Quad t0 = __builtin_shufflevector(in[0], in[1], 0, 4, 2, 6);
    const Quad t1 = __builtin_shufflevector(in[0], in[1], 1, 5, 3, 7);
    const Quad t2 = __builtin_shufflevector(in[2], in[3], 0, 4, 2, 6);
    const Quad t3 = __builtin_shufflevector(in[2], in[3], 1, 5, 3, 7);
    out[0] = __builtin_shufflevector(t0, t2, 0, 1, 4, 5);
    out[1] = __builtin_shufflevector(t1, t3, 0, 1, 4, 5);
    out[2] = __builtin_shufflevector(t0, t2, 2, 3, 6, 7);
    out[3] = __builtin_shufflevector(t1, t3, 2, 3, 6, 7);
}
// The same in each half of eight lanes: rows l and l + 4 side by side in in[l].
[[gnu::always_inline]] static inline void transposeHalves(const Lanes<8>::Wide in[4],
                                                          Lanes<8>::Wide out[4]) {
    using W = Lanes<8>::Wide;
    const W t0 = __builtin_shufflevector(in[0], in[1], 0, 8, 2, 10, 4, 12, 6, 14);
    const W t1 = __builtin_shufflevector(in[0], in[1], 1, 9, 3, 11, 5, 13, 7, 15);
    const W t2 = __builtin_shufflevector(in[2], in[3], 0, 8, 2, 10, 4, 12, 6, 14);
    const W t3 = __builtin_shufflevector(in[2], in[3], 1, 9, 3, 11, 5, 13, 7, 15);
    out[0] = __builtin_shufflevector(t0, t2, 0, 1, 8, 9, 4, 5, 12, 13);
    out[1] = __builtin_shufflevector(t1, t3, 0, 1, 8, 9, 4, 5, 12, 13);
    out[2] = __builtin_shufflevector(t0, t2, 2, 3, 10, 11, 6, 7, 14, 15);
    out[3] = __builtin_shufflevector(t1, t3, 2, 3, 10, 11, 6, 7, 14, 15);
}

// N bodies' states (a row each) into one vector per quantity with a lane per body, and back
// (Box2D v3's b2GatherBodies and b2ScatterBodies).
template <int N>
[[gnu::always_inline]] inline void rowsToLanes(const Quad in[N], typename Lanes<N>::Wide out[4]) {
    if constexpr (N == 4) {
        transpose(in, out);
    } else {
        static_assert(N == 8);
        Lanes<8>::Wide pairs[4];
        for (int l = 0; l < 4; ++l)
            pairs[l] = __builtin_shufflevector(in[l], in[l + 4], 0, 1, 2, 3, 4, 5, 6, 7);
        transposeHalves(pairs, out);
    }
}
template <int N>
[[gnu::always_inline]] inline void lanesToRows(const typename Lanes<N>::Wide in[4], Quad out[N]) {
    if constexpr (N == 4) {
        transpose(in, out);
    } else {
        static_assert(N == 8);
        Lanes<8>::Wide pairs[4];
        transposeHalves(in, pairs);
        for (int l = 0; l < 4; ++l) {
            out[l] = __builtin_shufflevector(pairs[l], pairs[l], 0, 1, 2, 3);
            out[l + 4] = __builtin_shufflevector(pairs[l], pairs[l], 4, 5, 6, 7);
        }
    }
}

// applyImpulse (contact_math.h) for the solvers' lanes: bodies with vx, vy, w, invMass and
// invInertia in lanes, points with anchors rAx, rAy, rBx, rBy.
template <class WideBody, class WidePoint, class W>
[[gnu::always_inline]] inline void applyImpulseLanes(WideBody& A, WideBody& B, const WidePoint& p,
                                                     W Px, W Py) {
    A.vx = A.vx - A.invMass * Px;
    A.vy = A.vy - A.invMass * Py;
    A.w = A.w - A.invInertia * (p.rAx * Py - p.rAy * Px);
    B.vx = B.vx + B.invMass * Px;
    B.vy = B.vy + B.invMass * Py;
    B.w = B.w + B.invInertia * (p.rBx * Py - p.rBy * Px);
}

} // namespace carom
