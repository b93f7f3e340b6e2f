#include "collision/body_grid.h"
#include "tuning.h"

#include <algorithm>
#include <cmath>

namespace carom {
namespace {

// The cell index of coordinate x, clamped to 32 bits (far cells share indices: a superset still).
std::int64_t cellIndex(double x, double cell) {
    const double i = std::floor(x / cell);
    return static_cast<std::int64_t>(std::fmax(-2147483648.0, std::fmin(i, 2147483647.0)));
}

} // namespace

BodyGrid::BodyGrid(std::size_t bodies, double cell)
    : cell_(cell), seen_(bodies, 0), listed_(bodies, Listed::Nowhere), cellsOf_(bodies) {}

bool BodyGrid::cellsOf(const Aabb& box, Cells& r) const {
    const double across = (std::floor(box.hi.x / cell_) - std::floor(box.lo.x / cell_) + 1) *
                          (std::floor(box.hi.y / cell_) - std::floor(box.lo.y / cell_) + 1);
    if (!(across <= kBodyGridMaxCells)) return false; // NaN too
    r = Cells{cellIndex(box.lo.x, cell_), cellIndex(box.lo.y, cell_), cellIndex(box.hi.x, cell_),
              cellIndex(box.hi.y, cell_)};
    return true;
}

void BodyGrid::insert(BodyId id, const Aabb& box) {
    if (listed_[id] == Listed::Everywhere) return;
    Cells r;
    bool fits = cellsOf(box, r);
    const bool before = listed_[id] == Listed::InCells;
    const Cells old = cellsOf_[id];
    if (fits && before) { // the rectangle over the old cells and the new box's
        r = Cells{std::min(r.x0, old.x0), std::min(r.y0, old.y0), std::max(r.x1, old.x1),
                  std::max(r.y1, old.y1)};
        fits = double(r.x1 - r.x0 + 1) * double(r.y1 - r.y0 + 1) <= kBodyGridMaxCells;
    }
    if (!fits) { // its old cells may keep it: a query reports it once
        everywhere_.push_back(id);
        listed_[id] = Listed::Everywhere;
        return;
    }
    for (std::int64_t x = r.x0; x <= r.x1; ++x)
        for (std::int64_t y = r.y0; y <= r.y1; ++y)
            if (!before || !old.covers(x, y)) cells_[key(x, y)].push_back(id);
    listed_[id] = Listed::InCells;
    cellsOf_[id] = r;
}

} // namespace carom
