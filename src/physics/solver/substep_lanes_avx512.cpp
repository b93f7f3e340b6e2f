// The substep solver's passes in eight lanes, for processors with AVX-512 (substep_lanes.h). This
// file alone is compiled for them (-march=x86-64-v4, CMakeLists.txt); substep_solver.cpp calls it
// only where the processor has it.
#include "solver/substep_lanes.h"

namespace carom {
namespace substep {

void pass8(Pass pass, const States& states, WideConstraint<8>* groups, std::size_t begin,
           std::size_t end, const Springs& springs, bool warmNext, double invH) {
    passOver<8>(pass, states, groups, begin, end, springs, warmNext, invH);
}

} // namespace substep
} // namespace carom
