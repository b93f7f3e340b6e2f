#include "broad_phase.h"

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

void findPairs(const std::vector<Body>& bodies, const std::vector<double>& margins,
               std::vector<BodyPair>& pairs) {
    pairs.clear();
    const std::size_t n = bodies.size();
    std::vector<Aabb> boxes(n);
    for (std::size_t i = 0; i < n; ++i)
        boxes[i] = boundingBox(bodies[i], margins[i]);
    std::vector<BodyId> order(n);
    std::iota(order.begin(), order.end(), BodyId{0});
    std::sort(order.begin(), order.end(),
              [&](BodyId i, BodyId j) { return boxes[i].lo.x < boxes[j].lo.x; });
    for (std::size_t k = 0; k < n; ++k) {
        const BodyId i = order[k];
        for (std::size_t m = k + 1; m < n; ++m) {
            const BodyId j = order[m];
            if (boxes[j].lo.x > boxes[i].hi.x) break; // sorted: no later box reaches back
            if (boxes[j].lo.y > boxes[i].hi.y || boxes[i].lo.y > boxes[j].hi.y) continue;
            if (!bodies[i].isDynamic() && !bodies[j].isDynamic()) continue;
            pairs.push_back(BodyPair{std::min(i, j), std::max(i, j)});
        }
    }
    std::sort(pairs.begin(), pairs.end(), [](const BodyPair& p, const BodyPair& q) {
        return p.a != q.a ? p.a < q.a : p.b < q.b;
    });
}

} // namespace carom
