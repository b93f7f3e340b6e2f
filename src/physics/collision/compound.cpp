// Compound bodies: several shapes in one body, moved together so that their centre of mass is the
// body's origin, and their mass properties summed by the parallel-axis theorem.
#include "carom/body.h"

#include "step/checks.h"
#include "tuning.h"

#include <stdexcept>
#include <string>

namespace carom {

CompoundShapes compoundShapes(const std::vector<BodyShape>& shapes) {
    if (shapes.empty()) throw std::invalid_argument("shapes: need at least one shape");
    double area = 0, extent = 0;
    Vec2 moment{0, 0};
    for (std::size_t i = 0; i < shapes.size(); ++i) {
        const BodyShape& s = shapes[i];
        const std::string at = "shapes/" + std::to_string(i) + "/";
        if (s.shape.type() == ShapeType::Segment)
            throw std::invalid_argument(at + "type: a segment or chain cannot be part of a "
                                             "compound body");
        requireSize((at + "offset").c_str(), s.offset);
        requireSize((at + "angle").c_str(), s.angle);
        const double a = s.shape.massProperties().area;
        area += a;
        moment += a * s.offset;
        extent = std::max(extent, glm::length(s.offset) + s.shape.boundingRadius());
    }
    // The centre of mass of uniform solids: c = Σ A_i c_i / Σ A_i. Shapes already centred (a saved
    // scene) stay exactly where they are, so that files round-trip: a centre within a thousandth
    // of the vertex tolerance is the rounding of one at the origin (as Shape::polygon does).
    Vec2 c = moment / area;
    if (glm::length(c) <= 1e-3 * kVertexTolerance * std::max(extent, kTinyExtent)) c = Vec2{0, 0};
    CompoundShapes out;
    double second = 0; // Σ A_i (k_i + |c_i|²): the second moment of area about the new origin
    for (const BodyShape& s : shapes) {
        const BodyShape moved(s.shape, s.offset - c, s.angle);
        const MassProperties mp = s.shape.massProperties();
        second += mp.area * (mp.inertiaPerMass + lengthSquared(moved.offset));
        out.shapes.push_back(moved);
    }
    out.mass.area = area;
    out.mass.inertiaPerMass = second / area;
    return out;
}

} // namespace carom
