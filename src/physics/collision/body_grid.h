// Which bodies may be near a box: a uniform grid of the bodies' boxes, hashed by cell (Ericson,
// "Real-Time Collision Detection", §7.1.6), for the flights' new pairs (flight_impacts.cpp). A box
// is listed in every cell it covers; a body inserted again is listed in the cells of the rectangle
// that covers its old cells and its new box, each cell once (its old cells kept), so a query
// reports a superset of the bodies whose boxes overlap: callers test what it reports. (A body
// inserted again at each of its strikes, its old cells listed anew each time, made cells of
// thousands of entries: one step of an elastic crowd took 2 s, 69% of it reading them.)
#pragma once

#include "collision/broad_phase.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace carom {

class BodyGrid {
  public:
    // For bodies 0 .. bodies-1, in cells `cell` metres square.
    BodyGrid(std::size_t bodies, double cell);

    void insert(BodyId id, const Aabb& box);

    // Every body inserted with a box that may overlap `box`, each once, in no particular order.
    template <class F> void query(const Aabb& box, F&& report) {
        ++stamp_;
        auto once = [&](BodyId id) {
            if (seen_[id] == stamp_) return;
            seen_[id] = stamp_;
            report(id);
        };
        for (BodyId id : everywhere_)
            once(id);
        Cells r;
        if (!cellsOf(box, r)) { // a box too large to walk its cells: every body
            for (const auto& kv : cells_)
                for (BodyId id : kv.second)
                    once(id);
            return;
        }
        for (std::int64_t x = r.x0; x <= r.x1; ++x)
            for (std::int64_t y = r.y0; y <= r.y1; ++y) {
                const auto it = cells_.find(key(x, y));
                if (it == cells_.end()) continue;
                for (BodyId id : it->second)
                    once(id);
            }
    }

  private:
    struct Cells {
        std::int64_t x0, y0, x1, y1;
        bool covers(std::int64_t x, std::int64_t y) const {
            return x0 <= x && x <= x1 && y0 <= y && y <= y1;
        }
    };
    // Where a body is listed: nowhere yet, in the cells of a rectangle, or everywhere.
    enum class Listed : std::uint8_t { Nowhere, InCells, Everywhere };
    // The cells a box covers; false if they are more than kBodyGridMaxCells (or the box is not
    // finite).
    bool cellsOf(const Aabb& box, Cells& r) const;
    static std::uint64_t key(std::int64_t x, std::int64_t y) {
        return (std::uint64_t(std::uint32_t(x)) << 32) | std::uint32_t(y);
    }

    double cell_;
    std::unordered_map<std::uint64_t, std::vector<BodyId>> cells_;
    std::vector<BodyId> everywhere_; // bodies whose boxes cover too many cells: in every query
    std::vector<std::uint32_t> seen_;
    std::vector<Listed> listed_; // per body
    std::vector<Cells> cellsOf_; // per body listed in cells: the rectangle of its cells
    std::uint32_t stamp_ = 0;
};

} // namespace carom
