// Host threads kept for the staging rings of one device (StagingRing.h): starting threads per
// call would cost tens of microseconds each, which small staged calls cannot afford.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace overlap {

class HostCopyWorkers {
public:
  // The threads make `device` current before their first task, so that the CUDA calls of a task
  // (event waits) concern the device the ring belongs to.
  explicit HostCopyWorkers(int device) : device_(device) {}
  HostCopyWorkers(const HostCopyWorkers&) = delete;
  HostCopyWorkers& operator=(const HostCopyWorkers&) = delete;
  // Stops and joins the threads.
  ~HostCopyWorkers();

  // Starts `task` on `count` threads at once (started on first need and kept) and returns;
  // wait() returns once every one of them has returned from it. One task at a time: the device's
  // lease serializes the calls that use them.
  void start(int count, std::function<void()> task);
  void wait();

private:
  void work(int index);

  const int device_;
  std::mutex mutex_;
  std::condition_variable wake_; // a new run, or the end
  std::condition_variable idle_; // a thread returned from its task
  std::vector<std::thread> threads_;
  std::function<void()> task_;
  unsigned long long generation_ = 0; // of the current run
  int count_ = 0;                     // threads the current run uses
  int busy_ = 0;                      // of them, still in the task
  bool stopping_ = false;
};

} // namespace overlap
