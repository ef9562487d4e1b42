#include "overlap/Timing.h"

#include <chrono>
#include <utility>

namespace overlap {

Event::~Event() {
  if (event_)
    cudaEventDestroy(event_); // nothing to report to from a destructor
}

Event::Event(Event&& other) noexcept : event_(std::exchange(other.event_, nullptr)) {}

Event& Event::operator=(Event&& other) noexcept {
  if (this != &other) {
    if (event_)
      cudaEventDestroy(event_);
    event_ = std::exchange(other.event_, nullptr);
  }
  return *this;
}

Status Event::create(Event* event, unsigned flags) {
  cudaEvent_t created = nullptr;
  OVERLAP_CUDA_TRY(cudaEventCreateWithFlags(&created, flags));
  Event owned;
  owned.event_ = created;
  *event = std::move(owned);
  return Status::success();
}

Status elapsedSeconds(const Event& start, const Event& end, double* seconds) {
  float milliseconds = 0;
  OVERLAP_CUDA_TRY(cudaEventElapsedTime(&milliseconds, start.get(), end.get()));
  *seconds = static_cast<double>(milliseconds) * 1e-3;
  return Status::success();
}

Status timeWithEvents(cudaStream_t stream, const TimingOptions& options, const StreamWork& work,
                      std::vector<double>* seconds) {
  Event start;
  Event end;
  OVERLAP_TRY(Event::create(&start));
  OVERLAP_TRY(Event::create(&end));
  for (int i = 0; i < options.warmup; ++i)
    OVERLAP_TRY(work(stream));
  OVERLAP_CUDA_TRY(cudaStreamSynchronize(stream));
  for (int i = 0; i < options.repeats; ++i) {
    OVERLAP_CUDA_TRY(cudaEventRecord(start.get(), stream));
    OVERLAP_TRY(work(stream));
    OVERLAP_CUDA_TRY(cudaEventRecord(end.get(), stream));
    OVERLAP_CUDA_TRY(cudaEventSynchronize(end.get()));
    double elapsed = 0;
    OVERLAP_TRY(elapsedSeconds(start, end, &elapsed));
    seconds->push_back(elapsed);
  }
  return Status::success();
}

Status timeWithHostClock(cudaStream_t stream, const TimingOptions& options, const StreamWork& work,
                         std::vector<double>* seconds) {
  using Clock = std::chrono::steady_clock;
  for (int i = 0; i < options.warmup; ++i)
    OVERLAP_TRY(work(stream));
  OVERLAP_CUDA_TRY(cudaStreamSynchronize(stream));
  for (int i = 0; i < options.repeats; ++i) {
    const Clock::time_point begin = Clock::now();
    OVERLAP_TRY(work(stream));
    OVERLAP_CUDA_TRY(cudaStreamSynchronize(stream));
    seconds->push_back(std::chrono::duration<double>(Clock::now() - begin).count());
  }
  return Status::success();
}

} // namespace overlap
