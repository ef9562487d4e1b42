#include "overlap/staging_schedule.h"

#include <algorithm>

namespace overlap {

StagingSchedule::StagingSchedule(std::vector<PieceDirection> pieces, int slots)
    : pieces_(std::move(pieces)), jobs_(pieces_.size(), State::Waiting),
      slots_(std::max(1, slots)) {}

bool StagingSchedule::slot_released_by(int previous) const {
  if (previous < 0)
    return true;
  if (previous >= issued_count_)
    return false;
  return direction(previous) == PieceDirection::ToDevice ||
         jobs_[static_cast<std::size_t>(previous)] == State::Done;
}

bool StagingSchedule::job_runnable(int piece) const {
  if (jobs_[static_cast<std::size_t>(piece)] != State::Waiting)
    return false;
  if (direction(piece) == PieceDirection::ToHost)
    return piece < issued_count_;
  return slot_released_by(piece - slots_);
}

StagingJob StagingSchedule::take_job() {
  StagingJob job;
  if (cancelled_)
    return job;
  // A fill runs at most `slots` pieces ahead of the issuer (its slot's previous piece must be
  // issued), so the scan is short.
  const int last = std::min(piece_count(), issued_count_ + slots_);
  for (int piece = first_open_job_; piece < last; ++piece) {
    if (!job_runnable(piece))
      continue;
    jobs_[static_cast<std::size_t>(piece)] = State::Taken;
    ++running_;
    job.piece = piece;
    job.fill = direction(piece) == PieceDirection::ToDevice;
    if (!job.fill)
      job.wait_for_copy = piece;
    else if (piece >= slots_ && direction(piece - slots_) == PieceDirection::ToDevice)
      job.wait_for_copy = piece - slots_;
    break;
  }
  while (first_open_job_ < piece_count() &&
         jobs_[static_cast<std::size_t>(first_open_job_)] != State::Waiting)
    ++first_open_job_;
  return job;
}

void StagingSchedule::job_done(int piece) {
  jobs_[static_cast<std::size_t>(piece)] = State::Done;
  --running_;
  ++jobs_done_;
}

bool StagingSchedule::issuable() const {
  const int piece = issued_count_;
  if (piece >= piece_count())
    return false;
  if (direction(piece) == PieceDirection::ToDevice)
    return jobs_[static_cast<std::size_t>(piece)] == State::Done;
  return slot_released_by(piece - slots_);
}

int StagingSchedule::device_wait() const {
  const int previous = issued_count_ - slots_;
  if (previous < 0 || direction(issued_count_) != PieceDirection::ToHost ||
      direction(previous) != PieceDirection::ToDevice)
    return -1;
  return previous;
}

void StagingSchedule::issued() {
  ++issued_count_;
}

bool StagingSchedule::finished() const {
  return issued_count_ == piece_count() && jobs_done_ == piece_count();
}

void cut_into_pieces(const std::vector<std::size_t>& bytes, std::size_t slot_bytes,
                     std::vector<int>* first_piece) {
  first_piece->assign(1, 0);
  const std::size_t slot = std::max<std::size_t>(1, slot_bytes);
  for (std::size_t b : bytes)
    first_piece->push_back(first_piece->back() + static_cast<int>((b + slot - 1) / slot));
}

} // namespace overlap
