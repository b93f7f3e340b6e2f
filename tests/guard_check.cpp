// The CAROM_VALIDATE build's check (guard_check.h): a GoogleTest listener that compares the
// process's count of guards fired (carom::guard_check::fired) at each test's start and end, less
// what fired while the test held an ExpectGuards, and fails the test when any kind grew.
#include "guard_check.h"

#include "carom/guard_check.h"

#include <gtest/gtest.h>
#include <string>

namespace carom_test {
namespace {

using carom::GuardCounts;

int expecting = 0;   // ExpectGuards alive
GuardCounts excused; // fired in the test while one was
GuardCounts firedAt; // the count when the first of them began

class GuardCheck : public ::testing::EmptyTestEventListener {
    GuardCounts atStart_;
    void OnTestStart(const ::testing::TestInfo&) override {
        atStart_ = carom::guard_check::fired();
        excused = {};
    }
    // The listeners hear a test's end last-added first, so this runs before the result is
    // printed, while the test is still the current one: the failure is the test's.
    void OnTestEnd(const ::testing::TestInfo&) override {
        const GuardCounts now = carom::guard_check::fired();
        std::string fired;
        for (const GuardCounts::Kind& k : GuardCounts::kinds)
            if (const int n = now.*k.count - atStart_.*k.count - excused.*k.count; n > 0)
                fired += " " + std::to_string(n) + " " + k.name;
        if (!fired.empty())
            ADD_FAILURE() << "guards fired in this test (CAROM_VALIDATE):" << fired
                          << ". A guard repairs a state whose cause is a bug; where it is a "
                          << "documented limit, hold a carom_test::ExpectGuards while stepping.";
    }
};

// Installed before main runs (the tests link GoogleTest's main); only in the CAROM_VALIDATE
// build, the only one that counts.
const bool installed = [] {
    if (carom::guard_check::kOn)
        ::testing::UnitTest::GetInstance()->listeners().Append(new GuardCheck);
    return true;
}();

} // namespace

ExpectGuards::ExpectGuards() {
    if (expecting++ == 0) firedAt = carom::guard_check::fired();
}

ExpectGuards::~ExpectGuards() {
    if (--expecting > 0) return;
    const GuardCounts now = carom::guard_check::fired();
    for (const GuardCounts::Kind& k : GuardCounts::kinds)
        excused.*k.count += now.*k.count - firedAt.*k.count;
}

} // namespace carom_test
