#include "collision/broad_phase.h"
#include "tuning.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>

namespace carom {

Aabb boundingBox(const Shape& shape, const Transform& x, double margin) {
    Aabb box;
    if (shape.type() == ShapeType::Circle) {
        Vec2 r{shape.radius(), shape.radius()};
        box = Aabb{x.p - r, x.p + r};
    } else if (shape.type() == ShapeType::Box) {
        // A rotated box's half extents are |R| h (Ericson §4.2.6). The same bits as the extreme
        // corners': each corner's offset is ±|c| hx ± |s| hy (and so on), every product is exact
        // up to its sign, and rounding keeps the order of the sums.
        const double hx = shape.width() / 2, hy = shape.height() / 2;
        const double c = std::abs(x.q.c), s = std::abs(x.q.s);
        const Vec2 e{c * hx + s * hy, s * hx + c * hy};
        box = Aabb{x.p - e, x.p + e};
    } else {
        box.lo = box.hi = x.apply(shape.vertices()[0]);
        for (Vec2 v : shape.vertices()) {
            Vec2 p = x.apply(v);
            box.lo = glm::min(box.lo, p);
            box.hi = glm::max(box.hi, p);
        }
        const double r = shape.radius(); // a capsule's rounding about its core; 0 otherwise
        box.lo -= Vec2{r, r};
        box.hi += Vec2{r, r};
    }
    box.lo -= Vec2{margin, margin};
    box.hi += Vec2{margin, margin};
    return box;
}

Aabb boundingBox(const Body& b, double margin) {
    Aabb box = boundingBox(b.shapes[0].shape, b.shapeXf(0), margin);
    for (std::size_t i = 1; i < b.shapes.size(); ++i) {
        const Aabb more = boundingBox(b.shapes[i].shape, b.shapeXf(i), margin);
        box.lo = glm::min(box.lo, more.lo);
        box.hi = glm::max(box.hi, more.hi);
    }
    return box;
}

namespace {

// A uniform grid over the boxes (Ericson §7.1): each box is entered in the cells it covers, and
// two boxes are compared where they share a cell. A pair sharing several cells is reported only in
// the cell holding the lower-left corner of their overlap, which both cover. Boxes covering more
// than kBroadPhaseMaxCells cells along an axis (a ground, a wall), or with non-finite bounds, are
// compared with every other box instead.

struct Cell {
    std::int64_t x, y;
    bool operator==(const Cell& o) const { return x == o.x && y == o.y; }
};

// The cells a box covers, lo to hi inclusive.
struct CellRange {
    Cell lo, hi;
};

struct Grid {
    double perCell = 1; // 1 / cell width, 1/m
    // Finite, and a cell index that fits in 64 bits and is still exact in a double (2⁵³ ≈ 9e15).
    static constexpr double kMaxIndex = 1e15;
    bool indexable(Vec2 p) const {
        return std::abs(p.x * perCell) < kMaxIndex && std::abs(p.y * perCell) < kMaxIndex;
    }
    // Monotonic in p, which is all the grid needs: a box lo ≤ p ≤ hi is in the cells from
    // cellOf(lo) to cellOf(hi).
    Cell cellOf(Vec2 p) const {
        return {std::int64_t(std::floor(p.x * perCell)), std::int64_t(std::floor(p.y * perCell))};
    }
};

// The buckets of the cells: a power of two, indexed by the top bits of a multiplicative hash
// (Knuth, TAOCP vol. 3, §6.4, "Fibonacci hashing").
struct Buckets {
    int shift = 64; // 64 − log2(count)
    std::size_t count() const { return std::size_t{1} << (64 - shift); }
    std::size_t of(const Cell& c) const {
        const std::uint64_t h =
            std::uint64_t(c.x) * 0x9E3779B97F4A7C15ull ^ std::uint64_t(c.y) * 0xC2B2AE3D27D4EB4Full;
        return shift == 64 ? 0 : std::size_t(h >> shift);
    }
};

// The cell size: twice the median size of the moving bodies' boxes (of all of them if none
// moves), so most cover one to four.
double cellSize(const std::vector<Body>& bodies, const std::vector<Aabb>& boxes,
                std::vector<double>& sizes) {
    for (bool movingOnly : {true, false}) {
        sizes.clear();
        for (std::size_t i = 0; i < boxes.size(); ++i) {
            const Vec2 d = boxes[i].hi - boxes[i].lo;
            if ((bodies[i].isDynamic() || !movingOnly) && std::isfinite(d.x) && std::isfinite(d.y))
                sizes.push_back(std::max(d.x, d.y));
        }
        if (sizes.empty()) continue;
        std::nth_element(sizes.begin(), sizes.begin() + sizes.size() / 2, sizes.end());
        const double median = sizes[sizes.size() / 2];
        return median > 0 ? 2 * median : 1;
    }
    return 1; // no finite box: every box is compared with every other
}

struct Entry {
    Cell cell;
    BodyId id;
};

// Every pair of overlapping boxes, moving bodies or not, in increasing order (a < b).
void gridPairs(const std::vector<Body>& bodies, const std::vector<Aabb>& boxes,
               std::vector<BodyPair>& pairs) {
    // Scratch kept from step to step: a large scene's arrays are not allocated anew each step.
    static thread_local std::vector<double> sizes;
    static thread_local std::vector<char> isLarge;
    static thread_local std::vector<CellRange> cells;
    static thread_local std::vector<BodyId> large;
    static thread_local std::vector<std::size_t> first;  // where each bucket's entries begin
    static thread_local std::vector<Entry> entries;      // by bucket, each bucket by body
    static thread_local std::vector<std::size_t> cursor; // each bucket's first entry after body i
    pairs.clear();
    const std::size_t n = boxes.size();
    Grid grid;
    grid.perCell = 1 / cellSize(bodies, boxes, sizes);

    // The cells each box covers; the large boxes aside.
    cells.resize(n);
    isLarge.assign(n, false);
    large.clear();
    std::size_t covered = 0;
    for (BodyId i = 0; i < n; ++i) {
        const Aabb& b = boxes[i];
        const bool finite = grid.indexable(b.lo) && grid.indexable(b.hi);
        const CellRange r = finite ? CellRange{grid.cellOf(b.lo), grid.cellOf(b.hi)} : CellRange{};
        if (!finite || r.hi.x - r.lo.x >= kBroadPhaseMaxCells ||
            r.hi.y - r.lo.y >= kBroadPhaseMaxCells) {
            isLarge[i] = true;
            large.push_back(i);
            continue;
        }
        cells[i] = r;
        covered += (r.hi.x - r.lo.x + 1) * (r.hi.y - r.lo.y + 1);
    }

    // The entries (cell, body) by bucket (a counting sort; Cormen et al. §8.2), at least twice
    // as many buckets as entries; within a bucket, by body.
    Buckets buckets;
    while (buckets.count() < 2 * covered + 1)
        --buckets.shift;
    auto eachCell = [&](BodyId i, auto visit) {
        for (std::int64_t x = cells[i].lo.x; x <= cells[i].hi.x; ++x)
            for (std::int64_t y = cells[i].lo.y; y <= cells[i].hi.y; ++y)
                visit(Cell{x, y});
    };
    first.assign(buckets.count() + 1, 0);
    for (BodyId i = 0; i < n; ++i)
        if (!isLarge[i]) eachCell(i, [&](Cell c) { ++first[buckets.of(c) + 1]; });
    std::partial_sum(first.begin(), first.end(), first.begin());
    entries.resize(covered);
    for (BodyId i = 0; i < n; ++i)
        if (!isLarge[i])
            eachCell(i, [&](Cell c) { entries[first[buckets.of(c)]++] = Entry{c, i}; });
    // Each bucket's start moved to its end, which is the next one's start.
    std::copy_backward(first.begin(), first.end() - 1, first.end());
    first[0] = 0;
    cursor.assign(first.begin(), first.end() - 1);

    // Body by body, its pairs with the bodies after it, then sorted by the second body: the pairs
    // come out by (a, b). A small box meets the small ones in the cells it covers and the large
    // ones after it; a large box, every box after it.
    auto report = [&](BodyId a, BodyId b) { pairs.push_back(BodyPair{a, b}); };
    auto nextLarge = large.begin();
    for (BodyId i = 0; i < n; ++i) {
        const std::size_t group = pairs.size();
        if (isLarge[i]) {
            ++nextLarge;
            for (BodyId j = i + 1; j < n; ++j)
                if (overlap(boxes[i], boxes[j])) report(i, j);
            continue;
        }
        eachCell(i, [&](Cell c) {
            const std::size_t k = buckets.of(c);
            // The bucket's entries of bodies up to i are behind it: its cursor passes them once.
            std::size_t& e0 = cursor[k];
            while (e0 < first[k + 1] && entries[e0].id <= i)
                ++e0;
            for (std::size_t e = e0; e < first[k + 1]; ++e) {
                const Entry& f = entries[e];
                if (!(f.cell == c) || !overlap(boxes[i], boxes[f.id])) continue;
                const Cell corner{std::max(cells[i].lo.x, cells[f.id].lo.x),
                                  std::max(cells[i].lo.y, cells[f.id].lo.y)};
                if (corner == c) report(i, f.id);
            }
        });
        for (auto j = nextLarge; j != large.end(); ++j)
            if (overlap(boxes[i], boxes[*j])) report(i, *j);
        std::sort(pairs.begin() + group, pairs.end(),
                  [](const BodyPair& p, const BodyPair& q) { return p.b < q.b; });
    }
}

// Boxes grown beyond what the step needs (Box2D's fat AABBs, b2_aabbMargin), and every pair of
// them that overlaps, kept from call to call. While each body's box lies inside its fat box, the
// pairs whose boxes overlap are among the fat boxes' pairs: the search is a filter over those,
// without the grid. A body that leaves its fat box has all of them found again. Nothing in this
// depends on which world asked: it holds for any boxes inside the fat ones.
struct FatBoxes {
    std::vector<Aabb> boxes;
    std::vector<BodyPair> pairs;

    bool hold(const std::vector<Aabb>& tight) const {
        if (tight.size() != boxes.size()) return false;
        for (std::size_t i = 0; i < tight.size(); ++i)
            if (!(boxes[i].lo.x <= tight[i].lo.x && boxes[i].lo.y <= tight[i].lo.y &&
                  tight[i].hi.x <= boxes[i].hi.x && tight[i].hi.y <= boxes[i].hi.y))
                return false; // also for a NaN bound
        return true;
    }

    // Each box grown by its margin again (a body moving as it does now stays inside for a step
    // more) and by a tenth of its body's size (a body at rest, or slowing, for many steps).
    void grow(const std::vector<Body>& bodies, const std::vector<double>& margins,
              const std::vector<Aabb>& tight) {
        boxes.resize(tight.size());
        for (std::size_t i = 0; i < tight.size(); ++i) {
            const double fat = margins[i] + kFatFraction * bodies[i].boundingRadius();
            boxes[i] = Aabb{tight[i].lo - Vec2{fat, fat}, tight[i].hi + Vec2{fat, fat}};
        }
        gridPairs(bodies, boxes, pairs);
    }
};

} // namespace

void findPairs(const std::vector<Body>& bodies, const std::vector<double>& margins,
               std::vector<BodyPair>& pairs) {
    static thread_local std::vector<Aabb> tight;
    static thread_local std::vector<char> moving;
    static thread_local FatBoxes fat;
    tight.resize(bodies.size());
    moving.resize(bodies.size());
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        tight[i] = boundingBox(bodies[i], margins[i]);
        moving[i] = bodies[i].isDynamic();
    }
    if (!fat.hold(tight)) fat.grow(bodies, margins, tight);
    pairs.clear();
    for (const BodyPair& p : fat.pairs)
        if ((moving[p.a] || moving[p.b]) && overlap(tight[p.a], tight[p.b]) &&
            !sameGroup(bodies[p.a], bodies[p.b]))
            pairs.push_back(p);
}

} // namespace carom
