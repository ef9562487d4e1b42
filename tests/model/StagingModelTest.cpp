// How the model prices pageable arrays by mode (registered per call, cached, staged): the
// simulator's host copy threads, the staged operations, the registrations each mode pays, and the
// staging plan it chooses.
#include "model/modern_model.h"
#include "model/pipeline_simulator.h"
#include "model/staging_plan.h"
#include "model_test_profiles.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace overlap::model {
namespace {

constexpr double kMB = 1e6;

SimOp host_copy(double bytes, std::vector<int> waits = {}) {
  SimOp op;
  op.kind = OpKind::HostCopy;
  op.bytes = bytes;
  op.waits_for = std::move(waits);
  return op;
}

SimOp copy_in(int stream, double bytes, std::vector<int> waits = {}) {
  SimOp op;
  op.kind = OpKind::CopyToDevice;
  op.stream = stream;
  op.bytes = bytes;
  op.waits_for = std::move(waits);
  return op;
}

// Host copies at 1 s per byte per thread, 0.5 s per byte all together; copies 1 s per byte.
SimDevice host_copy_device(int lanes) {
  SimDevice device = sim_device_of(testing::ideal_device(2, false, 35), 8);
  device.host_copy_lanes = lanes;
  device.host_copy_seconds_per_byte = 1;
  device.host_copy_parallel_seconds_per_byte = 0.5;
  return device;
}

TEST(StagingSimulation, HostCopiesRunOnTheRingsThreadsAtOneThreadsSpeed) {
  const std::vector<SimOp> four = {host_copy(1), host_copy(1), host_copy(1), host_copy(1)};
  // One thread: one after the other.
  EXPECT_DOUBLE_EQ(simulate(four, host_copy_device(1)).makespan, 4);
  // Two threads at their own speed (together 2 bytes/s, within the memory's 2 bytes/s).
  EXPECT_DOUBLE_EQ(simulate(four, host_copy_device(2)).makespan, 2);
  // Four threads share the memory system: 4 bytes at 2 bytes/s.
  EXPECT_DOUBLE_EQ(simulate(four, host_copy_device(4)).makespan, 2);
}

TEST(StagingSimulation, CopiesWaitForTheirFillAndOverlapWithTheNextOne) {
  // fill 0, copy 0, fill 1, copy 1: the second fill runs while the first piece crosses.
  const std::vector<SimOp> ops = {host_copy(1), copy_in(0, 1, {0}), host_copy(1),
                                  copy_in(0, 1, {2})};
  const SimResult result = simulate(ops, host_copy_device(1));
  EXPECT_DOUBLE_EQ(result.timings[1].start, 1);
  EXPECT_DOUBLE_EQ(result.timings[2].start, 1);
  EXPECT_DOUBLE_EQ(result.makespan, 3);
}

TEST(StagingSimulation, ThreadsTakeTheLowestRunnableHostCopy) {
  // Host copy 1 waits for a copy; host copy 2 may run meanwhile, on the one thread.
  const std::vector<SimOp> ops = {copy_in(0, 2), host_copy(1, {0}), host_copy(1)};
  const SimResult result = simulate(ops, host_copy_device(1));
  EXPECT_DOUBLE_EQ(result.timings[2].start, 0);
  EXPECT_DOUBLE_EQ(result.timings[1].start, 2);
}

Workload one_array_in(double bytes) {
  Workload workload;
  workload.partition_extent = 1 << 20;
  workload.h2d_bytes = bytes;
  workload.kernel_seconds = 1e-6;
  return workload;
}

TEST(StagedOperations, CopiesAreCutIntoSlotsThatWaitForTheirPreviousPiece) {
  const HardwareProfile profile = testing::h100_like();
  const ModernModel model;
  Workload workload = one_array_in(10 * kMB);
  workload.d2h_bytes = 3 * kMB;
  Candidate candidate{Variant::Streams, 1, IssueOrder::DepthFirst};
  const std::vector<SimOp> pinned = model.operations(profile, workload, candidate);
  const StagingConfig ring{2, 4000000, 2}; // 4 MB slots
  const std::vector<SimOp> ops = staged_operations(pinned, ring, 1e-6);
  // In: 3 pieces (4, 4, 2 MB), each a fill then its copy; the kernel; out: 1 piece and its drain.
  ASSERT_EQ(ops.size(), 9u);
  EXPECT_EQ(ops[0].kind, OpKind::HostCopy);
  EXPECT_EQ(ops[1].kind, OpKind::CopyToDevice);
  EXPECT_EQ(ops[1].waits_for, std::vector<int>{0});
  EXPECT_DOUBLE_EQ(ops[1].bytes, 10 * kMB / 3);
  // Piece 2 uses slot 0 again: its fill waits for piece 0's copy out of it.
  EXPECT_EQ(ops[4].kind, OpKind::HostCopy);
  EXPECT_EQ(ops[4].waits_for, std::vector<int>{1});
  EXPECT_EQ(ops[6].kind, OpKind::Kernel);
  // Piece 3 (out) uses slot 1, last used by piece 1 (in): its copy waits for that one on the
  // device; then its drain.
  EXPECT_EQ(ops[7].kind, OpKind::CopyToHost);
  EXPECT_EQ(ops[7].waits_for, std::vector<int>{3});
  EXPECT_EQ(ops[8].kind, OpKind::HostCopy);
  EXPECT_EQ(ops[8].waits_for, std::vector<int>{7});
  // Issued one piece after another, after the pieces before.
  EXPECT_LT(ops[1].issued_at, ops[3].issued_at);
  EXPECT_LT(ops[5].issued_at, ops[6].issued_at);
}

TEST(StagedOperations, WaitsForACopyMoveToItsLastPiece) {
  // A kernel on stream 1 waits for the broadcast copy on stream 0 (operation 0).
  std::vector<SimOp> ops = {copy_in(0, 8), SimOp{}};
  ops[1].kind = OpKind::Kernel;
  ops[1].stream = 1;
  ops[1].waits_for = {0};
  const std::vector<SimOp> staged = staged_operations(ops, StagingConfig{1, 4, 4}, 0);
  ASSERT_EQ(staged.size(), 5u);
  EXPECT_EQ(staged[4].waits_for, std::vector<int>{3});
}

// The h100-like link (55 GB/s) with a measured pageable G and host copies of 10 GB/s per thread,
// 50 GB/s in all.
HardwareProfile pageable_h100() {
  HardwareProfile profile = testing::h100_like();
  profile.host_to_device.pageable_seconds_per_byte = 1 / 13e9;
  profile.device_to_host.pageable_seconds_per_byte = 1 / 17e9;
  profile.host_copy_seconds_per_byte = 1 / 10e9;
  profile.host_copy_parallel_seconds_per_byte = 1 / 50e9;
  profile.host_copy_threads = 8;
  return profile;
}

double predict(const HardwareProfile& profile, const Workload& workload, Candidate candidate) {
  return *ModernModel().predict_seconds(profile, workload, candidate);
}

Workload saxpy_like() {
  Workload workload;
  workload.partition_extent = 64 << 20;
  workload.h2d_bytes = 512 * kMB;
  workload.d2h_bytes = 256 * kMB;
  workload.inout_d2h_bytes = 256 * kMB;
  workload.kernel_seconds = 0.4e-3;
  workload.host_memory_pinned = false;
  return workload;
}

TEST(StagingModel, EachModePaysItsOwnWayForPageableArrays) {
  const HardwareProfile profile = pageable_h100();
  const Workload pageable = saxpy_like();
  Workload pinned = pageable;
  pinned.host_memory_pinned = true;
  Candidate streams{Variant::Streams, 16, IssueOrder::DepthFirst};
  const double on_pinned = predict(profile, pinned, streams);
  const double registered = predict(profile, pageable, streams);
  streams.pageable = PageableMode::CachedRegister;
  const double cached = predict(profile, pageable, streams);
  streams.pageable = PageableMode::Stage;
  const double staged = predict(profile, pageable, streams);
  // A loop's later calls find the arrays registered: pinned speed.
  EXPECT_DOUBLE_EQ(cached, on_pinned);
  // Registering per call first pins all 512 MB at the pageable G; staging overlaps its host
  // copies with the link, and cannot beat pinned memory.
  EXPECT_NEAR(registered - on_pinned, 512 * kMB / 13e9, 1e-9);
  EXPECT_LT(staged, registered);
  EXPECT_GT(staged, on_pinned);
  // 768 MB of host copies at 40 GB/s (4 threads) bound the staged call.
  EXPECT_GT(staged, 768 * kMB / 40e9);
  EXPECT_LT(staged, 768 * kMB / 40e9 * 1.3);
}

TEST(StagingModel, RegistrationsByMode) {
  const HardwareProfile profile = pageable_h100();
  Workload workload = saxpy_like();
  workload.inout_d2h_bytes = 0; // y a pure output here: Hybrid maps it
  const double all = registration_seconds(profile, workload);
  EXPECT_NEAR(all, (512 + 256) * kMB / 13e9, 1e-9);
  Candidate candidate{Variant::Hybrid, 8, IssueOrder::DepthFirst};
  EXPECT_DOUBLE_EQ(registration_seconds(profile, workload, candidate), all);
  candidate.pageable = PageableMode::Stage;
  EXPECT_NEAR(registration_seconds(profile, workload, candidate), 256 * kMB / 13e9, 1e-9);
  candidate.variant = Variant::Streams;
  EXPECT_EQ(registration_seconds(profile, workload, candidate), 0);
  candidate.variant = Variant::Mapped; // copies nothing: registers as Default
  EXPECT_DOUBLE_EQ(registration_seconds(profile, workload, candidate), all);
  candidate.pageable = PageableMode::CachedRegister;
  EXPECT_EQ(registration_seconds(profile, workload, candidate), 0);
  candidate.variant = Variant::Explicit;
  candidate.pageable = PageableMode::Default;
  EXPECT_EQ(registration_seconds(profile, workload, candidate), 0);
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
  const StreamsConfig config = streams_config(candidate);
  EXPECT_EQ(config.streams, 8);
  EXPECT_EQ(config.order, IssueOrder::BreadthFirst);
  EXPECT_EQ(config.pageable, PageableMode::Stage);
  EXPECT_EQ(config.staging.threads, 3);
  EXPECT_EQ(config.staging.slot_bytes, std::size_t{1} << 20);
  EXPECT_EQ(config.staging.slots, 8);
}

TEST(StagingPlan, MoreThreadsWhereOneCannotKeepUpWithTheLink) {
  const ModernModel model;
  const Workload workload = saxpy_like();
  const Candidate candidate{Variant::Streams, 16, IssueOrder::DepthFirst};
  HardwareProfile slow = pageable_h100(); // 10 GB/s per thread against a 55 GB/s link
  const StagingPlan plan = plan_staging(model, slow, workload, candidate, 16);
  EXPECT_GE(plan.staging.threads, 4);
  EXPECT_EQ(plan.staging.slots, 2 * plan.staging.threads + 2);
  HardwareProfile fast = slow; // a thread alone outruns the link
  fast.host_copy_seconds_per_byte = 1 / 200e9;
  fast.host_copy_parallel_seconds_per_byte = 1 / 400e9;
  const StagingPlan few = plan_staging(model, fast, workload, candidate, 16);
  EXPECT_LT(few.staging.threads, plan.staging.threads);
  EXPECT_LE(few.seconds, plan.seconds);
  // Never more threads than the host has.
  EXPECT_LE(plan_staging(model, slow, workload, candidate, 2).staging.threads, 2);
}

TEST(StagingPlan, SmallCallsTakeSmallSlots) {
  const ModernModel model;
  Workload small = one_array_in(1 * kMB);
  small.d2h_bytes = 1 * kMB;
  small.host_memory_pinned = false;
  const StagingPlan plan = plan_staging(model, pageable_h100(), small,
                                        {Variant::Streams, 2, IssueOrder::DepthFirst}, 16);
  EXPECT_LE(plan.staging.slot_bytes, std::size_t{1} << 20);
}

} // namespace
} // namespace overlap::model
