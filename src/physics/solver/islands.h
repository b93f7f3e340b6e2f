// Islands: the sets of bodies that contacts join, one to another (Box2D's islands). A body the
// caller says joins nothing (a static one: the substep solver counts a kinematic body as joining,
// since its substeps move it) is in no other body's island: a box standing on a shelf is in its
// own, whatever else stands on the shelf. Bodies in different islands share no contact, so a solver
// may take them one island at a time, in any order, and each body sees the same operations as when
// it takes them all together.
//
// Union-find (Tarjan, "Efficiency of a Good But Not Linear Set Union Algorithm", 1975) with path
// halving; each island is named by its lowest body id.
#pragma once

#include <cstddef>
#include <cstdint>
#include <numeric>
#include <vector>

namespace carom {

// Each body's island, named by its lowest body id; contacts: manifolds, or anything else naming
// two bodies a and b; joins(id): whether body id joins the bodies it touches.
template <class Contacts, class Joins>
std::vector<std::uint32_t> islands(const Contacts& contacts, std::size_t bodies, Joins joins) {
    std::vector<std::uint32_t> parent(bodies);
    std::iota(parent.begin(), parent.end(), std::uint32_t{0});
    // Every parent is lower than its child: the root of a set is its lowest id.
    auto root = [&](std::uint32_t x) {
        while (parent[x] != x)
            x = parent[x] = parent[parent[x]];
        return x;
    };
    for (const auto& m : contacts)
        if (joins(m.a) && joins(m.b)) {
            const std::uint32_t a = root(static_cast<std::uint32_t>(m.a));
            const std::uint32_t b = root(static_cast<std::uint32_t>(m.b));
            if (a < b) parent[b] = a;
            if (b < a) parent[a] = b;
        }
    // In increasing order, each parent already points at its root.
    for (std::uint32_t i = 0; i < bodies; ++i)
        parent[i] = parent[parent[i]];
    return parent;
}

} // namespace carom
