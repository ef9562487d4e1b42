// The staging ring's kept host threads (overlap/HostCopyWorkers.h): every run starts its task on
// exactly the threads it asks for, wait() returns only once each of them returned, and the threads
// are reused across runs of different sizes. No GPU: the threads' cudaSetDevice fails here, which
// they tolerate.
#include "overlap/HostCopyWorkers.h"

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <set>
#include <thread>

namespace {

// A task that counts its calls and notes the threads it ran on.
class RecordingTask {
public:
  std::function<void()> task() {
    return [this] {
      const std::lock_guard<std::mutex> lock(mutex_);
      threads_.insert(std::this_thread::get_id());
      ++calls_;
    };
  }
  int calls() const { return calls_; }
  const std::set<std::thread::id>& threads() const { return threads_; }

private:
  std::mutex mutex_;
  std::set<std::thread::id> threads_;
  int calls_ = 0;
};

TEST(HostCopyWorkers, EachRunStartsItsTaskOnAsManyThreadsAsAsked) {
  overlap::HostCopyWorkers workers(0);
  RecordingTask first;
  workers.start(3, first.task());
  workers.wait();
  EXPECT_EQ(first.calls(), 3);
  EXPECT_EQ(first.threads().size(), 3u) << "three distinct threads";
  EXPECT_EQ(first.threads().count(std::this_thread::get_id()), 0u) << "not the caller's";

  // A smaller run takes one of the same threads; a larger one adds threads.
  RecordingTask smaller;
  workers.start(1, smaller.task());
  workers.wait();
  EXPECT_EQ(smaller.calls(), 1);
  ASSERT_EQ(smaller.threads().size(), 1u);
  EXPECT_EQ(first.threads().count(*smaller.threads().begin()), 1u) << "a kept thread";
  RecordingTask larger;
  workers.start(5, larger.task());
  workers.wait();
  EXPECT_EQ(larger.calls(), 5);
  EXPECT_EQ(larger.threads().size(), 5u);
}

TEST(HostCopyWorkers, WaitReturnsOnlyOnceEveryThreadReturnedFromTheTask) {
  overlap::HostCopyWorkers workers(0);
  // The tasks block until the last of them arrived: wait() cannot return before that, and the
  // tasks cannot finish unless all of them run at once.
  std::mutex mutex;
  std::condition_variable allIn;
  int arrived = 0;
  std::atomic<int> finished{0};
  workers.start(4, [&] {
    std::unique_lock<std::mutex> lock(mutex);
    if (++arrived == 4)
      allIn.notify_all();
    allIn.wait(lock, [&] { return arrived == 4; });
    ++finished;
  });
  workers.wait();
  EXPECT_EQ(finished, 4);
}

TEST(HostCopyWorkers, NoThreadsNoTask) {
  overlap::HostCopyWorkers workers(0);
  std::atomic<int> calls{0};
  workers.start(0, [&] { ++calls; });
  workers.wait();
  EXPECT_EQ(calls, 0);
}

} // namespace
