// The joints' constraints as the solvers see them: prepared at the step's start, then passes of
// warm start and sequential impulses over the bodies' states, in the default method's substeps
// (substep_solver.cpp, batch by batch) or over the whole step in the impulse, projection and
// penalty methods (solveJoints below). The formulas: joint_solver.cpp.
#pragma once

#include "carom/joint.h"
#include "solver/substep_lanes.h"
#include "step/step_context.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace carom {

// One joint over a step: its bodies' state rows (the world's: the null row, at rest), inverse
// masses, and the geometry at the step's start, which the passes turn and move with the bodies'
// displacements; its impulses in the solver's unit (a substep's or the step's).
struct JointConstraint {
    Joint* joint = nullptr;     // for store(): the passes read only the copies below
    std::uint32_t a = 0, b = 0; // state rows
    // What the joint does, copied from it (a pass over many joints reads these beside the state,
    // not the joint's whole record).
    JointType type = JointType::Revolute;
    DistanceKind kind = DistanceKind::Rod;
    std::optional<double> motorSpeed, lower, upper;
    double maxMotor = 0, length = 0, minLength = 0, maxLength = 0, stiffness = 0, damping = 0;
    double mA = 0, mB = 0, iA = 0, iB = 0;
    Vec2 rA{0, 0}, rB{0, 0}; // anchors from the centres, world orientation at the step's start
    Vec2 deltaCentre{0, 0};  // b's centre less a's at the step's start
    double deltaAngle = 0;   // θb − θa − reference at the step's start
    Vec2 axis{1, 0};         // prismatic: a's axis at the step's start
    JointImpulses impulses;  // accumulated, in the solver's unit
    double spring = 0;       // distance spring: its impulse in the last pass that applied it
    double springGain = 0;   // α in the spring's rule (joint_solver.cpp), from its stiffness
};

// The joints of a step, prepared and ordered by batch (the substep solver's islands). A body's
// state row is its index; the world's is the null row, bodies.size(), at rest and not displaced.
class JointSolver {
  public:
    // The world's joints that move something (none without `joints`), from the bodies' poses now;
    // `h` the solver's step (a substep or the step) and `perStep` how many of them make the step
    // (the joints keep their impulses per step); `soft` the position feedback's spring. `batchOf`:
    // each body's batch (nullptr: one batch).
    void prepare(std::vector<Joint>* joints, const std::vector<Body>& bodies, double h, int perStep,
                 const substep::Spring& soft, const std::vector<std::uint32_t>* batchOf = nullptr,
                 std::size_t batches = 1);
    bool empty() const { return constraints_.empty(); }
    // Each pass, over every joint: the impulses of the last applied again, and the springs' forces
    // for the pass's h.
    void warmStart(const substep::States& states) { warmStart(states, 0, constraints_.size()); }
    // Sequential impulses, with position feedback (useBias) or without (the relax pass).
    void solve(const substep::States& states, bool useBias) {
        solve(states, useBias, 0, constraints_.size());
    }
    // The impulses back into the joints (per step), and the reaction on b as a mean force.
    void store(const substep::States& states);

    // Batch b's joints, as its substeps reach them; batches touch disjoint bodies and joints, so
    // two may be solved at once on two threads.
    class Batch {
      public:
        Batch(JointSolver& solver, std::size_t first, std::size_t last)
            : solver_(solver), first_(first), last_(last) {}
        bool empty() const { return first_ == last_; }
        void warmStart(const substep::States& states) { solver_.warmStart(states, first_, last_); }
        void solve(const substep::States& states, bool useBias) {
            solver_.solve(states, useBias, first_, last_);
        }

      private:
        JointSolver& solver_;
        std::size_t first_, last_;
    };
    Batch batch(std::size_t b) { return Batch(*this, begin_[b], begin_[b + 1]); }

  private:
    void warmStart(const substep::States& states, std::size_t first, std::size_t last);
    void solve(const substep::States& states, bool useBias, std::size_t first, std::size_t last);

    std::vector<JointConstraint> constraints_;
    std::vector<std::size_t> begin_; // where each batch's begin, and the end
    double h_ = 0;
    int perStep_ = 1;
    substep::Spring soft_{};
};

// Whether a joint has a body to move: one of its bodies is dynamic.
bool movesSomething(const Joint& j, const std::vector<Body>& bodies);

} // namespace carom
