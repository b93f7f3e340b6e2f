// Soft bodies' collisions in the step, vertex against edge, then their positions (CS5643,
// "Collision response"; Bridson, Fedkiw and Anderson, "Robust treatment of collisions, contact
// and friction for cloth animation", 2002, for the contacts held at the step's start and the
// repeated sweeps).
//
// Every point that can strike an edge (a soft body's particle, interior ones included; a rigid
// polygon's vertex) is a node moving in a straight line over what is left of the step,
// x(τ) = x + τ u; every edge (a soft boundary edge, a rigid polygon's side) joins two nodes. A
// rigid body's motion over the step is the rigid stages' (from its pose at the step's start to
// its pose now), linearised.
//
//   (forces: springs, gravity, damping, the mouse spring, and the velocities by semi-implicit
//    Euler, are soft_body.cpp's, before the rigid stages run)
//   1. resting contacts: the nodes within kSoftMargin of an edge, not approaching fast, held by
//      sequential impulses (holdRestingContacts)
//   2. sweep: the times a node comes within kSoftThickness of an edge's line (a quadratic in τ, as
//      the cross product (y − x) × (z − x) is quadratic when x, y, z move linearly), resolved
//        sequential: the first, then the sweep again from its time, until none is left
//        parallel:   all of the sweep's in time order, then the sweep again, until none is left
//   3. positions: x += (what is left of the step) u; rigid bodies struck keep the change
//
// A strike at the point p = α y + β z (α + β = 1) of edge (y, z) by node x along the normal n
// (from the edge to the node) is the impulse γ = −(1 + e) m_eff v_n on x, split as −α γ on y and
// −β γ on z, with 1/m_eff = 1/m_x + α²/m_y + β²/m_z; a rigid side's 1/m is its effective inverse
// mass at the point, 1/m + (r × n)²/I (Hecker's Eq. 9, impulseDenominator). Coulomb friction
// follows along the relative tangential velocity, at most μ γ and never reversing it.
#include "softbody/soft_collide.h"
#include "tuning.h"

#include "solver/contact_math.h"
#include "step/step_context.h"
#include <algorithm>
#include <cmath>
#include <limits>

namespace carom {

int quadraticRootsIn(double a2, double a1, double a0, double T, double out[2]) {
    double r[2];
    int n = 0;
    if (a2 == 0) {
        if (a1 == 0) return 0;
        r[n++] = -a0 / a1;
    } else {
        const double disc = a1 * a1 - 4 * a2 * a0;
        if (disc < 0) return 0;
        // q = −(a1 + sign(a1) √disc) / 2; the roots are q / a2 and a0 / q (no cancellation).
        const double q = -0.5 * (a1 + std::copysign(std::sqrt(disc), a1));
        r[n++] = q / a2;
        if (q != 0) r[n++] = a0 / q;
        if (n == 2 && r[1] < r[0]) std::swap(r[0], r[1]);
    }
    int k = 0;
    for (int i = 0; i < n; ++i)
        if (r[i] >= 0 && r[i] <= T) out[k++] = r[i];
    return k;
}

namespace {

constexpr std::size_t kNoEdge = std::numeric_limits<std::size_t>::max();
constexpr std::size_t kNotSwept = std::numeric_limits<std::size_t>::max(); // a rigid body far off

// A body taking part in the soft stage: a soft body, or a rigid body near one.
struct Owner {
    bool soft = false;
    std::size_t id = 0; // SoftBodyId or BodyId
    double restitution = 0, friction = 0;
    // Which side of its edges is outside, as the sign of (z − y) × (x − y) for an outside point x
    // of edge (y, z): −1 for counter-clockwise outlines, +1 for clockwise, 0 for an open chain
    // (either side; a node's side is then where it starts).
    int outside = 0;
    std::size_t firstNode = 0, nodes = 0, firstEdge = 0, edges = 0;
    // Rigid: its inverse mass and moment of inertia (0 unless dynamic), its centre at the sweep's
    // base time, its velocity and spin over the sweep, and what strikes changed: its velocity
    // and spin, and its pose at the step's end.
    double invMass = 0, invInertia = 0;
    const Body* body = nullptr;
    Vec2 p{0, 0}, vl{0, 0};
    double angle = 0, wl = 0;
    Vec2 dv{0, 0}, dp{0, 0};
    double dw = 0, dAngle = 0;
    bool struck = false;
    Vec2 lo{0, 0}, hi{0, 0}; // bounding box of its sweep, grown by the margin
};

struct Node {
    Vec2 x, u;
    std::size_t owner, index; // the particle's index in its soft body; a rigid vertex's
    double invMass = 0;       // a particle's (a rigid vertex's owner has its own)
    Vec2 forced{0, 0};        // a particle's velocity change by this step's forces
    double radius = 0;        // a circle's centre: the circle's radius (it strikes soft edges)
};

struct Edge {
    std::size_t y, z, owner; // nodes
};

// An axis-aligned box.
struct Box {
    Vec2 lo{0, 0}, hi{0, 0};
};

struct Sweep {
    std::vector<Owner> owners;
    std::vector<Node> nodes;
    std::vector<Edge> edges;
    std::vector<Box> nodeBoxes; // each node's sweep, grown by its radius and the margin
    std::vector<Box> edgeBoxes; // each edge's: its ends' boxes together
    double t0 = 0;              // the time of the nodes' positions, from the substep's start
    double h = 0;               // the substep
    double untilEnd = 0; // from the substep's start to the step's end, when the rigid bodies'
                         // poses are what the rigid stages left them
    double left() const { return h - t0; }
};

// A strike: node against the other side (an edge, or a circle's owner) at time τ from the base.
struct Strike {
    double tau = 0;
    std::size_t node = 0, owner = 0, edge = kNoEdge;
    double s = 0;   // the point of the edge, p = (1 − s) y + s z: α = 1 − s, β = s
    Vec2 n{0, 1};   // unit, from the other side to the node
    double gap = 0; // the node's distance from the other side along n
};

// A rigid body's inverse mass at a point along n (Hecker's Eq. 9, with the other body
// immovable): 1/m + (r × n)²/I.
struct Mover {
    double invMass, invInertia;
};
double rigidInverseMass(const Owner& o, Vec2 r, Vec2 n) {
    return impulseDenominator(Mover{o.invMass, o.invInertia}, Mover{0, 0}, r, r, n);
}

Vec2 at(const Node& n, double tau) {
    return n.x + tau * n.u;
}

// A rigid body, from its pose at the substep's start towards its pose at the step's end in a line.
void addRigid(Sweep& w, const Body& b, BodyId id, const Pose& start, const WorldSettings& s) {
    Owner o;
    o.id = id;
    o.body = &b;
    o.restitution = b.restitution.value_or(s.restitution);
    o.friction = b.friction.value_or(s.friction);
    o.outside = -1; // Shape keeps its vertices counter-clockwise
    o.invMass = b.invMass;
    o.invInertia = b.invInertia;
    o.p = start.xf.p;
    o.angle = start.angle;
    o.vl = (b.xf().p - start.xf.p) / w.untilEnd;
    o.wl = (b.angle() - start.angle) / w.untilEnd;
    o.firstNode = w.nodes.size();
    o.firstEdge = w.edges.size();
    const std::size_t self = w.owners.size();
    // One shape at the centre of mass: World refuses compound bodies beside soft bodies.
    const Shape& shape = soleShape(b);
    if (shape.type() == ShapeType::Circle) { // its centre, a node with the circle's radius
        w.nodes.push_back(Node{o.p, o.vl, self, 0, 0, Vec2{0, 0}, shape.radius()});
        o.nodes = 1;
        w.owners.push_back(o);
        return;
    }
    const auto& vertices = shape.vertices();
    for (std::size_t k = 0; k < vertices.size(); ++k) {
        const Vec2 x = start.xf.apply(vertices[k]);
        w.nodes.push_back(Node{x, o.vl + cross(o.wl, x - o.p), self, k, 0, Vec2{0, 0}, 0});
    }
    o.nodes = vertices.size();
    for (std::size_t k = 0; k < o.nodes; ++k)
        w.edges.push_back(Edge{o.firstNode + k, o.firstNode + (k + 1) % o.nodes, self});
    o.edges = o.nodes;
    w.owners.push_back(o);
}

void addSoft(Sweep& w, const SoftBody& b, SoftBodyId id, const WorldSettings& s,
             const Vec2* forced) {
    Owner o;
    o.soft = true;
    o.id = id;
    o.restitution = b.restitution.value_or(s.restitution);
    o.friction = b.friction.value_or(s.friction);
    o.firstNode = w.nodes.size();
    o.firstEdge = w.edges.size();
    const std::size_t self = w.owners.size();
    // Every particle is a node, the interior ones too: none may pass through an edge, even when
    // its body's boundary is stopped and it is flung on by its springs.
    for (std::size_t k = 0; k < b.particles.size(); ++k)
        w.nodes.push_back(Node{b.particles[k].x, b.particles[k].v, self, k, b.particles[k].invMass,
                               forced[k], 0});
    o.nodes = b.particles.size();
    o.edges = b.edgeCount();
    const std::size_t n = b.boundary.size();
    for (std::size_t k = 0; k < o.edges; ++k)
        w.edges.push_back(
            Edge{o.firstNode + b.boundary[k], o.firstNode + b.boundary[(k + 1) % n], self});
    if (b.closed) { // the outline's winding, from its signed area (shoelace formula)
        double area2 = 0;
        for (std::size_t k = 0; k < n; ++k)
            area2 += cross(b.particles[b.boundary[k]].x, b.particles[b.boundary[(k + 1) % n]].x);
        o.outside = area2 > 0 ? -1 : area2 < 0 ? 1 : 0;
    }
    w.owners.push_back(o);
}

// The box each node, edge and owner sweeps over what is left of the substep, grown by the margin.
void measureBoxes(Sweep& w) {
    const double T = w.left();
    w.nodeBoxes.resize(w.nodes.size());
    for (std::size_t k = 0; k < w.nodes.size(); ++k) {
        const Node& n = w.nodes[k];
        const Vec2 end = at(n, T), grow(n.radius + kSoftMargin);
        w.nodeBoxes[k] = Box{glm::min(n.x, end) - grow, glm::max(n.x, end) + grow};
    }
    w.edgeBoxes.resize(w.edges.size());
    for (std::size_t k = 0; k < w.edges.size(); ++k) {
        const Box &y = w.nodeBoxes[w.edges[k].y], &z = w.nodeBoxes[w.edges[k].z];
        w.edgeBoxes[k] = Box{glm::min(y.lo, z.lo), glm::max(y.hi, z.hi)};
    }
    for (Owner& o : w.owners) {
        Box b{Vec2{INFINITY, INFINITY}, Vec2{-INFINITY, -INFINITY}};
        for (std::size_t k = o.firstNode; k < o.firstNode + o.nodes; ++k)
            b = Box{glm::min(b.lo, w.nodeBoxes[k].lo), glm::max(b.hi, w.nodeBoxes[k].hi)};
        o.lo = b.lo;
        o.hi = b.hi;
    }
}

bool overlap(const Box& a, const Box& b) {
    return a.lo.x <= b.hi.x && b.lo.x <= a.hi.x && a.lo.y <= b.hi.y && b.lo.y <= a.hi.y;
}

bool overlap(const Owner& a, const Owner& b) {
    return a.lo.x <= b.hi.x && b.lo.x <= a.hi.x && a.lo.y <= b.hi.y && b.lo.y <= a.hi.y;
}

bool isCircle(const Owner& o) {
    return !o.soft && soleShape(*o.body).type() == ShapeType::Circle;
}

// The side of edge e that node x is on, +1 or −1 as the sign of (z − y) × (x − y); 0 unknown.
// A node of the edge's own body is kept on whichever side it is (two-sided: a squashed body's
// particles come at its far edges from inside it), as is any node against an open chain.
int sideOf(const Owner& edgeOwner, bool self, double f) {
    if (edgeOwner.outside != 0 && !self) return edgeOwner.outside;
    return (f > 0) - (f < 0);
}

// The first time in [0, T] that node x (a circle's centre: its circle) comes within kSoftThickness
// of edge (y, z)'s line between its ends, from the side it starts on. f(τ) = (z − y) × (x − y) is
// quadratic in τ.
std::optional<Strike> sweepEdge(const Sweep& w, std::size_t ni, std::size_t ei, double T) {
    const Node &x = w.nodes[ni], &y = w.nodes[w.edges[ei].y], &z = w.nodes[w.edges[ei].z];
    const Owner& owner = w.owners[w.edges[ei].owner];
    const Vec2 a = y.x - x.x, b = z.x - x.x, da = y.u - x.u, db = z.u - x.u;
    const double c0 = cross(a, b), c1 = cross(a, db) + cross(da, b), c2 = cross(da, db);
    const int side = sideOf(owner, x.owner == w.edges[ei].owner, c0);
    const double length = glm::length(z.x - y.x);
    if (side == 0 || length == 0) return std::nullopt;
    // The node's distance from the line is side f / |z − y|; a circle's centre (radius ρ) is
    // stopped at ρ plus the thickness (or halfway, when it starts closer), a point at the
    // thickness. One on the line, past it or overlapping the edge is left to leave.
    const double start = side * c0 / length, radius = x.radius;
    if (start <= radius) return std::nullopt;
    if (start - radius < kSoftThickness) {
        // Closer than the thickness already: struck now if it approaches, so that it comes no
        // closer (halfway at every strike, a node pressed on an edge substep after substep would
        // creep onto it). Its approach rate ġ = σ f'/|e| − g (e · e')/|e|² (approachRate).
        const Vec2 e = z.x - y.x, de = z.u - y.u;
        const double s0 = glm::dot(x.x - y.x, e) / (length * length);
        const double approach = side * c1 / length - (start * glm::dot(e, de)) / (length * length);
        if (s0 >= 0 && s0 <= 1 && approach < -kSoftCreep)
            return Strike{
                0, ni, w.edges[ei].owner, ei, s0, double(side) * perp(e) / length, start - radius};
    }
    const double stop = radius + std::min(kSoftThickness, (start - radius) / 2);
    const double target = side * stop * length;
    double roots[2];
    const int n = quadraticRootsIn(c2, c1, c0 - target, T, roots);
    for (int k = 0; k < n; ++k) {
        const double tau = roots[k];
        const Vec2 py = at(y, tau), e = at(z, tau) - py;
        const double len2 = lengthSquared(e);
        if (len2 == 0) continue;
        const double s = glm::dot(at(x, tau) - py, e) / len2;
        if (s < 0 || s > 1) continue;
        const Vec2 normal = double(side) * perp(e) / std::sqrt(len2);
        return Strike{tau, ni, w.edges[ei].owner, ei, s, normal, stop - radius};
    }
    return std::nullopt;
}

// The first time in [0, T] that node x comes within kSoftThickness of circle o (or halfway, when it
// starts closer): |q0 + τ dq|² = R² for q the node's position from the centre.
std::optional<Strike> sweepCircle(const Sweep& w, std::size_t ni, std::size_t oi, double T) {
    const Node& x = w.nodes[ni];
    const Owner& o = w.owners[oi];
    const double r = soleShape(*o.body).radius();
    const Vec2 q0 = x.x - o.p, dq = x.u - o.vl;
    const double d0 = glm::length(q0);
    if (d0 <= r) return std::nullopt; // inside: it leaves
    const double R = r + std::min(kSoftThickness, (d0 - r) / 2);
    double roots[2];
    if (quadraticRootsIn(lengthSquared(dq), 2 * glm::dot(q0, dq), d0 * d0 - R * R, T, roots) == 0)
        return std::nullopt;
    const Vec2 q = q0 + roots[0] * dq;
    return Strike{roots[0], ni, oi, kNoEdge, 0, q / glm::length(q), R - r};
}

// Every node against every edge (or circle) of an owner whose sweep's box meets its own, rigid
// against rigid left out, and a soft body's particles against its own boundary edges but those
// they end (self-collision: a crushed or dragged body springs back instead of folding through
// itself; a particle inside its body is on the inner side of every edge's line, which the sweep
// and the contacts leave alone): visit(node, owner, edge or kNoEdge for a circle).
template <class Visit> void forEachPair(Sweep& w, Visit visit) {
    measureBoxes(w);
    for (std::size_t ni = 0; ni < w.nodes.size(); ++ni) {
        const Owner& mine = w.owners[w.nodes[ni].owner];
        for (std::size_t oi = 0; oi < w.owners.size(); ++oi) {
            const Owner& other = w.owners[oi];
            const bool self = oi == w.nodes[ni].owner;
            if ((self && !mine.soft) || (!mine.soft && !other.soft) || !overlap(mine, other))
                continue;
            if (isCircle(other)) {
                visit(ni, oi, kNoEdge);
                continue;
            }
            const Box& mineBox = w.nodeBoxes[ni];
            for (std::size_t ei = other.firstEdge; ei < other.firstEdge + other.edges; ++ei)
                if (overlap(mineBox, w.edgeBoxes[ei]) &&
                    (!self || (w.edges[ei].y != ni && w.edges[ei].z != ni)))
                    visit(ni, oi, ei);
        }
    }
}

// A contact within the margin now (τ = 0): a node near an edge's line between its ends, on its
// own side or just past it; a particle near a circle.
std::optional<Strike> proximity(const Sweep& w, std::size_t ni, std::size_t oi, std::size_t ei) {
    const Node& x = w.nodes[ni];
    const Owner& o = w.owners[oi];
    if (ei == kNoEdge) {
        const Vec2 q = x.x - o.p;
        const double d = glm::length(q);
        const double gap = d - soleShape(*o.body).radius();
        if (d == 0 || gap >= kSoftMargin) return std::nullopt;
        return Strike{0, ni, oi, kNoEdge, 0, q / d, gap};
    }
    const Node &y = w.nodes[w.edges[ei].y], &z = w.nodes[w.edges[ei].z];
    const Vec2 e = z.x - y.x;
    const double len2 = lengthSquared(e);
    if (len2 == 0) return std::nullopt;
    const double s = glm::dot(x.x - y.x, e) / len2;
    if (s < 0 || s > 1) return std::nullopt;
    const double length = std::sqrt(len2), f = cross(e, x.x - y.x);
    const int side = sideOf(o, x.owner == oi, f);
    if (side == 0) return std::nullopt;
    // < 0: the node just past the line (or the circle over it)
    const double gap = side * f / length - x.radius;
    if (gap >= kSoftMargin || gap <= -kSoftMargin) return std::nullopt;
    return Strike{0, ni, oi, ei, s, double(side) * perp(e) / length, gap};
}

// ---- striking ----

// The other side's point of a strike at its time, its velocity, and its inverse mass along d.
Vec2 otherPoint(const Sweep& w, const Strike& k) {
    if (k.edge == kNoEdge) { // a circle's surface
        const Owner& o = w.owners[k.owner];
        return o.p + k.tau * o.vl + soleShape(*o.body).radius() * k.n;
    }
    const Edge& e = w.edges[k.edge];
    return (1 - k.s) * at(w.nodes[e.y], k.tau) + k.s * at(w.nodes[e.z], k.tau);
}

Vec2 otherVelocity(const Sweep& w, const Strike& k, Vec2 point) {
    const Owner& o = w.owners[k.owner];
    if (k.edge == kNoEdge) return o.vl + cross(o.wl, point - (o.p + k.tau * o.vl));
    const Edge& e = w.edges[k.edge];
    return (1 - k.s) * w.nodes[e.y].u + k.s * w.nodes[e.z].u;
}

double otherInverseMass(const Sweep& w, const Strike& k, Vec2 point, Vec2 d) {
    const Owner& o = w.owners[k.owner];
    if (!o.soft) return rigidInverseMass(o, point - (o.p + k.tau * o.vl), d);
    const Edge& e = w.edges[k.edge];
    const double alpha = 1 - k.s, beta = k.s; // α²/m_y + β²/m_z
    return alpha * alpha * w.nodes[e.y].invMass + beta * beta * w.nodes[e.z].invMass;
}

// The node's point of contact from its rigid owner's centre (a circle's: its radius towards the
// edge), and that point's velocity.
Vec2 nodeArm(const Sweep& w, const Strike& k) {
    const Node& x = w.nodes[k.node];
    const Owner& o = w.owners[x.owner];
    return at(x, k.tau) - x.radius * k.n - (o.p + k.tau * o.vl);
}

Vec2 nodeVelocity(const Sweep& w, const Strike& k) {
    const Node& x = w.nodes[k.node];
    if (x.radius == 0) return x.u;
    const Owner& o = w.owners[x.owner];
    return o.vl + cross(o.wl, nodeArm(w, k));
}

double nodeInverseMass(const Sweep& w, const Strike& k, Vec2 d) {
    const Node& x = w.nodes[k.node];
    const Owner& o = w.owners[x.owner];
    return o.soft ? x.invMass : rigidInverseMass(o, nodeArm(w, k), d);
}

// A rigid owner's velocity changed by an impulse P at a point r from its centre: its nodes move
// on with the new velocity over what is left of the step, and so does its pose.
void pushRigid(Sweep& w, Owner& o, Vec2 r, Vec2 P) {
    if (o.invMass == 0) return;
    const Vec2 dv = o.invMass * P;
    const double dw = o.invInertia * cross(r, P);
    o.vl += dv;
    o.wl += dw;
    o.dv += dv;
    o.dw += dw;
    o.dp += (w.untilEnd - w.t0) * dv; // the step's end pose moves with it
    o.dAngle += (w.untilEnd - w.t0) * dw;
    o.struck = true;
    for (std::size_t k = o.firstNode; k < o.firstNode + o.nodes; ++k)
        w.nodes[k].u = o.vl + cross(o.wl, w.nodes[k].x - o.p);
}

// The impulse P on the node and −P on the other side (split barycentrically over an edge's ends).
void applyImpulse(Sweep& w, const Strike& k, Vec2 point, Vec2 P) {
    Node& x = w.nodes[k.node];
    Owner& mine = w.owners[x.owner];
    if (mine.soft)
        x.u += x.invMass * P; // γ_x = γ
    else
        pushRigid(w, mine, nodeArm(w, k), P);
    Owner& other = w.owners[k.owner];
    if (!other.soft) {
        pushRigid(w, other, point - (other.p + k.tau * other.vl), -P);
        return;
    }
    const Edge& e = w.edges[k.edge];
    w.nodes[e.y].u -= (1 - k.s) * w.nodes[e.y].invMass * P; // γ_y = −α γ
    w.nodes[e.z].u -= k.s * w.nodes[e.z].invMass * P;       // γ_z = −β γ
}

// The velocity change this step's forces gave the other side's point (a soft edge's; a rigid
// body's gravity adds less than the restitution threshold in a step and is left out).
Vec2 otherForced(const Sweep& w, const Strike& k) {
    if (k.edge == kNoEdge || !w.owners[k.owner].soft) return {0, 0};
    const Edge& e = w.edges[k.edge];
    return (1 - k.s) * w.nodes[e.y].forced + k.s * w.nodes[e.z].forced;
}

Vec2 relativeVelocity(const Sweep& w, const Strike& k, Vec2 point) {
    return nodeVelocity(w, k) - otherVelocity(w, k, point);
}

// 1 / m_eff along d: 1/m_x + α²/m_y + β²/m_z, a rigid side's by Hecker's Eq. 9.
double inverseMassAlong(const Sweep& w, const Strike& k, Vec2 point, Vec2 d) {
    return nodeInverseMass(w, k, d) + otherInverseMass(w, k, point, d);
}

// How fast the node's distance from the other side grows, ġ (< 0: approaching). For a circle
// it is the relative velocity along n. For an edge it also has the edge's turning and stretching:
// with f = (z − y) × (x − y) = σ g |z − y| (σ the node's side), ġ = σ f'/|e| − g (e · e')/|e|²,
// which may be negative while v_n is not, when an edge turns onto a node at the thickness. An
// impulse γ along n changes ġ by γ (1/m_x + α²/m_y + β²/m_z), as it does v_n, so that the
// strike's formula holds with ġ for v_n.
double approachRate(const Sweep& w, const Strike& k, Vec2 point) {
    if (k.edge == kNoEdge) return glm::dot(relativeVelocity(w, k, point), k.n);
    const Node &x = w.nodes[k.node], &y = w.nodes[w.edges[k.edge].y],
               &z = w.nodes[w.edges[k.edge].z];
    const Vec2 py = at(y, k.tau), e = at(z, k.tau) - py, de = z.u - y.u;
    const double len2 = lengthSquared(e), f = cross(e, at(x, k.tau) - py);
    const double df = cross(de, at(x, k.tau) - py) + cross(e, x.u - y.u);
    const double side = glm::dot(k.n, perp(e)) > 0 ? 1 : -1;
    return side * df / std::sqrt(len2) - side * f * glm::dot(e, de) / (len2 * std::sqrt(len2));
}

// Whether a contact is an impact, which bounces (restitution e): the node approached faster than
// the restitution threshold before this step's forces. Otherwise it is a resting contact, which
// does not (e = 0): a particle under the weight of the body above it is pushed towards the floor
// anew every step, by more than the threshold in a stiff body, and would bounce for ever.
bool isImpact(const Sweep& w, const Strike& k, Vec2 point, const WorldSettings& s) {
    const double vn = approachRate(w, k, point);
    const double before = vn - glm::dot(w.nodes[k.node].forced - otherForced(w, k), k.n);
    return vn < 0 && -before >= s.restitutionThreshold;
}

// A strike of the sweep, with the velocities as they are now (v_n: the approach rate ġ): the
// impulse γ = (target − v_n) m_eff, which is −(1 + e) m_eff v_n for an impact and stops a resting
// contact, then Coulomb friction along the tangential relative velocity left: at most μ γ, and no
// more than stops it (−m_t v_t). Returns 1 for an impact, 2 for a resting contact, 0 when the
// node was not approaching.
int strike(Sweep& w, const Strike& k, const WorldSettings& s) {
    const Owner &mine = w.owners[w.nodes[k.node].owner], &other = w.owners[k.owner];
    const Vec2 point = otherPoint(w, k);
    const double vn = approachRate(w, k, point);
    const bool impact = isImpact(w, k, point, s);
    const double e = impact ? mix(s.restitutionMix, mine.restitution, other.restitution) : 0;
    const double target = -e * vn;
    if (vn >= target) return 0;
    const double inverseMass = inverseMassAlong(w, k, point, k.n);
    if (inverseMass == 0) return 0;
    const double gamma = (target - vn) / inverseMass;
    applyImpulse(w, k, point, gamma * k.n);
    const double mu = mix(s.frictionMix, mine.friction, other.friction);
    const Vec2 after = relativeVelocity(w, k, point);
    const Vec2 vt = after - glm::dot(after, k.n) * k.n;
    const double speed = glm::length(vt);
    if (mu > 0 && speed > 0) {
        const Vec2 t = vt / speed;
        const double kt = inverseMassAlong(w, k, point, t);
        if (kt > 0) applyImpulse(w, k, point, -std::min(mu * gamma, speed / kt) * t);
    }
    return impact ? 1 : 2;
}

// The resting contacts within the margin at the step's start, held together by sequential
// impulses (Catto, as sequential_impulses.cpp: accumulated impulses clamped, the normal one ≥ 0,
// the friction one within μ of it), settings' velocity_iterations passes: one pass alone leaves the
// contacts of a loaded body fighting each other, and it creeps. Each lets its node come as close
// as the thickness by the end of the step and no closer (a speculative contact, as Box2D's), so
// that a loaded particle stays in contact from step to step instead of leaving the margin and
// falling back. Impacts are left to the sweep, which strikes them at their instant.
struct Held {
    Strike k;
    Vec2 point, t;
    double normalMass, tangentMass, mu, target;
    double normal = 0, tangent = 0; // accumulated impulses
};

int holdRestingContacts(Sweep& w, const WorldSettings& s) {
    std::vector<Held> held;
    forEachPair(w, [&](std::size_t ni, std::size_t oi, std::size_t ei) {
        const std::optional<Strike> k = proximity(w, ni, oi, ei);
        if (!k) return;
        const Vec2 point = otherPoint(w, *k);
        if (isImpact(w, *k, point, s)) return;
        const double kn = inverseMassAlong(w, *k, point, k->n);
        const Vec2 t = tangentOf(k->n);
        const double kt = inverseMassAlong(w, *k, point, t);
        if (kn == 0) return;
        held.push_back(Held{*k, point, t, 1 / kn, kt > 0 ? 1 / kt : 0,
                            mix(s.frictionMix, w.owners[w.nodes[k->node].owner].friction,
                                w.owners[k->owner].friction),
                            -std::max(0.0, k->gap - kSoftThickness) / w.h});
    });
    for (int pass = 0; pass < s.velocityIterations; ++pass)
        for (Held& c : held) {
            const Vec2 v = relativeVelocity(w, c.k, c.point);
            const double normal =
                nextNormalImpulse(c.normal, c.normalMass, c.target, glm::dot(v, c.k.n));
            applyImpulse(w, c.k, c.point, (normal - c.normal) * c.k.n);
            c.normal = normal;
            const double vt = glm::dot(relativeVelocity(w, c.k, c.point), c.t);
            const double tangent =
                nextTangentImpulse(c.tangent, c.tangentMass, vt, c.mu * c.normal);
            applyImpulse(w, c.k, c.point, (tangent - c.tangent) * c.t);
            c.tangent = tangent;
        }
    return int(held.size());
}

std::optional<Strike> sweepPair(const Sweep& w, std::size_t ni, std::size_t oi, std::size_t ei) {
    return ei == kNoEdge ? sweepCircle(w, ni, oi, w.left()) : sweepEdge(w, ni, ei, w.left());
}

std::optional<Strike> firstStrike(Sweep& w) {
    std::optional<Strike> first;
    forEachPair(w, [&](std::size_t ni, std::size_t oi, std::size_t ei) {
        if (auto k = sweepPair(w, ni, oi, ei); k && (!first || k->tau < first->tau)) first = k;
    });
    return first;
}

// Every node and rigid owner moved on by τ; the sweep's base time with them.
void advance(Sweep& w, double tau) {
    for (Node& n : w.nodes)
        n.x += tau * n.u;
    for (Owner& o : w.owners) {
        o.p += tau * o.vl;
        o.angle += tau * o.wl;
    }
    w.t0 += tau;
}

using Counts = SoftCollisionCounts;

void count(Counts& c, int struck) {
    c.impacts += struck == 1;
    c.contacts += struck != 0;
}

// Sequential: advance to the first strike, resolve it, sweep again from there.
bool resolveSequentially(Sweep& w, const WorldSettings& s, Counts& counts) {
    for (int n = 0; n < kMaxSequentialStrikes; ++n) {
        const std::optional<Strike> k = firstStrike(w);
        if (!k) return true;
        advance(w, k->tau);
        Strike now = *k;
        now.tau = 0;
        const int struck = strike(w, now, s);
        if (struck == 0) return false; // found approaching, yet not: round-off; stop here
        count(counts, struck);
    }
    return false;
}

// Parallel: every strike the sweep finds, in time order, with the velocities as the earlier
// ones left them; then the sweep again, until it finds none.
bool resolveInParallel(Sweep& w, const WorldSettings& s, Counts& counts) {
    std::vector<Strike> strikes;
    for (int pass = 0; pass < kMaxParallelSweeps; ++pass) {
        strikes.clear();
        forEachPair(w, [&](std::size_t ni, std::size_t oi, std::size_t ei) {
            if (auto k = sweepPair(w, ni, oi, ei)) strikes.push_back(*k);
        });
        if (strikes.empty()) return true;
        std::stable_sort(strikes.begin(), strikes.end(),
                         [](const Strike& a, const Strike& b) { return a.tau < b.tau; });
        int struck = 0;
        for (const Strike& k : strikes) {
            const int r = strike(w, k, s);
            struck += r != 0;
            count(counts, r);
        }
        if (struck == 0) return false; // found approaching, yet none was: round-off; stop here
    }
    return false;
}

// The last resort, after the sweeps' bound: the soft particles stop at their first strike, where
// every one is still on its own side (the rigid bodies keep their motion).
// Their velocities stay, for the next substep to resolve.
void stopAtFirstStrike(Sweep& w) {
    const std::optional<Strike> k = firstStrike(w);
    const double tau = k ? k->tau : w.left();
    for (Node& n : w.nodes)
        if (w.owners[n.owner].soft) n.x += tau * n.u;
    for (Owner& o : w.owners) {
        o.p += w.left() * o.vl;
        o.angle += w.left() * o.wl;
    }
}

} // namespace

void collideSoftSubstep(StepContext& c, std::vector<SoftBody>& soft, std::vector<Pose>& from,
                        double hs, double untilEnd, const std::vector<Vec2>& forced,
                        SoftCollisionCounts& counts) {
    Sweep w;
    w.h = hs;
    w.untilEnd = untilEnd;
    for (SoftBodyId id = 0, first = 0; id < soft.size(); first += soft[id++].particles.size())
        addSoft(w, soft[id], id, c.settings, &forced[first]);
    measureBoxes(w);
    Owner all; // the box of every soft body's sweep: the rigid bodies that may touch them
    all.lo = Vec2(INFINITY), all.hi = Vec2(-INFINITY);
    for (const Owner& o : w.owners)
        all.lo = glm::min(all.lo, o.lo), all.hi = glm::max(all.hi, o.hi);
    std::vector<std::size_t> ownerOf(c.bodies.size(), kNotSwept); // a rigid body's owner
    for (BodyId id = 0; id < c.bodies.size(); ++id) {
        const Body& b = c.bodies[id];
        const double r = b.boundingRadius();
        Owner box;
        box.lo = glm::min(from[id].xf.p, b.xf().p) - Vec2(r);
        box.hi = glm::max(from[id].xf.p, b.xf().p) + Vec2(r);
        if (!overlap(box, all)) continue;
        ownerOf[id] = w.owners.size();
        addRigid(w, b, id, from[id], c.settings);
    }

    auto kinetic = [&] {
        double e = kineticEnergy(c.bodies);
        for (const SoftBody& b : soft)
            e += b.kineticEnergy();
        return e;
    };
    const double ke = kinetic();
    const int impacts = counts.impacts;
    counts.contacts += holdRestingContacts(w, c.settings);
    const bool settled = c.settings.softResolution == SoftResolution::Sequential
                             ? resolveSequentially(w, c.settings, counts)
                             : resolveInParallel(w, c.settings, counts);
    if (settled)
        advance(w, w.left());
    else
        stopAtFirstStrike(w);

    // Back to the bodies: the particles from their nodes; rigid bodies struck keep their new
    // velocity and the change it made to their pose at the step's end. Each rigid body's pose at
    // the next substep's start: where the sweep left it, or a substep's share of its way on.
    for (const Node& n : w.nodes) {
        const Owner& o = w.owners[n.owner];
        if (!o.soft) continue;
        Particle& p = soft[o.id].particles[n.index];
        p.x = n.x;
        p.v = n.u;
    }
    for (BodyId id = 0; id < c.bodies.size(); ++id) {
        Body& b = c.bodies[id];
        if (ownerOf[id] == kNotSwept) {
            const double share = hs / untilEnd;
            from[id].xf.p += share * (b.xf().p - from[id].xf.p);
            from[id].angle += share * (b.angle() - from[id].angle);
        } else {
            const Owner& o = w.owners[ownerOf[id]];
            if (o.struck) {
                b.v += o.dv;
                b.w += o.dw;
                b.setPose(b.xf().p + o.dp, b.angle() + o.dAngle);
            }
            from[id].xf.p = o.p;
            from[id].angle = o.angle;
        }
        from[id].xf.q = Rot(from[id].angle);
    }
    if (counts.impacts > impacts) c.diagnostics.collisionEnergy += kinetic() - ke;
}

} // namespace carom
