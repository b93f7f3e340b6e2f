// Drawing the world. Everything goes through ImDrawList (one vertex buffer, few draw calls);
// positions are converted from metres to pixels by the camera only here.
#include "renderer.h"

#include "circle_segments.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace app {
namespace {

using carom::Body;
using carom::Vec2;

constexpr int kMaxTrailBodies = 40; // trails for more bodies would cost more than they show
constexpr double kMaxArrow = 4.0;   // metres: longer force arrows are clipped to this
// Scenes with more dynamic bodies than this draw them in one batch of plain triangles: no
// anti-aliased fringes, and outlines only where a body is big enough on screen to show one
// (thousands of boxes drawn with both cost tens of milliseconds in software OpenGL).
constexpr int kCrowd = 300;
constexpr float kOutlinePixels = 8; // bodies smaller than this on screen are drawn without outline

struct Palette {
    ImU32 background, wallFill, wallLine, text, selection;
};
Palette palette(bool light) {
    if (light)
        return {IM_COL32(250, 250, 250, 255), IM_COL32(170, 170, 178, 255),
                IM_COL32(120, 120, 130, 255), IM_COL32(20, 20, 20, 255),
                IM_COL32(230, 120, 0, 255)};
    return {IM_COL32(28, 30, 36, 255), IM_COL32(74, 78, 90, 255), IM_COL32(110, 115, 130, 255),
            IM_COL32(235, 235, 235, 255), IM_COL32(255, 220, 60, 255)};
}

// Body colours: distinct hues, the same body keeps its colour.
ImU32 bodyColor(std::size_t i, int alpha) {
    static constexpr unsigned char rgb[][3] = {{66, 135, 245}, {235, 87, 87},  {39, 174, 96},
                                               {242, 153, 74}, {155, 81, 224}, {45, 190, 200},
                                               {235, 200, 60}, {200, 100, 160}};
    const auto& c = rgb[i % 8];
    return IM_COL32(c[0], c[1], c[2], alpha);
}

void arrow(ImDrawList* dl, const Camera& cam, Vec2 from, Vec2 vec, ImU32 col, float thick = 2) {
    const double len = glm::length(vec);
    if (!(len > 1e-9)) return;
    if (len > kMaxArrow) vec *= kMaxArrow / len;
    const ImVec2 a = cam.toScreen(from), b = cam.toScreen(from + vec);
    const float dx = b.x - a.x, dy = b.y - a.y, l = std::sqrt(dx * dx + dy * dy);
    if (l < 2) return;
    const float ux = dx / l, uy = dy / l, head = std::min(10.0f, 0.4f * l);
    dl->AddLine(a, {b.x - ux * head * 0.8f, b.y - uy * head * 0.8f}, col, thick);
    dl->AddTriangleFilled(
        b, {b.x - ux * head - uy * head * 0.5f, b.y - uy * head + ux * head * 0.5f},
        {b.x - ux * head + uy * head * 0.5f, b.y - uy * head - ux * head * 0.5f}, col);
}

// A shape drawn at the pose xf.
void drawShape(ImDrawList* dl, const Camera& cam, const carom::Shape& shape,
               const carom::Transform& xf, ImU32 fill, ImU32 line, float thick, bool outline) {
    if (shape.type() == carom::ShapeType::Circle) {
        const ImVec2 c = cam.toScreen(xf.p);
        const float r = float(shape.radius() * cam.scale);
        const int segs = circleSegments(r); // round at any zoom (circle_segments.h)
        dl->AddCircleFilled(c, r, fill, segs);
        if (!outline) return;
        dl->AddCircle(c, r, line, segs, thick);
        // A radius shows the rotation.
        dl->AddLine(c, cam.toScreen(xf.apply({shape.radius(), 0})), line, thick);
        return;
    }
    if (shape.type() == carom::ShapeType::Segment) { // a line: its outline colour, filled
        const float width = std::max(thick, 2.0f);
        dl->AddLine(cam.toScreen(xf.apply(shape.vertices()[0])),
                    cam.toScreen(xf.apply(shape.vertices()[1])), outline ? line : fill, width);
        return;
    }
    ImVec2 pts[64];
    int n = 0;
    if (shape.type() == carom::ShapeType::Capsule) {
        // Its outline: the half circle about each end's centre, the right one from −90° to 90°,
        // the left one from 90° to 270°; the straight sides join them.
        constexpr int kArc = 16;
        const double r = shape.radius(), half = shape.length() / 2;
        for (int side = 0; side < 2; ++side)
            for (int k = 0; k <= kArc; ++k) {
                const double a = M_PI * (side - 0.5 + double(k) / kArc);
                const carom::Vec2 centre{side == 0 ? half : -half, 0};
                pts[n++] =
                    cam.toScreen(xf.apply(centre + r * carom::Vec2{std::cos(a), std::sin(a)}));
            }
    } else {
        const auto& vs = shape.vertices();
        n = int(std::min<std::size_t>(vs.size(), 64));
        for (int i = 0; i < n; ++i)
            pts[i] = cam.toScreen(xf.apply(vs[i]));
    }
    dl->AddConvexPolyFilled(pts, n, fill);
    if (outline) dl->AddPolyline(pts, n, line, ImDrawFlags_Closed, thick);
}

// b drawn at the pose xf (between the last step's start and end: Stepper::drawPoses), each of a
// compound body's shapes where it holds it.
void drawBody(ImDrawList* dl, const Camera& cam, const Body& b, const carom::Transform& xf,
              ImU32 fill, ImU32 line, float thick, bool outline = true) {
    for (const carom::BodyShape& s : b.shapes)
        drawShape(dl, cam, s.shape, carom::placeShape(xf, s), fill, line, thick, outline);
}

// The triangles of a simple polygon (screen points, either winding) by ear clipping: a
// corner whose triangle turns the polygon's way and holds no other point is cut off, O(n²) per
// polygon. Appends index triples into tris; a polygon it cannot finish (a degenerate outline) is
// left with what was cut.
void triangulate(const std::vector<ImVec2>& p, std::vector<int>& tris) {
    const int n = int(p.size());
    auto cross = [&](int a, int b, int c) {
        return (p[b].x - p[a].x) * (p[c].y - p[a].y) - (p[b].y - p[a].y) * (p[c].x - p[a].x);
    };
    double area = 0;
    for (int i = 0; i < n; ++i)
        area += double(p[i].x) * p[(i + 1) % n].y - double(p[(i + 1) % n].x) * p[i].y;
    const float turn = area > 0 ? 1.0f : -1.0f;
    std::vector<int> left(n);
    for (int i = 0; i < n; ++i)
        left[i] = i;
    int guard = 0;
    for (int i = 0; left.size() > 3 && guard < 2 * int(left.size());) {
        const int m = int(left.size());
        const int a = left[(i + m - 1) % m], b = left[i % m], c = left[(i + 1) % m];
        bool ear = turn * cross(a, b, c) > 0;
        for (int k = 0; ear && k < m; ++k) {
            const int q = left[k];
            if (q == a || q == b || q == c) continue;
            ear = !(turn * cross(a, b, q) >= 0 && turn * cross(b, c, q) >= 0 &&
                    turn * cross(c, a, q) >= 0);
        }
        if (ear) {
            tris.insert(tris.end(), {a, b, c});
            left.erase(left.begin() + i % m);
            guard = 0;
        } else {
            i = (i + 1) % m;
            ++guard;
        }
    }
    if (left.size() == 3) tris.insert(tris.end(), {left[0], left[1], left[2]});
}

// Soft bodies: the springs faintly, the boundary filled (closed) or as a thick line (open), and
// the particles as dots when they are far enough apart on screen to show.
void drawSoftBodies(ImDrawList* dl, const Session& s, const Camera& cam, std::size_t firstColour,
                    const Palette& pal) {
    std::vector<ImVec2> pts;
    std::vector<int> tris;
    const auto& soft = s.world.softBodies();
    for (std::size_t id = 0; id < soft.size(); ++id) {
        const carom::SoftBody& b = soft[id];
        const bool selected = s.selectedSoft && *s.selectedSoft == id;
        const ImU32 line = bodyColor(firstColour + id, 255);
        // Opaque, the colour mixed with the background: a translucent fill would show the seams
        // between its triangles, where both cover a pixel.
        const ImVec4 a = ImGui::ColorConvertU32ToFloat4(line);
        const ImVec4 bg = ImGui::ColorConvertU32ToFloat4(pal.background);
        const float k = 0.45f;
        const ImU32 fill = ImGui::ColorConvertFloat4ToU32(
            {k * a.x + (1 - k) * bg.x, k * a.y + (1 - k) * bg.y, k * a.z + (1 - k) * bg.z, 1});
        pts.clear();
        for (std::size_t k : b.boundary)
            pts.push_back(cam.toScreen(b.particles[k].x));
        if (b.closed) { // without anti-aliasing, whose fringes would show the seams too
            tris.clear();
            triangulate(pts, tris);
            const ImDrawListFlags flags = dl->Flags;
            dl->Flags &= ~ImDrawListFlags_AntiAliasedFill;
            for (std::size_t t = 0; t + 2 < tris.size(); t += 3)
                dl->AddTriangleFilled(pts[tris[t]], pts[tris[t + 1]], pts[tris[t + 2]], fill);
            dl->Flags = flags;
        }
        for (const carom::Spring& sp : b.springs)
            dl->AddLine(cam.toScreen(b.particles[sp.i].x), cam.toScreen(b.particles[sp.j].x),
                        bodyColor(firstColour + id, 60), 1.0f);
        const ImU32 outline = selected ? pal.selection : line;
        const float thick = selected ? 3.0f : b.closed ? 1.5f : 3.0f;
        if (pts.size() > 1)
            dl->AddPolyline(pts.data(), int(pts.size()), outline,
                            b.closed ? ImDrawFlags_Closed : ImDrawFlags_None, thick);
        const float radius = 2.5f;
        for (const ImVec2& q : pts)
            dl->AddCircleFilled(q, pts.size() == 1 ? 2 * radius : radius, outline, 8);
    }
}

void updateTrails(Trails& t, const Session& s, int length) {
    const auto& bodies = s.world.bodies();
    // A rebuild, or a jump to another moment (the timeline): the trails begin again.
    if (t.generation != s.generation || t.jumps != s.jumps || t.points.size() != bodies.size() ||
        (!t.points.empty() && t.points[0].size() != std::size_t(length))) {
        t.generation = s.generation;
        t.jumps = s.jumps;
        t.points.assign(bodies.size(), std::vector<Vec2>(std::size_t(length)));
        t.head = t.count = 0;
        t.lastTime = -1;
    }
    if (s.world.time() == t.lastTime) return;
    t.lastTime = s.world.time();
    int drawn = 0;
    for (std::size_t i = 0; i < bodies.size() && drawn < kMaxTrailBodies; ++i) {
        if (!bodies[i].isDynamic()) continue;
        t.points[i][t.head] = bodies[i].xf().p;
        ++drawn;
    }
    t.head = (t.head + 1) % std::size_t(length);
    t.count = std::min(t.count + 1, std::size_t(length));
}

void drawTrails(ImDrawList* dl, Trails& t, const Session& s, const Camera& cam) {
    const std::size_t len = t.points.empty() ? 0 : t.points[0].size();
    if (t.count < 2) return;
    std::vector<ImVec2>& pts = t.scratch;
    pts.resize(t.count);
    int drawn = 0;
    for (std::size_t i = 0; i < t.points.size() && drawn < kMaxTrailBodies; ++i) {
        if (!s.world.body(i).isDynamic()) continue;
        ++drawn;
        for (std::size_t k = 0; k < t.count; ++k)
            pts[k] = cam.toScreen(t.points[i][(t.head + len - t.count + k) % len]);
        dl->AddPolyline(pts.data(), int(t.count), bodyColor(i, 110), 0, 1.5f);
    }
}

void drawContacts(ImDrawList* dl, const carom::World& w, const Camera& cam) {
    for (const carom::Manifold& m : w.contacts())
        for (int k = 0; k < m.count; ++k) {
            const carom::ContactPoint& p = m.points[k];
            if (p.depth < -0.02) continue; // speculative points that do not touch
            const ImVec2 c = cam.toScreen(p.point);
            dl->AddLine(c, cam.toScreen(p.point + 0.5 * m.normal), IM_COL32(255, 80, 80, 255),
                        1.5f);
            dl->AddCircleFilled(c, 3.5f, IM_COL32(255, 60, 60, 255), 8);
        }
}

// The forces the engine applies (World::forces), one colour per kind; contact forces are the last
// step's impulses as the mean force P / h. Angular damping is a couple, with no arrow.
ImU32 colourOf(carom::ForceKind kind) {
    switch (kind) {
    case carom::ForceKind::Gravity:
        return IM_COL32(80, 220, 120, 230);
    case carom::ForceKind::Damping:
        return IM_COL32(180, 180, 180, 230);
    case carom::ForceKind::Thruster:
        return IM_COL32(255, 170, 40, 240);
    case carom::ForceKind::Spring:
        return IM_COL32(120, 200, 255, 240);
    case carom::ForceKind::Contact:
        return IM_COL32(255, 90, 200, 230);
    case carom::ForceKind::AngularDamping:
        break;
    }
    return 0;
}

void drawForces(ImDrawList* dl, const Session& s, const Camera& cam, float scale) {
    for (const carom::AppliedForce& f : s.world.forces())
        if (f.kind != carom::ForceKind::AngularDamping)
            arrow(dl, cam, f.point, double(scale) * f.force, colourOf(f.kind));
}

// Velocities drawn as the way a body goes in kVelocitySeconds: an arrow in metres, as the forces'.
constexpr double kVelocitySeconds = 1;
constexpr ImU32 kVelocityColour = IM_COL32(90, 230, 230, 235);

void drawVelocities(ImDrawList* dl, const carom::World& w, const Camera& cam,
                    const std::vector<carom::Transform>& poses) {
    for (std::size_t i = 0; i < w.bodies().size(); ++i)
        if (w.bodies()[i].isDynamic())
            arrow(dl, cam, poses[i].p, kVelocitySeconds * w.bodies()[i].v, kVelocityColour, 2.5f);
    for (const carom::SoftBody& b : w.softBodies())
        arrow(dl, cam, b.centreOfMass(), kVelocitySeconds * b.velocity(), kVelocityColour, 2.5f);
}

// The centre of mass of the moving bodies, rigid and soft, Σ m x / Σ m, as a circle quartered
// black and white, and its velocity Σ m v / Σ m (the total momentum over the total mass).
void drawCentreOfMass(ImDrawList* dl, const carom::World& w, const Camera& cam,
                      const std::vector<carom::Transform>& poses, const Palette& pal) {
    double mass = 0;
    Vec2 moment{0, 0}, momentum{0, 0};
    for (std::size_t i = 0; i < w.bodies().size(); ++i)
        if (const Body& b = w.bodies()[i]; b.isDynamic()) {
            mass += b.mass;
            moment += b.mass * poses[i].p;
            momentum += b.mass * b.v;
        }
    for (const carom::SoftBody& b : w.softBodies()) {
        mass += b.mass();
        moment += b.mass() * b.centreOfMass();
        momentum += b.mass() * b.velocity();
    }
    if (!(mass > 0)) return;
    const Vec2 centre = moment / mass;
    arrow(dl, cam, centre, kVelocitySeconds * momentum / mass, pal.selection, 2.5f);
    const ImVec2 c = cam.toScreen(centre);
    const float r = 7, pi = 3.14159265f;
    dl->AddCircleFilled(c, r, IM_COL32(255, 255, 255, 255), 16);
    dl->PathArcTo(c, r, 0, 0.5f * pi, 8);
    dl->PathLineTo(c);
    dl->PathFillConvex(IM_COL32(0, 0, 0, 255));
    dl->PathArcTo(c, r, pi, 1.5f * pi, 8);
    dl->PathLineTo(c);
    dl->PathFillConvex(IM_COL32(0, 0, 0, 255));
    dl->AddCircle(c, r, IM_COL32(0, 0, 0, 255), 16, 1.5f);
}

// A flame behind each firing thruster: a triangle opposite the push, flickering with time.
void drawFlames(ImDrawList* dl, const Session& s, const Camera& cam,
                const std::vector<carom::Transform>& poses) {
    const carom::World& w = s.world;
    for (std::size_t i = 0; i < w.thrusters().size(); ++i) {
        const carom::Thruster& t = w.thrusters()[i];
        if (!t.firing) continue;
        const carom::Transform& xf = poses[t.body];
        const Vec2 d = xf.q.apply(t.direction);
        const double weight = glm::length(d);
        if (!(weight > 0)) continue;
        const Vec2 u = d / weight, side = carom::perp(u);
        const Vec2 base = xf.apply(t.localPoint);
        const double flicker = 0.85 + 0.15 * std::sin(40 * s.realTime + 3.0 * double(i));
        const double len = (0.35 + 0.5 * weight) * flicker;
        const double half = 0.12 + 0.1 * weight;
        dl->AddTriangleFilled(cam.toScreen(base + side * half), cam.toScreen(base - side * half),
                              cam.toScreen(base - u * len), IM_COL32(255, 120, 20, 220));
        dl->AddTriangleFilled(cam.toScreen(base + side * half * 0.5),
                              cam.toScreen(base - side * half * 0.5),
                              cam.toScreen(base - u * len * 0.55), IM_COL32(255, 230, 90, 240));
    }
}

void drawSpring(ImDrawList* dl, const carom::World& w, const Camera& cam,
                const std::vector<carom::Transform>& poses) {
    const auto& sp = w.mouseSpring();
    if (!sp) return;
    const ImVec2 a = cam.toScreen(sp->particle ? w.softBodies()[sp->body].particles[*sp->particle].x
                                               : poses[sp->body].apply(sp->localAnchor));
    const ImVec2 b = cam.toScreen(sp->target);
    dl->AddLine(a, b, IM_COL32(120, 200, 255, 255), 2);
    dl->AddCircleFilled(a, 4, IM_COL32(120, 200, 255, 255), 10);
    dl->AddCircle(b, 5, IM_COL32(120, 200, 255, 255), 10, 1.5f);
}

// Joints, at the bodies' drawn poses: a pin as a ring, a weld as a square, a rod as a bar, a rope
// straight when taut and sagging when slack, a spring as a coil, a slider's axis as a thin line
// with the slider on it; an anchor on the world as a small triangle.
void drawJoints(ImDrawList* dl, const carom::World& w, const Camera& cam,
                const std::vector<carom::Transform>& poses) {
    const ImU32 ink = IM_COL32(215, 215, 225, 255), dim = IM_COL32(215, 215, 225, 120);
    for (const carom::Joint& j : w.joints()) {
        const Vec2 a = j.a ? poses[*j.a].apply(j.frame.localA) : j.frame.localA;
        const Vec2 b = poses[j.b].apply(j.frame.localB);
        const ImVec2 sa = cam.toScreen(a), sb = cam.toScreen(b);
        if (!j.a) // the world's anchor
            dl->AddTriangleFilled({sa.x, sa.y - 2}, {sa.x - 6, sa.y - 10}, {sa.x + 6, sa.y - 10},
                                  dim);
        switch (j.type) {
        case carom::JointType::Revolute:
            dl->AddCircleFilled(sb, 4.5f, IM_COL32(40, 40, 48, 255), 12);
            dl->AddCircle(sb, 4.5f, ink, 12, 2);
            break;
        case carom::JointType::Weld:
            dl->AddRectFilled({sb.x - 4, sb.y - 4}, {sb.x + 4, sb.y + 4}, ink);
            break;
        case carom::JointType::Prismatic: {
            const Vec2 axis = (j.a ? poses[*j.a].q.apply(j.frame.localAxis) : j.frame.localAxis);
            const double reach =
                2 + std::max(std::abs(j.lower.value_or(0)), std::abs(j.upper.value_or(0)));
            dl->AddLine(cam.toScreen(a - reach * axis), cam.toScreen(a + reach * axis), dim, 1.5f);
            dl->AddRect({sb.x - 6, sb.y - 4}, {sb.x + 6, sb.y + 4}, ink, 0, 0, 2);
            break;
        }
        case carom::JointType::Distance: {
            const double length = glm::length(b - a);
            if (j.kind == carom::DistanceKind::Spring && length > 0) {
                // A coil of 10 turns across the middle 80%, as wide as a tenth of the rest length.
                const Vec2 n = (b - a) / length, side = carom::perp(n) * (0.06 * j.length);
                std::vector<ImVec2> pts{sa, cam.toScreen(a + 0.1 * (b - a))};
                for (int k = 1; k < 20; ++k)
                    pts.push_back(cam.toScreen(a + (0.1 + 0.8 * k / 20.0) * (b - a) +
                                               (k % 2 ? 1.0 : -1.0) * side));
                pts.push_back(cam.toScreen(a + 0.9 * (b - a)));
                pts.push_back(sb);
                dl->AddPolyline(pts.data(), int(pts.size()), ink, 0, 1.5f);
            } else if (j.kind == carom::DistanceKind::Rope && length < j.maxLength - 1e-3 &&
                       std::isfinite(j.maxLength)) {
                // Slack: a parabola through both ends whose arc is about the rope's length.
                const double sag =
                    0.5 * std::sqrt(std::max(0.0, j.maxLength * j.maxLength - length * length));
                std::vector<ImVec2> pts;
                for (int k = 0; k <= 16; ++k) {
                    const double t = k / 16.0;
                    pts.push_back(cam.toScreen(a + t * (b - a) - Vec2{0, 4 * sag * t * (1 - t)}));
                }
                dl->AddPolyline(pts.data(), int(pts.size()), ink, 0, 1.5f);
            } else {
                dl->AddLine(sa, sb, ink, j.kind == carom::DistanceKind::Rod ? 3.0f : 1.5f);
            }
            dl->AddCircleFilled(sa, 3, ink, 8);
            dl->AddCircleFilled(sb, 3, ink, 8);
            break;
        }
        }
    }
}

void drawOverlays(RenderState& rs, const DrawInputs& in, ImDrawList* dl, const Palette& pal) {
    const Session& s = in.session;
    const Rect& v = in.simView;
    if (in.view.showEnergy) {
        const float w = std::min(v.size().x - 20, 560.0f);
        const float h = energyBarHeight(in.view.showMomentum);
        const ImVec2 a{v.center().x - w / 2, v.min.y + kEnergyBarTop};
        const carom::Diagnostics d = carom::measure(s.world);
        EnergyValues e{
            d.pe + in.view.peOffset, d.keAngular,  d.keLinear,   s.initialEnergy + in.view.peOffset,
            in.view.showMomentum,    d.momentum.x, d.momentum.y, d.angularMomentum};
        drawEnergyBar(dl, a, {a.x + w, a.y + h}, rs.energyBar, e);
    }
    if (in.view.showClock) {
        char buf[96];
        std::snprintf(buf, sizeof buf, "time %.2f s    real %.2f s%s", s.world.time(), s.realTime,
                      s.stepper.paused ? "    paused" : "");
        const float h = ImGui::GetFontSize();
        dl->AddText({v.min.x + 12, v.max.y - h - 10}, pal.text, buf);
    } else if (s.stepper.paused) {
        dl->AddText({v.min.x + 12, v.max.y - ImGui::GetFontSize() - 10}, pal.text, "paused");
    }
}

} // namespace

void drawScene(RenderState& rs, const DrawInputs& in, ImDrawList* dl) {
    const Session& s = in.session;
    const Camera& cam = in.camera;
    const Palette pal = palette(in.view.lightBackground);
    const auto& bodies = s.world.bodies();
    s.stepper.drawPoses(s.world, rs.poses);
    // Within the view: the side panels' backgrounds are cleared before ImGui draws (app.cpp,
    // renderFrame), so nothing of the scene may fall under them.
    dl->PushClipRect(in.simView.min, in.simView.max);
    const std::vector<carom::Transform>& poses = rs.poses;

    if (in.view.showTrails) {
        updateTrails(rs.trails, s, std::max(2, in.view.trailLength));
        drawTrails(dl, rs.trails, s, cam);
    }
    int dynamicCount = 0;
    for (const Body& b : bodies)
        dynamicCount += b.isDynamic();
    const bool crowd = dynamicCount > kCrowd;
    const ImDrawListFlags flags = dl->Flags;
    if (crowd) dl->Flags &= ~(ImDrawListFlags_AntiAliasedFill | ImDrawListFlags_AntiAliasedLines);
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        const Body& b = bodies[i];
        if (!b.isDynamic()) {
            drawBody(dl, cam, b, poses[i], pal.wallFill, pal.wallLine, 1.0f);
            continue;
        }
        const bool selected = s.selected && *s.selected == i;
        const bool outline =
            selected || !crowd || 2 * b.innerRadius() * cam.scale >= kOutlinePixels;
        drawBody(dl, cam, b, poses[i], bodyColor(i, crowd ? 255 : 170),
                 selected ? pal.selection : bodyColor(i, 255), selected ? 3.0f : 1.5f, outline);
    }
    dl->Flags = flags;
    drawSoftBodies(dl, s, cam, bodies.size(), pal);
    if (in.view.showNames && dynamicCount <= 12)
        for (std::size_t i = 0; i < bodies.size(); ++i) {
            const Body& b = bodies[i];
            if (!b.isDynamic() || b.boundingRadius() * cam.scale < 25) continue;
            const ImVec2 c = cam.toScreen(poses[i].p), sz = ImGui::CalcTextSize(b.name.c_str());
            dl->AddText({c.x - sz.x / 2, c.y - sz.y / 2}, pal.text, b.name.c_str());
        }
    drawJoints(dl, s.world, cam, poses);
    drawFlames(dl, s, cam, poses);
    if (in.view.showContacts) drawContacts(dl, s.world, cam);
    if (in.view.showForces) drawForces(dl, s, cam, in.view.forceScale);
    if (in.view.showVelocities) drawVelocities(dl, s.world, cam, poses);
    if (in.view.showCentreOfMass) drawCentreOfMass(dl, s.world, cam, poses, pal);
    drawSpring(dl, s.world, cam, poses);
    drawOverlays(rs, in, dl, pal);
    dl->PopClipRect();
}

ImU32 backgroundColor(bool light) {
    return palette(light).background;
}

} // namespace app
