// Graph colouring of contact constraints (Box2D v3's constraint graph, constraint_graph.c): each
// constraint takes the first colour in which neither of its moving bodies has a constraint yet,
// so the constraints of one colour share no moving body and can be solved side by side, in SIMD
// lanes, colours one after another. Static and kinematic bodies, which no contact moves, do not
// count. A bit per colour and body; a body in more than 64 constraints sends the rest to colours
// past 64, one after another per body (waves).
#pragma once

#include "carom/world.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace carom {

// Each contact's colour, and the number of colours in `count`; contacts: manifolds, or anything
// else naming two bodies a and b; moves(id): whether contacts move body id.
template <class Contacts, class Moves>
std::vector<std::uint32_t> colours(const Contacts& contacts, std::size_t bodies, Moves moves,
                                   std::size_t& count) {
    std::vector<std::uint64_t> used(bodies, 0);
    std::vector<std::uint32_t> wave(bodies, 64), colour(contacts.size());
    count = 0;
    for (std::size_t j = 0; j < contacts.size(); ++j) {
        const auto& m = contacts[j];
        const bool movesA = moves(m.a), movesB = moves(m.b);
        const std::uint64_t taken = (movesA ? used[m.a] : 0) | (movesB ? used[m.b] : 0);
        std::uint32_t c;
        if (~taken != 0) {
            c = static_cast<std::uint32_t>(__builtin_ctzll(~taken));
            if (movesA) used[m.a] |= std::uint64_t{1} << c;
            if (movesB) used[m.b] |= std::uint64_t{1} << c;
        } else {
            c = std::max(movesA ? wave[m.a] : 64, movesB ? wave[m.b] : 64);
            if (movesA) wave[m.a] = c + 1;
            if (movesB) wave[m.b] = c + 1;
        }
        colour[j] = c;
        count = std::max<std::size_t>(count, c + 1);
    }
    return colour;
}

} // namespace carom
