#include "collision/body_grid.h"
#include "tuning.h"

#include <cmath>

namespace carom {
namespace {

// The cell index of coordinate x, clamped to 32 bits (far cells share indices: a superset still).
std::int64_t cellIndex(double x, double cell) {
    const double i = std::floor(x / cell);
    return static_cast<std::int64_t>(std::fmax(-2147483648.0, std::fmin(i, 2147483647.0)));
}

} // namespace

BodyGrid::BodyGrid(std::size_t bodies, double cell) : cell_(cell), seen_(bodies, 0) {}

bool BodyGrid::cellsOf(const Aabb& box, Cells& r) const {
    const double across = (std::floor(box.hi.x / cell_) - std::floor(box.lo.x / cell_) + 1) *
                          (std::floor(box.hi.y / cell_) - std::floor(box.lo.y / cell_) + 1);
    if (!(across <= kBodyGridMaxCells)) return false; // NaN too
    r = Cells{cellIndex(box.lo.x, cell_), cellIndex(box.lo.y, cell_), cellIndex(box.hi.x, cell_),
              cellIndex(box.hi.y, cell_)};
    return true;
}

void BodyGrid::insert(BodyId id, const Aabb& box) {
    Cells r;
    if (!cellsOf(box, r)) {
        everywhere_.push_back(id);
        return;
    }
    for (std::int64_t x = r.x0; x <= r.x1; ++x)
        for (std::int64_t y = r.y0; y <= r.y1; ++y)
            cells_[key(x, y)].push_back(id);
}

} // namespace carom
