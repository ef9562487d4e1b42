// The rules of the staging ring (PageableMode::Stage, StagingRing.h), as pure bookkeeping so that
// they are unit-tested with scripted completions, without threads or a GPU.
//
// A call's staged copies, cut into pieces of at most one slot, are numbered in the order the
// pipeline issues them; piece k uses slot k % slots. A piece to the device is filled (a host
// thread copies the user's bytes into its slot), then issued (cudaMemcpyAsync from the slot, an
// event recorded after it). A piece to the host is issued (cudaMemcpyAsync into its slot, an event
// after it), then drained (a host thread waits for the event and copies the slot into the user's
// array). A slot is reused only once its previous piece is done with it:
// - a fill waits until the previous piece of its slot was issued and, had it gone to the host,
//   drained; had it gone to the device, the filling thread first waits for that copy's event;
// - a piece to the host is issued once the previous piece of its slot was drained, had it gone to
//   the host; had it gone to the device, the copy into the slot waits for that copy's event on the
//   device (cudaStreamWaitEvent: the issuer does not wait);
// - pieces are issued in order; a piece to the device once it was filled.
// Host threads take the runnable job of the lowest piece, so that fills run ahead of the issuer
// as far as the ring lets them, and a drain is never stuck behind a fill waiting for its slot.
// Every job waits only for pieces issued already, so the ring cannot deadlock while the issuer
// issues in order and the device completes what was issued.
#pragma once

#include <cstddef>
#include <vector>

namespace overlap {

enum class PieceDirection : unsigned char { ToDevice, ToHost };

struct StagingJob {
  int piece = -1;    // -1: no job runnable now
  bool fill = false; // a fill (to the device) or a drain (to the host)
  // A piece whose device copy the job must see completed first (its slot's event): the slot's
  // previous piece, to the device, for a fill; the piece itself for a drain. -1: none.
  int waitForCopy = -1;
};

class StagingSchedule {
public:
  StagingSchedule(std::vector<PieceDirection> pieces, int slots);

  int pieceCount() const { return static_cast<int>(pieces_.size()); }
  int slotOf(int piece) const { return piece % slots_; }
  PieceDirection direction(int piece) const { return pieces_[static_cast<std::size_t>(piece)]; }

  // Host threads. The runnable job of the lowest piece that nobody took yet; none once
  // cancelled. jobDone() when it finished (also when it failed: cancel() then).
  StagingJob takeJob();
  // The fill of `piece` if it is runnable and nobody took it: the issuer, waiting for that piece,
  // runs it itself rather than wait for a thread to wake up.
  StagingJob takeFill(int piece);
  void jobDone(int piece);

  // The issuer. The next piece to issue, if the ring lets it be issued now.
  int nextToIssue() const { return issuedCount_; }
  bool issuable() const;
  // The piece whose device copy the next issue must wait for on the device (a piece to the host
  // whose slot last went to the device); -1: none.
  int deviceWait() const;
  void issued(); // the next piece was issued

  // No job is taken any more (after a failure); jobs already running finish.
  void cancel() { cancelled_ = true; }
  bool cancelled() const { return cancelled_; }
  int runningJobs() const { return running_; }
  // No job is left to take: the host threads may stop.
  bool everyJobTaken() const { return firstOpenJob_ >= pieceCount(); }
  // Every piece issued and every job done.
  bool finished() const;

private:
  enum class State : unsigned char { Waiting, Taken, Done };

  bool jobRunnable(int piece) const;
  StagingJob take(int piece); // marks a runnable job taken
  // The slot's previous piece no longer needs its slot on the host (issued; drained if to the
  // host). True when there is none.
  bool slotReleasedBy(int previous) const;

  std::vector<PieceDirection> pieces_;
  std::vector<State> jobs_; // fills and drains, per piece
  int slots_;
  int issuedCount_ = 0;
  int firstOpenJob_ = 0; // every piece below has its job taken
  int running_ = 0;
  int jobsDone_ = 0;
  bool cancelled_ = false;
};

} // namespace overlap
