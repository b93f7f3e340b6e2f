// A crew of threads that helps a step with its stages. The step runs on the calling thread, the
// driver, as it would alone; where a stage's work divides into independent parts (forEach), the
// parts are cut into blocks by index, and the driver and the crew's other threads each take the
// next block not yet taken until none is left (Box2D v3's solver stages claim blocks so too). The
// stage ends when every block is done, whoever did it: a thread that the system does not run for
// a while holds nothing up, and the driver does the blocks itself.
//
// Blocks touch disjoint data, so the step takes the same bits whatever the crew's size and
// whichever thread takes which block.
//
// Between runs the other threads wait a little spinning (a step follows a step within
// microseconds), then asleep on a condition variable (the app between frames).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace carom {

class Crew {
  public:
    // f(begin, end, worker) on one block [begin, end); worker: the index, 0 to size() − 1, of the
    // thread that runs it (0 is the driver), for scratch of its own.
    using BlockFn = std::function<void(std::size_t, std::size_t, int)>;

    // `threads` ≥ 1: the calling thread and threads − 1 more, started here.
    explicit Crew(int threads);
    ~Crew();
    Crew(const Crew&) = delete;
    Crew& operator=(const Crew&) = delete;

    int size() const { return static_cast<int>(threads_.size()) + 1; }

    // Runs task() on the calling thread with the crew standing by for its forEach calls, and
    // returns when it has returned. A crew that another caller is running (two worlds stepped at
    // once on two threads share it) leaves this caller to run its task alone: the same bits.
    void run(const std::function<void()>& task);

    // f over [0, n) in blocks of `grain` (the last may be shorter), returning when all are done:
    // shared with the crew within its run(), on the calling thread alone otherwise (crew may be
    // null). A forEach inside a block runs alone.
    static void forEach(Crew* crew, std::size_t n, std::size_t grain, const BlockFn& f);

    // The number of cores this process may run on, at least 1.
    static int cores();

  private:
    void work(int index);
    void help(int index);
    // Takes and does stage `seq`'s blocks until none is left.
    void doBlocks(std::uint32_t seq, int worker);
    void stage(std::size_t n, std::size_t grain, const BlockFn& f);

    std::vector<std::thread> threads_;
    std::mutex busy_; // held by the caller of run

    // Runs: `posted_` bumped by each run to wake the threads; `open_` while it lasts; `helping_`
    // counts the threads within it.
    std::atomic<std::uint64_t> posted_{0};
    std::atomic<bool> open_{false};
    std::atomic<int> helping_{0};
    bool stopping_ = false;
    std::mutex sleep_;
    std::condition_variable wake_;

    // The stage, published by a sequence number (a seqlock: odd while the driver writes it), its
    // blocks taken through `claim_`, (sequence << 32) | next block, so that a block is taken only
    // in the stage it belongs to, and counted when done in `done_`.
    alignas(64) std::atomic<std::uint32_t> seq_{0};
    std::atomic<const BlockFn*> fn_{nullptr};
    std::atomic<std::size_t> n_{0}, grain_{1};
    std::atomic<std::uint32_t> blocks_{0};
    alignas(64) std::atomic<std::uint64_t> claim_{0};
    alignas(64) std::atomic<std::uint32_t> done_{0};
};

} // namespace carom
