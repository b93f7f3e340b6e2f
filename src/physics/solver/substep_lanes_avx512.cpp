// The substep solver's passes in eight lanes, for processors with AVX-512 (substep_lanes.h). This
// file alone is compiled for them (-march=x86-64-v4, CMakeLists.txt); substep_solver.cpp calls it
// only where the processor has it.
#include "solver/substep_lanes.h"

namespace carom {
namespace substep {

void substeps8(const Team& team, const States& states, const BatchLanes<8>& batch,
               const Springs& springs, double h, int substeps, int relaxEvery) {
    substepsOver<8>(team, states, batch, springs, h, substeps, relaxEvery);
}

} // namespace substep
} // namespace carom
