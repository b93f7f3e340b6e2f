// A crew of threads that a step hands its stages to, all of them working on one stage at once and
// meeting at a barrier before the next (a fork once, then barriers: Box2D v3's solver stages do
// the same). Work is divided among the crew by indices alone (slice below), never by which thread
// is faster, and the parts of a stage touch disjoint data, so a step takes the same bits whatever
// the crew's size: one thread, two or any.
//
// Between steps the threads wait a little spinning (a step follows a step within microseconds in a
// run), then asleep on a condition variable (the app between frames).
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

class Crew;

// Where one member of a crew is: its index among `size` members (0 is the thread that called
// Crew::run) and the barrier they share.
class Member {
  public:
    int index() const { return index_; }
    int size() const { return size_; }
    bool first() const { return index_ == 0; }
    // A member of no crew: the whole of every stage, nobody to wait for.
    static Member alone() { return Member(nullptr, 0, 1); }
    // Waits until every member has reached this call (a barrier): what the stage before it wrote
    // is then seen by all.
    void sync() const;
    // This member's share of [begin, end): the range cut into `size` parts of nearly equal length,
    // part `index`.
    std::pair<std::size_t, std::size_t> slice(std::size_t begin, std::size_t end) const {
        const std::size_t n = end - begin, k = static_cast<std::size_t>(size_);
        const std::size_t i = static_cast<std::size_t>(index_);
        return {begin + n * i / k, begin + n * (i + 1) / k};
    }

  private:
    friend class Crew;
    Member(Crew* crew, int index, int size) : crew_(crew), index_(index), size_(size) {}
    Crew* crew_;
    int index_, size_;
};

class Crew {
  public:
    // `threads` ≥ 1: the calling thread and threads − 1 more, started here.
    explicit Crew(int threads);
    ~Crew();
    Crew(const Crew&) = delete;
    Crew& operator=(const Crew&) = delete;

    int size() const { return static_cast<int>(threads_.size()) + 1; }
    // Runs task(member) on every member at once, member 0 on the calling thread, and returns when
    // all have returned. A crew busy with another caller's task (two worlds stepped on two threads
    // share it) runs this one on the calling thread alone, as a crew of one: the same bits.
    void run(const std::function<void(const Member&)>& task);

    // The number of cores, at least 1.
    static int cores();

  private:
    friend class Member;
    void work(int index);
    void barrier(int size);

    std::vector<std::thread> threads_;
    std::mutex busy_; // held by the caller of run
    // The task, posted by bumping `posted_`; `done_` counts the members that finished it.
    const std::function<void(const Member&)>* task_ = nullptr;
    std::atomic<std::uint64_t> posted_{0};
    std::atomic<int> done_{0};
    bool stopping_ = false;
    std::mutex sleep_;
    std::condition_variable wake_;
    // The barrier: members arrived, and its generation (bumped by the last to arrive).
    alignas(64) std::atomic<int> arrived_{0};
    alignas(64) std::atomic<std::uint64_t> generation_{0};
};

inline void Member::sync() const {
    if (size_ > 1) crew_->barrier(size_);
}

} // namespace carom
