#include "overlap/staging_ring.h"

#include <algorithm>
#include <cstring>
#include <thread>

namespace overlap {

Status StagingResources::reserve(int slots, std::size_t slot_bytes) {
  while (static_cast<int>(events_.size()) < slots) {
    cudaEvent_t event = nullptr;
    OVERLAP_CUDA_TRY(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
    events_.push_back(event);
  }
  if (slots <= slots_ && slot_bytes <= slot_bytes_)
    return Status::success();
  const int keep_slots = std::max(slots, slots_);
  const std::size_t keep_bytes = std::max(slot_bytes, slot_bytes_);
  slots_ = 0;
  slot_bytes_ = 0;
  OVERLAP_TRY(PinnedBuffer::allocate(static_cast<std::size_t>(keep_slots) * keep_bytes, &memory_,
                                     cudaHostAllocPortable));
  slots_ = keep_slots;
  slot_bytes_ = keep_bytes;
  return Status::success();
}

Status StagingResources::release() {
  slots_ = 0;
  slot_bytes_ = 0;
  return memory_.reset();
}

Status StagingRing::start(StagingResources& resources, std::vector<StagedCopy> copies,
                          const StagingConfig& asked) {
  copies_ = std::move(copies);
  if (copies_.empty())
    return Status::success();
  std::vector<std::size_t> bytes;
  long long staged_bytes = 0;
  for (const StagedCopy& copy : copies_) {
    bytes.push_back(copy.bytes);
    staged_bytes += static_cast<long long>(copy.bytes);
  }
  // Asked once: the C library reads it from the system on every call.
  static const int hardware_threads = static_cast<int>(std::thread::hardware_concurrency());
  const StagingConfig config = resolved_staging(asked, staged_bytes, hardware_threads);
  resources_ = &resources;
  slot_bytes_ = config.slot_bytes;
  OVERLAP_TRY(resources.reserve(config.slots, config.slot_bytes));
  cut_into_pieces(bytes, slot_bytes_, &first_piece_);
  std::vector<PieceDirection> directions;
  for (std::size_t c = 0; c < copies_.size(); ++c)
    for (int p = first_piece_[c]; p < first_piece_[c + 1]; ++p) {
      directions.push_back(copies_[c].direction);
      copy_of_piece_.push_back(static_cast<int>(c));
    }
  schedule_ = StagingSchedule(std::move(directions), config.slots);
  started_ = true;
  resources.workers().start(config.threads, [this] { work(); });
  return Status::success();
}

Status StagingRing::issue(const StagedCopy& copy, cudaStream_t stream) {
  if (!started_ || next_copy_ >= static_cast<int>(copies_.size()) ||
      copies_[static_cast<std::size_t>(next_copy_)].host != copy.host ||
      copies_[static_cast<std::size_t>(next_copy_)].bytes != copy.bytes)
    return Status{cudaErrorInvalidValue, "StagingRing::issue: a copy the ring did not plan",
                  __FILE__, __LINE__};
  const std::size_t c = static_cast<std::size_t>(next_copy_++);
  for (int piece = first_piece_[c]; piece < first_piece_[c + 1]; ++piece) {
    int device_wait = -1;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      changed_.wait(lock, [&] { return schedule_.issuable() || schedule_.cancelled(); });
      if (schedule_.cancelled())
        return failed_.ok() ? Status{cudaErrorUnknown, "StagingRing: cancelled", __FILE__, __LINE__}
                            : failed_;
      device_wait = schedule_.device_wait();
    }
    const int slot = schedule_.slot_of(piece);
    const std::size_t offset = static_cast<std::size_t>(piece - first_piece_[c]) * slot_bytes_;
    const std::size_t bytes = std::min(slot_bytes_, copy.bytes - offset);
    char* const staged = resources_->slot(slot);
    const cudaEvent_t event = resources_->event(slot);
    if (device_wait >= 0)
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

Status StagingRing::run_job(const StagingJob& job) {
  if (job.wait_for_copy >= 0)
    OVERLAP_CUDA_TRY(cudaEventSynchronize(resources_->event(schedule_.slot_of(job.wait_for_copy))));
  const int c = copy_of_piece_[static_cast<std::size_t>(job.piece)];
  const StagedCopy& copy = copies_[static_cast<std::size_t>(c)];
  const std::size_t offset =
      static_cast<std::size_t>(job.piece - first_piece_[static_cast<std::size_t>(c)]) * slot_bytes_;
  const std::size_t bytes = std::min(slot_bytes_, copy.bytes - offset);
  char* const staged = resources_->slot(schedule_.slot_of(job.piece));
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
        job = schedule_.take_job();
        return job.piece >= 0 || schedule_.cancelled() || schedule_.every_job_taken();
      });
      if (job.piece < 0)
        return;
    }
    const Status status = run_job(job);
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      schedule_.job_done(job.piece);
      if (!status.ok()) {
        keep_first(failed_, status);
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
  if (next_copy_ != static_cast<int>(copies_.size())) {
    abandon();
    return Status{cudaErrorInvalidValue, "StagingRing::finish: planned copies were not issued",
                  __FILE__, __LINE__};
  }
  {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] {
      return schedule_.finished() || (schedule_.cancelled() && schedule_.running_jobs() == 0);
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
