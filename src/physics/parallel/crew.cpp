// The crew's threads, its barrier and its hand-over of a task (crew.h).
#include "parallel/crew.h"

#include <sched.h>

namespace carom {

namespace {

// How long a waiting thread spins before it yields (at a barrier) or sleeps (between tasks):
// about 20 µs and 100 µs of pause instructions. A crew larger than the cores would otherwise spin
// away the time slices of the members it waits for.
constexpr int kBarrierSpins = 2000, kIdleSpins = 10000;

inline void pause() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

} // namespace

Crew::Crew(int threads) {
    for (int i = 1; i < threads; ++i)
        threads_.emplace_back([this, i] { work(i); });
}

Crew::~Crew() {
    {
        std::lock_guard<std::mutex> lock(sleep_);
        stopping_ = true;
        posted_.fetch_add(1, std::memory_order_release);
    }
    wake_.notify_all();
    for (std::thread& t : threads_)
        t.join();
}

int Crew::cores() {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
    return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

void Crew::run(const std::function<void(const Member&)>& task) {
    std::unique_lock<std::mutex> busy(busy_, std::try_to_lock);
    if (!busy.owns_lock() || threads_.empty()) {
        task(Member(this, 0, 1));
        return;
    }
    done_.store(0, std::memory_order_relaxed);
    {
        std::lock_guard<std::mutex> lock(sleep_);
        task_ = &task;
        posted_.fetch_add(1, std::memory_order_release);
    }
    wake_.notify_all();
    task(Member(this, 0, size()));
    const int others = size() - 1;
    for (int spins = 0; done_.load(std::memory_order_acquire) != others; ++spins)
        spins < kBarrierSpins ? pause() : std::this_thread::yield();
}

void Crew::work(int index) {
    std::uint64_t seen = 0;
    for (;;) {
        for (int spins = 0; posted_.load(std::memory_order_acquire) == seen; ++spins)
            if (spins < kIdleSpins) {
                pause();
            } else {
                std::unique_lock<std::mutex> lock(sleep_);
                wake_.wait(lock, [&] { return posted_.load(std::memory_order_relaxed) != seen; });
            }
        seen = posted_.load(std::memory_order_acquire);
        if (stopping_) return;
        (*task_)(Member(this, index, size()));
        done_.fetch_add(1, std::memory_order_release);
    }
}

// A barrier by generations: the last member to arrive resets the count and opens the next
// generation, which the others wait for (no member leaves before the count is reset).
void Crew::barrier(int size) {
    const std::uint64_t generation = generation_.load(std::memory_order_acquire);
    if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == size) {
        arrived_.store(0, std::memory_order_relaxed);
        generation_.store(generation + 1, std::memory_order_release);
        return;
    }
    for (int spins = 0; generation_.load(std::memory_order_acquire) == generation; ++spins)
        spins < kBarrierSpins ? pause() : std::this_thread::yield();
}

} // namespace carom
