#include "broad_phase.h"

#include "counting_sort.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>

namespace carom {

Aabb boundingBox(const Body& b, double margin) {
    Aabb box;
    if (b.shape.type() == ShapeType::Circle) {
        Vec2 r{b.shape.radius(), b.shape.radius()};
        box = Aabb{b.xf().p - r, b.xf().p + r};
    } else {
        box.lo = box.hi = b.worldPoint(b.shape.vertices()[0]);
        for (Vec2 v : b.shape.vertices()) {
            Vec2 p = b.worldPoint(v);
            box.lo = glm::min(box.lo, p);
            box.hi = glm::max(box.hi, p);
        }
    }
    box.lo -= Vec2{margin, margin};
    box.hi += Vec2{margin, margin};
    return box;
}

namespace {

bool overlap(const Aabb& a, const Aabb& b) {
    return a.lo.x <= b.hi.x && b.lo.x <= a.hi.x && a.lo.y <= b.hi.y && b.lo.y <= a.hi.y;
}

// A uniform grid over the boxes (Ericson §7.1): each box is entered in the cells it covers, and
// two boxes are compared where they share a cell. A pair sharing several cells is reported only in
// the cell holding the lower-left corner of their overlap, which both cover. Boxes covering more
// than kMaxCells cells along an axis (a ground, a wall), or with non-finite bounds, are compared
// with every other box instead.
constexpr std::int64_t kMaxCells = 4;

struct Cell {
    std::int64_t x, y;
    bool operator==(const Cell& o) const { return x == o.x && y == o.y; }
};

struct Grid {
    double size = 1; // cell width, m
    // Finite, and a cell index that fits in 64 bits and is still exact in a double (2⁵³ ≈ 9e15).
    static constexpr double kMaxIndex = 1e15;
    bool indexable(Vec2 p) const {
        return std::abs(p.x / size) < kMaxIndex && std::abs(p.y / size) < kMaxIndex;
    }
    Cell cellOf(Vec2 p) const {
        return {std::int64_t(std::floor(p.x / size)), std::int64_t(std::floor(p.y / size))};
    }
    std::size_t bucketOf(const Cell& c, std::size_t buckets) const {
        const std::uint64_t h = std::uint64_t(c.x) * 0x9E3779B97F4A7C15ull ^
                                std::uint64_t(c.y) * 0xC2B2AE3D27D4EB4Full;
        return std::size_t((h >> 17) % buckets);
    }
};

// The cell size: twice the median size of the moving bodies' boxes, so most cover one to four.
double cellSize(const std::vector<Aabb>& boxes, const std::vector<Body>& bodies) {
    std::vector<double> sizes;
    for (std::size_t i = 0; i < boxes.size(); ++i) {
        const Vec2 d = boxes[i].hi - boxes[i].lo;
        if (bodies[i].isDynamic() && std::isfinite(d.x) && std::isfinite(d.y))
            sizes.push_back(std::max(d.x, d.y));
    }
    if (sizes.empty()) return 0;
    std::nth_element(sizes.begin(), sizes.begin() + sizes.size() / 2, sizes.end());
    const double median = sizes[sizes.size() / 2];
    return median > 0 ? 2 * median : 1;
}

struct Entry {
    Cell cell;
    BodyId id;
};

} // namespace

void findPairs(const std::vector<Body>& bodies, const std::vector<double>& margins,
               std::vector<BodyPair>& pairs) {
    pairs.clear();
    const std::size_t n = bodies.size();
    std::vector<Aabb> boxes(n);
    for (std::size_t i = 0; i < n; ++i)
        boxes[i] = boundingBox(bodies[i], margins[i]);
    Grid grid;
    grid.size = cellSize(boxes, bodies);
    if (grid.size == 0) return; // nothing moves: no pair to report
    auto report = [&](BodyId a, BodyId b) {
        if (bodies[a].isDynamic() || bodies[b].isDynamic())
            pairs.push_back(BodyPair{std::min(a, b), std::max(a, b)});
    };

    // Each small box into the cells it covers; the large ones aside.
    std::vector<Entry> entries;
    std::vector<BodyId> large;
    for (BodyId i = 0; i < n; ++i) {
        const Aabb& b = boxes[i];
        const bool finite = grid.indexable(b.lo) && grid.indexable(b.hi);
        const Cell lo = finite ? grid.cellOf(b.lo) : Cell{0, 0};
        const Cell hi = finite ? grid.cellOf(b.hi) : Cell{0, 0};
        if (!finite || hi.x - lo.x >= kMaxCells || hi.y - lo.y >= kMaxCells) {
            large.push_back(i);
            continue;
        }
        for (std::int64_t x = lo.x; x <= hi.x; ++x)
            for (std::int64_t y = lo.y; y <= hi.y; ++y)
                entries.push_back(Entry{{x, y}, i});
    }

    // The entries by bucket of their cell (a counting sort), then the pairs within each cell.
    const std::size_t buckets = 2 * entries.size() + 1;
    std::vector<std::size_t> bucket(entries.size());
    for (std::size_t k = 0; k < entries.size(); ++k)
        bucket[k] = grid.bucketOf(entries[k].cell, buckets);
    std::vector<std::size_t> index(entries.size());
    std::iota(index.begin(), index.end(), std::size_t{0});
    index = countingSort(index, buckets, [&](std::size_t k) { return bucket[k]; });
    for (std::size_t first = 0; first < index.size();) {
        std::size_t last = first;
        while (last < index.size() && bucket[index[last]] == bucket[index[first]])
            ++last;
        for (std::size_t p = first; p < last; ++p)
            for (std::size_t q = p + 1; q < last; ++q) {
                const Entry& e = entries[index[p]];
                const Entry& f = entries[index[q]];
                if (!(e.cell == f.cell) || !overlap(boxes[e.id], boxes[f.id])) continue;
                const Vec2 corner = glm::max(boxes[e.id].lo, boxes[f.id].lo);
                if (grid.cellOf(corner) == e.cell) report(e.id, f.id);
            }
        first = last;
    }

    // The large boxes against every other box.
    std::vector<bool> isLarge(n, false);
    for (BodyId i : large)
        isLarge[i] = true;
    for (BodyId i : large)
        for (BodyId j = 0; j < n; ++j)
            if (j != i && (!isLarge[j] || j > i) && overlap(boxes[i], boxes[j])) report(i, j);

    // By (a, b): by b, then (stably) by a.
    pairs = countingSort(pairs, n, [](const BodyPair& p) { return p.b; });
    pairs = countingSort(pairs, n, [](const BodyPair& p) { return p.a; });
}

} // namespace carom
