// One long-lived thread that runs a job at a time for the frame loop: the physics of a frame,
// while the main thread draws the last one. A thread made for each frame would start every step
// with empty thread_local scratch (the soft step's constraint arrays, the broad phase's lists):
// on the large pyramid that allocation and its page faults doubled the physics time of a frame.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace app {

class Worker {
  public:
    Worker();
    ~Worker(); // finishes the job under way, then stops the thread
    Worker(const Worker&) = delete;
    Worker& operator=(const Worker&) = delete;

    // Starts `job` on the worker's thread; the last job must have been waited for.
    void start(std::function<void()> job);
    // Returns when the job started last is done.
    void wait();

  private:
    void run();
    std::mutex mutex_;
    std::condition_variable changed_;
    std::function<void()> job_;
    bool busy_ = false, stopping_ = false;
    std::thread thread_; // last: started once the members above exist
};

} // namespace app
