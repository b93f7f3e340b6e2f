// The CAROM_VALIDATE build's count of the guards fired (carom/guard_check.h).
#include "carom/guard_check.h"
#include "step/guard_check_count.h"

#include <mutex>

namespace carom::guard_check {
namespace {
std::mutex lock; // worlds may step on several threads at once
GuardCounts firedSoFar;
} // namespace

GuardCounts fired() {
    std::lock_guard<std::mutex> hold(lock);
    return firedSoFar;
}

void count(const GuardCounts& step) {
    if (!kOn || step.total() == 0) return;
    std::lock_guard<std::mutex> hold(lock);
    firedSoFar += step;
}

} // namespace carom::guard_check
