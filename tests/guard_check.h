#pragma once
// The CAROM_VALIDATE build's check (carom/guard_check.h): a test in which a guard fires fails,
// unless it holds an ExpectGuards while it steps (a test of a guard itself, or of random and
// hostile scenes, where a guard is a documented limit reached).
namespace carom_test {

class ExpectGuards {
  public:
    ExpectGuards();
    ~ExpectGuards();
    ExpectGuards(const ExpectGuards&) = delete;
    ExpectGuards& operator=(const ExpectGuards&) = delete;
};

} // namespace carom_test
