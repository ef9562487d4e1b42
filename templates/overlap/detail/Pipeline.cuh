// The chunked pipeline behind Streams and Hybrid: the partition [B, B + P) is cut into C chunks
// (StreamsConfig::chunks, else one per stream; never more than ceil(P / G)); chunk c =
// chunkBounds(partition, C, c) runs on pooled stream c % N. Each chunk copies in what it needs and
// no earlier chunk copied (TransferPlan.h), after waiting with an event for the latest earlier
// chunk whose copies it shares (halos; so the copy engine serves a halo chain in order), runs its
// kernel once the other earlier copies it shares are in, and copies its outputs back. Broadcast
// sections go first, on stream 0, and every kernel waits for them. The issue order is depth-first
// or breadth-first (paper 003).
//
// Device memory (DeviceLayout.h): full buffers when they fit the call's budget
// (DeviceMemoryBudget.h), else out of core, a ring of one slot per stream that holds one chunk's
// sections at a time; a stream's next chunk reuses its slot after the stream's own earlier work,
// so the ring needs no events of its own. Each chunk then copies all of its sections itself (an
// earlier chunk's halo lies in another slot), and breadth-first issue goes by waves of one chunk
// per slot (a slot cannot take the next chunk's inputs before its kernel ran).
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
#include "overlap/DeviceLayout.h"
#include "overlap/DeviceMemoryBudget.h"
#include "overlap/HostArrayPinning.h"
#include "overlap/KernelTypes.h"
#include "overlap/NvtxRange.h"
#include "overlap/PagedArrays.h"
#include "overlap/PinCache.h"
#include "overlap/StagingRing.h"
#include "overlap/Status.h"
#include "overlap/TransferPlan.h"
#include "overlap/detail/AsyncCall.cuh"
#include "overlap/detail/CallArrays.cuh"
#include "overlap/detail/GraphCall.cuh"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace overlap {
namespace detail {

enum class OutputPath : unsigned char {
  Copied, // Streams: outputs are device buffers copied back per chunk
  Mapped  // Hybrid: pure outputs are written into mapped host memory
};

enum class PipelineStep : unsigned char { CopyIn, Launch, CopyOut };

// The order the chunks' steps are issued in (paper 003), between the broadcast copies in and out:
// step(kind, first, last) does one kind of step for chunks [first, last). Breadth-first goes by
// waves of `wave` chunks (all of them, unless the ring's slots bound it). One definition for
// issuing the steps and for planning the staged copies they make.
template <class Step> Status inIssueOrder(IssueOrder order, int chunks, int wave, Step&& step) {
  if (order == IssueOrder::DepthFirst) {
    for (int c = 0; c < chunks; ++c) {
      OVERLAP_TRY(step(PipelineStep::CopyIn, c, c + 1));
      OVERLAP_TRY(step(PipelineStep::Launch, c, c + 1));
      OVERLAP_TRY(step(PipelineStep::CopyOut, c, c + 1));
    }
    return Status::success();
  }
  for (int first = 0; first < chunks; first += wave) {
    const int last = std::min(chunks, first + wave);
    OVERLAP_TRY(step(PipelineStep::CopyIn, first, last));
    OVERLAP_TRY(step(PipelineStep::Launch, first, last));
    OVERLAP_TRY(step(PipelineStep::CopyOut, first, last));
  }
  return Status::success();
}

// How one call is cut and where its arrays live, as shapePipeline decides.
struct PipelineShape {
  int chunks = 0;
  int streams = 0; // min(StreamsConfig::streams, chunks): also the ring's slots
  DeviceLayout layout;
  TransferPlan plan;

  // Breadth-first waves: a ring slot takes one chunk at a time.
  int wave() const { return layout.ring ? streams : chunks; }
};

// The device addresses of one call's arrays: layout.base in the leased block, or the host
// pointer a kernel addresses directly (Hybrid's mapped outputs; null for absent arrays).
class ArrayBases {
public:
  ArrayBases(const DeviceLayout& layout, void* block, const PagedArrays& paged,
             std::vector<void*> hostBases)
      : layout_(layout), block_(block), paged_(paged), hostBases_(std::move(hostBases)) {}

  // Array i's element 0 for chunk c; chunk -1 for the copies before and after the chunks (a
  // paged array's resident pages lie under every slot's addresses: slot 0's do).
  void* of(int i, int chunk) const {
    switch (layout_.placement[static_cast<std::size_t>(i)]) {
    case ArrayPlacement::Host:
      return hostBases_[static_cast<std::size_t>(i)];
    case ArrayPlacement::Paged:
      return paged_.base(i, chunk < 0 ? 0 : chunk % layout_.slots);
    case ArrayPlacement::Resident:
    case ArrayPlacement::Windowed:
      break;
    }
    return layout_.base(block_, i, chunk);
  }
  // Every array's, for chunk c's launch (valid until the next call).
  void* const* forChunk(int c) {
    scratch_.resize(hostBases_.size());
    for (std::size_t i = 0; i < scratch_.size(); ++i)
      scratch_[i] = of(static_cast<int>(i), c);
    return scratch_.data();
  }

private:
  const DeviceLayout& layout_;
  void* const block_;
  const PagedArrays& paged_;
  const std::vector<void*> hostBases_;
  std::vector<void*> scratch_;
};

// The copy of `elements` between an array and its buffer at `base`, as the staging ring sees it.
inline StagedCopy stagedCopyOf(const HostArray& array, void* base, Section elements,
                               CopyDirection direction) {
  const SectionBytes where = sectionBytes(array, elements);
  return {direction == CopyDirection::ToDevice ? PieceDirection::ToDevice : PieceDirection::ToHost,
          static_cast<char*>(array.host) + where.offset, static_cast<char*>(base) + where.offset,
          where.bytes};
}

// The copies of the arrays with staged[i] in the order the pipeline issues them.
inline std::vector<StagedCopy> stagedCopies(const PipelineShape& shape, IssueOrder order,
                                            const std::vector<HostArray>& arrays,
                                            const ArrayBases& bases,
                                            const std::vector<bool>& staged) {
  const TransferPlan& plan = shape.plan;
  std::vector<StagedCopy> copies;
  const auto add = [&](const ArrayCopy& copy, CopyDirection direction, int chunk) {
    const std::size_t i = static_cast<std::size_t>(copy.array);
    if (staged[i] && !copy.elements.empty())
      copies.push_back(
          stagedCopyOf(arrays[i], bases.of(copy.array, chunk), copy.elements, direction));
  };
  for (const ArrayCopy& copy : plan.broadcastIn)
    add(copy, CopyDirection::ToDevice, -1);
  (void)inIssueOrder(order, shape.chunks, shape.wave(),
                     [&](PipelineStep step, int first, int last) {
                       for (int c = first; c < last; ++c) {
                         const ChunkTransfers& chunk = plan.chunks[static_cast<std::size_t>(c)];
                         if (step == PipelineStep::CopyIn)
                           for (const ArrayCopy& copy : chunk.copyIn)
                             add(copy, CopyDirection::ToDevice, c);
                         if (step == PipelineStep::CopyOut)
                           for (const ArrayCopy& copy : chunk.copyOut)
                             add(copy, CopyDirection::ToHost, c);
                       }
                       return Status::success();
                     });
  for (const ArrayCopy& copy : plan.broadcastOut)
    add(copy, CopyDirection::ToHost, -1);
  return copies;
}

// Everything one pipeline call issues, once the arrays are placed. Copies of the arrays with
// staged[i] go through `ring`, the others straight between the user's memory and the device.
template <class B> class PipelineIssuer {
public:
  PipelineIssuer(const B& binding, const PipelineShape& shape, const std::vector<HostArray>& arrays,
                 ArrayBases& bases, PagedArrays& paged, const CallStreams& streams,
                 const Partition& partition, const std::vector<bool>& staged, StagingRing* ring)
      : binding_(binding), shape_(shape), plan_(shape.plan), arrays_(arrays), bases_(bases),
        paged_(paged), streams_(streams), partition_(partition), staged_(staged), ring_(ring) {}

  Status issue(IssueOrder order) {
    OVERLAP_TRY(copyBroadcastIn());
    return inIssueOrder(order, shape_.chunks, shape_.wave(),
                        [this](PipelineStep step, int first, int last) {
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
    CopyBatch batch(streamOf(0));
    for (const ArrayCopy& copy : plan_.broadcastOut)
      OVERLAP_TRY(transfer(copy, CopyDirection::ToHost, -1, batch));
    return batch.issue();
  }

private:
  using Step = Status (PipelineIssuer::*)(int);

  cudaStream_t streamOf(int chunk) const { return streams_.stream(chunk % shape_.streams); }
  cudaEvent_t broadcastEvent() const { return streams_.event(0); }
  // Full buffers: after chunk c's copies in, for chunks that share them (halos).
  cudaEvent_t copiedInEvent(int chunk) const { return streams_.event(chunk + 1); }
  // The ring with paged arrays: after the last chunk of slot s, before its pages move.
  cudaEvent_t slotDoneEvent(int slot) const { return streams_.event(slot + 1); }
  const ChunkTransfers& chunk(int c) const { return plan_.chunks[static_cast<std::size_t>(c)]; }

  Status phase(const char* name, int first, int last, Step step) {
    const NvtxRange range(name);
    for (int c = first; c < last; ++c)
      OVERLAP_TRY((this->*step)(c));
    return Status::success();
  }

  // A copy of chunk `chunk` (-1: a broadcast section) on the batch's stream: added to the batch,
  // or issued through the staging ring for a staged array.
  Status transfer(const ArrayCopy& copy, CopyDirection direction, int chunk, CopyBatch& batch) {
    const std::size_t i = static_cast<std::size_t>(copy.array);
    void* const base = bases_.of(copy.array, chunk);
    if (!staged_[i] || copy.elements.empty())
      return copySection(arrays_[i], base, copy.elements, direction, batch);
    return ring_->issue(stagedCopyOf(arrays_[i], base, copy.elements, direction), batch.stream());
  }

  Status copyBroadcastIn() {
    if (plan_.broadcastIn.empty())
      return Status::success();
    const NvtxRange range("h2d");
    CopyBatch batch(streamOf(0));
    for (const ArrayCopy& copy : plan_.broadcastIn)
      OVERLAP_TRY(transfer(copy, CopyDirection::ToDevice, -1, batch));
    OVERLAP_TRY(batch.issue());
    OVERLAP_CUDA_TRY(cudaEventRecord(broadcastEvent(), streamOf(0)));
    return Status::success();
  }

  // A paged array's slot moves its pages under chunk c's once the slot's previous chunk is done:
  // the host waits for it (the mapping is the host's call), while the other slots' chunks run.
  Status mapPages(int c) {
    if (paged_.empty())
      return Status::success();
    const int slot = c % shape_.streams;
    if (c >= shape_.streams)
      OVERLAP_CUDA_TRY(cudaEventSynchronize(slotDoneEvent(slot)));
    for (std::size_t i = 0; i < arrays_.size(); ++i)
      if (shape_.layout.placement[i] == ArrayPlacement::Paged)
        OVERLAP_TRY(paged_.mapChunk(shape_.layout, static_cast<int>(i), slot, c));
    return Status::success();
  }

  Status copyIn(int c) {
    OVERLAP_TRY(mapPages(c));
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
    CopyBatch batch(streamOf(c));
    for (const ArrayCopy& copy : chunk(c).copyIn)
      OVERLAP_TRY(transfer(copy, CopyDirection::ToDevice, c, batch));
    OVERLAP_TRY(batch.issue());
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
    chunkBounds(partition_, shape_.chunks, c, lo, hi);
    if (hi <= lo)
      return Status::success();
    return binding_.launch(bases_.forChunk(c), lo, hi, stream);
  }

  Status copyOut(int c) {
    CopyBatch batch(streamOf(c));
    for (const ArrayCopy& copy : chunk(c).copyOut)
      OVERLAP_TRY(transfer(copy, CopyDirection::ToHost, c, batch));
    OVERLAP_TRY(batch.issue());
    if (!paged_.empty())
      OVERLAP_CUDA_TRY(cudaEventRecord(slotDoneEvent(c % shape_.streams), streamOf(c)));
    return Status::success();
  }

  const B& binding_;
  const PipelineShape& shape_;
  const TransferPlan& plan_;
  const std::vector<HostArray>& arrays_;
  ArrayBases& bases_;
  PagedArrays& paged_;
  const CallStreams& streams_;
  const Partition partition_;
  const std::vector<bool>& staged_;
  StagingRing* const ring_;
};

// What chunk c of `chunks` needs of each array on the device: its broadcast and chunked sections.
template <class B>
std::vector<ArrayTransferNeeds> chunkNeeds(const B& binding, const std::vector<HostArray>& arrays,
                                           const std::vector<bool>& onDevice,
                                           const Partition& partition, int chunks) {
  std::vector<ArrayTransferNeeds> needs(arrays.size());
  for (std::size_t i = 0; i < arrays.size(); ++i) {
    if (!onDevice[i])
      continue;
    const HostArray& array = arrays[i];
    const int index = static_cast<int>(i);
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
  return needs;
}

// Cuts the call into chunks and places its arrays: full buffers with StreamsConfig's chunks when
// they fit the budget (or DeviceBuffers::Full says so), else the ring, with the chunks asked for,
// or, when none were, the fewest of C, 2C, 4C, ... (C: one per stream) whose ring fits. `async`:
// the call's memory is stream-ordered, not the cached block.
template <class B>
Status shapePipeline(const B& binding, const StreamsConfig& config, Variant variant,
                     const Partition& partition, const std::vector<HostArray>& arrays,
                     const std::vector<bool>& onDevice, DeviceContext& context, bool async,
                     PipelineShape* shape) {
  const std::size_t held = heldFor(context, async);
  const std::vector<LayoutArray> placed = layoutArrays(arrays, onDevice);
  const int asked =
      static_cast<int>(chunkCount(partition, config.chunks > 0 ? config.chunks : config.streams));
  const auto take = [&](int chunks, DeviceLayout layout, std::vector<ArrayTransferNeeds> needs) {
    // A paged array's resident pages are copied in whole before the chunks, which then copy
    // only the rest of their windows.
    for (std::size_t i = 0; i < needs.size(); ++i)
      if (layout.placement[i] == ArrayPlacement::Paged)
        needs[i].broadcast = {layout.residentElements[i]};
    shape->chunks = chunks;
    shape->streams = std::min(config.streams, chunks);
    shape->plan = planTransfers(needs, chunks, !layout.ring);
    shape->layout = std::move(layout);
    return Status::success();
  };
  const std::string who = describe(variant, config);
  DeviceMemoryBudget budget;
  if (config.buffers != DeviceBuffers::Ring) {
    DeviceLayout full = fullLayout(placed);
    OVERLAP_TRY(callBudget(held, config.deviceMemoryBudget, full.totalBytes(), &budget));
    if (full.totalBytes() <= budget.bytes)
      return take(asked, std::move(full), chunkNeeds(binding, arrays, onDevice, partition, asked));
    if (config.buffers == DeviceBuffers::Full)
      return overBudget(who + " with full buffers", full.totalBytes(), budget,
                        ": leave StreamsConfig::buffers Auto to run it out of core");
  } else {
    OVERLAP_TRY(callBudget(held, config.deviceMemoryBudget, SIZE_MAX, &budget));
  }
  std::size_t pageBytes = 0;
  OVERLAP_TRY(context.pageBytes(&pageBytes));
  const long long granules = granuleCount(partition);
  std::size_t smallest = SIZE_MAX;
  for (long long chunks = asked;;) {
    const int c = static_cast<int>(chunks);
    std::vector<ArrayTransferNeeds> needs = chunkNeeds(binding, arrays, onDevice, partition, c);
    DeviceLayout ring = ringLayout(placed, needs, c, std::min(config.streams, c), pageBytes);
    if (ring.unwindowable >= 0)
      return overBudget(who, fullLayout(placed).totalBytes(), budget,
                        std::string(": out of core, array '") +
                            arrays[static_cast<std::size_t>(ring.unwindowable)].name +
                            "' can have neither a window nor pages per chunk: " + ring.why +
                            " (docs/generated-code.md, \"Device memory\")");
    smallest = std::min(smallest, ring.totalBytes());
    if (ring.totalBytes() <= budget.bytes)
      return take(c, std::move(ring), std::move(needs));
    const long long next = std::min({chunks * 2, granules, kMaxRingChunks});
    if (config.chunks > 0 || next <= chunks)
      break;
    chunks = next;
  }
  return overBudget(who + "'s ring of " + std::to_string(std::min(config.streams, asked)) +
                        " slots",
                    smallest, budget,
                    config.chunks > 0 ? ": more chunks make smaller slots"
                                      : ": even at the most chunks the partition allows");
}

inline Status checkStreamsConfig(const StreamsConfig& config) {
  if (config.streams < 1)
    return OVERLAP_DETAIL_INVALID_BINDING("StreamsConfig::streams < 1");
  if (config.chunks < 0)
    return OVERLAP_DETAIL_INVALID_BINDING("StreamsConfig::chunks < 0");
  if (config.order != IssueOrder::DepthFirst && config.order != IssueOrder::BreadthFirst)
    return OVERLAP_DETAIL_INVALID_BINDING("StreamsConfig::order is not an IssueOrder");
  if (static_cast<unsigned>(config.pageable) > static_cast<unsigned>(PageableMode::Stage))
    return OVERLAP_DETAIL_INVALID_BINDING("StreamsConfig::pageable is not a PageableMode");
  if (static_cast<unsigned>(config.buffers) > static_cast<unsigned>(DeviceBuffers::Ring))
    return OVERLAP_DETAIL_INVALID_BINDING("StreamsConfig::buffers is not a DeviceBuffers");
  return Status::success();
}

// Which arrays have device buffers (all present ones but Hybrid's mapped outputs) and how the
// pipeline uses the host arrays.
inline void placePipelineArrays(const std::vector<HostArray>& arrays, OutputPath outputs,
                                std::vector<HostArrayUse>* uses, std::vector<bool>* onDevice) {
  uses->assign(arrays.size(), HostArrayUse{});
  onDevice->assign(arrays.size(), false);
  for (std::size_t i = 0; i < arrays.size(); ++i) {
    const HostArray& array = arrays[i];
    const bool mapped = outputs == OutputPath::Mapped && array.direction == Direction::Out;
    (*onDevice)[i] = !mapped && !absent(array);
    (*uses)[i] = {array.host, arrayBytes(array), writes(array.direction), mapped};
  }
}

// Events of one call: one for the broadcast copies, then one per chunk whose copies another chunk
// awaits (full buffers) or one per slot (the ring, for paged arrays).
inline int pipelineEvents(const PipelineShape& shape) {
  return 1 + (shape.layout.ring ? shape.streams : shape.chunks);
}

template <class B>
Status runPipelineAsync(const B& binding, StreamsConfig config, OutputPath outputs,
                        cudaStream_t stream);

// A synchronous call of the graph form: the asynchronous one on the graph cache's own stream,
// waited for.
template <class B>
Status runPipelineGraph(const B& binding, const StreamsConfig& config, OutputPath outputs) {
  cudaStream_t stream = nullptr;
  {
    DeviceContextLease lease;
    OVERLAP_TRY(lease.acquire());
    OVERLAP_TRY(lease.context().graphs().callStream(&stream));
  }
  Status first = runPipelineAsync(binding, config, outputs, stream);
  keepFirst(first, synchronize(stream));
  return first;
}

template <class B> Status runPipeline(const B& binding, StreamsConfig config, OutputPath outputs) {
  if (config.graph)
    return runPipelineGraph(binding, config, outputs);
  Partition partition;
  std::vector<HostArray> arrays;
  OVERLAP_TRY(beginCall(binding, &partition, &arrays));
  if (partition.extent == 0)
    return Status::success();
  OVERLAP_TRY(checkStreamsConfig(config));
  std::vector<HostArrayUse> uses;
  std::vector<bool> onDevice;
  placePipelineArrays(arrays, outputs, &uses, &onDevice);

  DeviceContextLease lease;
  OVERLAP_TRY(lease.acquire());
  DeviceContext& context = lease.context();
  PipelineShape shape;
  OVERLAP_TRY(shapePipeline(binding, config,
                            outputs == OutputPath::Mapped ? Variant::Hybrid : Variant::Streams,
                            partition, arrays, onDevice, context, false, &shape));
  const int streams = shape.streams;
  StreamEventPool& pool = context.pool();
  OVERLAP_TRY(pool.reserveStreams(streams));
  OVERLAP_TRY(pool.reserveEvents(pipelineEvents(shape)));
  bool readOnlySupported = false;
  OVERLAP_TRY(context.readOnlyRegistrationSupported(&readOnlySupported));

  // Pageable arrays are pinned so that their copies overlap, or staged; for the mapped outputs
  // pinning is required, for the others a failure only costs the overlap.
  HostArrayPinning pinning;
  Status first =
      pinning.pin(uses, readOnlySupported, pinningPolicy(resolvePageableMode(config.pageable)));
  std::vector<void*> hostBases(arrays.size(), nullptr);
  std::vector<bool> staged(arrays.size(), false);
  void* block = nullptr;
  if (first.ok()) {
    for (std::size_t i = 0; i < arrays.size(); ++i) {
      staged[i] = onDevice[i] && pinning.staged(static_cast<int>(i));
      if (!onDevice[i])
        hostBases[i] = pinning.devicePointer(static_cast<int>(i));
    }
    first = context.memory().reserve(shape.layout.blockBytes(), &block);
  }
  PagedArrays paged; // its pages are freed below, once the streams are synchronized
  if (first.ok())
    first = paged.create(shape.layout, context.device());
  ArrayBases bases(shape.layout, block, paged, std::move(hostBases));
  StagingRing ring;
  if (first.ok() && std::find(staged.begin(), staged.end(), true) != staged.end())
    first = ring.start(context.staging(), stagedCopies(shape, config.order, arrays, bases, staged),
                       config.staging);
  const CallStreams callStreams(pool);
  PipelineIssuer<B> issuer(binding, shape, arrays, bases, paged, callStreams, partition, staged,
                           &ring);
  if (first.ok())
    first = issuer.issue(config.order);
  // Also after a failure: nothing issued may still run when the buffers are reused or the
  // registrations go.
  for (int s = 0; s < streams; ++s)
    keepFirst(first, synchronize(pool.stream(s)));
  if (first.ok() && !shape.plan.broadcastOut.empty()) {
    first = issuer.copyBroadcastOut();
    keepFirst(first, synchronize(pool.stream(0)));
  }
  // The outputs' last pieces are in the user's arrays once the ring finished; after a failure
  // the pieces not yet under way are left (the outputs are unspecified then).
  if (first.ok())
    first = ring.finish();
  else
    ring.abandon();
  keepFirst(first, paged.release());
  keepFirst(first, pinning.release());
  return first;
}

// The pipeline of one asynchronous call, issued under the device's lease: *synchronous is set,
// and nothing issued, where it needs the host between chunks (paged arrays).
template <class B>
Status issuePipelineAsync(const B& binding, const StreamsConfig& config, OutputPath outputs,
                          const Partition& partition, const std::vector<HostArray>& arrays,
                          DeviceContext& context, cudaStream_t stream, bool* synchronous) {
  std::vector<HostArrayUse> uses;
  std::vector<bool> onDevice;
  placePipelineArrays(arrays, outputs, &uses, &onDevice);
  PipelineShape shape;
  OVERLAP_TRY(shapePipeline(binding, config,
                            outputs == OutputPath::Mapped ? Variant::Hybrid : Variant::Streams,
                            partition, arrays, onDevice, context, true, &shape));
  const std::vector<ArrayPlacement>& placement = shape.layout.placement;
  *synchronous =
      std::find(placement.begin(), placement.end(), ArrayPlacement::Paged) != placement.end();
  if (*synchronous)
    return Status::success();
  const int streams = shape.streams;
  StreamEventPool& pool = context.pool();
  OVERLAP_TRY(pool.reserveStreams(streams));
  OVERLAP_TRY(pool.reserveEvents(pipelineEvents(shape) + StreamFork::eventsNeeded(streams)));
  // No array is pageable: pin() registers nothing, it finds the mapped outputs' addresses.
  HostArrayPinning pinning;
  OVERLAP_TRY(pinning.pin(uses, false, PinningPolicy{}));
  std::vector<void*> hostBases(arrays.size(), nullptr);
  for (std::size_t i = 0; i < arrays.size(); ++i)
    if (!onDevice[i])
      hostBases[i] = pinning.devicePointer(static_cast<int>(i));
  AsyncBlock block(context.asyncMemory(), stream);
  OVERLAP_TRY(block.allocate(shape.layout.blockBytes()));
  PagedArrays paged; // none: those calls run synchronously
  ArrayBases bases(shape.layout, block.get(), paged, std::move(hostBases));
  const std::vector<bool> staged(arrays.size(), false);
  const CallStreams callStreams(pool, stream);
  PipelineIssuer<B> issuer(binding, shape, arrays, bases, paged, callStreams, partition, staged,
                           nullptr);
  const StreamFork fork(callStreams, pipelineEvents(shape), streams);
  Status first = fork.fork();
  if (first.ok())
    first = issuer.issue(config.order);
  if (first.ok() && !shape.plan.broadcastOut.empty()) {
    first = fork.gather(callStreams.stream(0));
    if (first.ok())
      first = issuer.copyBroadcastOut();
  }
  // Also after a failure: the caller's stream, and the block's release, wait for what was issued.
  keepFirst(first, fork.join());
  keepFirst(first, block.end());
  return first;
}

template <class B>
Status runPipelineAsync(const B& binding, StreamsConfig config, OutputPath outputs,
                        cudaStream_t stream) {
  OVERLAP_TRY(checkStreamsConfig(config));
  StreamsConfig plain = config; // the graph form's synchronous fallback and captured call
  plain.graph = false;
  return asyncCall(
      binding, stream, [&] { return runPipeline(binding, plain, outputs); },
      [&](const Partition& partition, const std::vector<HostArray>& arrays,
          const std::vector<HostMemoryKind>& kinds, DeviceContext& context, bool* synchronous) {
        const auto issue = [&](cudaStream_t on, bool* issuedNothing) {
          return issuePipelineAsync(binding, plain, outputs, partition, arrays, context, on,
                                    issuedNothing);
        };
        if (!config.graph)
          return issue(stream, synchronous);
        return issueAsGraph(binding, config, outputs == OutputPath::Mapped, partition, arrays,
                            kinds, context, stream, synchronous, issue);
      });
}

} // namespace detail
} // namespace overlap
