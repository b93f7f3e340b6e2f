// Narrow phase: the contact manifold of one pair of shapes, for every pair of shape types.
//
// Conventions (collide.h): the normal is a unit vector from A towards B; depth > 0 is overlap and
// depth < 0 a gap; each point lies midway between the two surfaces, so A's surface point is
// point + depth/2 * normal and B's is point - depth/2 * normal. Points with a gap smaller than
// `margin` are reported too (speculative contacts).
//
// Rounded shapes (shape.h: a capsule is a core of two vertices with a radius; a segment is one with
// none): every pair is worked out between the cores, as Box2D v3 does (b2CollidePolygons with its
// radii, b2CollideCapsuleAndCircle), and the radii then taken off the gap: a core point p with the
// normal n lies on the surface at p + r n.
//
// Sources: Ericson, Real-Time Collision Detection (2005), §4.4 and §5.1 (separating axes,
// closest points); Catto, "Contact Manifolds" (GDC 2007) and "Computing Distance" (GDC 2010),
// Box2D's b2CollideCircles / b2CollidePolygonAndCircle / b2CollidePolygons (v2.4) and
// box2d-lite's Collide (reference face, incident edge, Sutherland-Hodgman clipping).
#include "collision/collide.h"
#include "tuning.h"

#include <algorithm>
#include <cstddef>
#include <limits>

namespace carom {
namespace {

// ---- Feature ids ---------------------------------------------------------------------------
// Box2D's b2ContactFeature, packed in 32 bits: which feature of A and which of B (an index and
// whether it is a vertex or a face) produced the point: bits 0-13 index on A, 14-27 index on B,
// bit 28 A's type, bit 29 B's type. Indices are kept modulo 2^14; a polygon with more vertices
// than that could only alias ids, never produce a wrong contact. Circle pairs use id 0.
enum Feature : std::uint32_t { Vertex = 0, Face = 1 };

std::uint32_t featureId(std::size_t indexA, Feature typeA, std::size_t indexB, Feature typeB) {
    constexpr std::uint32_t mask = (1u << 14) - 1;
    return (static_cast<std::uint32_t>(indexA) & mask) |
           (static_cast<std::uint32_t>(indexB) & mask) << 14 | std::uint32_t(typeA) << 28 |
           std::uint32_t(typeB) << 29;
}

// The same contact seen from the other side (after swapping A and B).
std::uint32_t swapFeatures(std::uint32_t id) {
    constexpr std::uint32_t mask = (1u << 14) - 1;
    return (id >> 14 & mask) | (id & mask) << 14 | (id >> 29 & 1u) << 28 | (id >> 28 & 1u) << 29;
}

// Adds a point given a point on each surface and the depth along the normal.
void addPoint(ShapeManifold& m, Vec2 onA, Vec2 onB, double depth, std::uint32_t id) {
    ShapeContact& c = m.points[m.count++];
    c.point = 0.5 * (onA + onB);
    c.depth = depth;
    c.id = id;
}

// The vertex after vertex i of a polygon of `count` vertices (the edge i runs from i to it).
std::size_t next(std::size_t i, std::size_t count) {
    return i + 1 < count ? i + 1 : 0;
}

bool isPolygon(const Shape& s) {
    return !s.isRound();
}

// The rounding of a core of vertices (shape.h): a capsule's radius, 0 for the others.
double rounding(const Shape& poly) {
    return poly.type() == ShapeType::Capsule ? poly.radius() : 0.0;
}

// A polygon's vertex count, vertex i and the outward normal of its edge i. A box's are worked out
// from its half extents, the values Shape::box stores, without reading its arrays: in a large pile
// of boxes the narrow phase waited on those reads from memory.
std::size_t vertexCount(const Shape& poly) {
    return poly.type() == ShapeType::Box ? 4 : poly.vertices().size();
}
Vec2 vertexOf(const Shape& poly, std::size_t i) {
    if (poly.type() != ShapeType::Box) return poly.vertices()[i];
    const double hx = poly.width() / 2, hy = poly.height() / 2;
    return {i == 0 || i == 3 ? -hx : hx, i < 2 ? -hy : hy};
}
Vec2 normalOf(const Shape& poly, std::size_t i) {
    if (poly.type() != ShapeType::Box) return poly.normals()[i];
    return i == 0 ? Vec2{0, -1} : i == 1 ? Vec2{1, 0} : i == 2 ? Vec2{0, 1} : Vec2{-1, 0};
}

// ---- Circle - circle ---------------------------------------------------------------------
// Ericson §4.3.2 (sphere-sphere): the gap is |cB - cA| - (rA + rB), along the line of centres.
// Coincident centres have no line of centres: take the fixed normal (0, 1) (Box2D does likewise
// by leaving the normal at its default); the depth is then rA + rB.
ShapeManifold collideCircles(const Shape& a, const Transform& xa, const Shape& b,
                             const Transform& xb, double margin) {
    ShapeManifold m;
    const Vec2 d = xb.p - xa.p;
    const double dist = glm::length(d);
    const double depth = a.radius() + b.radius() - dist;
    if (!(depth > -margin)) return m; // also false for NaN input
    const double tiny = kCollideRoundOff * (a.radius() + b.radius());
    m.normal = dist > tiny ? d / dist : Vec2{0, 1};
    addPoint(m, xa.p + a.radius() * m.normal, xb.p - b.radius() * m.normal, depth, 0);
    return m;
}

// The face of a polygon farthest from a point c of its frame, and how far c is beyond it (its
// greatest separation s_i = n_i·(c − v_i); negative inside).
struct FaceSeparation {
    double separation;
    std::size_t face;
};
FaceSeparation faceOfGreatestSeparation(const Shape& poly, Vec2 c) {
    const std::vector<Vec2>& v = poly.vertices();
    const std::vector<Vec2>& n = poly.normals();
    FaceSeparation best{-std::numeric_limits<double>::infinity(), 0};
    for (std::size_t i = 0; i < v.size(); ++i) {
        const double s = glm::dot(n[i], c - v[i]);
        if (s > best.separation) best = FaceSeparation{s, i};
    }
    return best;
}

// ---- Polygon - circle --------------------------------------------------------------------
// Box2D's b2CollidePolygonAndCircle, after Ericson §5.1.1-5.1.2 (closest point on a convex
// polygon). In the polygon's frame, find the face of greatest separation s_i = n_i·(c - v_i).
//  - c inside the polygon (every s_i ≤ 0): push out along the face of least penetration; the
//    closest point of A is c - s_i n_i.
//  - otherwise c is in the Voronoi region of that face or of one of its two end vertices,
//    decided by the sign of (c - v1)·(v2 - v1) and (c - v2)·(v1 - v2); a vertex region gives the
//    normal (c - v)/|c - v| and the closest point v.
// The circle's surface point is c - r n; depth = r - (distance from c to A along n). A rounded
// polygon (a capsule) has its core here: its surface point is the core's plus rA n, and the depth
// grows by rA. A core of two vertices has no inside: a centre on its line (separation 0) may
// still lie beyond an end, in that vertex's region, so the regions are looked at from 0 on.
ShapeManifold collidePolygonCircle(const Shape& poly, const Transform& xa, const Shape& circle,
                                   const Transform& xb, double margin) {
    ShapeManifold m;
    const std::vector<Vec2>& v = poly.vertices();
    const std::vector<Vec2>& n = poly.normals();
    const std::size_t count = v.size();
    const double r = circle.radius() + rounding(poly);
    const Vec2 c = xa.applyInverse(xb.p); // circle centre in the polygon's frame
    if (!isFinite(c)) return m;           // a non-finite pose touches nothing

    const auto [separation, face] = faceOfGreatestSeparation(poly, c);
    if (!(separation - r < margin)) return m; // also true for NaN input

    const Vec2 v1 = v[face], v2 = v[next(face, count)];
    Vec2 normal = n[face], onA = c - separation * normal;
    double dist = separation;
    if (separation > 0 || (separation == 0 && count == 2)) {
        const double u1 = glm::dot(c - v1, v2 - v1), u2 = glm::dot(c - v2, v1 - v2);
        const Vec2 corner = u1 < 0 ? v1 : v2;
        const double cornerDist = glm::length(c - corner);
        // A vertex region; a centre (numerically) on the vertex keeps the face normal.
        if ((u1 < 0 || u2 < 0) && cornerDist > kCollideRoundOff * (r + separation)) {
            if (cornerDist - r >= margin) return m;
            normal = (c - corner) / cornerDist;
            onA = corner;
            dist = cornerDist;
        }
    }
    m.normal = xa.q.apply(normal);
    addPoint(m, xa.apply(onA + rounding(poly) * normal), xb.p - circle.radius() * m.normal,
             r - dist, 0);
    return m;
}

// ---- Polygon - polygon -------------------------------------------------------------------
// Separating axis test over the face normals of both polygons (Ericson §4.4.1, §5.2.1;
// Catto GDC 2007): the separation along face i of P1 is the smallest n_i·(w - v_i) over the
// vertices w of P2; the polygons overlap iff every such value is negative, and the face with the
// largest value is the axis of least penetration. Computed in P2's frame so nothing is allocated.
struct Separation {
    double value = -std::numeric_limits<double>::infinity();
    std::size_t face = 0;
};

// The transform from frame 1 to frame 2, x2⁻¹ ∘ x1 (Box2D's b2MulT(xf2, xf1)): the rotation
// q2ᵀ q1 (cosine and sine of the angle difference) and P1's origin seen from P2, q2ᵀ (p1 − p2).
Transform relativeTransform(const Transform& x1, const Transform& x2) {
    Transform x;
    x.q.c = x2.q.c * x1.q.c + x2.q.s * x1.q.s;
    x.q.s = x2.q.c * x1.q.s - x2.q.s * x1.q.c;
    x.p = x2.applyInverse(x1.p);
    return x;
}

// How far a box, centred on its frame's origin with half extents (hx, hy), reaches along the unit
// direction n of its frame: hx |n_x| + hy |n_y| (Ericson §4.2.6, §4.4.1).
double reachAlong(const Shape& box, Vec2 n) {
    return box.width() / 2 * std::abs(n.x) + box.height() / 2 * std::abs(n.y);
}

// The smallest n·(w − v) over the vertices w of a polygon, all in its frame. A box reaches it,
// −n·v − reachAlong(−n), at the corner farthest along −n, without visiting its corners.
double leastSeparation(const Shape& poly, Vec2 n, Vec2 v) {
    if (poly.type() == ShapeType::Box) return -glm::dot(n, v) - reachAlong(poly, n);
    double s = std::numeric_limits<double>::infinity();
    for (const Vec2& w : poly.vertices())
        s = std::min(s, glm::dot(n, w - v));
    return s;
}

// The first face of greatest separation among `count`, separationOf(i) being face i's. A face
// separating by `margin` or more ends the search, as no contact will be made.
template <class FaceSeparation>
Separation greatestSeparation(std::size_t count, double margin, FaceSeparation separationOf) {
    Separation best;
    for (std::size_t i = 0; i < count; ++i) {
        const double s = separationOf(i);
        if (!(s <= best.value)) { // a NaN (a non-finite pose) is taken, and ends the search
            best.value = s;
            best.face = i;
            if (!(s < margin)) break;
        }
    }
    return best;
}

// x12 takes P1's frame to P2's (relativeTransform): one transform per face of P1.
Separation maxSeparation(const Shape& p1, const Shape& p2, const Transform& x12, double margin) {
    const std::vector<Vec2>& v1 = p1.vertices();
    const std::vector<Vec2>& n1 = p1.normals();
    return greatestSeparation(v1.size(), margin, [&](std::size_t i) {
        return leastSeparation(p2, x12.q.apply(n1[i]), x12.apply(v1[i]));
    });
}

// The same for two boxes, in closed form (the separating axis test of two oriented boxes,
// Ericson 4.4.1): x21 takes box 2's frame to box 1's, so box 2's centre is at d = x21.p, and box
// 1's axes are (c, −s) and (s, c) in box 2's frame, along which box 2 reaches e_x and e_y; face i
// of box 1 (normals -y, +x, +y, -x, as Shape::box) separates them by the centre's distance beyond
// the face less e along its normal.
Separation boxSeparation(const Shape& b1, const Shape& b2, const Transform& x21, double margin) {
    const double hx = b1.width() / 2, hy = b1.height() / 2;
    const double ex = reachAlong(b2, {x21.q.c, -x21.q.s}), ey = reachAlong(b2, {x21.q.s, x21.q.c});
    const Vec2 d = x21.p;
    const double separations[4] = {-d.y - hy - ey, d.x - hx - ex, d.y - hy - ey, -d.x - hx - ex};
    return greatestSeparation(4, margin, [&](std::size_t i) { return separations[i]; });
}

// The greatest separation over p1's faces from p2: in closed form for two boxes, over p2's
// vertices otherwise. x21 takes p2's frame to p1's, x12 back (relativeTransform).
Separation facesSeparation(const Shape& p1, const Shape& p2, const Transform& x21,
                           const Transform& x12, double margin) {
    return p1.type() == ShapeType::Box && p2.type() == ShapeType::Box
               ? boxSeparation(p1, p2, x21, margin)
               : maxSeparation(p1, p2, x12, margin);
}

// One Sutherland-Hodgman step (Ericson §8.3.4; Box2D's b2ClipSegmentToLine): keep the part of
// the segment in[0..1] where normal·x ≤ offset; returns how many end points remain.
int clipSegment(Vec2 out[2], const Vec2 in[2], Vec2 normal, double offset) {
    int n = 0;
    const double d0 = glm::dot(normal, in[0]) - offset;
    const double d1 = glm::dot(normal, in[1]) - offset;
    if (d0 <= 0) out[n++] = in[0];
    if (d1 <= 0) out[n++] = in[1];
    if (d0 * d1 < 0) // the segment crosses the plane, so d0 - d1 is not zero
        out[n++] = in[0] + d0 / (d0 - d1) * (in[1] - in[0]);
    return n;
}

// The point of a polygon's boundary nearest to p (all in the polygon's frame), its squared
// distance, and its edge.
struct Nearest {
    double distanceSquared;
    Vec2 point;
    std::size_t edge;
};
Nearest nearestOnBoundary(const Shape& poly, Vec2 p) {
    const std::vector<Vec2>& v = poly.vertices();
    Nearest best{std::numeric_limits<double>::infinity(), v[0], 0};
    for (std::size_t i = 0; i < v.size(); ++i) {
        // Ericson §5.1.2: the closest point of the segment v_i v_i+1 to p.
        const Vec2 d = v[next(i, v.size())] - v[i];
        const double t = std::clamp(glm::dot(p - v[i], d) / glm::dot(d, d), 0.0, 1.0);
        const Vec2 q = v[i] + t * d;
        const double distanceSquared = lengthSquared(p - q);
        if (distanceSquared < best.distanceSquared) best = Nearest{distanceSquared, q, i};
    }
    return best;
}

// The closest points of two separated convex polygons, in p1's frame (x21 takes p2's frame to
// p1's, x12 back): a vertex of one and the nearest point of the other's boundary, over every
// vertex of both, and the two edges they lie on.
void closestOfPolygons(const Shape& p1, const Shape& p2, const Transform& x21, const Transform& x12,
                       Vec2& c1, Vec2& c2, std::size_t& edge1, std::size_t& edge2) {
    double nearest = std::numeric_limits<double>::infinity();
    for (std::size_t j = 0; j < p2.vertices().size(); ++j) {
        const Vec2 p = x21.apply(p2.vertices()[j]);
        const Nearest k = nearestOnBoundary(p1, p);
        if (k.distanceSquared < nearest) {
            nearest = k.distanceSquared;
            c1 = k.point;
            c2 = p;
            edge1 = k.edge;
            edge2 = j;
        }
    }
    for (std::size_t i = 0; i < p1.vertices().size(); ++i) {
        const Nearest k = nearestOnBoundary(p2, x12.apply(p1.vertices()[i]));
        if (k.distanceSquared < nearest) {
            nearest = k.distanceSquared;
            c1 = p1.vertices()[i];
            c2 = x21.apply(k.point);
            edge1 = i;
            edge2 = k.edge;
        }
    }
}

// Are two cores of two vertices each (capsules, segments) apart along the first one's length? The
// one axis the faces' normals miss: two segments on one line are separated only along it (Ericson
// §4.4.1: the axes of two polygons are their edges' normals, and a segment's edge is itself).
bool apartAlongLength(const Shape& a, const Shape& b, const Transform& bToA) {
    if (a.vertices().size() != 2 || b.vertices().size() != 2) return false;
    const Vec2 t = a.vertices()[1] - a.vertices()[0];
    const double lo = glm::dot(t, a.vertices()[0]), hi = glm::dot(t, a.vertices()[1]);
    const double b0 = glm::dot(t, bToA.apply(b.vertices()[0]));
    const double b1 = glm::dot(t, bToA.apply(b.vertices()[1]));
    return std::max(b0, b1) < lo || std::min(b0, b1) > hi;
}

// Box2D's b2CollidePolygons / box2d-lite's Collide. The reference face is the axis of least
// penetration; B's face is preferred to A's only when clearly better (by a small absolute
// tolerance, Box2D's 0.1 linearSlop), so the choice does not flicker between equal faces. The
// incident edge is the edge of the other polygon whose normal is most anti-parallel to the
// reference normal; it is clipped to the reference face's two side planes and the points
// below the reference face by less than `margin` are kept. All of it in the reference polygon's
// frame (as Box2D v3 does in A's): only the incident edge's two vertices are carried into it, and
// the manifold's normal and points out of it at the end.
// Rounded cores (a capsule; Box2D v3's b2CollidePolygons with radii): the separations are the
// cores', the radii taken off at the end. Cores apart but not face to face (a capsule's end near a
// corner) touch at their closest points alone, along the line between them: the separation along
// a face would overstate how near the rounded surfaces come.
ShapeManifold collidePolygons(const Shape& a, const Transform& xa, const Shape& b,
                              const Transform& xb, double margin) {
    ShapeManifold m;
    const double radii = rounding(a) + rounding(b);
    const double coreMargin = margin + radii;
    const Transform aToB = relativeTransform(xa, xb), bToA = relativeTransform(xb, xa);
    const Separation sa = facesSeparation(a, b, bToA, aToB, coreMargin);
    if (!(sa.value < coreMargin)) return m; // NaN-safe
    const Separation sb = facesSeparation(b, a, aToB, bToA, coreMargin);
    if (!(sb.value < coreMargin)) return m;

    const double size = std::min(a.boundingRadius(), b.boundingRadius());
    const double tolerance = std::min(kFaceTolerance, kFaceToleranceOfSize * size);
    const bool flip = sb.value > sa.value + tolerance;
    const Shape& ref = flip ? b : a;
    const Shape& inc = flip ? a : b;
    const Transform& xr = flip ? xb : xa;
    const Transform& refToInc = flip ? bToA : aToB;
    const Transform& incToRef = flip ? aToB : bToA;
    const std::size_t face = flip ? sb.face : sa.face;
    const std::size_t refCount = vertexCount(ref), incCount = vertexCount(inc);
    const double rRef = rounding(ref), rInc = rounding(inc);

    // Reference face v11 -> v12; its outward normal points towards `inc`.
    const Vec2 v11 = vertexOf(ref, face);
    const Vec2 v12 = vertexOf(ref, next(face, refCount));
    const Vec2 normal = normalOf(ref, face);
    const Vec2 along = v12 - v11; // the side planes' normal: its length scales both sides alike

    // Incident edge: minimal n_inc·n_ref (Box2D's b2FindIncidentEdge).
    const Vec2 nInInc = refToInc.q.apply(normal);
    std::size_t edge = 0;
    double minDot = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < incCount; ++i) {
        const double d = glm::dot(nInInc, normalOf(inc, i));
        if (d < minDot) {
            minDot = d;
            edge = i;
        }
    }
    const std::size_t i1 = edge, i2 = next(edge, incCount);
    const Vec2 incident[2] = {incToRef.apply(vertexOf(inc, i1)), incToRef.apply(vertexOf(inc, i2))};

    // Clip to the side planes -t·x ≤ -t·v11 and t·x ≤ t·v12 (t along the face).
    Vec2 clip1[2], clip2[2];
    int n = clipSegment(clip1, incident, -along, -glm::dot(along, v11));
    if (n == 2) n = clipSegment(clip2, clip1, along, glm::dot(along, v12));

    m.normal = flip ? -normal : normal; // from A to B
    const bool overlapping = std::max(sa.value, sb.value) <= 0 && !apartAlongLength(a, b, bToA);
    bool closestOnly = n < 2;
    if (!closestOnly && radii > 0 && !overlapping) {
        Vec2 onRef, onInc;
        std::size_t refEdge = face, incEdge = edge;
        closestOfPolygons(ref, inc, incToRef, refToInc, onRef, onInc, refEdge, incEdge);
        const Vec2 d = onInc - onRef;
        const double dist = glm::length(d);
        closestOnly = glm::dot(d, normal) < kRoundedFaceCosine * dist;
    }
    if (closestOnly) {
        // The incident edge lies beside the reference face: only possible with a gap (e.g. two
        // corners facing each other). The closest points of the two polygons give one point: of
        // all their edges, not only these two, as a corner of either next to them may be nearer
        // (a corner resting on the other's face beside the reference face: these two edges' gap
        // said 0.2 mm apart, and a sweep never found them touching).
        Vec2 onRef, onInc;
        std::size_t refEdge = face, incEdge = edge;
        closestOfPolygons(ref, inc, incToRef, refToInc, onRef, onInc, refEdge, incEdge);
        const Vec2 d = onInc - onRef;
        const double dist = glm::length(d);
        const double gap = dist - radii;
        // The polygons may overlap after all (corners just past each other: the separating axis
        // test finds no gap), and the edges' closest points would report one, pointing any way,
        // or nothing within a small margin (a sweep bisecting to the contact then never saw it
        // touch). Then, as for edges touching only by rounding, the reference face and its depth.
        if (!overlapping && !(gap < margin)) return ShapeManifold{};
        const bool apart = !overlapping && dist > kCollideRoundOff * size;
        const Vec2 dir = apart ? d / dist : normal;
        const double depth = apart ? -gap : radii - (flip ? sb.value : sa.value);
        onRef += rRef * dir;
        onInc -= rInc * dir;
        m.normal = flip ? -dir : dir;
        const std::uint32_t id = featureId(refEdge, Face, incEdge, Face);
        addPoint(m, flip ? onInc : onRef, flip ? onRef : onInc, depth,
                 flip ? swapFeatures(id) : id);
    } else {
        // Feature ids as in Box2D v3's b2ClipPolygons: both edges run counter-clockwise, so the
        // incident edge runs against the reference edge; the end of the clipped segment near v11
        // pairs reference vertex `face` with incident vertex i2, the end near v12 pairs vertex
        // face+1 with i1. Whether an end was clipped or not does not change its id, so a box
        // sliding along a face of the same width keeps its ids.
        if (glm::dot(along, clip2[0]) > glm::dot(along, clip2[1])) std::swap(clip2[0], clip2[1]);
        const std::uint32_t ids[2] = {featureId(face, Vertex, i2, Vertex),
                                      featureId(next(face, refCount), Vertex, i1, Vertex)};

        // Keep points whose separation below the reference face is smaller than the margin. The
        // clip point lies on the incident core; its projection on the reference face is the
        // other core's point; each surface lies its radius out from its core.
        const double front = glm::dot(normal, v11);
        for (int i = 0; i < 2; ++i) {
            const double separation = glm::dot(normal, clip2[i]) - front;
            if (!(separation - radii < margin)) continue;
            const Vec2 onRef = clip2[i] - separation * normal + rRef * normal;
            const Vec2 onInc = clip2[i] - rInc * normal;
            addPoint(m, flip ? onInc : onRef, flip ? onRef : onInc, radii - separation,
                     flip ? swapFeatures(ids[i]) : ids[i]);
        }
    }

    // From the reference polygon's frame to the world.
    m.normal = xr.q.apply(m.normal);
    for (int i = 0; i < m.count; ++i)
        m.points[i].point = xr.apply(m.points[i].point);
    return m;
}

} // namespace

namespace {

// ---- Chain links -------------------------------------------------------------------------
// A chain link's manifold m with the normal n pointing from the link to the other shape: is it
// the neighbouring link's to make (Box2D v3's ghost vertices, b2CollideChainSegmentAndCircle)?
// Only a normal off the link's face can be: one found at an end of the link, its points nearest
// that end. It is the neighbour's when it points over the neighbour's side: at the link's start
// a, back along the link before it (n · (a − before) ≤ 0); at its end b, on along the link after
// it (n · (after − b) > 0). The neighbour then touches the shape along its own face, and the join
// does not strike it: a ball rolls and a box slides over the join of two links in line, where a
// lone segment's end would stop them. At a corner that both links' ends face, each touches along
// the same normal.
bool leftToNeighbour(const Shape& link, const Transform& xl, const ShapeManifold& m, Vec2 n) {
    if (m.count == 0 || (!link.before() && !link.after())) return false;
    const Vec2 a = link.vertices()[0], b = link.vertices()[1];
    const Vec2 along = glm::normalize(b - a), normal = xl.q.applyInverse(n);
    if (std::abs(glm::dot(normal, along)) <= kCollideRoundOff) return false; // the face's normal
    Vec2 mid{0, 0};
    for (int i = 0; i < m.count; ++i)
        mid += xl.applyInverse(m.points[i].point) / double(m.count);
    if (glm::dot(mid - a, b - a) < 0.5 * lengthSquared(b - a))
        return link.before() && glm::dot(normal, a - *link.before()) <= 0;
    return link.after() && glm::dot(normal, *link.after() - b) > 0;
}

ShapeManifold collideCores(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb,
                           double margin) {
    const bool polyA = isPolygon(a), polyB = isPolygon(b);
    if (!polyA && !polyB) return collideCircles(a, xa, b, xb, margin);
    if (polyA && polyB) return collidePolygons(a, xa, b, xb, margin);
    if (polyA) return collidePolygonCircle(a, xa, b, xb, margin);
    // Circle A against polygon B: solve B against A, then turn the normal to point from A to B
    // (the points and depths are the same from either side).
    ShapeManifold m = collidePolygonCircle(b, xb, a, xa, margin);
    m.normal = -m.normal;
    return m;
}

} // namespace

ShapeManifold collide(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb,
                      double margin) {
    const ShapeManifold m = collideCores(a, xa, b, xb, margin);
    if (leftToNeighbour(a, xa, m, m.normal) || leftToNeighbour(b, xb, m, -m.normal))
        return ShapeManifold{};
    return m;
}

// Why depthBound bounds (collide.h). Polygons: every point collidePolygons reports lies on the
// incident edge, between its two ends (the clipping interpolates), so its separation below the
// reference face is at least that face's separation, the least over all of the incident polygon's
// vertices: its depth is at most −s_ref. With A's face as reference, s_ref = s_A ≥ s_B − tolerance
// (B's face is taken only when better by more than the tolerance); with B's, s_ref = s_B. Either
// way depth ≤ tolerance − s_B, s_B the greatest separation over B's faces, worked out here as
// collide does. A circle a: its depth is r − dist, where dist is the separation of its centre
// from b's face of greatest separation, or its distance to a corner of that face, which is no
// less. Rounded cores (a capsule): each depth is the radii less the cores' separation along the
// normal (a face's, or their distance, which is no less than any face's separation), so the bound
// grows by the radii. Rounding differs from collide's in the last bits; the caller leaves room for
// it.
double depthBound(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb) {
    if (!isPolygon(b)) return INFINITY;
    if (!isPolygon(a))
        return a.radius() + rounding(b) -
               faceOfGreatestSeparation(b, xb.applyInverse(xa.p)).separation;
    const Separation sb =
        facesSeparation(b, a, relativeTransform(xa, xb), relativeTransform(xb, xa), INFINITY);
    return kFaceTolerance + rounding(a) + rounding(b) - sb.value;
}

} // namespace carom
