// The crew's threads, its runs and its stages (crew.h).
#include "parallel/crew.h"

#include <algorithm>
#include <sched.h>

namespace carom {

namespace {

// How long a waiting thread spins before it yields (for a stage) or sleeps (between runs): about
// 20 µs and 100 µs of pause instructions. A crew larger than the cores would otherwise spin away
// the time slices of the threads it waits for.
constexpr int kStageSpins = 2000, kIdleSpins = 10000;

inline void pause() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

inline void spinOrYield(int& spins, int limit) {
    if (++spins < limit)
        pause();
    else
        std::this_thread::yield();
}

// The crew this thread drives (within its run), and the block this thread is in, if any.
thread_local const Crew* driving = nullptr;
thread_local bool inBlock = false;
thread_local int blockWorker = 0;

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

void Crew::run(const std::function<void()>& task) {
    std::unique_lock<std::mutex> busy(busy_, std::try_to_lock);
    if (!busy.owns_lock() || threads_.empty() || driving) {
        task();
        return;
    }
    // Closes the run however the task leaves (it may throw): the helpers let go before the
    // stages' state can change under them.
    struct Close {
        Crew& crew;
        ~Close() {
            crew.open_.store(false, std::memory_order_seq_cst);
            for (int spins = 0; crew.helping_.load(std::memory_order_seq_cst) != 0;)
                spinOrYield(spins, kStageSpins);
            driving = nullptr;
        }
    };
    driving = this;
    open_.store(true, std::memory_order_seq_cst);
    {
        std::lock_guard<std::mutex> lock(sleep_);
        posted_.fetch_add(1, std::memory_order_release);
    }
    wake_.notify_all();
    const Close close{*this};
    task();
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
        // Counted in before looking whether the run is still open (both sequentially
        // consistent, as the closing): a run closed before this sees it closed.
        helping_.fetch_add(1, std::memory_order_seq_cst);
        if (open_.load(std::memory_order_seq_cst)) help(index);
        helping_.fetch_sub(1, std::memory_order_seq_cst);
    }
}

// The stages of a run, as they are published, until it closes.
void Crew::help(int index) {
    // No stage has an odd sequence number: the stage under way when this thread joins the run is
    // taken too (a thread woken late joined after the run's only stage began, and took none of it).
    std::uint32_t last = 1;
    for (int spins = 0; open_.load(std::memory_order_acquire);) {
        const std::uint32_t s = seq_.load(std::memory_order_acquire);
        if (s % 2 == 1 || s == last) {
            spinOrYield(spins, kStageSpins);
            continue;
        }
        doBlocks(s, index);
        last = s;
        spins = 0;
    }
}

void Crew::doBlocks(std::uint32_t seq, int worker) {
    // The stage as published, checked unchanged after it is read (the seqlock's reader).
    const BlockFn* f = fn_.load(std::memory_order_relaxed);
    const std::size_t n = n_.load(std::memory_order_relaxed);
    const std::size_t grain = grain_.load(std::memory_order_relaxed);
    const std::uint32_t blocks = blocks_.load(std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_acquire);
    if (seq_.load(std::memory_order_relaxed) != seq) return;
    for (;;) {
        std::uint64_t c = claim_.load(std::memory_order_acquire);
        std::uint32_t i;
        do {
            i = static_cast<std::uint32_t>(c);
            if (c >> 32 != seq || i >= blocks) return; // another stage's, or none left
        } while (!claim_.compare_exchange_weak(c, c + 1, std::memory_order_acq_rel));
        const std::size_t begin = i * grain;
        inBlock = true;
        blockWorker = worker;
        (*f)(begin, std::min(n, begin + grain), worker);
        inBlock = false;
        done_.fetch_add(1, std::memory_order_release);
    }
}

// The driver's side of a stage: published (the seqlock's writer), its blocks taken alongside
// the helpers, and waited for.
void Crew::stage(std::size_t n, std::size_t grain, const BlockFn& f) {
    const auto blocks = static_cast<std::uint32_t>((n + grain - 1) / grain);
    const std::uint32_t s = seq_.load(std::memory_order_relaxed);
    seq_.store(s + 1, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_release);
    fn_.store(&f, std::memory_order_relaxed);
    n_.store(n, std::memory_order_relaxed);
    grain_.store(grain, std::memory_order_relaxed);
    blocks_.store(blocks, std::memory_order_relaxed);
    done_.store(0, std::memory_order_relaxed);
    claim_.store(std::uint64_t{s + 2} << 32, std::memory_order_relaxed);
    seq_.store(s + 2, std::memory_order_release);
    doBlocks(s + 2, 0);
    for (int spins = 0; done_.load(std::memory_order_acquire) != blocks;)
        spinOrYield(spins, kStageSpins);
}

void Crew::forEach(Crew* crew, std::size_t n, std::size_t grain, const BlockFn& f) {
    if (n == 0) return;
    grain = std::max<std::size_t>(grain, 1);
    if (!crew || driving != crew || inBlock || n <= grain) {
        f(0, n, inBlock ? blockWorker : 0);
        return;
    }
    crew->stage(n, grain, f);
}

} // namespace carom
