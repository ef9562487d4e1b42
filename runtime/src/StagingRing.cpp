#include "overlap/StagingRing.h"

#include <algorithm>
#include <cstring>
#include <thread>

namespace overlap {

Status StagingResources::reserve(int slots, std::size_t slotBytes) {
  while (static_cast<int>(events_.size()) < slots) {
    cudaEvent_t event = nullptr;
    OVERLAP_CUDA_TRY(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
    events_.push_back(event);
  }
  if (slots <= slots_ && slotBytes <= slotBytes_)
    return Status::success();
  const int keepSlots = std::max(slots, slots_);
  const std::size_t keepBytes = std::max(slotBytes, slotBytes_);
  slots_ = 0;
  slotBytes_ = 0;
  OVERLAP_TRY(PinnedBuffer::allocate(static_cast<std::size_t>(keepSlots) * keepBytes, &memory_,
                                     cudaHostAllocPortable));
  slots_ = keepSlots;
  slotBytes_ = keepBytes;
  return Status::success();
}

Status StagingResources::release() {
  slots_ = 0;
  slotBytes_ = 0;
  return memory_.reset();
}

Status StagingRing::start(StagingResources& resources, std::vector<StagedCopy> copies,
                          const StagingConfig& asked) {
  copies_ = std::move(copies);
  if (copies_.empty())
    return Status::success();
  std::vector<std::size_t> bytes;
  long long stagedBytes = 0;
  for (const StagedCopy& copy : copies_) {
    bytes.push_back(copy.bytes);
    stagedBytes += static_cast<long long>(copy.bytes);
  }
  // Asked once: the C library reads it from the system on every call.
  static const int hardwareThreads = static_cast<int>(std::thread::hardware_concurrency());
  const StagingConfig config = resolvedStaging(asked, stagedBytes, hardwareThreads);
  resources_ = &resources;
  slotBytes_ = config.slotBytes;
  OVERLAP_TRY(resources.reserve(config.slots, config.slotBytes));
  cutIntoPieces(bytes, slotBytes_, &firstPiece_);
  std::vector<PieceDirection> directions;
  for (std::size_t c = 0; c < copies_.size(); ++c)
    for (int p = firstPiece_[c]; p < firstPiece_[c + 1]; ++p) {
      directions.push_back(copies_[c].direction);
      copyOfPiece_.push_back(static_cast<int>(c));
    }
  schedule_ = StagingSchedule(std::move(directions), config.slots);
  started_ = true;
  resources.workers().start(config.threads, [this] { work(); });
  return Status::success();
}

Status StagingRing::issue(const StagedCopy& copy, cudaStream_t stream) {
  if (!started_ || nextCopy_ >= static_cast<int>(copies_.size()) ||
      copies_[static_cast<std::size_t>(nextCopy_)].host != copy.host ||
      copies_[static_cast<std::size_t>(nextCopy_)].bytes != copy.bytes)
    return Status{cudaErrorInvalidValue, "StagingRing::issue: a copy the ring did not plan",
                  __FILE__, __LINE__};
  const std::size_t c = static_cast<std::size_t>(nextCopy_++);
  for (int piece = firstPiece_[c]; piece < firstPiece_[c + 1]; ++piece) {
    int deviceWait = -1;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      changed_.wait(lock, [&] { return schedule_.issuable() || schedule_.cancelled(); });
      if (schedule_.cancelled())
        return failed_.ok() ? Status{cudaErrorUnknown, "StagingRing: cancelled", __FILE__, __LINE__}
                            : failed_;
      deviceWait = schedule_.deviceWait();
    }
    const int slot = schedule_.slotOf(piece);
    const std::size_t offset = static_cast<std::size_t>(piece - firstPiece_[c]) * slotBytes_;
    const std::size_t bytes = std::min(slotBytes_, copy.bytes - offset);
    char* const staged = resources_->slot(slot);
    const cudaEvent_t event = resources_->event(slot);
    if (deviceWait >= 0)
      OVERLAP_CUDA_TRY(cudaStreamWaitEvent(stream, event, 0));
    if (copy.direction == PieceDirection::ToDevice)
      OVERLAP_CUDA_TRY(
          cudaMemcpyAsync(copy.device + offset, staged, bytes, cudaMemcpyHostToDevice, stream));
    else
      OVERLAP_CUDA_TRY(
          cudaMemcpyAsync(staged, copy.device + offset, bytes, cudaMemcpyDeviceToHost, stream));
    OVERLAP_CUDA_TRY(cudaEventRecord(event, stream));
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      schedule_.issued();
    }
    changed_.notify_all();
  }
  return Status::success();
}

Status StagingRing::runJob(const StagingJob& job) {
  if (job.waitForCopy >= 0)
    OVERLAP_CUDA_TRY(cudaEventSynchronize(resources_->event(schedule_.slotOf(job.waitForCopy))));
  const int c = copyOfPiece_[static_cast<std::size_t>(job.piece)];
  const StagedCopy& copy = copies_[static_cast<std::size_t>(c)];
  const std::size_t offset =
      static_cast<std::size_t>(job.piece - firstPiece_[static_cast<std::size_t>(c)]) * slotBytes_;
  const std::size_t bytes = std::min(slotBytes_, copy.bytes - offset);
  char* const staged = resources_->slot(schedule_.slotOf(job.piece));
  if (job.fill)
    std::memcpy(staged, copy.host + offset, bytes);
  else
    std::memcpy(copy.host + offset, staged, bytes);
  return Status::success();
}

void StagingRing::work() {
  for (;;) {
    StagingJob job;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      changed_.wait(lock, [&] {
        job = schedule_.takeJob();
        return job.piece >= 0 || schedule_.cancelled() || schedule_.everyJobTaken();
      });
      if (job.piece < 0)
        return;
    }
    const Status status = runJob(job);
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      schedule_.jobDone(job.piece);
      if (!status.ok()) {
        keepFirst(failed_, status);
        (void)cudaGetLastError(); // reported through finish(); none left pending
        schedule_.cancel();
      }
    }
    changed_.notify_all();
  }
}

Status StagingRing::finish() {
  if (!started_)
    return Status::success();
  if (nextCopy_ != static_cast<int>(copies_.size())) {
    abandon();
    return Status{cudaErrorInvalidValue, "StagingRing::finish: planned copies were not issued",
                  __FILE__, __LINE__};
  }
  {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] {
      return schedule_.finished() || (schedule_.cancelled() && schedule_.runningJobs() == 0);
    });
  }
  resources_->workers().wait();
  started_ = false;
  return failed_;
}

void StagingRing::abandon() {
  if (!started_)
    return;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    schedule_.cancel();
  }
  changed_.notify_all();
  resources_->workers().wait();
  started_ = false;
}

} // namespace overlap
