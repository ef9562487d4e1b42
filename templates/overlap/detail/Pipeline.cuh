// The chunked pipeline behind Streams and Hybrid: the partition [B, B + P) is cut into
// C = min(N, ceil(P / G)) chunks (chunk c = chunkBounds(partition, C, c) on pooled stream c % N);
// each chunk copies in what it needs and no earlier chunk copied (TransferPlan.h), after waiting
// with an event for the latest earlier chunk whose copies it shares (halos; so the copy engine
// serves a halo chain in order), runs its kernel once the other earlier copies it shares are in,
// and copies its outputs back. Broadcast sections go first, on stream 0, and every kernel waits
// for them. The issue order is depth-first or breadth-first (paper 003).
//
// Hybrid differs only in its pure outputs (Direction::Out), which the kernels write straight into
// mapped host memory instead of device buffers that are copied back (paper 001 §VII). InOut
// arrays are copied in and out in both strategies: an array cannot be device-resident for its
// reads and mapped for its writes at once. Reduction arrays (InOut, whole) are therefore
// broadcast both ways: copied in before every kernel, and back once every stream is done.
//
// Pageable arrays are registered (per call or through the registration cache) so that their
// copies overlap, or, under PageableMode::Stage, copied through the device's staging ring
// (StagingRing.h): the ring is told every staged copy in the order they are issued before the
// first is, so that its host threads fill the inputs' slots ahead of the issuer.
#pragma once

#include "overlap/Binding.cuh"
#include "overlap/DeviceContext.h"
#include "overlap/HostArrayPinning.h"
#include "overlap/KernelTypes.h"
#include "overlap/NvtxRange.h"
#include "overlap/PinCache.h"
#include "overlap/StagingRing.h"
#include "overlap/Status.h"
#include "overlap/TransferPlan.h"
#include "overlap/detail/CallArrays.cuh"

#include <algorithm>
#include <vector>

namespace overlap {
namespace detail {

enum class OutputPath : unsigned char {
  Copied, // Streams: outputs are device buffers copied back per chunk
  Mapped  // Hybrid: pure outputs are written into mapped host memory
};

enum class PipelineStep : unsigned char { CopyIn, Launch, CopyOut };

// The order the chunks' steps are issued in (paper 003), between the broadcast copies in and out:
// step(kind, first, last) does one kind of step for chunks [first, last). One definition for
// issuing the steps and for planning the staged copies they make.
template <class Step> Status inIssueOrder(IssueOrder order, int chunks, Step&& step) {
  if (order == IssueOrder::DepthFirst) {
    for (int c = 0; c < chunks; ++c) {
      OVERLAP_TRY(step(PipelineStep::CopyIn, c, c + 1));
      OVERLAP_TRY(step(PipelineStep::Launch, c, c + 1));
      OVERLAP_TRY(step(PipelineStep::CopyOut, c, c + 1));
    }
    return Status::success();
  }
  OVERLAP_TRY(step(PipelineStep::CopyIn, 0, chunks));
  OVERLAP_TRY(step(PipelineStep::Launch, 0, chunks));
  return step(PipelineStep::CopyOut, 0, chunks);
}

// The copy of `elements` between an array and its buffer at `base`, as the staging ring sees it.
inline StagedCopy stagedCopyOf(const HostArray& array, void* base, Section elements,
                               CopyDirection direction) {
  const SectionBytes where = sectionBytes(array, elements);
  return {direction == CopyDirection::ToDevice ? PieceDirection::ToDevice : PieceDirection::ToHost,
          static_cast<char*>(array.host) + where.offset, static_cast<char*>(base) + where.offset,
          where.bytes};
}

// The copies of the arrays with staged[i] in the order the pipeline issues them.
inline std::vector<StagedCopy> stagedCopies(const TransferPlan& plan, IssueOrder order,
                                            const std::vector<HostArray>& arrays,
                                            const std::vector<void*>& bases,
                                            const std::vector<bool>& staged) {
  std::vector<StagedCopy> copies;
  const auto add = [&](const ArrayCopy& copy, CopyDirection direction) {
    const std::size_t i = static_cast<std::size_t>(copy.array);
    if (staged[i] && !copy.elements.empty())
      copies.push_back(stagedCopyOf(arrays[i], bases[i], copy.elements, direction));
  };
  for (const ArrayCopy& copy : plan.broadcastIn)
    add(copy, CopyDirection::ToDevice);
  (void)inIssueOrder(order, static_cast<int>(plan.chunks.size()),
                     [&](PipelineStep step, int first, int last) {
                       for (int c = first; c < last; ++c) {
                         const ChunkTransfers& chunk = plan.chunks[static_cast<std::size_t>(c)];
                         if (step == PipelineStep::CopyIn)
                           for (const ArrayCopy& copy : chunk.copyIn)
                             add(copy, CopyDirection::ToDevice);
                         if (step == PipelineStep::CopyOut)
                           for (const ArrayCopy& copy : chunk.copyOut)
                             add(copy, CopyDirection::ToHost);
                       }
                       return Status::success();
                     });
  for (const ArrayCopy& copy : plan.broadcastOut)
    add(copy, CopyDirection::ToHost);
  return copies;
}

// Everything one pipeline call issues, once the arrays are placed. Copies of the arrays with
// staged[i] go through `ring`, the others straight between the user's memory and the device.
template <class B> class PipelineIssuer {
public:
  PipelineIssuer(const B& binding, const TransferPlan& plan, const std::vector<HostArray>& arrays,
                 const std::vector<void*>& bases, const StreamEventPool& pool, int streams,
                 const Partition& partition, const std::vector<bool>& staged, StagingRing* ring)
      : binding_(binding), plan_(plan), arrays_(arrays), bases_(bases), pool_(pool),
        streams_(streams), partition_(partition), staged_(staged), ring_(ring) {}

  Status issue(IssueOrder order) {
    OVERLAP_TRY(copyBroadcastIn());
    return inIssueOrder(order, chunkCount(), [this](PipelineStep step, int first, int last) {
      switch (step) {
      case PipelineStep::CopyIn:
        return phase("h2d", first, last, &PipelineIssuer::copyIn);
      case PipelineStep::Launch:
        return phase("kernel", first, last, &PipelineIssuer::launch);
      case PipelineStep::CopyOut:
        break;
      }
      return phase("d2h", first, last, &PipelineIssuer::copyOut);
    });
  }

  // The broadcast outputs, once every kernel is done (the caller synchronized the streams).
  Status copyBroadcastOut() {
    const NvtxRange range("d2h");
    for (const ArrayCopy& copy : plan_.broadcastOut)
      OVERLAP_TRY(transfer(copy, CopyDirection::ToHost, streamOf(0)));
    return Status::success();
  }

private:
  using Step = Status (PipelineIssuer::*)(int);

  int chunkCount() const { return static_cast<int>(plan_.chunks.size()); }
  cudaStream_t streamOf(int chunk) const { return pool_.stream(chunk % streams_); }
  cudaEvent_t copiedInEvent(int chunk) const { return pool_.event(chunk); }
  cudaEvent_t broadcastEvent() const { return pool_.event(chunkCount()); }
  const ChunkTransfers& chunk(int c) const { return plan_.chunks[static_cast<std::size_t>(c)]; }

  Status phase(const char* name, int first, int last, Step step) {
    const NvtxRange range(name);
    for (int c = first; c < last; ++c)
      OVERLAP_TRY((this->*step)(c));
    return Status::success();
  }

  Status transfer(const ArrayCopy& copy, CopyDirection direction, cudaStream_t stream) {
    const std::size_t i = static_cast<std::size_t>(copy.array);
    if (!staged_[i] || copy.elements.empty())
      return copySection(arrays_[i], bases_[i], copy.elements, direction, stream);
    return ring_->issue(stagedCopyOf(arrays_[i], bases_[i], copy.elements, direction), stream);
  }

  Status copyBroadcastIn() {
    if (plan_.broadcastIn.empty())
      return Status::success();
    const NvtxRange range("h2d");
    for (const ArrayCopy& copy : plan_.broadcastIn)
      OVERLAP_TRY(transfer(copy, CopyDirection::ToDevice, streamOf(0)));
    OVERLAP_CUDA_TRY(cudaEventRecord(broadcastEvent(), streamOf(0)));
    return Status::success();
  }

  Status copyIn(int c) {
    // A chunk whose kernel needs an earlier chunk's copies (a halo) also starts its own copies
    // after them. Left alone, the copy engine does not serve the streams in issue order (the
    // H100 with 8 connections drained them grouped by stream % 4), and a kernel then waits for
    // a predecessor served last: pop-buoydiff's Streams ran 10-26 % slower than issued in order
    // (traced on the H100, docs/model.md). The copies share the link anyway: keeping their
    // order costs no bandwidth.
    if (!chunk(c).waitsFor.empty()) {
      const int latest = chunk(c).waitsFor.back();
      if (streamOf(latest) != streamOf(c))
        OVERLAP_CUDA_TRY(cudaStreamWaitEvent(streamOf(c), copiedInEvent(latest), 0));
    }
    for (const ArrayCopy& copy : chunk(c).copyIn)
      OVERLAP_TRY(transfer(copy, CopyDirection::ToDevice, streamOf(c)));
    if (chunk(c).awaited)
      OVERLAP_CUDA_TRY(cudaEventRecord(copiedInEvent(c), streamOf(c)));
    return Status::success();
  }

  Status launch(int c) {
    const cudaStream_t stream = streamOf(c);
    // Work issued earlier on the same stream is ordered already; only other streams need events.
    if (!plan_.broadcastIn.empty() && stream != streamOf(0))
      OVERLAP_CUDA_TRY(cudaStreamWaitEvent(stream, broadcastEvent(), 0));
    // The latest of them was awaited before this chunk's copies, on this stream.
    const std::vector<int>& earlierChunks = chunk(c).waitsFor;
    for (std::size_t i = 0; i + 1 < earlierChunks.size(); ++i)
      if (streamOf(earlierChunks[i]) != stream)
        OVERLAP_CUDA_TRY(cudaStreamWaitEvent(stream, copiedInEvent(earlierChunks[i]), 0));
    long long lo = 0;
    long long hi = 0;
    chunkBounds(partition_, chunkCount(), c, lo, hi);
    if (hi <= lo)
      return Status::success();
    return binding_.launch(bases_.data(), lo, hi, stream);
  }

  Status copyOut(int c) {
    for (const ArrayCopy& copy : chunk(c).copyOut)
      OVERLAP_TRY(transfer(copy, CopyDirection::ToHost, streamOf(c)));
    return Status::success();
  }

  const B& binding_;
  const TransferPlan& plan_;
  const std::vector<HostArray>& arrays_;
  const std::vector<void*>& bases_;
  const StreamEventPool& pool_;
  const int streams_;
  const Partition partition_;
  const std::vector<bool>& staged_;
  StagingRing* const ring_;
};

template <class B> Status runPipeline(const B& binding, StreamsConfig config, OutputPath outputs) {
  Partition partition;
  std::vector<HostArray> arrays;
  OVERLAP_TRY(beginCall(binding, &partition, &arrays));
  if (partition.extent == 0)
    return Status::success();
  if (config.streams < 1)
    return OVERLAP_DETAIL_INVALID_BINDING("StreamsConfig::streams < 1");
  if (config.order != IssueOrder::DepthFirst && config.order != IssueOrder::BreadthFirst)
    return OVERLAP_DETAIL_INVALID_BINDING("StreamsConfig::order is not an IssueOrder");
  if (static_cast<unsigned>(config.pageable) > static_cast<unsigned>(PageableMode::Stage))
    return OVERLAP_DETAIL_INVALID_BINDING("StreamsConfig::pageable is not a PageableMode");

  const int chunks = static_cast<int>(chunkCount(partition, config.streams));
  const int streams = std::min(config.streams, chunks);
  std::vector<ArrayTransferNeeds> needs(arrays.size());
  std::vector<HostArrayUse> uses(arrays.size());
  std::vector<bool> onDevice(arrays.size(), false);
  for (std::size_t i = 0; i < arrays.size(); ++i) {
    const HostArray& array = arrays[i];
    const int index = static_cast<int>(i);
    const bool mapped = outputs == OutputPath::Mapped && array.direction == Direction::Out;
    onDevice[i] = !mapped && !absent(array);
    uses[i] = {array.host, arrayBytes(array), writes(array.direction), mapped};
    if (!onDevice[i])
      continue;
    ArrayTransferNeeds& need = needs[i];
    need.copyIn = reads(array.direction);
    need.copyOut = writes(array.direction);
    need.broadcast = broadcastSections(binding, index, partition, array.extent);
    need.chunked.resize(static_cast<std::size_t>(chunks));
    for (int c = 0; c < chunks; ++c) {
      long long lo = 0;
      long long hi = 0;
      chunkBounds(partition, chunks, c, lo, hi);
      need.chunked[static_cast<std::size_t>(c)] =
          chunkSections(binding, index, lo, hi, array.extent);
    }
  }
  const TransferPlan plan = planTransfers(needs, chunks);

  DeviceContextLease lease;
  OVERLAP_TRY(leaseDevice(&lease, streams));
  DeviceContext& context = lease.context();
  StreamEventPool& pool = context.pool();
  OVERLAP_TRY(pool.reserveEvents(chunks + 1)); // one per chunk, one for the broadcast copies
  bool readOnlySupported = false;
  OVERLAP_TRY(context.readOnlyRegistrationSupported(&readOnlySupported));

  // Pageable arrays are pinned so that their copies overlap, or staged; for the mapped outputs
  // pinning is required, for the others a failure only costs the overlap.
  HostArrayPinning pinning;
  Status first =
      pinning.pin(uses, readOnlySupported, pinningPolicy(resolvePageableMode(config.pageable)));
  std::vector<void*> bases(arrays.size(), nullptr);
  std::vector<bool> staged(arrays.size(), false);
  if (first.ok()) {
    for (std::size_t i = 0; i < arrays.size(); ++i) {
      staged[i] = onDevice[i] && pinning.staged(static_cast<int>(i));
      if (!onDevice[i])
        bases[i] = pinning.devicePointer(static_cast<int>(i));
    }
    first = placeDeviceBuffers(context.memory(), arrays, onDevice, &bases);
  }
  StagingRing ring;
  if (first.ok() && std::find(staged.begin(), staged.end(), true) != staged.end())
    first = ring.start(context.staging(), stagedCopies(plan, config.order, arrays, bases, staged),
                       config.staging);
  PipelineIssuer<B> issuer(binding, plan, arrays, bases, pool, streams, partition, staged, &ring);
  if (first.ok())
    first = issuer.issue(config.order);
  // Also after a failure: nothing issued may still run when the buffers are reused or the
  // registrations go.
  for (int s = 0; s < streams; ++s)
    keepFirst(first, synchronize(pool.stream(s)));
  if (first.ok() && !plan.broadcastOut.empty()) {
    first = issuer.copyBroadcastOut();
    keepFirst(first, synchronize(pool.stream(0)));
  }
  // The outputs' last pieces are in the user's arrays once the ring finished; after a failure
  // the pieces not yet under way are left (the outputs are unspecified then).
  if (first.ok())
    first = ring.finish();
  else
    ring.abandon();
  keepFirst(first, pinning.release());
  return first;
}

} // namespace detail
} // namespace overlap
