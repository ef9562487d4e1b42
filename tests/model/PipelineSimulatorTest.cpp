// The engine and link simulation: the schedules of paper 003's three GPUs worked out by hand,
// the LogGP cost of pieces, bidirectional slowdown against paper 002's eq. 4.4, mapped flows,
// implicit synchronization and hardware-queue false dependencies within an engine.
#include "model/PipelineSimulator.h"

#include "ModelTestProfiles.h"
#include "model/Paper001Model.h"
#include "model/Paper002Model.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace overlap::model {
namespace {

SimOp copyIn(int stream, double bytes) {
  SimOp op;
  op.kind = OpKind::CopyToDevice;
  op.stream = stream;
  op.bytes = bytes;
  return op;
}

SimOp copyOut(int stream, double bytes) {
  SimOp op = copyIn(stream, bytes);
  op.kind = OpKind::CopyToHost;
  return op;
}

SimOp kernel(int stream, double seconds) {
  SimOp op;
  op.kind = OpKind::Kernel;
  op.stream = stream;
  op.computeSeconds = seconds;
  return op;
}

// Paper 003's example: 4 streams, copy in, kernel and copy out of one chunk 1 s each, so the
// sequential version takes 12 s.
std::vector<SimOp> blogExample(bool breadthFirst) {
  std::vector<SimOp> ops;
  if (!breadthFirst) {
    for (int s = 0; s < 4; ++s) {
      ops.push_back(copyIn(s, 1));
      ops.push_back(kernel(s, 1));
      ops.push_back(copyOut(s, 1));
    }
    return ops;
  }
  for (int s = 0; s < 4; ++s)
    ops.push_back(copyIn(s, 1));
  for (int s = 0; s < 4; ++s)
    ops.push_back(kernel(s, 1));
  for (int s = 0; s < 4; ++s)
    ops.push_back(copyOut(s, 1));
  return ops;
}

double makespan(const std::vector<SimOp>& ops, const HardwareProfile& profile) {
  return simulate(ops, simDeviceOf(profile, 8)).makespan;
}

TEST(PipelineSimulator, TeslaC1060OneCopyEngineInIssueOrder) {
  // Depth-first: the copy engine's queue is in1 out1 in2 out2 ..., so out1 blocks in2: no
  // overlap at all. Breadth-first: 8/12 of the sequential time (paper 003).
  const HardwareProfile c1060 = testing::idealDevice(1, false, 13);
  EXPECT_DOUBLE_EQ(makespan(blogExample(false), c1060), 12);
  EXPECT_DOUBLE_EQ(makespan(blogExample(true), c1060), 8);
}

TEST(PipelineSimulator, TeslaC2050ImplicitSynchronization) {
  // Two copy engines: depth-first halves the time; breadth-first issues every kernel before
  // the first copy out, which then waits for all of them: 9/12 (paper 003).
  const HardwareProfile c2050 = testing::idealDevice(2, true, 20);
  EXPECT_DOUBLE_EQ(makespan(blogExample(false), c2050), 6);
  EXPECT_DOUBLE_EQ(makespan(blogExample(true), c2050), 9);
}

TEST(PipelineSimulator, TeslaK20HyperQMakesBothOrdersEqual) {
  const HardwareProfile k20 = testing::idealDevice(2, false, 35);
  EXPECT_DOUBLE_EQ(makespan(blogExample(false), k20), 6);
  EXPECT_DOUBLE_EQ(makespan(blogExample(true), k20), 6);
}

TEST(PipelineSimulator, ChunkedCopiesFollowLogGP) {
  const HardwareProfile titan = testing::table1GtxTitan();
  const double bytes = 16 * 1024 * 1024;
  // n back-to-back pieces of one message: L+o + k·G + g·(n − 1), as one op of n copies ...
  SimOp pieces = copyIn(0, bytes);
  pieces.copies = 16;
  EXPECT_NEAR(makespan({pieces}, titan), paper001::transferSeconds(titan.hostToDevice, bytes, 16),
              1e-15);
  // ... or as n ops on n streams.
  std::vector<SimOp> ops;
  for (int s = 0; s < 16; ++s)
    ops.push_back(copyIn(s, bytes / 16));
  EXPECT_NEAR(makespan(ops, titan), paper001::transferSeconds(titan.hostToDevice, bytes, 16),
              1e-15);
}

TEST(PipelineSimulator, PageableCopiesRunAtThePageableG) {
  HardwareProfile device = testing::idealDevice(2, false, 90);
  device.hostToDevice.pageableSecondsPerByte = 3;
  SimOp pageable = copyIn(0, 2);
  pageable.pageable = true;
  EXPECT_DOUBLE_EQ(makespan({pageable}, device), 6);
  // Unknown pageable G: the pinned one.
  device.hostToDevice.pageableSecondsPerByte = 0;
  EXPECT_DOUBLE_EQ(makespan({pageable}, device), 2);
}

TEST(PipelineSimulator, CopyAfterAnIdleEnginePaysTheLatencyAgain) {
  HardwareProfile device = testing::idealDevice(2, false, 35);
  device.hostToDevice.latencyS = 0.5;
  device.hostToDevice.gapS = 0.1;
  // The second copy in waits for a 10 s kernel in its stream: the engine is idle meanwhile.
  const std::vector<SimOp> ops = {copyIn(0, 1), kernel(0, 10), copyIn(0, 1)};
  const SimResult result = simulate(ops, simDeviceOf(device, 8));
  EXPECT_DOUBLE_EQ(result.timings[2].start, 11.5);
  EXPECT_DOUBLE_EQ(result.makespan, 11.5 + 0.5 + 1);
}

TEST(PipelineSimulator, BidirectionalSlowdownMatchesPaper002) {
  // Both directions at once on two copy engines run at the bidirectional G until the shorter
  // finishes, then the longer alone: eq. 4.4 with f = G_bi / G.
  HardwareProfile device = testing::idealDevice(2, false, 90);
  device.hostToDevice.bidirectionalSecondsPerByte = 1.25;
  device.deviceToHost.bidirectionalSecondsPerByte = 1.25;
  const std::vector<SimOp> ops = {copyIn(0, 8), copyOut(1, 4)};
  EXPECT_DOUBLE_EQ(makespan(ops, device), paper002::eq44BidirectionalSeconds(8, 4, 1.25));
  EXPECT_DOUBLE_EQ(makespan(ops, device), 4 * 1.25 + 4);
  // One copy engine: no overlap, no slowdown.
  device.copyEngines = 1;
  EXPECT_DOUBLE_EQ(makespan(ops, device), 12);
}

TEST(PipelineSimulator, PiecesAgainstCopiesTheOtherWayPayTheBidirectionalGap) {
  // Two back-to-back copies out while one long copy in runs throughout: the second piece pays the
  // bidirectional g (measured with the other direction busy), not the one-way g.
  HardwareProfile device = testing::idealDevice(2, false, 90);
  device.deviceToHost.latencyS = 0.5;
  device.deviceToHost.gapS = 0.1;
  device.deviceToHost.bidirectionalGapS = 0.7;
  const std::vector<SimOp> bothWays = {copyIn(0, 100), copyOut(1, 1), copyOut(2, 1)};
  SimResult result = simulate(bothWays, simDeviceOf(device, 8));
  EXPECT_DOUBLE_EQ(result.timings[2].start, 1.5);
  EXPECT_DOUBLE_EQ(result.timings[2].end, 1.5 + 0.7 + 1);
  // One way only: the one-way g.
  result = simulate({copyOut(1, 1), copyOut(2, 1)}, simDeviceOf(device, 8));
  EXPECT_DOUBLE_EQ(result.timings[1].end, 1.5 + 0.1 + 1);
  // Unknown bidirectional g: the one-way g.
  device.deviceToHost.bidirectionalGapS = 0;
  result = simulate(bothWays, simDeviceOf(device, 8));
  EXPECT_DOUBLE_EQ(result.timings[2].end, 1.5 + 0.1 + 1);
  // One copy engine: the directions take turns, so no piece runs against the other direction.
  device.deviceToHost.bidirectionalGapS = 0.7;
  device.copyEngines = 1;
  result = simulate({copyOut(1, 1), copyOut(2, 1), copyIn(0, 1)}, simDeviceOf(device, 8));
  EXPECT_DOUBLE_EQ(result.timings[1].end, 1.5 + 0.1 + 1);
}

// h100BusyLinkByPieceSize without latencies and gaps, so a copy's time is its bytes over
// its rate: one way 55 GB/s; against copies the other way host-to-device pieces from 96 MiB up
// at 44 GB/s and smaller ones at 50, device-to-host copies at 46.5.
HardwareProfile busyLinkByPieceSize() {
  HardwareProfile profile = testing::h100BusyLinkByPieceSize();
  for (LinkDirection* link : {&profile.hostToDevice, &profile.deviceToHost})
    link->latencyS = link->gapS = 0;
  return profile;
}

void expectSameTimings(const SimResult& a, const SimResult& b) {
  ASSERT_EQ(a.timings.size(), b.timings.size());
  for (std::size_t i = 0; i < a.timings.size(); ++i) {
    EXPECT_EQ(a.timings[i].start, b.timings[i].start) << "op " << i;
    EXPECT_EQ(a.timings[i].end, b.timings[i].end) << "op " << i;
  }
}

TEST(PipelineSimulator, LargePiecesAgainstCopiesTheOtherWayRunAtTheirOwnG) {
  using testing::kMiB;
  const HardwareProfile bySize = busyLinkByPieceSize();
  const HardwareProfile oneG = testing::withoutLargePieceG(bySize);
  // A 128 MiB copy in while a copy out runs throughout (it moves less than 150 MiB of its
  // 512 MiB meanwhile): one piece of the large size, at 44 GB/s instead of 50 ...
  const std::vector<SimOp> large = {copyIn(0, 128 * kMiB), copyOut(1, 512 * kMiB)};
  const SimResult slowed = simulate(large, simDeviceOf(bySize, 8));
  const double inSeconds = 128 * kMiB / 44e9;
  EXPECT_NEAR(slowed.timings[0].end, inSeconds, 1e-15);
  // ... and the copy out moves at 46.5 GB/s while it lasts, the rest alone at 55.
  EXPECT_NEAR(slowed.timings[1].end, inSeconds + (512 * kMiB - inSeconds * 46.5e9) / 55e9, 1e-15);
  const SimResult oneGResult = simulate(large, simDeviceOf(oneG, 8));
  EXPECT_NEAR(oneGResult.timings[0].end, 128 * kMiB / 50e9, 1e-15);
  EXPECT_GT(slowed.makespan, oneGResult.makespan);

  // The same bytes in two copies of 64 MiB: small pieces, as with one G, to the bit.
  SimOp twoPieces = copyIn(0, 128 * kMiB);
  twoPieces.copies = 2;
  const std::vector<SimOp> small = {twoPieces, copyOut(1, 512 * kMiB)};
  expectSameTimings(simulate(small, simDeviceOf(bySize, 8)), simulate(small, simDeviceOf(oneG, 8)));
  EXPECT_NEAR(simulate(small, simDeviceOf(bySize, 8)).timings[0].end, 128 * kMiB / 50e9, 1e-15);

  // The large G starts at its size; a piece one byte smaller is a small one.
  const double minBytes = bySize.hostToDevice.bidirectionalLargePieceMinBytes;
  EXPECT_NEAR(simulate({copyIn(0, minBytes), copyOut(1, 512 * kMiB)}, simDeviceOf(bySize, 8))
                  .timings[0]
                  .end,
              minBytes / 44e9, 1e-15);
  expectSameTimings(
      simulate({copyIn(0, minBytes - 1), copyOut(1, 512 * kMiB)}, simDeviceOf(bySize, 8)),
      simulate({copyIn(0, minBytes - 1), copyOut(1, 512 * kMiB)}, simDeviceOf(oneG, 8)));

  // Alone on the link a large piece runs at the one-way G.
  EXPECT_NEAR(makespan({copyIn(0, 128 * kMiB)}, bySize), 128 * kMiB / 55e9, 1e-15);
}

TEST(PipelineSimulator, MappedTrafficKeepsTheSmallPiecesBidirectionalRatio) {
  // The large pieces' G was measured against copies only: copies against mapped traffic and
  // mapped traffic against copies are priced as with one G, whatever the sizes.
  using testing::kMiB;
  HardwareProfile bySize = busyLinkByPieceSize();
  bySize.hostToDevice.withMappedSecondsPerByte = 0; // the bidirectional G stands in
  const HardwareProfile oneG = testing::withoutLargePieceG(bySize);
  SimOp pacedWriter = kernel(1, 10e-3);
  pacedWriter.mappedWriteBytes = 128 * kMiB;
  SimOp floodingWriter = kernel(1, 0);
  floodingWriter.mappedWriteBytes = 128 * kMiB;
  SimOp reader = kernel(0, 0);
  reader.mappedReadBytes = 256 * kMiB;
  for (const std::vector<SimOp>& ops : {std::vector<SimOp>{copyIn(0, 256 * kMiB), pacedWriter},
                                        std::vector<SimOp>{copyIn(0, 256 * kMiB), floodingWriter},
                                        std::vector<SimOp>{reader, copyOut(1, 256 * kMiB)}})
    expectSameTimings(simulate(ops, simDeviceOf(bySize, 8)), simulate(ops, simDeviceOf(oneG, 8)));
  // The reads run against the copy out at the small pieces' ratio 55/50 of their own G.
  const SimResult reads = simulate({reader, copyOut(1, 256 * kMiB)}, simDeviceOf(bySize, 8));
  const double outSeconds = 256 * kMiB / 46.5e9;
  const double readSlowed = bySize.mappedReadSecondsPerByte * 55.0 / 50.0;
  EXPECT_NEAR(reads.timings[0].end,
              outSeconds + (256 * kMiB - outSeconds / readSlowed) * bySize.mappedReadSecondsPerByte,
              1e-12);
}

TEST(PipelineSimulator, LargePieceGWithoutTheSmallOneIsNotUsed) {
  // profile_io never reads one, but a profile built in code might: with no small-piece G the
  // busy link is not slowed, and large pieces are no exception.
  using testing::kMiB;
  HardwareProfile profile = busyLinkByPieceSize();
  profile.hostToDevice.bidirectionalSecondsPerByte = 0;
  const SimDevice device = simDeviceOf(profile, 8);
  EXPECT_EQ(device.hostToDevice.bidirectionalLargePieceSecondsPerByte, 0);
  EXPECT_EQ(device.hostToDevice.bidirectionalSecondsPerByte, 1 / 55e9);
  const SimResult result = simulate({copyIn(0, 128 * kMiB), copyOut(1, 512 * kMiB)}, device);
  EXPECT_NEAR(result.timings[0].end, 128 * kMiB / 55e9, 1e-15);
}

TEST(PipelineSimulator, CopiesAgainstMappedTrafficRunAtTheirOwnG) {
  // Hybrid: a copy in while a kernel writes results through mapped memory.
  HardwareProfile device = testing::idealDevice(2, false, 90);
  device.hostToDevice.bidirectionalSecondsPerByte = 1.5;
  device.hostToDevice.withMappedSecondsPerByte = 2;
  device.mappedWriteSecondsPerByte = 1;
  SimOp writer = kernel(1, 0);
  writer.mappedWriteBytes = 2; // 2 s, its direction is not slowed
  // The copy moves 1 B in those 2 s at 2 s/B, then its last 2 B alone at 1 s/B.
  EXPECT_DOUBLE_EQ(makespan({copyIn(0, 3), writer}, device), 4);
  // Without an explicit-mapped G, the bidirectional one: 2/1.5 B in 2 s, the rest alone.
  device.hostToDevice.withMappedSecondsPerByte = 0;
  EXPECT_DOUBLE_EQ(makespan({copyIn(0, 3), writer}, device), 2 + (3 - 2 / 1.5));
  // Copies both ways use the bidirectional G even if an explicit-mapped G is known.
  device.hostToDevice.withMappedSecondsPerByte = 2;
  EXPECT_DOUBLE_EQ(makespan({copyIn(0, 3), copyOut(1, 2)}, device), 2 + (3 - 2 / 1.5));
}

TEST(PipelineSimulator, MappedKernelOverlapsComputeAndBothDirections) {
  HardwareProfile device = testing::idealDevice(2, false, 90);
  device.mappedReadSecondsPerByte = 2;
  device.mappedWriteSecondsPerByte = 1;
  SimOp mapped = kernel(0, 3);
  mapped.mappedReadBytes = 4;  // 8 s alone
  mapped.mappedWriteBytes = 2; // 2 s alone
  EXPECT_DOUBLE_EQ(makespan({mapped}, device), 8);
  mapped.computeSeconds = 10;
  EXPECT_DOUBLE_EQ(makespan({mapped}, device), 10);
  // While the writes run, the reads are slowed by their direction's bidirectional ratio (1.5),
  // in proportion to the share of the other direction the writes use. The threads produce the
  // 2 B of writes over their 3 s of compute (2 s on the link alone, so paced at 2/3 B/s: a share
  // of 2/3), so the reads cost 2 · (1 + 2/3 · 0.5) = 8/3 s/B meanwhile and move 9/8 B; the
  // remaining 23/8 B at 1/2 B/s take 23/4 s.
  device.hostToDevice.bidirectionalSecondsPerByte = 1.5;
  mapped.computeSeconds = 3;
  EXPECT_NEAR(makespan({mapped}, device), 3 + 23.0 / 4, 1e-12);
}

TEST(PipelineSimulator, MappedTrafficMovesNoFasterThanItsKernelComputes) {
  HardwareProfile device = testing::idealDevice(2, false, 90);
  device.mappedWriteSecondsPerByte = 1;
  SimOp writer = kernel(1, 10);
  writer.mappedWriteBytes = 2; // 2 s on the link alone, spread over 10 s of compute
  SimOp other = kernel(2, 0);
  other.mappedWriteBytes = 6;             // link-bound: takes what the paced writer leaves
  writer.gpuShare = other.gpuShare = 0.5; // side by side
  // The writer needs 1/5 of the link; the other gets the remaining 4/5: 6 B take 7.5 s.
  const SimResult result = simulate({writer, other}, simDeviceOf(device, 8));
  EXPECT_DOUBLE_EQ(result.timings[1].end, 7.5);
  EXPECT_DOUBLE_EQ(result.timings[0].end, 10);
}

TEST(PipelineSimulator, CopiesAgainstPacedMappedTrafficShareTheLink) {
  // The explicit-mapped G is measured against a kernel that only moves mapped bytes and so asks
  // for all of the link; a kernel whose compute paces its writes leaves link time to spare, and
  // the copy the other way is slowed in proportion to the share the writes use, up to the
  // bidirectional G's slowdown.
  HardwareProfile device = testing::idealDevice(2, false, 90);
  device.hostToDevice.bidirectionalSecondsPerByte = 1.5;
  device.hostToDevice.withMappedSecondsPerByte = 10;
  device.mappedWriteSecondsPerByte = 1;
  SimOp writer = kernel(1, 8);
  writer.mappedWriteBytes = 2; // paced at 1/4 B/s: a quarter of the link
  // The copy runs at 1 + 0.25 · 0.5 = 1.125 s/B for as long as its 4 B take: 4.5 s.
  EXPECT_DOUBLE_EQ(makespan({copyIn(0, 4), writer}, device), 8);
  const SimResult paced = simulate({copyIn(0, 4), writer}, simDeviceOf(device, 8));
  EXPECT_DOUBLE_EQ(paced.timings[0].end, 4.5);
  // The same bytes written by a kernel that does nothing else flood the link: the copy crawls at
  // the explicit-mapped G while they last (2 s, 0.2 B), then moves its last 3.8 B alone.
  writer.computeSeconds = 0;
  const SimResult flooding = simulate({copyIn(0, 4), writer}, simDeviceOf(device, 8));
  EXPECT_DOUBLE_EQ(flooding.timings[0].end, 2 + 3.8);
}

TEST(PipelineSimulator, FlowsOfOneDirectionShareTheLink) {
  const HardwareProfile device = testing::idealDevice(2, false, 90);
  SimOp writer = kernel(0, 0);
  writer.mappedWriteBytes = 2;
  // A kernel writing 2 B through mapped memory and a copy out of 2 B on another stream share
  // the device-to-host direction: 4 B at 1 s/B.
  EXPECT_DOUBLE_EQ(makespan({writer, copyOut(1, 2)}, device), 4);
}

TEST(PipelineSimulator, ImplicitSynchronizationDelaysCopiesOutBehindEarlierKernels) {
  // Stream 1's copy out is issued after stream 0's long kernel: under implicit synchronization it
  // waits for that kernel although they are independent.
  const std::vector<SimOp> ops = {kernel(1, 1), kernel(0, 10), copyOut(1, 1)};
  EXPECT_DOUBLE_EQ(makespan(ops, testing::idealDevice(2, true, 20)), 12);
  EXPECT_DOUBLE_EQ(makespan(ops, testing::idealDevice(2, false, 35)), 11);
  const SimResult free = simulate(ops, simDeviceOf(testing::idealDevice(2, false, 35), 8));
  EXPECT_DOUBLE_EQ(free.timings[2].end, 2);
}

TEST(PipelineSimulator, StreamsShareHardwareQueuesOnlyWithinAnEngine) {
  // Stream 0's copy out waits for its kernel; stream 1's copy in is ready at once. With a copy
  // engine per direction they are in different queues whatever the queue count; with one copy
  // engine they share its queue when there is one queue: the copy in leaves the queue only when
  // the copy out does, once the kernel is done, and the engine runs the copy out first.
  const std::vector<SimOp> ops = {kernel(0, 5), copyOut(0, 1), copyIn(1, 1)};
  const HardwareProfile twoEngines = testing::idealDevice(2, false, 35);
  EXPECT_DOUBLE_EQ(simulate(ops, simDeviceOf(twoEngines, 1)).timings[2].start, 0);
  const HardwareProfile oneEngine = testing::idealDevice(1, false, 35);
  EXPECT_DOUBLE_EQ(simulate(ops, simDeviceOf(oneEngine, 1)).timings[2].start, 6);
  EXPECT_DOUBLE_EQ(simulate(ops, simDeviceOf(oneEngine, 2)).timings[2].start, 0);
}

TEST(PipelineSimulator, StreamsSharingAnEngineQueueCreateFalseDependencies) {
  // Stream 0's kernel waits for a long copy in; stream 2's kernel is ready at once but, with two
  // queues, sits behind it in the compute queue it shares with stream 0. With three queues it
  // runs first.
  const std::vector<SimOp> ops = {copyIn(0, 5), kernel(0, 1), kernel(2, 1)};
  const HardwareProfile device = testing::idealDevice(2, false, 90);
  const SimResult shared = simulate(ops, simDeviceOf(device, 2));
  EXPECT_DOUBLE_EQ(shared.timings[1].start, 5);
  EXPECT_DOUBLE_EQ(shared.timings[2].start, 6);
  const SimResult separate = simulate(ops, simDeviceOf(device, 3));
  EXPECT_DOUBLE_EQ(separate.timings[2].start, 0);
  EXPECT_DOUBLE_EQ(separate.timings[1].start, 5);
}

TEST(PipelineSimulator, EventWaitsAreHonoured) {
  const HardwareProfile device = testing::idealDevice(2, false, 90);
  SimOp waiting = kernel(1, 1);
  waiting.waitsFor = {0};
  const SimResult result = simulate({copyIn(0, 3), waiting}, simDeviceOf(device, 8));
  EXPECT_DOUBLE_EQ(result.timings[1].start, 3);
  SimOp impossible = kernel(0, 1);
  impossible.waitsFor = {1};
  EXPECT_THROW(simulate({impossible, kernel(1, 1)}, simDeviceOf(device, 8)), std::invalid_argument);
}

TEST(PipelineSimulator, NothingStartsBeforeTheHostHasIssuedIt) {
  const HardwareProfile device = testing::idealDevice(2, false, 90);
  // An idle device waits for the call: the copy starts when it is issued.
  SimOp late = copyIn(0, 3);
  late.issuedAt = 2;
  SimResult result = simulate({late, kernel(0, 1)}, simDeviceOf(device, 8));
  EXPECT_DOUBLE_EQ(result.timings[0].start, 2);
  EXPECT_DOUBLE_EQ(result.makespan, 6);
  // A call issued while the device is still busy costs nothing: the kernel of stream 1 is issued
  // at 1 but its engine is free only at 4.
  SimOp first = kernel(0, 4);
  SimOp second = kernel(1, 1);
  second.issuedAt = 1;
  result = simulate({first, second}, simDeviceOf(device, 8));
  EXPECT_DOUBLE_EQ(result.timings[1].start, 4);
  EXPECT_DOUBLE_EQ(result.makespan, 5);
  // Kernels shorter than their issue calls: the host sets the pace.
  std::vector<SimOp> hostBound;
  for (int c = 0; c < 4; ++c) {
    hostBound.push_back(kernel(c, 0.5));
    hostBound.back().issuedAt = c + 1.0;
  }
  EXPECT_DOUBLE_EQ(simulate(hostBound, simDeviceOf(device, 8)).makespan, 4.5);
}

SimOp partialKernel(int stream, double seconds, double share) {
  SimOp op = kernel(stream, seconds);
  op.gpuShare = share;
  return op;
}

TEST(PipelineSimulator, KernelsHoldingPartOfTheGpuRunSideBySide) {
  const HardwareProfile fermi = testing::idealDevice(2, false, 20);
  // Three kernels of a quarter of the GPU each fit together: all start at 0.
  const SimResult quarters =
      simulate({partialKernel(0, 2, 0.25), partialKernel(1, 2, 0.25), partialKernel(2, 2, 0.25)},
               simDeviceOf(fermi, 8));
  for (const OpTiming& timing : quarters.timings)
    EXPECT_DOUBLE_EQ(timing.start, 0);
  EXPECT_DOUBLE_EQ(quarters.makespan, 2);
  // Shares of 0.4: the third starts while room is left, and the three progress at 1/1.2 of
  // their speed until the two 2 s kernels end at 2.4 s; the 3 s one then has 1 s left alone. A
  // kernel that fills the GPU waits for an idle engine and holds back the small one behind it.
  const SimResult fortys =
      simulate({partialKernel(0, 2, 0.4), partialKernel(1, 3, 0.4), partialKernel(2, 2, 0.4),
                kernel(3, 1), partialKernel(4, 1, 0.1)},
               simDeviceOf(fermi, 8));
  EXPECT_DOUBLE_EQ(fortys.timings[1].start, 0);
  EXPECT_DOUBLE_EQ(fortys.timings[2].start, 0);
  EXPECT_DOUBLE_EQ(fortys.timings[0].end, 2.4);
  EXPECT_DOUBLE_EQ(fortys.timings[2].end, 2.4);
  EXPECT_DOUBLE_EQ(fortys.timings[1].end, 3.4); // 1 s left at full speed after 2.4 s
  EXPECT_DOUBLE_EQ(fortys.timings[3].start, 3.4);
  EXPECT_DOUBLE_EQ(fortys.timings[4].start, 4.4);
  EXPECT_DOUBLE_EQ(fortys.makespan, 5.4);
  // Kernels of one stream stay in order whatever their shares.
  EXPECT_DOUBLE_EQ(
      simulate({partialKernel(0, 1, 0.1), partialKernel(0, 1, 0.1)}, simDeviceOf(fermi, 8))
          .makespan,
      2);
}

TEST(PipelineSimulator, KernelsRunAloneWithoutConcurrentKernelsOrWithAnInvalidShare) {
  const std::vector<SimOp> small = {partialKernel(0, 1, 0.1), partialKernel(1, 1, 0.1)};
  // Compute capability 1.3 (paper 000's GTX 280): one kernel at a time.
  EXPECT_DOUBLE_EQ(makespan(small, testing::idealDevice(1, false, 13)), 2);
  EXPECT_DOUBLE_EQ(makespan(small, testing::idealDevice(2, false, 20)), 1);
  // A share outside (0, 1] is a kernel that fills the GPU.
  EXPECT_DOUBLE_EQ(makespan({partialKernel(0, 1, 0), partialKernel(1, 1, 0.1)},
                            testing::idealDevice(2, false, 90)),
                   2);
  EXPECT_DOUBLE_EQ(makespan({partialKernel(0, 1, 1.5), partialKernel(1, 1, 0.1)},
                            testing::idealDevice(2, false, 90)),
                   2);
}

TEST(PipelineSimulator, ConcurrentKernelsFromComputeCapability) {
  EXPECT_FALSE(hasConcurrentKernels(testing::idealDevice(1, false, 13)));
  EXPECT_TRUE(hasConcurrentKernels(testing::idealDevice(2, true, 20)));
  EXPECT_TRUE(hasConcurrentKernels(testing::idealDevice(2, false, 90)));
  EXPECT_TRUE(hasConcurrentKernels(testing::idealDevice(2, false, 0)));
}

TEST(PipelineSimulator, EmptySequenceTakesNoTime) {
  EXPECT_DOUBLE_EQ(simulate({}, simDeviceOf(testing::h100Like(), 8)).makespan, 0);
}

TEST(PipelineSimulator, HyperQFromComputeCapability) {
  EXPECT_FALSE(hasHyperQ(testing::idealDevice(1, false, 13)));
  EXPECT_FALSE(hasHyperQ(testing::idealDevice(2, true, 20)));
  EXPECT_TRUE(hasHyperQ(testing::idealDevice(2, false, 35)));
  HardwareProfile unknown = testing::idealDevice(1, false, 0);
  EXPECT_TRUE(hasHyperQ(unknown));
  unknown.implicitSynchronization = true;
  EXPECT_FALSE(hasHyperQ(unknown));
}

} // namespace
} // namespace overlap::model
