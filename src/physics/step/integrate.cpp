// Free motion over a step under the forces: semi-implicit Euler or classical RK4.
//
// Both produce, per body, the velocity at the end of the step and the displacement over it
// (c.motion). The contact solver then changes the velocities; integratePositions moves each body
// by its free displacement plus h times that change, so contacts act as impulses either way.
#include "step/step_context.h"

#include <cmath>
#include <utility>

namespace carom {
namespace {

struct State {
    Vec2 x;
    double a;
    Vec2 v;
    double w;
};

struct Rate {
    Vec2 dx;
    double da;
    Vec2 dv;
    double dw;
};

void setState(Body& b, const State& s) {
    b.setPose(s.x, s.a);
    b.v = s.v;
    b.w = s.w;
}

// Semi-implicit (symplectic) Euler: v1 = v0 + h F/m, x1 = x0 + h v1.
void eulerStep(StepContext& c) {
    accumulateForces(c);
    for (std::size_t i = 0; i < c.bodies.size(); ++i) {
        Body& b = c.bodies[i];
        Vec2 dv{0, 0};
        double dw = 0;
        if (b.isDynamic()) {
            dv = c.h * b.invMass * b.force;
            dw = c.h * b.invInertia * b.torque;
        }
        b.v += dv;
        b.w += dw;
        c.motion[i] = Motion{b.v, b.w, c.h * b.v, c.h * b.w, dv, dw};
    }
}

// Classical fourth-order Runge-Kutta on (x, θ, v, ω) with the forces evaluated at each stage
// (they depend on position through the spring and thrusters, on velocity through damping):
// y1 = y0 + h/6 (k1 + 2 k2 + 2 k3 + k4).
void rk4Step(StepContext& c) {
    const std::size_t n = c.bodies.size();
    std::vector<State> start(n);
    std::vector<Rate> sum(n);
    for (std::size_t i = 0; i < n; ++i) {
        const Body& b = c.bodies[i];
        start[i] = State{b.xf().p, b.angle(), b.v, b.w};
        sum[i] = Rate{{0, 0}, 0, {0, 0}, 0};
    }
    const double stageStep[4] = {0, c.h / 2, c.h / 2, c.h};
    const double weight[4] = {1, 2, 2, 1};
    std::vector<Rate> k(n, Rate{{0, 0}, 0, {0, 0}, 0});
    for (int stage = 0; stage < 4; ++stage) {
        for (std::size_t i = 0; i < n; ++i) {
            if (!c.bodies[i].isDynamic()) continue;
            const State& s0 = start[i];
            double dt = stageStep[stage];
            setState(c.bodies[i], State{s0.x + dt * k[i].dx, s0.a + dt * k[i].da,
                                        s0.v + dt * k[i].dv, s0.w + dt * k[i].dw});
        }
        accumulateForces(c);
        for (std::size_t i = 0; i < n; ++i) {
            const Body& b = c.bodies[i];
            if (!b.isDynamic()) continue;
            k[i] = Rate{b.v, b.w, b.invMass * b.force, b.invInertia * b.torque};
            sum[i].dx += weight[stage] * k[i].dx;
            sum[i].da += weight[stage] * k[i].da;
            sum[i].dv += weight[stage] * k[i].dv;
            sum[i].dw += weight[stage] * k[i].dw;
        }
    }
    for (std::size_t i = 0; i < n; ++i) {
        Body& b = c.bodies[i];
        if (!b.isDynamic()) {
            c.motion[i] = Motion{b.v, b.w, c.h * b.v, c.h * b.w};
            continue;
        }
        setState(b, start[i]); // positions move later, after the contacts
        Vec2 dv = c.h / 6 * sum[i].dv;
        double dw = c.h / 6 * sum[i].dw;
        b.v = start[i].v + dv;
        b.w = start[i].w + dw;
        c.motion[i] = Motion{b.v, b.w, c.h / 6 * sum[i].dx, c.h / 6 * sum[i].da, dv, dw};
    }
}

} // namespace

void integrateVelocities(StepContext& c) {
    if (c.settings.integrator == Integrator::RK4)
        rk4Step(c);
    else
        eulerStep(c);
}

// φ1(x) = (1 − e^−x) / x and φ2(x) = (x − 1 + e^−x) / x², both 1/n!-weighted series in −x:
// φ1 = Σ (−x)^n / (n + 1)!, φ2 = Σ (−x)^n / (n + 2)!. φ1 from expm1 is accurate for every x ≥ 0;
// φ2 cancels for small x, where its series is summed instead (ten terms: x¹⁰/12! < 1e-17 there).
double phi1(double x) {
    return x == 0 ? 1.0 : -std::expm1(-x) / x;
}
double phi2(double x) {
    if (x >= 0.1) return (x + std::expm1(-x)) / (x * x);
    double term = 0.5, sum = 0.5; // n = 0: 1/2!
    for (int n = 1; n < 10; ++n) {
        term *= -x / (n + 2);
        sum += term;
    }
    return sum;
}

// Does the body move under gravity and linear damping alone over the step (no spring, no firing
// thruster on it)? Then its free motion has a closed form.
bool uniformlyAccelerated(const StepContext& c, BodyId id) {
    if (c.spring && !c.spring->particle && c.spring->body == id) return false;
    for (const Thruster& t : c.thrusters)
        if (t.body == id && t.firing) return false;
    return c.bodies[id].isDynamic();
}

void integrateFreeFlight(StepContext& c) {
    // Bodies the spring or a thruster drives need the integrator, which moves every body: the
    // others' start velocities are kept for their closed form.
    bool driven = false;
    for (BodyId i = 0; i < c.bodies.size(); ++i)
        driven = driven || (c.bodies[i].isDynamic() && !uniformlyAccelerated(c, i));
    std::vector<std::pair<Vec2, double>> start;
    if (driven) {
        start.reserve(c.bodies.size());
        for (const Body& b : c.bodies)
            start.emplace_back(b.v, b.w);
        integrateVelocities(c);
    }
    const WorldSettings& s = c.settings;
    const double h = c.h;
    for (BodyId i = 0; i < c.bodies.size(); ++i) {
        Body& b = c.bodies[i];
        if (!b.isDynamic()) { // no force moves it
            c.motion[i] = Motion{b.v, b.w, h * b.v, h * b.w};
            continue;
        }
        if (!uniformlyAccelerated(c, i)) continue; // the integrator's
        const auto [v0, w0] = driven ? start[i] : std::pair{b.v, b.w};
        // dv/dt = g − λ v with λ = k / m:  v(h) = v0 e^−λh + g h φ1(λh),
        //                                  x(h) − x0 = v0 h φ1(λh) + g h² φ2(λh);
        // dω/dt = −λω ω with λω = kω / I:  ω(h) = ω0 e^−λω h,  θ(h) − θ0 = ω0 h φ1(λω h).
        const double x = s.damping * b.invMass * h, xw = s.angularDamping * b.invInertia * h;
        b.v = v0 * std::exp(-x) + s.gravity * (h * phi1(x));
        b.w = w0 * std::exp(-xw);
        c.motion[i] = Motion{b.v,
                             b.w,
                             v0 * (h * phi1(x)) + s.gravity * (h * h * phi2(x)),
                             w0 * (h * phi1(xw)),
                             b.v - v0,
                             b.w - w0};
    }
}

void moveFreely(StepContext& c, BodyId i) {
    Body& b = c.bodies[i];
    if (b.type == BodyType::Static) return;
    const Motion& m = c.motion[i];
    Vec2 p = b.xf().p + m.dx + c.h * (b.v - m.v);
    b.setPose(p, b.angle() + (m.dAngle + c.h * (b.w - m.w)));
}

void integratePositions(StepContext& c) {
    for (std::size_t i = 0; i < c.bodies.size(); ++i) {
        c.bodies[i].force = {0, 0};
        c.bodies[i].torque = 0;
        moveFreely(c, i);
    }
}

} // namespace carom
