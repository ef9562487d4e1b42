#include "overlap/HostCopyWorkers.h"

#include <cuda_runtime_api.h>

namespace overlap {

HostCopyWorkers::~HostCopyWorkers() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& thread : threads_)
    thread.join();
}

void HostCopyWorkers::start(int count, std::function<void()> task) {
  if (count < 1)
    return;
  const std::lock_guard<std::mutex> lock(mutex_);
  while (static_cast<int>(threads_.size()) < count) {
    const int index = static_cast<int>(threads_.size());
    threads_.emplace_back([this, index] { work(index); });
  }
  task_ = std::move(task);
  count_ = count;
  busy_ = count;
  ++generation_;
  wake_.notify_all();
}

void HostCopyWorkers::wait() {
  std::unique_lock<std::mutex> lock(mutex_);
  idle_.wait(lock, [&] { return busy_ == 0; });
  task_ = nullptr;
}

void HostCopyWorkers::work(int index) {
  // Failure leaves the caller's current device (0); the ring's event waits then fail and say so.
  if (cudaSetDevice(device_) != cudaSuccess)
    (void)cudaGetLastError();
  unsigned long long seen = 0;
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    wake_.wait(lock, [&] { return stopping_ || (generation_ != seen && index < count_); });
    if (stopping_)
      return;
    seen = generation_;
    const std::function<void()>& task = task_; // stays until wait() saw every thread return
    lock.unlock();
    task();
    lock.lock();
    if (--busy_ == 0)
      idle_.notify_all();
  }
}

} // namespace overlap
