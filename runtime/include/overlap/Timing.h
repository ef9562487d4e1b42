// CUDA-event timing: warm-up runs, repeats, and the median and spread of the repeats.
#pragma once

#include "overlap/SampleStats.h"
#include "overlap/Status.h"

#include <cuda_runtime_api.h>

#include <functional>
#include <vector>

namespace overlap {

// An owned cudaEvent_t.
class Event {
public:
  Event() = default;
  ~Event();
  Event(Event&& other) noexcept;
  Event& operator=(Event&& other) noexcept;
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;

  static Status create(Event* event, unsigned flags = cudaEventDefault);
  cudaEvent_t get() const { return event_; }

private:
  cudaEvent_t event_ = nullptr;
};

// Seconds between two completed events that were created with timing enabled (about 0.5 us
// resolution).
Status elapsedSeconds(const Event& start, const Event& end, double* seconds);

struct TimingOptions {
  int warmup = 2;   // untimed runs first: module loading, first-touch and clock ramp-up
  int repeats = 10; // timed runs
};

// Work issued on a stream; it must not synchronize the stream itself.
using StreamWork = std::function<Status(cudaStream_t)>;

// Times each repeat with an event pair recorded on `stream` around `work`, which measures what the
// device spends, host-side issue included only where the device waits for it. Appends one sample
// per repeat, in seconds.
Status timeWithEvents(cudaStream_t stream, const TimingOptions& options, const StreamWork& work,
                      std::vector<double>* seconds);

// Times each repeat with the host's steady clock from the first call of `work` to the end of a
// stream synchronization: for costs that are on the host, such as launch overhead.
Status timeWithHostClock(cudaStream_t stream, const TimingOptions& options, const StreamWork& work,
                         std::vector<double>* seconds);

} // namespace overlap
