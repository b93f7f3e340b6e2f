// Free motion over a step under the forces: semi-implicit Euler or classical RK4.
//
// Both produce, per body, the velocity at the end of the step and the displacement over it
// (c.motion). The contact solver then changes the velocities; integratePositions moves each body
// by its free displacement plus h times that change, so contacts act as impulses either way.
#include "step_context.h"

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

void integratePositions(StepContext& c) {
    for (std::size_t i = 0; i < c.bodies.size(); ++i) {
        Body& b = c.bodies[i];
        b.force = {0, 0};
        b.torque = 0;
        if (b.type == BodyType::Static) continue;
        const Motion& m = c.motion[i];
        Vec2 p = b.xf().p + m.dx + c.h * (b.v - m.v);
        b.setPose(p, b.angle() + (m.dAngle + c.h * (b.w - m.w)));
    }
}

} // namespace carom
