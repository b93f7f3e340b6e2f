#pragma once
// Internal: where a step's guards are added to the CAROM_VALIDATE build's count (guard_check.h).
#include "carom/world.h"

namespace carom::guard_check {
void count(const GuardCounts& step); // does nothing unless CAROM_VALIDATE
}
