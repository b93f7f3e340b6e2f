// The substep solver's passes in eight lanes, for processors with AVX-512 (substep_lanes.h). This
// file alone is compiled for them (-march=x86-64-v4, CMakeLists.txt); substep_solver.cpp calls it
// only where the processor has it.
#include "solver/substep_lanes.h"

namespace carom {
namespace substep {

void substeps8(const States& states, Share* shares, std::size_t shareCount, WideConstraint<8>* wide,
               std::size_t count, const Springs& springs, double h, int substeps, int relaxEvery,
               SubstepJoints* joints) {
    substepsOver<8>(states, shares, shareCount, wide, count, springs, h, substeps, relaxEvery,
                    joints);
}

} // namespace substep
} // namespace carom
