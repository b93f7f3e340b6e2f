// The exact method: collisions found at their time of contact (issue 4). Until it is written,
// the step refuses to run it rather than pretend.
#include "step_context.h"

#include <stdexcept>

namespace carom {

void stepExact(StepContext&) {
    throw std::logic_error("method exact: not implemented yet");
}

} // namespace carom
