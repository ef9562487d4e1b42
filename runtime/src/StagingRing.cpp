#include "overlap/StagingRing.h"

#include "overlap/StagingCopy.h"

#include <algorithm>
#include <chrono>
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
  long long stagedBytes = 0;
  std::vector<StagedBytes> cut;
  for (const StagedCopy& copy : copies_) {
    stagedBytes += static_cast<long long>(copy.bytes);
    cut.push_back(StagedBytes{copy.direction == PieceDirection::ToDevice, copy.bytes});
  }
  // Asked once: the C library reads it from the system on every call.
  static const int hardwareThreads = static_cast<int>(std::thread::hardware_concurrency());
  const StagingConfig config = resolvedStaging(asked, stagedBytes, hardwareThreads);
  resources_ = &resources;
  OVERLAP_TRY(resources.reserve(config.slots, config.slotBytes));
  pieces_.clear();
  firstPiece_.assign(1, 0);
  std::vector<PieceDirection> directions;
  const std::vector<std::vector<std::size_t>> cutPieces = stagedPieces(cut, config.slotBytes);
  for (std::size_t c = 0; c < copies_.size(); ++c) {
    std::size_t offset = 0;
    for (std::size_t bytes : cutPieces[c]) {
      pieces_.push_back(Piece{static_cast<int>(c), offset, bytes});
      directions.push_back(copies_[c].direction);
      offset += bytes;
    }
    firstPiece_.push_back(static_cast<int>(pieces_.size()));
  }
  schedule_ = StagingSchedule(std::move(directions), config.slots);
  started_ = true;
  resources.workers().start(config.threads, [this] { work(); });
  return Status::success();
}

void StagingRing::waitForChange(std::unique_lock<std::mutex>& lock) {
  // Long enough for a piece's hand-over between busy threads, short against a piece's copy.
  constexpr auto kSpin = std::chrono::microseconds(30);
  const unsigned seen = version_.load(std::memory_order_acquire);
  lock.unlock();
  const auto until = std::chrono::steady_clock::now() + kSpin;
  while (version_.load(std::memory_order_acquire) == seen &&
         std::chrono::steady_clock::now() < until)
    std::this_thread::yield();
  lock.lock();
  // A change counted under the lock before this increment is seen by the predicate; one after it
  // sees a sleeper and notifies.
  sleepers_.fetch_add(1);
  changed_.wait(lock, [&] { return version_.load(std::memory_order_acquire) != seen; });
  sleepers_.fetch_sub(1);
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
      while (!schedule_.cancelled() && !schedule_.issuable()) {
        // Not filled yet: fill it here if no thread took it, rather than wait for one to wake.
        const StagingJob job = schedule_.takeFill(piece);
        if (job.piece < 0) {
          waitForChange(lock);
          continue;
        }
        lock.unlock();
        const Status status = runJob(job);
        lock.lock();
        jobFinished(job, status);
      }
      if (schedule_.cancelled())
        return failed_.ok() ? Status{cudaErrorUnknown, "StagingRing: cancelled", __FILE__, __LINE__}
                            : failed_;
      deviceWait = schedule_.deviceWait();
    }
    const Piece& cut = pieces_[static_cast<std::size_t>(piece)];
    const int slot = schedule_.slotOf(piece);
    char* const staged = resources_->slot(slot);
    const cudaEvent_t event = resources_->event(slot);
    if (deviceWait >= 0)
      OVERLAP_CUDA_TRY(cudaStreamWaitEvent(stream, event, 0));
    if (copy.direction == PieceDirection::ToDevice)
      OVERLAP_CUDA_TRY(cudaMemcpyAsync(copy.device + cut.offset, staged, cut.bytes,
                                       cudaMemcpyHostToDevice, stream));
    else
      OVERLAP_CUDA_TRY(cudaMemcpyAsync(staged, copy.device + cut.offset, cut.bytes,
                                       cudaMemcpyDeviceToHost, stream));
    OVERLAP_CUDA_TRY(cudaEventRecord(event, stream));
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      schedule_.issued();
      changed();
    }
    wake();
  }
  return Status::success();
}

Status StagingRing::runJob(const StagingJob& job) {
  if (job.waitForCopy >= 0)
    OVERLAP_CUDA_TRY(cudaEventSynchronize(resources_->event(schedule_.slotOf(job.waitForCopy))));
  const Piece& cut = pieces_[static_cast<std::size_t>(job.piece)];
  const StagedCopy& copy = copies_[static_cast<std::size_t>(cut.copy)];
  char* const staged = resources_->slot(schedule_.slotOf(job.piece));
  if (job.fill)
    fillSlot(staged, copy.host + cut.offset, cut.bytes);
  else
    drainSlot(copy.host + cut.offset, staged, cut.bytes);
  return Status::success();
}

void StagingRing::jobFinished(const StagingJob& job, const Status& status) {
  schedule_.jobDone(job.piece);
  if (!status.ok()) {
    keepFirst(failed_, status);
    (void)cudaGetLastError(); // reported through finish(); none left pending
    schedule_.cancel();
  }
  changed();
}

void StagingRing::work() {
  for (;;) {
    StagingJob job;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      for (;;) {
        job = schedule_.takeJob();
        if (job.piece >= 0 || schedule_.cancelled() || schedule_.everyJobTaken())
          break;
        waitForChange(lock);
      }
      if (job.piece < 0)
        return;
    }
    const Status status = runJob(job);
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      jobFinished(job, status);
    }
    wake();
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
    while (!schedule_.finished() && !(schedule_.cancelled() && schedule_.runningJobs() == 0))
      waitForChange(lock);
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
    changed();
  }
  changed_.notify_all();
  resources_->workers().wait();
  started_ = false;
}

} // namespace overlap
