// PageableMode::Stage: the pageable arrays of a Streams or Hybrid call cross the link through a
// ring of pinned staging slots instead of being registered. Host threads copy a piece of an input
// into a slot while the pieces before it cross the link (cudaMemcpyAsync from pinned memory, at
// the pinned G), and copy an output's pieces out of their slots once their copies back have
// completed. A one-off call on pageable data thus pays neither the registration (about one
// pageable copy, before anything moves) nor the driver's own staging (the pageable G, a third to
// a quarter of the pinned G on the H100), only host copies that overlap with the link.
//
// The order of work and when a slot may be reused are StagingSchedule.h's. The slots, their
// events and the threads belong to the device (StagingResources, kept in its DeviceContext) and
// are reused by every call; a call holds its device's lease, so one ring uses them at a time.
// No device-wide synchronization: a fill waits for the event of its slot's previous copy to the
// device, a drain for its own copy's event.
//
// Hand-overs cost: a host thread sleeping on a condition variable takes tens of microseconds to
// wake on the VMs we measured, up to hundreds when the ring's threads fill every core. So the
// issuer fills the piece it waits for itself when no thread took it yet (the first pieces of a
// call, before the threads are awake), every thread spins a while before it sleeps, and a change
// wakes sleepers only (bench/README.md, "The staging ring alone").
#pragma once

#include "overlap/HostCopyWorkers.h"
#include "overlap/KernelTypes.h"
#include "overlap/PinnedBuffer.h"
#include "overlap/StagingSchedule.h"
#include "overlap/Status.h"

#include <cuda_runtime_api.h>

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <vector>

namespace overlap {

// One copy between a user's pageable array and its device buffer.
struct StagedCopy {
  PieceDirection direction = PieceDirection::ToDevice;
  char* host = nullptr;
  char* device = nullptr;
  std::size_t bytes = 0;
};

// What the rings of one device keep between calls.
class StagingResources {
public:
  explicit StagingResources(int device) : workers_(device) {}
  StagingResources(const StagingResources&) = delete;
  StagingResources& operator=(const StagingResources&) = delete;

  // At least `slots` slots of `slotBytes` each, and an event per slot, on the current device.
  // Growing frees the old slots first, so nothing may still use them.
  Status reserve(int slots, std::size_t slotBytes);
  char* slot(int i) const { return memory_.as<char>() + static_cast<std::size_t>(i) * slotBytes_; }
  cudaEvent_t event(int i) const { return events_[static_cast<std::size_t>(i)]; }
  HostCopyWorkers& workers() { return workers_; }
  std::size_t bytes() const { return memory_.bytes(); }
  // Frees the slots (the events and threads stay, like the pooled streams).
  Status release();

private:
  PinnedBuffer memory_;
  std::size_t slotBytes_ = 0;
  int slots_ = 0;
  std::vector<cudaEvent_t> events_;
  HostCopyWorkers workers_;
};

class StagingRing {
public:
  StagingRing() = default;
  StagingRing(const StagingRing&) = delete;
  StagingRing& operator=(const StagingRing&) = delete;
  ~StagingRing() { abandon(); } // no host thread works for a ring that ended

  // Plans a call's staged copies, in the order the call will issue them, and starts the host
  // threads. What `asked` leaves 0 is resolvedStaging()'s choice for the copies' bytes on this
  // host. Nothing to do for no copies.
  Status start(StagingResources& resources, std::vector<StagedCopy> copies,
               const StagingConfig& asked);

  // Issues the next planned copy on `stream`, piece by piece, waiting where the ring says so (an
  // input's piece until it is in its slot). `copy` must be the next one planned.
  Status issue(const StagedCopy& copy, cudaStream_t stream);

  // Once every copy was issued: waits until the outputs' pieces are in the user's arrays and
  // the threads are done; the first failure of a host thread (an event that failed) is returned.
  Status finish();

  // After a failure: no further piece is filled or drained; waits for the ones under way.
  void abandon();

private:
  Status runJob(const StagingJob& job);
  // After runJob, under the lock: the job is done, or the ring cancelled if it failed.
  void jobFinished(const StagingJob& job, const Status& status);
  void work();
  // Under the lock, which it releases meanwhile: returns once something changed (or, rarely, for
  // nothing), after spinning a while unlocked before it sleeps.
  void waitForChange(std::unique_lock<std::mutex>& lock);
  // Under the lock, after a change: counted for the spinning threads. wake() after unlocking.
  void changed() { version_.fetch_add(1, std::memory_order_release); }
  void wake() {
    if (sleepers_.load() > 0)
      changed_.notify_all();
  }

  struct Piece {
    int copy = 0;
    std::size_t offset = 0; // into the copy
    std::size_t bytes = 0;
  };

  StagingResources* resources_ = nullptr;
  std::vector<StagedCopy> copies_;
  std::vector<int> firstPiece_; // per copy, and the piece count last
  std::vector<Piece> pieces_;
  int nextCopy_ = 0;
  bool started_ = false;

  std::mutex mutex_;
  std::condition_variable changed_; // for sleepers: a piece was issued, a job done, or a cancel
  std::atomic<unsigned> version_{0};
  std::atomic<int> sleepers_{0};
  StagingSchedule schedule_{{}, 1};
  Status failed_; // the first failure of a host thread
};

} // namespace overlap
