#include "overlap/StagingSchedule.h"

#include <algorithm>

namespace overlap {

StagingSchedule::StagingSchedule(std::vector<PieceDirection> pieces, int slots)
    : pieces_(std::move(pieces)), jobs_(pieces_.size(), State::Waiting),
      slots_(std::max(1, slots)) {}

bool StagingSchedule::slotReleasedBy(int previous) const {
  if (previous < 0)
    return true;
  if (previous >= issuedCount_)
    return false;
  return direction(previous) == PieceDirection::ToDevice ||
         jobs_[static_cast<std::size_t>(previous)] == State::Done;
}

bool StagingSchedule::jobRunnable(int piece) const {
  if (jobs_[static_cast<std::size_t>(piece)] != State::Waiting)
    return false;
  if (direction(piece) == PieceDirection::ToHost)
    return piece < issuedCount_;
  return slotReleasedBy(piece - slots_);
}

StagingJob StagingSchedule::take(int piece) {
  jobs_[static_cast<std::size_t>(piece)] = State::Taken;
  ++running_;
  StagingJob job;
  job.piece = piece;
  job.fill = direction(piece) == PieceDirection::ToDevice;
  if (!job.fill)
    job.waitForCopy = piece;
  else if (piece >= slots_ && direction(piece - slots_) == PieceDirection::ToDevice)
    job.waitForCopy = piece - slots_;
  while (firstOpenJob_ < pieceCount() &&
         jobs_[static_cast<std::size_t>(firstOpenJob_)] != State::Waiting)
    ++firstOpenJob_;
  return job;
}

StagingJob StagingSchedule::takeJob() {
  if (cancelled_)
    return {};
  // A fill runs at most `slots` pieces ahead of the issuer (its slot's previous piece must be
  // issued), so the scan is short.
  const int last = std::min(pieceCount(), issuedCount_ + slots_);
  for (int piece = firstOpenJob_; piece < last; ++piece)
    if (jobRunnable(piece))
      return take(piece);
  return {};
}

StagingJob StagingSchedule::takeFill(int piece) {
  if (cancelled_ || piece < 0 || piece >= pieceCount() ||
      direction(piece) != PieceDirection::ToDevice || !jobRunnable(piece))
    return {};
  return take(piece);
}

void StagingSchedule::jobDone(int piece) {
  jobs_[static_cast<std::size_t>(piece)] = State::Done;
  --running_;
  ++jobsDone_;
}

bool StagingSchedule::issuable() const {
  const int piece = issuedCount_;
  if (piece >= pieceCount())
    return false;
  if (direction(piece) == PieceDirection::ToDevice)
    return jobs_[static_cast<std::size_t>(piece)] == State::Done;
  return slotReleasedBy(piece - slots_);
}

int StagingSchedule::deviceWait() const {
  const int previous = issuedCount_ - slots_;
  if (previous < 0 || direction(issuedCount_) != PieceDirection::ToHost ||
      direction(previous) != PieceDirection::ToDevice)
    return -1;
  return previous;
}

void StagingSchedule::issued() {
  ++issuedCount_;
}

bool StagingSchedule::finished() const {
  return issuedCount_ == pieceCount() && jobsDone_ == pieceCount();
}

} // namespace overlap
