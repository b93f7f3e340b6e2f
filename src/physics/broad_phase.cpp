#include "broad_phase.h"

#include "counting_sort.h"

#include <algorithm>
#include <numeric>

namespace carom {

Aabb boundingBox(const Body& b, double margin) {
    Aabb box;
    if (b.shape.type() == ShapeType::Circle) {
        Vec2 r{b.shape.radius(), b.shape.radius()};
        box = Aabb{b.xf.p - r, b.xf.p + r};
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

// The order of the last sweep, kept between steps (per thread): bodies move little in a step, so
// it is nearly sorted already.
std::vector<BodyId>& lastOrder() {
    static thread_local std::vector<BodyId> order;
    return order;
}

// Sorts `order` by the boxes' left edges. Starting from the last step's order, insertion sort
// takes O(n + moves); if the order is far from sorted (a new world) it gives up for std::sort.
void sortByLeftEdge(const std::vector<Aabb>& boxes, std::vector<BodyId>& order) {
    const std::size_t n = boxes.size();
    auto less = [&](BodyId i, BodyId j) { return boxes[i].lo.x < boxes[j].lo.x; };
    if (order.size() != n) {
        order.resize(n);
        std::iota(order.begin(), order.end(), BodyId{0});
    }
    std::size_t moves = 0;
    for (std::size_t k = 1; k < n && moves <= 8 * n; ++k) {
        const BodyId id = order[k];
        std::size_t m = k;
        for (; m > 0 && less(id, order[m - 1]); --m, ++moves)
            order[m] = order[m - 1];
        order[m] = id;
    }
    if (moves > 8 * n) std::sort(order.begin(), order.end(), less);
}

} // namespace

void findPairs(const std::vector<Body>& bodies, const std::vector<double>& margins,
               std::vector<BodyPair>& pairs) {
    pairs.clear();
    const std::size_t n = bodies.size();
    std::vector<Aabb> boxes(n);
    for (std::size_t i = 0; i < n; ++i)
        boxes[i] = boundingBox(bodies[i], margins[i]);
    sortByLeftEdge(boxes, lastOrder());
    // The boxes in that order, side by side in memory for the sweep.
    struct Entry {
        Aabb box;
        BodyId id;
        bool dynamic;
    };
    const std::vector<BodyId>& order = lastOrder();
    std::vector<Entry> sorted(n);
    for (std::size_t k = 0; k < n; ++k)
        sorted[k] = Entry{boxes[order[k]], order[k], bodies[order[k]].isDynamic()};
    for (std::size_t k = 0; k < n; ++k) {
        const Entry& p = sorted[k];
        for (std::size_t m = k + 1; m < n; ++m) {
            const Entry& q = sorted[m];
            if (q.box.lo.x > p.box.hi.x) break; // sorted: no later box reaches back
            if (q.box.lo.y > p.box.hi.y || p.box.lo.y > q.box.hi.y) continue;
            if (!p.dynamic && !q.dynamic) continue;
            pairs.push_back(BodyPair{std::min(p.id, q.id), std::max(p.id, q.id)});
        }
    }
    // By (a, b): by b, then (stably) by a.
    pairs = countingSort(pairs, n, [](const BodyPair& p) { return p.b; });
    pairs = countingSort(pairs, n, [](const BodyPair& p) { return p.a; });
}

} // namespace carom
