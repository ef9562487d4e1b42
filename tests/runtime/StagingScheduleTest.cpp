// The staging ring's rules (overlap/StagingSchedule.h) with scripted completions: which job and
// which issue the ring allows when, that no slot is ever used by two pieces at once, and that
// any order of completions finishes. No threads, no GPU.
#include "overlap/StagingSchedule.h"
#include "overlap/KernelTypes.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace {

using overlap::PieceDirection;
using overlap::StagingJob;
using overlap::StagingSchedule;

constexpr PieceDirection In = PieceDirection::ToDevice;
constexpr PieceDirection Out = PieceDirection::ToHost;

TEST(StagingSchedule, FillsRunAheadOfTheIssuerAsFarAsTheSlotsGo) {
  StagingSchedule ring({In, In, In, In}, 2);
  EXPECT_FALSE(ring.issuable()); // piece 0 is not in its slot yet
  const StagingJob first = ring.takeJob();
  EXPECT_EQ(first.piece, 0);
  EXPECT_TRUE(first.fill);
  EXPECT_EQ(first.waitForCopy, -1);
  EXPECT_EQ(ring.takeJob().piece, 1);
  // Piece 2 shares slot 0 with piece 0, which has not crossed the link yet.
  EXPECT_EQ(ring.takeJob().piece, -1);
  ring.jobDone(0);
  ASSERT_TRUE(ring.issuable());
  EXPECT_EQ(ring.deviceWait(), -1);
  ring.issued();
  // Now piece 2 may be filled, once piece 0's copy out of slot 0 completed on the device.
  const StagingJob third = ring.takeJob();
  EXPECT_EQ(third.piece, 2);
  EXPECT_EQ(third.waitForCopy, 0);
  EXPECT_FALSE(ring.issuable()); // piece 1 still filling
}

TEST(StagingSchedule, OutputsAreIssuedThenDrainedAndASlotWaitsForItsDrain) {
  StagingSchedule ring({Out, Out, Out}, 2);
  EXPECT_EQ(ring.takeJob().piece, -1); // a drain needs its copy issued
  ASSERT_TRUE(ring.issuable());
  ring.issued();
  const StagingJob drain = ring.takeJob();
  EXPECT_EQ(drain.piece, 0);
  EXPECT_FALSE(drain.fill);
  EXPECT_EQ(drain.waitForCopy, 0); // its own copy's event
  ASSERT_TRUE(ring.issuable());
  ring.issued();
  // Piece 2 would overwrite slot 0 before piece 0 was copied out of it.
  EXPECT_FALSE(ring.issuable());
  ring.jobDone(0);
  EXPECT_TRUE(ring.issuable());
  EXPECT_EQ(ring.deviceWait(), -1);
}

TEST(StagingSchedule, AnOutputAfterAnInputInItsSlotWaitsOnTheDeviceOnly) {
  StagingSchedule ring({In, Out}, 1);
  StagingJob fill = ring.takeJob();
  ring.jobDone(fill.piece);
  ring.issued();
  ASSERT_TRUE(ring.issuable());    // the issuer does not wait for the copy in...
  EXPECT_EQ(ring.deviceWait(), 0); // ...the copy out waits for it on the device
}

TEST(StagingSchedule, ADrainIsNotStuckBehindAFillWaitingForItsSlot) {
  StagingSchedule ring({Out, Out, In, In}, 2);
  ring.issued();
  ring.issued();
  // Fill 2 needs slot 0, which drain 0 frees: the drains come first, in order.
  EXPECT_EQ(ring.takeJob().piece, 0);
  EXPECT_EQ(ring.takeJob().piece, 1);
  EXPECT_EQ(ring.takeJob().piece, -1);
  ring.jobDone(1);
  EXPECT_EQ(ring.takeJob().piece, 3); // slot 1 is free
  ring.jobDone(0);
  const StagingJob fill = ring.takeJob();
  EXPECT_EQ(fill.piece, 2);
  EXPECT_EQ(fill.waitForCopy, -1); // slot 0 went to the host: drained is enough
}

TEST(StagingSchedule, NothingIsTakenOnceCancelled) {
  StagingSchedule ring({In, In}, 2);
  const StagingJob fill = ring.takeJob();
  ring.cancel();
  EXPECT_EQ(ring.takeJob().piece, -1);
  EXPECT_EQ(ring.runningJobs(), 1);
  ring.jobDone(fill.piece);
  EXPECT_EQ(ring.runningJobs(), 0);
  EXPECT_FALSE(ring.finished());
}

TEST(StagingSchedule, TheIssuerTakesTheFillItWaitsForOnlyIfNobodyTookIt) {
  StagingSchedule ring({In, In, Out}, 2);
  // Piece 0 is the issuer's to fill: no thread took it.
  const StagingJob own = ring.takeFill(0);
  EXPECT_EQ(own.piece, 0);
  EXPECT_TRUE(own.fill);
  EXPECT_EQ(ring.takeJob().piece, 1);    // a thread takes the next one
  EXPECT_EQ(ring.takeFill(1).piece, -1); // taken
  EXPECT_EQ(ring.takeFill(2).piece, -1); // not a fill
  ring.jobDone(0);
  ASSERT_TRUE(ring.issuable());
  ring.issued();
  ring.cancel();
  EXPECT_EQ(ring.takeFill(1).piece, -1);
}

TEST(StagedPieceBytes, SlotsAtMostAndSmallerAtTheCallsEnds) {
  using overlap::stagedPieceBytes;
  constexpr std::size_t KiB = 1024, MiB = 1024 * KiB;
  using Sizes = std::vector<std::size_t>;
  // The first input: 256 KiB, then at most the bytes before each piece, up to the slot.
  EXPECT_EQ(stagedPieceBytes(10 * MiB, true, 0, 4 * MiB),
            (Sizes{256 * KiB, 256 * KiB, 512 * KiB, MiB, 2 * MiB, 4 * MiB, 2 * MiB}));
  // Inputs later in the call are cut into whole slots.
  EXPECT_EQ(stagedPieceBytes(10 * MiB, true, 8 * MiB, 4 * MiB), (Sizes{4 * MiB, 4 * MiB, 2 * MiB}));
  // The last output mirrors the first input: its pieces shrink towards its end.
  EXPECT_EQ(stagedPieceBytes(10 * MiB, false, 0, 4 * MiB),
            (Sizes{2 * MiB, 4 * MiB, 2 * MiB, MiB, 512 * KiB, 256 * KiB, 256 * KiB}));
  EXPECT_EQ(stagedPieceBytes(3 * MiB, false, 5 * MiB, 4 * MiB), (Sizes{3 * MiB}));
  // Slots below a quarter MiB (asked for) are cut as they are; nothing for no bytes.
  EXPECT_EQ(stagedPieceBytes(10, true, 0, 4), (Sizes{4, 4, 2}));
  EXPECT_TRUE(stagedPieceBytes(0, true, 0, 4 * MiB).empty());
  EXPECT_EQ(stagedPieceBytes(100, false, 0, 4 * MiB), (Sizes{100}));
}

// A call's copies: inputs counted from the call's start, outputs from its end, whatever the order.
TEST(StagedPieces, EachCopyIsCutWithTheBytesOfItsDirectionBeyondIt) {
  using overlap::StagedBytes;
  constexpr std::size_t KiB = 1024, MiB = 1024 * KiB;
  using Sizes = std::vector<std::size_t>;
  const std::vector<std::vector<std::size_t>> pieces =
      overlap::stagedPieces({StagedBytes{true, MiB}, StagedBytes{false, 3 * MiB},
                             StagedBytes{true, 2 * MiB}, StagedBytes{false, MiB}},
                            4 * MiB);
  ASSERT_EQ(pieces.size(), 4u);
  EXPECT_EQ(pieces[0], (Sizes{256 * KiB, 256 * KiB, 512 * KiB}));
  EXPECT_EQ(pieces[1], (Sizes{2 * MiB, MiB})); // one MiB of outputs after it
  EXPECT_EQ(pieces[2], (Sizes{MiB, MiB}));     // one MiB of inputs before it
  EXPECT_EQ(pieces[3], (Sizes{512 * KiB, 256 * KiB, 256 * KiB}));
  EXPECT_TRUE(overlap::stagedPieces({}, 4 * MiB).empty());
}

// Random pipelines played with completions in a random order, as threads and a device would
// produce them: every step, one thing that may happen now happens. A job's copy between the
// user's memory and its slot happens when it completes, once the copy it waits for is done; a
// device copy completes in any order but after the copy it waits for on the device. No slot is
// ever overwritten while another piece still needs it, and every run finishes.
TEST(StagingSchedule, AnyOrderOfCompletionsFinishesWithoutSharingASlot) {
  std::mt19937 random(2026);
  for (int run = 0; run < 300; ++run) {
    const int pieces = 1 + static_cast<int>(random() % 40);
    const int slots = 1 + static_cast<int>(random() % 6);
    const int threads = 1 + static_cast<int>(random() % 4);
    std::vector<PieceDirection> directions;
    for (int p = 0; p < pieces; ++p)
      directions.push_back(random() % 2 == 0 ? In : Out);
    StagingSchedule ring(directions, slots);
    const auto at = [](auto& vector, int i) -> decltype(auto) {
      return vector[static_cast<std::size_t>(i)];
    };
    std::vector<int> holder(static_cast<std::size_t>(slots), -1); // the piece whose bytes it holds
    std::vector<bool> copied(static_cast<std::size_t>(pieces), false); // device copy completed
    std::vector<bool> drained(static_cast<std::size_t>(pieces), false);
    std::vector<int> deviceWait(static_cast<std::size_t>(pieces), -1);
    std::vector<int> inFlight; // issued copies not yet completed
    std::vector<StagingJob> running;
    SCOPED_TRACE("run " + std::to_string(run));
    for (int step = 0; !ring.finished(); ++step) {
      ASSERT_LT(step, 100000) << "no progress";
      const int choice = static_cast<int>(random() % 4);
      if (choice == 0 && static_cast<int>(running.size()) < threads) {
        const StagingJob job = ring.takeJob();
        if (job.piece < 0)
          continue;
        if (job.waitForCopy >= 0) {
          ASSERT_LT(job.waitForCopy, ring.nextToIssue()) << "waits for a copy not issued";
        }
        running.push_back(job);
      } else if (choice == 1 && !running.empty()) {
        const std::size_t which = random() % running.size();
        const StagingJob job = running[which];
        if (job.waitForCopy >= 0 && !at(copied, job.waitForCopy))
          continue; // still waiting for the event
        running.erase(running.begin() + static_cast<long>(which));
        int& slot = at(holder, ring.slotOf(job.piece));
        if (job.fill) {
          // The slot's previous piece is done with it: its copy to the device completed, or
          // its bytes reached the user.
          if (slot >= 0) {
            ASSERT_TRUE(ring.direction(slot) == In ? at(copied, slot) : at(drained, slot))
                << "fill of piece " << job.piece << " over piece " << slot;
          }
          slot = job.piece;
        } else {
          ASSERT_EQ(slot, job.piece) << "the slot was overwritten before its drain";
          ASSERT_TRUE(at(copied, job.piece));
          at(drained, job.piece) = true;
        }
        ring.jobDone(job.piece);
      } else if (choice == 2 && !ring.issuable() && static_cast<int>(running.size()) < threads) {
        // The issuer, waiting, fills its next piece itself if no thread took it.
        const StagingJob job = ring.takeFill(ring.nextToIssue());
        if (job.piece >= 0) {
          ASSERT_EQ(job.piece, ring.nextToIssue());
          running.push_back(job);
        }
      } else if (choice == 2 && ring.issuable()) {
        const int piece = ring.nextToIssue();
        int& slot = at(holder, ring.slotOf(piece));
        if (ring.direction(piece) == In) {
          ASSERT_EQ(slot, piece) << "issued before it was filled";
        } else {
          if (slot >= 0 && ring.direction(slot) == Out) {
            ASSERT_TRUE(at(drained, slot)) << "copied into a slot not yet drained";
          }
          if (slot >= 0 && ring.direction(slot) == In && !at(copied, slot)) {
            ASSERT_EQ(ring.deviceWait(), slot) << "no device wait for the copy out of the slot";
          }
          at(deviceWait, piece) = ring.deviceWait();
          slot = piece;
        }
        inFlight.push_back(piece);
        ring.issued();
      } else if (choice == 3 && !inFlight.empty()) {
        const std::size_t which = random() % inFlight.size();
        const int piece = inFlight[which];
        const int wait = at(deviceWait, piece);
        if (wait >= 0 && !at(copied, wait))
          continue; // the stream waits for that event
        inFlight.erase(inFlight.begin() + static_cast<long>(which));
        at(copied, piece) = true;
      }
    }
    EXPECT_TRUE(running.empty());
  }
}

TEST(ResolvedStaging, FillsInWhatWasNotAskedFor) {
  // 1 GiB: as many threads as the host spares, up to 16; one per 8 MiB, 4 at least.
  const overlap::StagingConfig large = overlap::resolvedStaging({}, 1LL << 30, 16);
  EXPECT_EQ(large.threads, 15);
  EXPECT_EQ(large.slotBytes, std::size_t{4} << 20);
  EXPECT_EQ(large.slots, 32);
  EXPECT_EQ(overlap::resolvedStaging({}, 1LL << 30, 64).threads, 16);
  EXPECT_EQ(overlap::resolvedStaging({}, 160LL << 20, 64).threads, 16);
  EXPECT_EQ(overlap::resolvedStaging({}, 64LL << 20, 64).threads, 8);
  EXPECT_EQ(overlap::resolvedStaging({}, 40LL << 20, 64).threads, 5);
  EXPECT_EQ(overlap::resolvedStaging({}, 32LL << 20, 64).threads, 4);
  // A small call still gets two pieces per thread, but no piece below 256 KiB.
  const overlap::StagingConfig small = overlap::resolvedStaging({}, 4 << 20, 16);
  EXPECT_EQ(small.slotBytes, std::size_t{512} << 10);
  EXPECT_EQ(overlap::resolvedStaging({}, 4096, 16).slotBytes, std::size_t{256} << 10);
  // One hardware thread stays the issuer's.
  EXPECT_EQ(overlap::resolvedStaging({}, 1 << 20, 2).threads, 1);
  EXPECT_EQ(overlap::resolvedStaging({}, 1 << 20, 0).threads, 1);
  const overlap::StagingConfig asked = overlap::resolvedStaging({3, 1 << 20, 7}, 1LL << 30, 16);
  EXPECT_EQ(asked.threads, 3);
  EXPECT_EQ(asked.slotBytes, std::size_t{1} << 20);
  EXPECT_EQ(asked.slots, 7);
}

} // namespace
