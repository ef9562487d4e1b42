#include "model/ModernModel.h"

#include "model/MappedWidthCost.h"
#include "model/MultiDeviceEstimate.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace overlap::model {

double registrationSeconds(const HardwareProfile& profile, const Workload& workload) {
  const Workload::Transfers& transfers = workload.transfers;
  if (transfers.hostMemoryPinned)
    return 0;
  const LinkDirection& link = profile.hostToDevice;
  const double secondsPerByte =
      link.pageableSecondsPerByte > 0 ? link.pageableSecondsPerByte : link.secondsPerByte;
  const double pureOutputs = transfers.d2hBytes - transfers.inoutD2hBytes;
  // Reduction arrays are registered too (except by Mapped, which copies them synchronously; they
  // are small enough for that not to matter).
  return (transfers.h2dBytes + transfers.broadcastBytes + pureOutputs + transfers.reductionBytes) *
         secondsPerByte;
}

double registrationSeconds(const HardwareProfile& profile, const Workload& workload,
                           const Candidate& candidate) {
  if (workload.transfers.hostMemoryPinned || candidate.variant == Variant::Explicit)
    return 0;
  const bool pipelined =
      candidate.variant == Variant::Streams || candidate.variant == Variant::Hybrid;
  const PageableMode mode = candidate.pageable == PageableMode::Stage && !pipelined
                                ? PageableMode::Default
                                : candidate.pageable;
  if (mode == PageableMode::CachedRegister)
    return 0; // registered by an earlier call of the loop
  if (mode != PageableMode::Stage)
    return registrationSeconds(profile, workload);
  if (candidate.variant != Variant::Hybrid)
    return 0;
  // Staged, but for Hybrid's pure outputs, which its kernels write through mapped memory.
  Workload outputs = workload;
  Workload::Transfers& copied = outputs.transfers;
  copied.h2dBytes = copied.broadcastBytes = copied.reductionBytes = 0;
  return registrationSeconds(profile, outputs);
}

namespace {

bool staged(const Workload& workload, const Candidate& candidate) {
  return !workload.transfers.hostMemoryPinned && candidate.pageable == PageableMode::Stage &&
         (candidate.variant == Variant::Streams || candidate.variant == Variant::Hybrid);
}

} // namespace

StagingConfig modelStaging(const Workload& workload, const Candidate& candidate) {
  // The bytes the ring moves: every copy of the pipeline, as pipelinedH2dBytes counts them.
  const PipelineShape shape = pipelineShape(workload, candidate);
  const double copiedOut = candidate.variant == Variant::Hybrid ? workload.transfers.inoutD2hBytes
                                                                : workload.transfers.d2hBytes;
  const double ringBytes = pipelinedH2dBytes(workload, std::max(1, shape.chunks), shape.ring) +
                           workload.transfers.broadcastBytes + copiedOut +
                           2 * workload.transfers.reductionBytes;
  return resolvedStaging(candidate.staging, static_cast<long long>(ringBytes),
                         kModelHardwareThreads);
}

double hostCopyRingSecondsPerByte(const HardwareProfile& profile, int threads, double fallback) {
  const std::vector<HardwareProfile::HostCopyThreads>& counts = profile.hostCopyByThreads;
  if (counts.empty())
    return fallback;
  if (threads <= counts.front().threads)
    return counts.front().secondsPerByte;
  for (std::size_t i = 1; i < counts.size(); ++i) {
    if (threads > counts[i].threads)
      continue;
    const double from = 1 / counts[i - 1].secondsPerByte;
    const double to = 1 / counts[i].secondsPerByte;
    const double at = static_cast<double>(threads - counts[i - 1].threads) /
                      (counts[i].threads - counts[i - 1].threads);
    return 1 / (from + at * (to - from));
  }
  return counts.back().secondsPerByte;
}

int modelStagingThreads(const PerformanceModel& model, const HardwareProfile& profile,
                        const Workload& workload, const Candidate& candidate) {
  if (profile.hostCopyByThreads.empty() || candidate.staging.threads > 0 ||
      !staged(workload, candidate))
    return 0;
  int best = 0;
  double bestSeconds = 0;
  for (const HardwareProfile::HostCopyThreads& count : profile.hostCopyByThreads) {
    Candidate tried = candidate;
    tried.staging.threads = count.threads;
    const std::optional<double> seconds = model.predictSeconds(profile, workload, tried);
    if (seconds && (best == 0 || *seconds < bestSeconds)) {
      best = count.threads;
      bestSeconds = *seconds;
    }
  }
  return best;
}

std::vector<SimOp> stagedOperations(const std::vector<SimOp>& ops, const StagingConfig& ring,
                                    double pieceIssueS) {
  std::vector<SimOp> out;
  std::vector<int> newIndex(ops.size(), -1);
  std::vector<int> release; // per piece: the operation whose end frees its slot
  const auto remapped = [&](const std::vector<int>& waits) {
    std::vector<int> mapped;
    for (int wait : waits)
      mapped.push_back(newIndex[static_cast<std::size_t>(wait)]);
    return mapped;
  };
  const auto isCopy = [](const SimOp& op) {
    return (op.kind == OpKind::CopyToDevice || op.kind == OpKind::CopyToHost) && op.bytes > 0;
  };
  std::vector<StagedBytes> copies;
  for (const SimOp& op : ops)
    if (isCopy(op))
      copies.push_back(
          StagedBytes{op.kind == OpKind::CopyToDevice, static_cast<std::size_t>(op.bytes)});
  const std::vector<std::vector<std::size_t>> cuts = stagedPieces(copies, ring.slotBytes);
  std::size_t nextCut = 0;
  double shift = 0;          // host issue time the pieces added so far
  double previousIssued = 0; // issuedAt of the operation before, as given
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const SimOp& op = ops[i];
    const double callSeconds = op.issuedAt - previousIssued;
    previousIssued = op.issuedAt;
    if (!isCopy(op)) {
      SimOp kept = op;
      kept.waitsFor = remapped(op.waitsFor);
      kept.issuedAt = op.issuedAt + shift;
      newIndex[i] = static_cast<int>(out.size());
      out.push_back(kept);
      continue;
    }
    // The runtime's pieces, or, for an operation of several copies, an even share each.
    std::vector<double> cut;
    for (std::size_t bytes : cuts[nextCut++])
      cut.push_back(static_cast<double>(bytes));
    const int transfers = std::max(1, op.copies);
    if (static_cast<int>(cut.size()) < transfers)
      cut.assign(static_cast<std::size_t>(transfers), op.bytes / transfers);
    const int pieces = static_cast<int>(cut.size());
    double issuedAt = op.issuedAt - callSeconds + shift;
    shift += pieces * pieceIssueS - callSeconds;
    for (int p = 0; p < pieces; ++p) {
      const std::size_t k = release.size();
      const int previous = k >= static_cast<std::size_t>(ring.slots)
                               ? release[k - static_cast<std::size_t>(ring.slots)]
                               : -1;
      issuedAt += pieceIssueS;
      SimOp piece = op;
      piece.bytes = cut[static_cast<std::size_t>(p)];
      piece.copies = 1;
      piece.pageable = false; // from and to pinned slots
      piece.issuedAt = issuedAt;
      piece.waitsFor = p == 0 ? remapped(op.waitsFor) : std::vector<int>{};
      SimOp host;
      host.kind = OpKind::HostCopy;
      host.bytes = piece.bytes;
      if (op.kind == OpKind::CopyToDevice) {
        if (previous >= 0)
          host.waitsFor.push_back(previous);
        piece.waitsFor.push_back(static_cast<int>(out.size()));
        out.push_back(host);
        release.push_back(static_cast<int>(out.size()));
        out.push_back(piece);
      } else {
        if (previous >= 0)
          piece.waitsFor.push_back(previous);
        out.push_back(piece);
        host.waitsFor.push_back(static_cast<int>(out.size()) - 1);
        release.push_back(static_cast<int>(out.size()));
        out.push_back(host);
      }
    }
    // What waited for the copy waits for its last piece to cross the link.
    newIndex[i] = op.kind == OpKind::CopyToDevice ? static_cast<int>(out.size()) - 1
                                                  : static_cast<int>(out.size()) - 2;
  }
  return out;
}

double chunkKernelSeconds(const HardwareProfile& profile, const Workload& workload, int chunks) {
  const double evenShare = workload.launch.kernelSeconds / chunks;
  if (workload.launch.totalBlocks <= 0 || profile.multiprocessors <= 0)
    return evenShare;
  // A kernel's time scales with its blocks only down to one full wave: below that the idle
  // multiprocessors buy nothing, so a chunk of few blocks takes as long as a full wave.
  const double waveBlocks = static_cast<double>(profile.multiprocessors) *
                            std::max(1, workload.launch.residentBlocksPerSm);
  const double totalBlocks = static_cast<double>(workload.launch.totalBlocks);
  const double chunkBlocks = totalBlocks / chunks;
  return workload.launch.kernelSeconds * std::max(chunkBlocks, waveBlocks) /
         std::max(totalBlocks, waveBlocks);
}

double chunkGpuShare(const HardwareProfile& profile, const Workload& workload, int chunks) {
  if (workload.launch.totalBlocks <= 0 || profile.multiprocessors <= 0 || chunks < 1)
    return 1;
  const double waveBlocks = static_cast<double>(profile.multiprocessors) *
                            std::max(1, workload.launch.residentBlocksPerSm);
  return std::min(1.0, static_cast<double>(workload.launch.totalBlocks) / chunks / waveBlocks);
}

double HostIssueCosts::copiesSeconds(int copies) const {
  if (copies < 1)
    return 0;
  if (batchedCopyS <= 0)
    return copyS * copies;
  constexpr int kBatchCapacity = 16; // CopyBatch::kCapacity
  const int batches = (copies + kBatchCapacity - 1) / kBatchCapacity;
  return copyS * batches + batchedCopyS * (copies - batches);
}

HostIssueCosts hostIssueCosts(const HardwareProfile& profile) {
  HostIssueCosts costs;
  costs.launchS = profile.kernelLaunchS;
  if (profile.copyCallS > 0) {
    costs.copyS = profile.copyCallS;
    costs.batchedCopyS = profile.copyBatchedS;
    costs.streamSyncCallS =
        std::max(0.0, profile.streamOverheadS - 2 * costs.copyS - costs.launchS);
    return costs;
  }
  // Profiles from before copy_call_s was measured: the calibration's streamed round issues a
  // copy in, an empty kernel and a copy out per stream, and its slope per stream (t_sc) bounds
  // what the host spends issuing them. It also synchronizes every stream, so this overcharges
  // (H100: 4.7 us per call from a t_sc of 12.6 us, where pipelines show about 3).
  costs.copyS = std::max(0.0, (profile.streamOverheadS - profile.kernelLaunchS) / 2);
  return costs;
}

HostIssueCosts hostIssueCosts(const HardwareProfile& profile, const Candidate& candidate) {
  HostIssueCosts costs = hostIssueCosts(profile);
  if (!pricedAsGraph(profile, candidate))
    return costs;
  // One cudaGraphLaunch issues every operation, at its cost per node (a graph holds a node per
  // copy: no batches).
  costs.launchS = profile.graphOpLaunchS;
  costs.copyS = profile.graphOpLaunchS;
  costs.batchedCopyS = 0;
  return costs;
}

bool pricedAsGraph(const HardwareProfile& profile, const Candidate& candidate) {
  return candidate.graph && profile.graphOpLaunchS > 0;
}

namespace {

SimOp copy(OpKind kind, int stream, double bytes, int copies) {
  SimOp op;
  op.kind = kind;
  op.stream = stream;
  op.bytes = bytes;
  op.copies = copies;
  return op;
}

SimOp kernel(int stream, double computeSeconds) {
  SimOp op;
  op.kind = OpKind::Kernel;
  op.stream = stream;
  op.computeSeconds = computeSeconds;
  return op;
}

std::vector<SimOp> explicitOperations(const HardwareProfile& profile, const Workload& workload) {
  std::vector<SimOp> ops;
  const double input = workload.transfers.h2dBytes + workload.transfers.broadcastBytes +
                       workload.transfers.reductionBytes;
  if (input > 0) {
    ops.push_back(copy(OpKind::CopyToDevice, 0, input, workload.transfers.explicitH2dCopies));
    ops.back().pageable = !workload.transfers.hostMemoryPinned;
  }
  ops.push_back(kernel(0, workload.launch.kernelSeconds + profile.kernelLaunchS));
  const double output = workload.transfers.d2hBytes + workload.transfers.reductionBytes;
  if (output > 0) {
    ops.push_back(copy(OpKind::CopyToHost, 0, output, workload.transfers.explicitD2hCopies));
    ops.back().pageable = !workload.transfers.hostMemoryPinned;
  }
  return ops;
}

// The copies of the reduction arrays, one each way, on stream 0: before the kernels (which wait
// for it) and after them.
SimOp reductionCopy(OpKind kind, const Workload& workload) {
  SimOp op = copy(kind, 0, workload.transfers.reductionBytes, 1);
  op.pageable = !workload.transfers.hostMemoryPinned;
  return op;
}

std::vector<SimOp> mappedOperations(const HardwareProfile& profile, const Workload& workload) {
  std::vector<SimOp> ops;
  if (workload.transfers.reductionBytes > 0)
    ops.push_back(reductionCopy(OpKind::CopyToDevice, workload));
  SimOp op = kernel(0, workload.launch.kernelSeconds + profile.kernelLaunchS);
  op.mappedReadBytes = workload.transfers.h2dBytes * workload.mapped.readFactor +
                       workload.transfers.broadcastBytes * workload.mapped.broadcastReadFactor;
  op.mappedWriteBytes = workload.transfers.d2hBytes;
  op.mappedReadSecondsPerByte = mappedSecondsPerByte(profile, workload, MappedAccess::Read);
  op.mappedWriteSecondsPerByte =
      mappedSecondsPerByte(profile, workload, MappedAccess::Write, MappedOutputs::All);
  ops.push_back(op);
  if (workload.transfers.reductionBytes > 0)
    ops.push_back(reductionCopy(OpKind::CopyToHost, workload));
  return ops;
}

// Streams, or Hybrid when `mapOutputs`: C chunks (pipelineShape) on N streams, chunk c on stream
// c % N, its input copied, its kernel run after that and after the broadcast copy, its outputs
// copied back (or, in Hybrid, written by the kernel through mapped memory, except in-out arrays,
// which are copied as in Streams). A stream's chunks follow one another in its order, so
// breadth-first issue of more chunks than streams queues a stream's later copies in before its
// first kernel. Out of core (the ring) each chunk copies its whole halo, its slot being reused
// by the stream's next chunk, and breadth-first issue goes in waves of N chunks, one per slot.
std::vector<SimOp> pipelinedOperations(const HardwareProfile& profile, const Workload& workload,
                                       const Candidate& candidate, bool mapOutputs,
                                       bool haloSentTwice) {
  const PipelineShape shape = pipelineShape(workload, candidate);
  if (shape.chunks < 1)
    return {};
  const int chunks = shape.chunks;
  const int streams = shape.streams;
  const double input = pipelinedH2dBytes(workload, chunks, haloSentTwice || shape.ring) / chunks;
  const double copiedOutput =
      (mapOutputs ? workload.transfers.inoutD2hBytes : workload.transfers.d2hBytes) / chunks;
  const double mappedOutput =
      mapOutputs ? (workload.transfers.d2hBytes - workload.transfers.inoutD2hBytes) / chunks : 0;
  // The launch is the host's time (hostIssueCosts), not the kernel's.
  const double kernelTime = chunkKernelSeconds(profile, workload, chunks);
  const HostIssueCosts hostCosts = hostIssueCosts(profile, candidate);
  const double kernelShare = chunkGpuShare(profile, workload, chunks);
  const double mappedOutputSecondsPerByte =
      mapOutputs
          ? mappedSecondsPerByte(profile, workload, MappedAccess::Write, MappedOutputs::PureOnly)
          : 0.0;

  std::vector<SimOp> ops;
  double hostSeconds = 0;
  auto issued = [&](double callSeconds) {
    hostSeconds += callSeconds;
    ops.back().issuedAt = hostSeconds;
  };
  std::vector<int> beforeKernels;
  // Reduction arrays go with the broadcast copies (their copies are among explicitH2dCopies).
  const double broadcast = workload.transfers.broadcastBytes + workload.transfers.reductionBytes;
  if (broadcast > 0) {
    const int broadcastCopies =
        std::max(1, workload.transfers.explicitH2dCopies - workload.transfers.h2dCopiesPerChunk);
    ops.push_back(copy(OpKind::CopyToDevice, 0, broadcast, broadcastCopies));
    issued(hostCosts.copiesSeconds(broadcastCopies));
    beforeKernels.push_back(0);
  }
  std::vector<int> kernels;
  auto copyIn = [&](int c) {
    if (input > 0) {
      ops.push_back(
          copy(OpKind::CopyToDevice, c % streams, input, workload.transfers.h2dCopiesPerChunk));
      issued(hostCosts.copiesSeconds(workload.transfers.h2dCopiesPerChunk));
    }
  };
  auto run = [&](int c) {
    SimOp op = kernel(c % streams, kernelTime);
    op.gpuShare = kernelShare;
    op.mappedWriteBytes = mappedOutput;
    op.mappedWriteSecondsPerByte = mappedOutputSecondsPerByte;
    op.waitsFor = beforeKernels;
    kernels.push_back(static_cast<int>(ops.size()));
    ops.push_back(op);
    issued(hostCosts.launchS);
  };
  auto copyOut = [&](int c) {
    if (copiedOutput > 0) {
      ops.push_back(copy(OpKind::CopyToHost, c % streams, copiedOutput,
                         workload.transfers.d2hCopiesPerChunk));
      issued(hostCosts.copiesSeconds(workload.transfers.d2hCopiesPerChunk));
    }
  };
  if (candidate.order == IssueOrder::DepthFirst) {
    for (int c = 0; c < chunks; ++c) {
      copyIn(c);
      run(c);
      copyOut(c);
    }
  } else {
    // A ring slot takes one chunk at a time: waves of one chunk per stream.
    const int wave = shape.ring ? streams : chunks;
    for (int first = 0; first < chunks; first += wave) {
      const int last = std::min(chunks, first + wave);
      for (int c = first; c < last; ++c)
        copyIn(c);
      for (int c = first; c < last; ++c)
        run(c);
      for (int c = first; c < last; ++c)
        copyOut(c);
    }
  }
  if (workload.transfers.reductionBytes > 0) {
    // Issued once every stream is done; its synchronization is charged like a stream's.
    ops.push_back(reductionCopy(OpKind::CopyToHost, workload));
    ops.back().waitsFor = kernels;
    issued(hostCosts.copyS);
  }
  return ops;
}

// When the host is done with a pipeline: after its last issue call it synchronizes the streams in
// order, and each synchronization returns once its stream's work is done and costs its call.
// `oneStream`: a graph form's host waits for the call's one stream, which the graph joins to.
double pipelineSynchronizedSeconds(const std::vector<SimOp>& ops, const SimResult& result,
                                   double streamSyncCallS, bool oneStream) {
  std::map<int, double> streamDone;
  double host = 0;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    if (ops[i].kind == OpKind::HostCopy)
      continue; // on no stream: the ring is waited for after the streams (makespan below)
    double& done = streamDone[ops[i].stream];
    done = std::max(done, result.timings[i].end);
    host = std::max(host, ops[i].issuedAt);
  }
  if (oneStream)
    return std::max(host, result.makespan) + streamSyncCallS;
  for (const auto& [stream, done] : streamDone)
    host = std::max(host, done) + streamSyncCallS;
  return std::max(host, result.makespan);
}

} // namespace

std::string ModernModel::name() const {
  return "modern (pipeline simulation on the profile)";
}

std::vector<SimOp> ModernModel::operations(const HardwareProfile& profile, const Workload& workload,
                                           const Candidate& candidate) const {
  switch (candidate.variant) {
  case Variant::Explicit:
    return explicitOperations(profile, workload);
  case Variant::Mapped:
    return mappedOperations(profile, workload);
  case Variant::Streams:
  case Variant::Hybrid:
    break;
  }
  const std::vector<SimOp> ops = pipelinedOperations(
      profile, workload, candidate, candidate.variant == Variant::Hybrid, options_.haloSentTwice);
  if (!staged(workload, candidate))
    return ops;
  // A piece costs the host a copy call and an event record, which the calibration does not time
  // apart: two copy calls.
  return stagedOperations(ops, modelStaging(workload, candidate),
                          2 * hostIssueCosts(profile).copyS);
}

std::optional<double> ModernModel::predictSeconds(const HardwareProfile& profile,
                                                  const Workload& workload,
                                                  const Candidate& candidate) const {
  if (candidate.devices != 1)
    return splitSeconds(*this, profile, workload, candidate);
  // Out of core Explicit cannot run, nor a Streams or Hybrid whose ring does not fit.
  if (!fitsDeviceMemory(workload, candidate))
    return std::nullopt;
  SimDevice device = simDeviceOf(profile, options_.hardwareQueues);
  const std::vector<SimOp> ops = operations(profile, workload, candidate);
  if (staged(workload, candidate)) {
    const int threads = modelStaging(workload, candidate).threads;
    device.hostCopyLanes = threads;
    device.hostCopyParallelSecondsPerByte =
        hostCopyRingSecondsPerByte(profile, threads, device.hostCopyParallelSecondsPerByte);
    device.hostCopyHandOverS = profile.hostCopyThreadPieceS;
  }
  const SimResult result = simulate(ops, device);
  double seconds = result.makespan;
  // Explicit's one synchronization is in its t_E, which is inferred from its measured time.
  if (candidate.variant == Variant::Streams || candidate.variant == Variant::Hybrid)
    seconds = pipelineSynchronizedSeconds(ops, result, hostIssueCosts(profile).streamSyncCallS,
                                          pricedAsGraph(profile, candidate));
  return seconds + result.handOverSeconds + registrationSeconds(profile, workload, candidate);
}

bool ModernModel::distinguishesIssueOrder(const HardwareProfile& profile, int streams) const {
  // With Hyper-Q each engine has its own hardware queues (PipelineSimulator.h). With a copy
  // engine per direction a queue then holds operations of one kind (copies in, kernels or copies
  // out), in chunk order under both issue orders, and they become ready in that order: every
  // engine is handed the same sequence. With one copy engine, copies both ways share its queues;
  // once streams outnumber them, a depth-first copy in waits behind an earlier chunk's copy out.
  const SimDevice device = simDeviceOf(profile, options_.hardwareQueues);
  return streams > 1 && (!device.hyperQ || device.implicitSynchronization ||
                         (device.copyEngines < 2 && streams > device.hardwareQueues));
}

} // namespace overlap::model
