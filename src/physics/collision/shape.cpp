// Shapes and their mass properties as uniform solids.
#include "carom/shape.h"

#include "step/checks.h"
#include "tuning.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace carom {
namespace {

// Outward unit normal of each edge i -> i+1 of a counter-clockwise polygon.
std::vector<Vec2> edgeNormals(const std::vector<Vec2>& v) {
    std::vector<Vec2> n(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) {
        Vec2 e = v[(i + 1) % v.size()] - v[i];
        n[i] = glm::normalize(Vec2{e.y, -e.x});
    }
    return n;
}

// Twice the signed area (the shoelace formula); positive for counter-clockwise vertices.
double twiceSignedArea(const std::vector<Vec2>& v) {
    double a = 0;
    for (std::size_t i = 0; i < v.size(); ++i)
        a += cross(v[i], v[(i + 1) % v.size()]);
    return a;
}

} // namespace

Shape Shape::circle(double radius) {
    requirePositive("radius", radius);
    Shape s;
    s.type_ = ShapeType::Circle;
    s.radius_ = radius;
    s.measureRadii();
    return s;
}

Shape Shape::box(double width, double height) {
    requirePositive("width", width);
    requirePositive("height", height);
    Shape s;
    s.type_ = ShapeType::Box;
    s.width_ = width;
    s.height_ = height;
    double hx = width / 2, hy = height / 2;
    // collide.cpp works these out from the half extents (vertexOf, normalOf): keep them alike.
    s.vertices_ = {{-hx, -hy}, {hx, -hy}, {hx, hy}, {-hx, hy}};
    s.normals_ = {{0, -1}, {1, 0}, {0, 1}, {-1, 0}};
    s.measureRadii();
    return s;
}

namespace {

double tolerance(const std::vector<Vec2>& v) {
    double extent = 0;
    for (const Vec2& p : v)
        extent = std::max({extent, std::abs(p.x), std::abs(p.y)});
    return kVertexTolerance * std::max(extent, kTinyExtent);
}

// Does vertex i lie on the straight line on from vertex i − 1 to vertex i + 1 (a point in the
// middle of an edge)? Such a vertex adds nothing to a convex polygon and is dropped.
bool onStraightEdge(const std::vector<Vec2>& v, std::size_t i, double eps) {
    const std::size_t n = v.size();
    const Vec2 e1 = v[i] - v[(i + n - 1) % n], e2 = v[(i + 1) % n] - v[i];
    return std::abs(cross(e1, e2)) <= eps * glm::length(e2) && glm::dot(e1, e2) > 0;
}

// Checked in the caller's vertex order, so that messages name the caller's vertices: 3 or more,
// finite, no repeated point, some area, every corner turning the same way (convex; a vertex in
// the middle of an edge is allowed) and winding once (a pentagram turns the same way at every
// corner, but twice: its exterior angles sum to 4π, a convex polygon's to 2π).
void checkPolygon(const std::vector<Vec2>& v) {
    const std::size_t n = v.size();
    if (n < 3)
        throw std::invalid_argument("vertices: need 3 or more vertices, got " + std::to_string(n));
    for (std::size_t i = 0; i < n; ++i)
        if (!isFinite(v[i]))
            throw std::invalid_argument("vertices/" + std::to_string(i) + ": must be finite");
    const double eps = tolerance(v);
    for (std::size_t i = 0; i < n; ++i)
        if (glm::length(v[(i + 1) % n] - v[i]) <= eps)
            throw std::invalid_argument("vertices/" + std::to_string((i + 1) % n) +
                                        ": same point as vertex " + std::to_string(i));
    const double area2 = twiceSignedArea(v);
    if (std::abs(area2) <= eps * eps)
        throw std::invalid_argument("vertices: degenerate polygon (zero area)");
    const double sign = area2 > 0 ? 1 : -1;
    double turning = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (onStraightEdge(v, i, eps)) continue;
        const Vec2 e1 = v[i] - v[(i + n - 1) % n], e2 = v[(i + 1) % n] - v[i];
        if (sign * cross(e1, e2) <= eps * glm::length(e2))
            throw std::invalid_argument("vertices: polygon is not convex at vertex " +
                                        std::to_string(i) +
                                        " (every corner must turn the same way)");
        turning += std::atan2(cross(e1, e2), glm::dot(e1, e2));
    }
    if (std::abs(turning) > 3 * M_PI)
        throw std::invalid_argument("vertices: polygon crosses itself (it winds more than once)");
}

} // namespace

Shape Shape::polygon(const std::vector<Vec2>& input) {
    checkPolygon(input);
    const double eps = tolerance(input);
    std::vector<Vec2> v;
    for (std::size_t i = 0; i < input.size(); ++i)
        if (!onStraightEdge(input, i, eps)) v.push_back(input[i]);
    double area2 = twiceSignedArea(v);
    if (area2 < 0) { // counter-clockwise from here on
        std::reverse(v.begin(), v.end());
        area2 = -area2;
    }
    // Centroid of a polygon: c = Σ (vi + vi+1) cross(vi, vi+1) / (3 · 2A).
    Vec2 c{0, 0};
    for (std::size_t i = 0; i < v.size(); ++i) {
        Vec2 a = v[i], b = v[(i + 1) % v.size()];
        c += (a + b) * cross(a, b);
    }
    c /= 3 * area2;
    // An already-centred polygon (a saved scene) is left exactly as it is, so files round-trip:
    // a centroid within a thousandth of the vertex tolerance is the rounding of one at the origin.
    if (glm::length(c) <= 1e-3 * eps) c = Vec2{0, 0};
    for (Vec2& p : v)
        p -= c;
    Shape s;
    s.type_ = ShapeType::Polygon;
    s.vertices_ = v;
    s.normals_ = edgeNormals(v);
    s.centroidOffset_ = c;
    s.measureRadii();
    return s;
}

Shape Shape::capsule(double length, double radius) {
    requirePositive("length", length);
    requirePositive("radius", radius);
    Shape s;
    s.type_ = ShapeType::Capsule;
    s.length_ = length;
    s.radius_ = radius;
    // The core: edge 0 runs from the left centre to the right one, its outward normal (0, -1);
    // edge 1 runs back, its normal (0, 1) (edgeNormals' rule for a polygon of two vertices).
    s.vertices_ = {{-length / 2, 0}, {length / 2, 0}};
    s.normals_ = {{0, -1}, {0, 1}};
    s.measureRadii();
    return s;
}

Shape Shape::segment(Vec2 a, Vec2 b) {
    requireSize("a", a);
    requireSize("b", b);
    if (!(glm::length(b - a) > tolerance({a, b})))
        throw std::invalid_argument("b: same point as a");
    Shape s;
    s.type_ = ShapeType::Segment;
    s.vertices_ = {a, b};
    s.normals_ = edgeNormals(s.vertices_);
    s.measureRadii();
    return s;
}

Shape Shape::chainLink(Vec2 a, Vec2 b, std::optional<Vec2> before, std::optional<Vec2> after) {
    Shape s = segment(a, b);
    s.before_ = before;
    s.after_ = after;
    return s;
}

MassProperties Shape::massProperties() const {
    MassProperties m;
    switch (type_) {
    case ShapeType::Circle: // I = m r² / 2
        m.area = M_PI * radius_ * radius_;
        m.inertiaPerMass = radius_ * radius_ / 2;
        break;
    case ShapeType::Box: // I = m (w² + h²) / 12
        m.area = width_ * height_;
        m.inertiaPerMass = (width_ * width_ + height_ * height_) / 12;
        break;
    case ShapeType::Polygon: {
        // Sum over the triangles (0, a, b) about the centroid: I/m = Σ c (a·a + a·b + b·b) / (6 Σ
        // c), c = cross(a, b) (the polygon's second moment of area over its area).
        double num = 0, den = 0;
        for (std::size_t i = 0; i < vertices_.size(); ++i) {
            Vec2 a = vertices_[i], b = vertices_[(i + 1) % vertices_.size()];
            double c = cross(a, b);
            num += c * (glm::dot(a, a) + glm::dot(a, b) + glm::dot(b, b));
            den += c;
        }
        m.area = den / 2;
        m.inertiaPerMass = num / (6 * den);
        break;
    }
    case ShapeType::Capsule: {
        // A rectangle L × 2r, I = m (L² + 4r²) / 12, and two half discs that make a disc of area
        // π r². A half disc's centroid lies d = 4r / (3π) from the middle of its flat side, which
        // is L/2 from the origin; about that middle its inertia is (m/2) r²/2, so by the
        // parallel-axis theorem, twice about the origin: m r²/2 − m d² + m (L/2 + d)²
        // = m (r²/2 + L²/4 + L d).
        const double r = radius_, L = length_, d = 4 * r / (3 * M_PI);
        const double rectangle = 2 * r * L, disc = M_PI * r * r;
        m.area = rectangle + disc;
        m.inertiaPerMass =
            (rectangle * (L * L + 4 * r * r) / 12 + disc * (r * r / 2 + L * L / 4 + L * d)) /
            m.area;
        break;
    }
    case ShapeType::Segment: // no area: static only
        break;
    }
    return m;
}

// Computed once, as every step asks for them: for a core of vertices, the inner radius is the
// distance to the nearest edge line, n_i · v_i (the centroid is the origin), and the bounding
// radius the farthest vertex's distance, each grown by the rounding. A segment's inner radius is 0
// (its edge lines pass through its own points; the origin may lie off it).
void Shape::measureRadii() {
    if (type_ == ShapeType::Circle) {
        innerRadius_ = boundingRadius_ = radius_;
        return;
    }
    double r = INFINITY, r2 = 0;
    for (std::size_t i = 0; i < vertices_.size(); ++i) {
        r = std::min(r, glm::dot(normals_[i], vertices_[i]));
        r2 = std::max(r2, lengthSquared(vertices_[i]));
    }
    innerRadius_ = type_ == ShapeType::Segment ? 0 : radius_ + r;
    boundingRadius_ = radius_ + std::sqrt(r2);
}

} // namespace carom
