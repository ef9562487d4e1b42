// How the model prices pageable arrays by mode (registered per call, cached, staged): the
// simulator's host copy threads, the staged operations, the registrations each mode pays, and the
// staging plan it chooses.
#include "ModelTestProfiles.h"
#include "model/CandidateSet.h"
#include "model/ModernModel.h"
#include "model/PipelineSimulator.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace overlap::model {
namespace {

constexpr double kMB = 1e6;

SimOp hostCopy(double bytes, std::vector<int> waits = {}) {
  SimOp op;
  op.kind = OpKind::HostCopy;
  op.bytes = bytes;
  op.waitsFor = std::move(waits);
  return op;
}

SimOp copyIn(int stream, double bytes, std::vector<int> waits = {}) {
  SimOp op;
  op.kind = OpKind::CopyToDevice;
  op.stream = stream;
  op.bytes = bytes;
  op.waitsFor = std::move(waits);
  return op;
}

// Host copies at 1 s per byte per thread, 0.5 s per byte all together; copies 1 s per byte.
SimDevice hostCopyDevice(int lanes) {
  SimDevice device = simDeviceOf(testing::idealDevice(2, false, 35), 8);
  device.hostCopyLanes = lanes;
  device.hostCopySecondsPerByte = 1;
  device.hostCopyParallelSecondsPerByte = 0.5;
  return device;
}

TEST(StagingSimulation, HostCopiesRunOnTheRingsThreadsAtOneThreadsSpeed) {
  const std::vector<SimOp> four = {hostCopy(1), hostCopy(1), hostCopy(1), hostCopy(1)};
  // One thread: one after the other.
  EXPECT_DOUBLE_EQ(simulate(four, hostCopyDevice(1)).makespan, 4);
  // Two threads at their own speed (together 2 bytes/s, within the memory's 2 bytes/s).
  EXPECT_DOUBLE_EQ(simulate(four, hostCopyDevice(2)).makespan, 2);
  // Four threads share the memory system: 4 bytes at 2 bytes/s.
  EXPECT_DOUBLE_EQ(simulate(four, hostCopyDevice(4)).makespan, 2);
}

TEST(StagingSimulation, CopiesWaitForTheirFillAndOverlapWithTheNextOne) {
  // fill 0, copy 0, fill 1, copy 1: the second fill runs while the first piece crosses.
  const std::vector<SimOp> ops = {hostCopy(1), copyIn(0, 1, {0}), hostCopy(1), copyIn(0, 1, {2})};
  const SimResult result = simulate(ops, hostCopyDevice(1));
  EXPECT_DOUBLE_EQ(result.timings[1].start, 1);
  EXPECT_DOUBLE_EQ(result.timings[2].start, 1);
  EXPECT_DOUBLE_EQ(result.makespan, 3);
}

TEST(StagingSimulation, AThreadTakesTheLowestHostCopyWhoseCopiesWereIssuedAndWaitsForThem) {
  // Host copy 1 waits for a copy that was issued: the one thread takes it and blocks until the
  // copy is done (cudaEventSynchronize), so host copy 2 runs only after it, as in the runtime.
  const std::vector<SimOp> ops = {copyIn(0, 2), hostCopy(1, {0}), hostCopy(1)};
  const SimResult one = simulate(ops, hostCopyDevice(1));
  EXPECT_DOUBLE_EQ(one.timings[1].start, 0);
  EXPECT_DOUBLE_EQ(one.timings[1].end, 3);
  EXPECT_DOUBLE_EQ(one.timings[2].start, 3);
  // A second thread copies meanwhile.
  const SimResult two = simulate(ops, hostCopyDevice(2));
  EXPECT_DOUBLE_EQ(two.timings[2].start, 0);
  EXPECT_DOUBLE_EQ(two.makespan, 3);
}

TEST(StagingSimulation, AThreadWaitsOnlyForCopiesWhoseFillsAreDone) {
  // The copy in waits for its fill (host copy 0); host copy 2 waits for that copy. With one
  // thread, taking host copy 2 first would hold the thread its own copy's fill needs: the ring's
  // issuer issues the copy only once it is filled, so its drain is not taken before.
  std::vector<SimOp> ops = {hostCopy(1), copyIn(0, 1, {0}), hostCopy(1, {1})};
  const SimResult result = simulate(ops, hostCopyDevice(1));
  EXPECT_DOUBLE_EQ(result.timings[0].start, 0);
  EXPECT_DOUBLE_EQ(result.timings[2].start, 1);
  EXPECT_DOUBLE_EQ(result.makespan, 3);
}

TEST(StagingSimulation, AHandOverCostsItsIdleThreads) {
  SimDevice device = hostCopyDevice(4);
  device.hostCopyHandOverS = 0.1;
  // The first copy is taken with 3 threads idle, the second with 2.
  const SimResult result = simulate({hostCopy(1), hostCopy(1)}, device);
  EXPECT_DOUBLE_EQ(result.handOverSeconds, 0.5);
  EXPECT_DOUBLE_EQ(result.makespan, 1) << "not in the makespan";
}

Workload oneArrayIn(double bytes) {
  Workload workload;
  workload.partition.extent = 1 << 20;
  workload.transfers.h2dBytes = bytes;
  workload.launch.kernelSeconds = 1e-6;
  return workload;
}

TEST(StagedOperations, CopiesAreCutIntoSlotsThatWaitForTheirPreviousPiece) {
  const HardwareProfile profile = testing::h100Like();
  const ModernModel model;
  // Slots below a quarter MiB: whole slots, no smaller pieces at the ends.
  Workload workload = oneArrayIn(625000);
  workload.transfers.d2hBytes = 250000;
  Candidate candidate{Variant::Streams, 1, IssueOrder::DepthFirst};
  const std::vector<SimOp> pinned = model.operations(profile, workload, candidate);
  const StagingConfig ring{2, 250000, 2};
  const std::vector<SimOp> ops = stagedOperations(pinned, ring, 1e-6);
  // In: 3 pieces (250, 250, 125 kB), each a fill then its copy; the kernel; out: 1 piece and its
  // drain.
  ASSERT_EQ(ops.size(), 9u);
  EXPECT_EQ(ops[0].kind, OpKind::HostCopy);
  EXPECT_EQ(ops[1].kind, OpKind::CopyToDevice);
  EXPECT_EQ(ops[1].waitsFor, std::vector<int>{0});
  EXPECT_DOUBLE_EQ(ops[1].bytes, 250000);
  EXPECT_DOUBLE_EQ(ops[5].bytes, 125000);
  // Piece 2 uses slot 0 again: its fill waits for piece 0's copy out of it.
  EXPECT_EQ(ops[4].kind, OpKind::HostCopy);
  EXPECT_EQ(ops[4].waitsFor, std::vector<int>{1});
  EXPECT_EQ(ops[6].kind, OpKind::Kernel);
  // Piece 3 (out) uses slot 1, last used by piece 1 (in): its copy waits for that one on the
  // device; then its drain.
  EXPECT_EQ(ops[7].kind, OpKind::CopyToHost);
  EXPECT_EQ(ops[7].waitsFor, std::vector<int>{3});
  EXPECT_EQ(ops[8].kind, OpKind::HostCopy);
  EXPECT_EQ(ops[8].waitsFor, std::vector<int>{7});
  // Issued one piece after another, after the pieces before.
  EXPECT_LT(ops[1].issuedAt, ops[3].issuedAt);
  EXPECT_LT(ops[5].issuedAt, ops[6].issuedAt);
}

TEST(StagedOperations, PiecesAreTheRuntimesSmallerAtTheCallsEnds) {
  // Two chunks of 6 MiB in and out on 4 MiB slots: the pieces the ring cuts (stagedPieceBytes).
  constexpr double MiB = 1 << 20;
  std::vector<SimOp> ops = {copyIn(0, 6 * MiB), SimOp{}, copyIn(1, 6 * MiB), SimOp{}};
  for (int i : {1, 3}) {
    ops[static_cast<std::size_t>(i)].kind = OpKind::CopyToHost;
    ops[static_cast<std::size_t>(i)].stream = i / 2;
    ops[static_cast<std::size_t>(i)].bytes = 6 * MiB;
  }
  const std::vector<SimOp> staged = stagedOperations(ops, StagingConfig{4, 4 << 20, 10}, 0);
  std::vector<double> in, out;
  for (const SimOp& op : staged)
    if (op.kind == OpKind::CopyToDevice)
      in.push_back(op.bytes / MiB);
    else if (op.kind == OpKind::CopyToHost)
      out.push_back(op.bytes / MiB);
  EXPECT_EQ(in, (std::vector<double>{0.25, 0.25, 0.5, 1, 2, 2, 4, 2}));
  EXPECT_EQ(out, (std::vector<double>{2, 4, 2, 2, 1, 0.5, 0.25, 0.25}));
}

TEST(StagedOperations, WaitsForACopyMoveToItsLastPiece) {
  // A kernel on stream 1 waits for the broadcast copy on stream 0 (operation 0).
  std::vector<SimOp> ops = {copyIn(0, 8), SimOp{}};
  ops[1].kind = OpKind::Kernel;
  ops[1].stream = 1;
  ops[1].waitsFor = {0};
  const std::vector<SimOp> staged = stagedOperations(ops, StagingConfig{1, 4, 4}, 0);
  ASSERT_EQ(staged.size(), 5u);
  EXPECT_EQ(staged[4].waitsFor, std::vector<int>{3});
}

// The h100-like link (55 GB/s) with a measured pageable G and host copies of 10 GB/s per thread,
// 50 GB/s in all.
HardwareProfile pageableH100() {
  HardwareProfile profile = testing::h100Like();
  profile.hostToDevice.pageableSecondsPerByte = 1 / 13e9;
  profile.deviceToHost.pageableSecondsPerByte = 1 / 17e9;
  profile.hostCopySecondsPerByte = 1 / 10e9;
  profile.hostCopyParallelSecondsPerByte = 1 / 50e9;
  return profile;
}

double predict(const HardwareProfile& profile, const Workload& workload, Candidate candidate) {
  return *ModernModel().predictSeconds(profile, workload, candidate);
}

Workload saxpyLike() {
  Workload workload;
  workload.partition.extent = 64 << 20;
  workload.transfers.h2dBytes = 512 * kMB;
  workload.transfers.d2hBytes = 256 * kMB;
  workload.transfers.inoutD2hBytes = 256 * kMB;
  workload.launch.kernelSeconds = 0.4e-3;
  workload.transfers.hostMemoryPinned = false;
  return workload;
}

TEST(StagingModel, EachModePaysItsOwnWayForPageableArrays) {
  const HardwareProfile profile = pageableH100();
  const Workload pageable = saxpyLike();
  Workload pinned = pageable;
  pinned.transfers.hostMemoryPinned = true;
  Candidate streams{Variant::Streams, 16, IssueOrder::DepthFirst};
  const double onPinned = predict(profile, pinned, streams);
  const double registered = predict(profile, pageable, streams);
  streams.pageable = PageableMode::CachedRegister;
  const double cached = predict(profile, pageable, streams);
  streams.pageable = PageableMode::Stage;
  const double staged = predict(profile, pageable, streams);
  // A loop's later calls find the arrays registered: pinned speed.
  EXPECT_DOUBLE_EQ(cached, onPinned);
  // Registering per call first pins all 512 MB at the pageable G; staging overlaps its host
  // copies with the link, and cannot beat pinned memory.
  EXPECT_NEAR(registered - onPinned, 512 * kMB / 13e9, 1e-9);
  EXPECT_LT(staged, registered);
  EXPECT_GT(staged, onPinned);
  // 768 MB of host copies at 50 GB/s (16 threads of 10 GB/s, held to the memory's 50) bound the
  // staged call.
  EXPECT_GT(staged, 768 * kMB / 50e9);
  EXPECT_LT(staged, 768 * kMB / 50e9 * 1.3);
}

TEST(StagingModel, RegistrationsByMode) {
  const HardwareProfile profile = pageableH100();
  Workload workload = saxpyLike();
  workload.transfers.inoutD2hBytes = 0; // y a pure output here: Hybrid maps it
  const double all = registrationSeconds(profile, workload);
  EXPECT_NEAR(all, (512 + 256) * kMB / 13e9, 1e-9);
  Candidate candidate{Variant::Hybrid, 8, IssueOrder::DepthFirst};
  EXPECT_DOUBLE_EQ(registrationSeconds(profile, workload, candidate), all);
  candidate.pageable = PageableMode::Stage;
  EXPECT_NEAR(registrationSeconds(profile, workload, candidate), 256 * kMB / 13e9, 1e-9);
  candidate.variant = Variant::Streams;
  EXPECT_EQ(registrationSeconds(profile, workload, candidate), 0);
  candidate.variant = Variant::Mapped; // copies nothing: registers as Default
  EXPECT_DOUBLE_EQ(registrationSeconds(profile, workload, candidate), all);
  candidate.pageable = PageableMode::CachedRegister;
  EXPECT_EQ(registrationSeconds(profile, workload, candidate), 0);
  candidate.variant = Variant::Explicit;
  candidate.pageable = PageableMode::Default;
  EXPECT_EQ(registrationSeconds(profile, workload, candidate), 0);
}

TEST(StagingModel, TheModeNamesOnlyWhatIsNotTheDefault) {
  Candidate candidate{Variant::Streams, 16, IssueOrder::DepthFirst};
  EXPECT_EQ(describe(candidate), "Streams(16, depth-first)");
  candidate.pageable = PageableMode::Stage;
  EXPECT_EQ(describe(candidate), "Streams(16, depth-first, staged)");
  Candidate mapped{Variant::Mapped, 1, IssueOrder::DepthFirst};
  mapped.pageable = PageableMode::Stage; // Mapped cannot stage: nothing to say
  EXPECT_EQ(describe(mapped), "Mapped");
  mapped.pageable = PageableMode::CachedRegister;
  EXPECT_EQ(describe(mapped), "Mapped(cached registration)");
  EXPECT_NE(candidate, (Candidate{Variant::Streams, 16, IssueOrder::DepthFirst}));
}

TEST(StagingModel, ACandidateRunsInItsOwnModeAndRing) {
  Candidate candidate{Variant::Hybrid, 8, IssueOrder::BreadthFirst};
  candidate.pageable = PageableMode::Stage;
  candidate.staging = StagingConfig{3, 1 << 20, 8};
  const StreamsConfig config = streamsConfig(candidate);
  EXPECT_EQ(config.streams, 8);
  EXPECT_EQ(config.order, IssueOrder::BreadthFirst);
  EXPECT_EQ(config.pageable, PageableMode::Stage);
  EXPECT_EQ(config.staging.threads, 3);
  EXPECT_EQ(config.staging.slotBytes, std::size_t{1} << 20);
  EXPECT_EQ(config.staging.slots, 8);
}

TEST(StagingModel, ACandidateComesBackFromItsConfig) {
  Candidate streamed{Variant::Hybrid, 8, IssueOrder::BreadthFirst};
  streamed.pageable = PageableMode::Stage;
  streamed.staging = StagingConfig{3, 1 << 20, 8};
  streamed.chunks = 32;
  streamed.devices = 2;
  streamed.graph = true;
  EXPECT_EQ(candidateOf(Variant::Hybrid, streamsConfig(streamed)), streamed);
  // Explicit and Mapped are candidates of one stream whatever the config says; Explicit has no
  // pageable mode, Mapped keeps its own.
  StreamsConfig config = streamsConfig(streamed);
  config.pageable = PageableMode::CachedRegister;
  Candidate mapped{Variant::Mapped, 1, IssueOrder::DepthFirst};
  mapped.pageable = PageableMode::CachedRegister;
  mapped.devices = 2;
  EXPECT_EQ(candidateOf(Variant::Mapped, config), mapped);
  Candidate explicitCandidate{Variant::Explicit, 1, IssueOrder::DepthFirst};
  explicitCandidate.devices = 2;
  EXPECT_EQ(candidateOf(Variant::Explicit, config), explicitCandidate);
}

// The H200 host's copies as overlap-calibrate measured them (bench/README.md): 7.5 GB/s on one
// thread, 16 on 2, 25 on 4, 38.6 on 8, 41 on 15, and 1 us a hand-over per idle ring thread; and
// its host's issue costs (the built-in h200-pcie5's), which set how fast pieces are handed over.
HardwareProfile h200HostCopies() {
  HardwareProfile profile = pageableH100();
  profile.kernelLaunchS = 3.5e-6;
  profile.streamSyncS = 5.15e-6;
  profile.streamOverheadS = 9.84e-6;
  profile.copyCallS = 2e-6;
  profile.hostCopyByThreads = {
      {1, 1 / 7.5e9}, {2, 1 / 16e9}, {4, 1 / 25e9}, {8, 1 / 38.6e9}, {15, 1 / 41e9}};
  profile.hostCopySecondsPerByte = 1 / 7.5e9;
  profile.hostCopyParallelSecondsPerByte = 1 / 41e9;
  profile.hostCopyThreadPieceS = 1e-6;
  return profile;
}

TEST(StagingModel, TheRingsRateIsTheProfilesForItsThreadCount) {
  const HardwareProfile profile = h200HostCopies();
  EXPECT_DOUBLE_EQ(hostCopyRingSecondsPerByte(profile, 4, 1), 1 / 25e9);
  EXPECT_DOUBLE_EQ(hostCopyRingSecondsPerByte(profile, 1, 1), 1 / 7.5e9);
  // Between counts measured, in rate: 6 threads halfway from 25 to 38.6 GB/s.
  EXPECT_NEAR(hostCopyRingSecondsPerByte(profile, 6, 1), 1 / 31.8e9, 1e-22);
  EXPECT_DOUBLE_EQ(hostCopyRingSecondsPerByte(profile, 16, 1), 1 / 41e9); // the widest beyond
  EXPECT_DOUBLE_EQ(hostCopyRingSecondsPerByte(pageableH100(), 4, 7), 7);  // none measured
}

Workload stagedCall(double bytesEachWay) {
  Workload workload;
  workload.partition.extent = 1 << 20;
  workload.transfers.h2dBytes = bytesEachWay;
  workload.transfers.d2hBytes = bytesEachWay;
  workload.launch.kernelSeconds = 1e-5;
  workload.transfers.hostMemoryPinned = false;
  return workload;
}

// More threads copy faster but every hand-over wakes the idle ones: few for a small call of many
// pieces, more for a larger one, the widest for the largest. The ring alone, 16 chunks on 8
// streams on an H200 host (bench/README.md), measured 2, 8, 8, 15, 15 and 15 threads fastest at
// 1, 6, 13, 40, 67 and 256 MiB each way; where neighbouring counts were within 1.1x of each other
// the choice is left to the model's details.
TEST(StagingModel, TheModelGivesAStagedCallTheThreadsItPredictsFastest) {
  const HardwareProfile profile = h200HostCopies();
  const ModernModel model;
  Candidate candidate{Variant::Streams, 8, IssueOrder::DepthFirst};
  candidate.chunks = 16;
  candidate.pageable = PageableMode::Stage;
  const int small = modelStagingThreads(model, profile, stagedCall(1 << 20), candidate);
  EXPECT_GE(small, 2);
  EXPECT_LE(small, 4);
  EXPECT_EQ(modelStagingThreads(model, profile, stagedCall(13 << 20), candidate), 8);
  EXPECT_EQ(modelStagingThreads(model, profile, stagedCall(256 << 20), candidate), 15);
  // Its choice is the fastest of the counts measured.
  for (const HardwareProfile::HostCopyThreads& count : profile.hostCopyByThreads) {
    Candidate tried = candidate;
    tried.staging.threads = count.threads;
    Candidate chosen = candidate;
    chosen.staging.threads = modelStagingThreads(model, profile, stagedCall(13 << 20), candidate);
    EXPECT_LE(*model.predictSeconds(profile, stagedCall(13 << 20), chosen),
              *model.predictSeconds(profile, stagedCall(13 << 20), tried))
        << count.threads << " threads";
  }
  // Left to the runtime's rule: no counts measured, a ring of its own, or nothing staged.
  EXPECT_EQ(modelStagingThreads(model, pageableH100(), stagedCall(13 << 20), candidate), 0);
  Candidate own = candidate;
  own.staging.threads = 3;
  EXPECT_EQ(modelStagingThreads(model, profile, stagedCall(13 << 20), own), 0);
  Candidate registered = candidate;
  registered.pageable = PageableMode::Register;
  EXPECT_EQ(modelStagingThreads(model, profile, stagedCall(13 << 20), registered), 0);
}

// The tuner's staged candidates carry the model's threads, so that what it measures and bakes is
// what the model chose.
TEST(StagingModel, StagedCandidatesCarryTheModelsThreads) {
  const HardwareProfile profile = h200HostCopies();
  const ModernModel model;
  SearchOptions options;
  options.maxStreams = 8;
  int staged = 0;
  for (const Candidate& candidate :
       enumerateCandidates(model, profile, stagedCall(13 << 20), options)) {
    if (candidate.pageable != PageableMode::Stage)
      continue;
    ++staged;
    Candidate automatic = candidate;
    automatic.staging.threads = 0;
    EXPECT_EQ(candidate.staging.threads,
              modelStagingThreads(model, profile, stagedCall(13 << 20), automatic));
    EXPECT_GT(candidate.staging.threads, 0);
  }
  EXPECT_GT(staged, 0);
}

} // namespace
} // namespace overlap::model
