#include "LinkBench.h"

#include "overlap/CopyBatch.h"
#include "overlap/KernelTypes.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <vector>

namespace overlap::calibration {

namespace {

// Long enough for the host to issue 512 pieces on a loaded machine, short enough that a lost
// release does not hang a calibration.
constexpr long long kGateTimeoutNs = 10'000'000'000LL;

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point begin) {
  return std::chrono::duration<double>(Clock::now() - begin).count();
}

// The gate's words: kOpen, set by the host to release the device; kTimedOut, set by a gate that
// gave up waiting.
constexpr int kOpen = 0;
constexpr int kTimedOut = 1;

Status beyond(const char* what) {
  return Status{cudaErrorInvalidValue, what, __FILE__, __LINE__};
}

} // namespace

const char* directionName(TransferDirection direction) {
  return direction == TransferDirection::HostToDevice ? "host_to_device" : "device_to_host";
}

Status LinkBench::create(const LinkBenchLimits& limits, std::unique_ptr<LinkBench>* bench) {
  std::unique_ptr<LinkBench> b(new LinkBench());
  b->limits_ = limits;
  const std::size_t bytes = std::max<std::size_t>(limits.maxBytes, 1);
  OVERLAP_TRY(PinnedBuffer::allocate(bytes, &b->hostIn_));
  OVERLAP_TRY(PinnedBuffer::allocate(bytes, &b->hostOut_));
  // Touch every page with data that is not all zeros, as real inputs are.
  std::memset(b->hostIn_.data(), 0x5a, bytes);
  std::memset(b->hostOut_.data(), 0xa5, bytes);
  OVERLAP_CUDA_TRY(cudaMalloc(&b->deviceIn_, bytes));
  OVERLAP_CUDA_TRY(cudaMalloc(&b->deviceOut_, bytes));
  OVERLAP_CUDA_TRY(cudaMemset(b->deviceOut_, 0x3c, bytes));
  if (limits.maxPageableBytes > 0) {
    b->pageable_.reset(new char[limits.maxPageableBytes]);
    std::memset(b->pageable_.get(), 0x69, limits.maxPageableBytes);
  }

  OVERLAP_TRY(PinnedBuffer::allocate(2 * sizeof(int), &b->gate_));
  b->gate_.as<int>()[kOpen] = 1;
  b->gate_.as<int>()[kTimedOut] = 0;
  int device = 0;
  OVERLAP_CUDA_TRY(cudaGetDevice(&device));
  int canMap = 0;
  OVERLAP_CUDA_TRY(cudaDeviceGetAttribute(&canMap, cudaDevAttrCanMapHostMemory, device));
  if (!canMap)
    return Status{cudaErrorNotSupported,
                  "cudaDevAttrCanMapHostMemory == 0: the gate and the "
                  "mapped measurements need mapped host memory",
                  __FILE__, __LINE__};
  OVERLAP_CUDA_TRY(
      cudaHostGetDevicePointer(reinterpret_cast<void**>(&b->gateDevice_), b->gate_.data(), 0));
  OVERLAP_CUDA_TRY(cudaHostGetDevicePointer(&b->hostInMapped_, b->hostIn_.data(), 0));
  OVERLAP_CUDA_TRY(cudaHostGetDevicePointer(&b->hostOutMapped_, b->hostOut_.data(), 0));
  int multiprocessors = 0;
  OVERLAP_CUDA_TRY(
      cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
  // Enough loads in flight to cover PCIe latency: 8 blocks of 256 threads per multiprocessor.
  b->mappedBlocks_ = 8 * multiprocessors;
  OVERLAP_CUDA_TRY(cudaMalloc(reinterpret_cast<void**>(&b->sink_),
                              sizeof(unsigned long long) * b->mappedBlocks_));

  const int streams = 2 * std::max(limits.maxPieces, 1);
  OVERLAP_TRY(b->pool_.reserveStreams(streams));
  OVERLAP_TRY(b->pool_.reserveEvents(streams));
  for (Event* event : {&b->start_, &b->endFirst_, &b->endSecond_})
    OVERLAP_TRY(Event::create(event));
  *bench = std::move(b);
  return Status::success();
}

LinkBench::~LinkBench() {
  release();
  // Nothing may still copy into memory about to be freed; failures cannot be reported here.
  cudaDeviceSynchronize();
  if (roundGraph_ != nullptr)
    cudaGraphExecDestroy(roundGraph_);
  cudaFree(deviceIn_);
  cudaFree(deviceOut_);
  cudaFree(sink_);
}

void LinkBench::release() {
  if (gate_.data()) {
    std::atomic_thread_fence(std::memory_order_seq_cst);
    static_cast<volatile int*>(gate_.as<int>())[kOpen] = 1;
  }
}

Status LinkBench::finish() {
  release();
  OVERLAP_CUDA_TRY(cudaDeviceSynchronize());
  if (static_cast<volatile int*>(gate_.as<int>())[kTimedOut] != 0)
    return Status{cudaErrorTimeout, "gateKernel: the host did not release the device within 10 s",
                  __FILE__, __LINE__};
  return Status::success();
}

Status LinkBench::copy(TransferDirection direction, std::size_t offset, std::size_t bytes,
                       cudaStream_t stream, char* host) {
  const bool in = direction == TransferDirection::HostToDevice;
  char* device = static_cast<char*>(in ? deviceIn_ : deviceOut_) + offset;
  host = (host != nullptr ? host : (in ? hostIn_ : hostOut_).as<char>()) + offset;
  OVERLAP_CUDA_TRY(cudaMemcpyAsync(in ? device : host, in ? host : device, bytes,
                                   in ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost, stream));
  return Status::success();
}

// Behind the gate on stream 0: the start event; with `backgroundBytes`, the other direction's
// copies on the stream after the pieces' (endSecond_ when done); the pieces on the first `pieces`
// streams, each behind the start event (endFirst_ when all are done).
Status LinkBench::issue(TransferDirection direction, std::size_t bytes, int pieces,
                        std::size_t backgroundBytes) {
  cudaStream_t lead = pool_.stream(0);
  OVERLAP_CUDA_TRY(cudaEventRecord(start_.get(), lead));
  if (backgroundBytes > 0) {
    // The other direction uses the other pair of buffers.
    const TransferDirection other = direction == TransferDirection::HostToDevice
                                        ? TransferDirection::DeviceToHost
                                        : TransferDirection::HostToDevice;
    cudaStream_t background = pool_.stream(pieces);
    OVERLAP_CUDA_TRY(cudaStreamWaitEvent(background, start_.get(), 0));
    for (std::size_t issued = 0; issued < backgroundBytes; issued += limits_.maxBytes)
      OVERLAP_TRY(copy(other, 0, std::min(backgroundBytes - issued, limits_.maxBytes), background));
    OVERLAP_CUDA_TRY(cudaEventRecord(endSecond_.get(), background));
  }
  for (int i = 0; i < pieces; ++i) {
    cudaStream_t stream = pool_.stream(i);
    long long lo = 0;
    long long hi = 0;
    chunkBounds(static_cast<long long>(bytes), pieces, i, lo, hi);
    // Stream 0 already starts behind the start event; every other stream waits for it.
    if (i != 0)
      OVERLAP_CUDA_TRY(cudaStreamWaitEvent(stream, start_.get(), 0));
    OVERLAP_TRY(
        copy(direction, static_cast<std::size_t>(lo), static_cast<std::size_t>(hi - lo), stream));
    if (i > 0) {
      OVERLAP_CUDA_TRY(cudaEventRecord(pool_.event(i), stream));
      OVERLAP_CUDA_TRY(cudaStreamWaitEvent(lead, pool_.event(i), 0));
    }
  }
  OVERLAP_CUDA_TRY(cudaEventRecord(endFirst_.get(), lead));
  return Status::success();
}

Status LinkBench::transfer(TransferDirection direction, std::size_t bytes, int pieces,
                           double* seconds, std::size_t backgroundBytes,
                           double* backgroundSeconds) {
  if (bytes > limits_.maxBytes || pieces < 1 || pieces > limits_.maxPieces)
    return beyond("LinkBench::transfer: size or pieces beyond the limits");
  for (int word : {kOpen, kTimedOut})
    static_cast<volatile int*>(gate_.as<int>())[word] = 0;
  std::atomic_thread_fence(std::memory_order_seq_cst);
  OVERLAP_TRY(
      launchGate(gateDevice_ + kOpen, gateDevice_ + kTimedOut, kGateTimeoutNs, pool_.stream(0)));
  // finish() releases the gate also after a failure: it must not wait out its timeout.
  Status status = issue(direction, bytes, pieces, backgroundBytes);
  keepFirst(status, finish());
  OVERLAP_TRY(status);
  OVERLAP_TRY(elapsedSeconds(start_, endFirst_, seconds));
  return backgroundBytes > 0 ? elapsedSeconds(start_, endSecond_, backgroundSeconds)
                             : Status::success();
}

Status LinkBench::pageableCopy(TransferDirection direction, std::size_t bytes, double* seconds) {
  if (bytes > limits_.maxPageableBytes || !pageable_)
    return beyond("LinkBench::pageableCopy: beyond the pageable buffer");
  cudaStream_t stream = pool_.stream(0);
  const Clock::time_point begin = Clock::now();
  OVERLAP_TRY(copy(direction, 0, bytes, stream, pageable_.get()));
  OVERLAP_CUDA_TRY(cudaStreamSynchronize(stream));
  *seconds = secondsSince(begin);
  return Status::success();
}

Status LinkBench::mappedKernel(MappedAccess access, int elementBytes, std::size_t bytes,
                               double* seconds) {
  if (bytes > limits_.maxBytes)
    return beyond("LinkBench::mappedKernel: beyond the buffers");
  cudaStream_t stream = pool_.stream(0);
  // The buffers of the copies: each maxBytes long, and mapped in create().
  void* mapped = access == MappedAccess::Read ? hostInMapped_ : hostOutMapped_;
  OVERLAP_CUDA_TRY(cudaEventRecord(start_.get(), stream));
  OVERLAP_TRY(
      launchMappedTraffic(access, elementBytes, mapped, bytes, sink_, mappedBlocks_, stream));
  OVERLAP_CUDA_TRY(cudaEventRecord(endFirst_.get(), stream));
  OVERLAP_CUDA_TRY(cudaEventSynchronize(endFirst_.get()));
  return elapsedSeconds(start_, endFirst_, seconds);
}

Status LinkBench::launchBurst(int launches, double* secondsPerLaunch) {
  if (launches < 1)
    return beyond("LinkBench::launchBurst: no launches");
  cudaStream_t stream = pool_.stream(0);
  Status issued = Status::success();
  const Clock::time_point begin = Clock::now();
  for (int i = 0; i < launches && issued.ok(); ++i)
    issued = launchEmpty(stream);
  const double issueSeconds = secondsSince(begin);
  // Also after a failed launch: the next burst must start with an idle device.
  OVERLAP_CUDA_TRY(cudaStreamSynchronize(stream));
  OVERLAP_TRY(issued);
  *secondsPerLaunch = issueSeconds / launches;
  return Status::success();
}

Status LinkBench::launchSyncOverhead(int iterations, double* secondsPerIteration) {
  cudaStream_t stream = pool_.stream(0);
  const Clock::time_point begin = Clock::now();
  for (int i = 0; i < iterations; ++i) {
    OVERLAP_TRY(launchEmpty(stream));
    OVERLAP_CUDA_TRY(cudaStreamSynchronize(stream));
  }
  *secondsPerIteration = secondsSince(begin) / iterations;
  return Status::success();
}

Status LinkBench::issueRound(int streams, std::size_t bytes, bool withKernels, bool fork) {
  if (fork && streams > 1) {
    OVERLAP_CUDA_TRY(cudaEventRecord(pool_.event(0), pool_.stream(0)));
    for (int i = 1; i < streams; ++i)
      OVERLAP_CUDA_TRY(cudaStreamWaitEvent(pool_.stream(i), pool_.event(0), 0));
  }
  for (int i = 0; i < streams; ++i) {
    cudaStream_t stream = pool_.stream(i);
    const std::size_t offset = static_cast<std::size_t>(i) * bytes;
    OVERLAP_TRY(copy(TransferDirection::HostToDevice, offset, bytes, stream));
    if (withKernels)
      OVERLAP_TRY(launchEmpty(stream));
    OVERLAP_TRY(copy(TransferDirection::DeviceToHost, offset, bytes, stream));
  }
  if (fork)
    for (int i = 1; i < streams; ++i) {
      OVERLAP_CUDA_TRY(cudaEventRecord(pool_.event(i), pool_.stream(i)));
      OVERLAP_CUDA_TRY(cudaStreamWaitEvent(pool_.stream(0), pool_.event(i), 0));
    }
  return Status::success();
}

Status LinkBench::round(int streams, std::size_t bytes, bool withKernels, double* issueSeconds) {
  if (streams < 1 || streams > 2 * limits_.maxPieces ||
      bytes * static_cast<std::size_t>(streams) > limits_.maxBytes)
    return beyond("LinkBench::streamedRound or copyCalls: beyond the limits");
  const Clock::time_point begin = Clock::now();
  const Status issued = issueRound(streams, bytes, withKernels, false);
  *issueSeconds = secondsSince(begin);
  // Also after a failed call: what was issued must finish before the buffers are reused.
  for (int i = 0; i < streams; ++i)
    OVERLAP_CUDA_TRY(cudaStreamSynchronize(pool_.stream(i)));
  return issued;
}

Status LinkBench::streamedRound(int streams, std::size_t bytesPerStream, double* seconds) {
  const Clock::time_point begin = Clock::now();
  double issueSeconds = 0;
  OVERLAP_TRY(round(streams, bytesPerStream, true, &issueSeconds));
  *seconds = secondsSince(begin);
  return Status::success();
}

Status LinkBench::copyCalls(int streams, std::size_t bytesPerCopy, double* secondsPerCall) {
  double issueSeconds = 0;
  OVERLAP_TRY(round(streams, bytesPerCopy, false, &issueSeconds));
  *secondsPerCall = issueSeconds / (2.0 * streams);
  return Status::success();
}

Status LinkBench::copyBatches(int streams, int copies, std::size_t bytesPerCopy,
                              double* secondsPerBatch) {
  if (streams < 1 || streams > 2 * limits_.maxPieces || copies < 1 ||
      bytesPerCopy * static_cast<std::size_t>(streams) * static_cast<std::size_t>(copies) >
          limits_.maxBytes)
    return beyond("LinkBench::copyBatches: beyond the limits");
  Status issued = Status::success();
  const Clock::time_point begin = Clock::now();
  for (int i = 0; i < streams && issued.ok(); ++i) {
    CopyBatch batch(pool_.stream(i));
    for (int c = 0; c < copies && issued.ok(); ++c) {
      const std::size_t offset = (static_cast<std::size_t>(i) * copies + c) * bytesPerCopy;
      issued = batch.add(static_cast<char*>(deviceIn_) + offset, hostIn_.as<char>() + offset,
                         bytesPerCopy);
    }
    if (issued.ok())
      issued = batch.issue();
  }
  const double issueSeconds = secondsSince(begin);
  // Also after a failed call: what was issued must finish before the buffers are reused.
  for (int i = 0; i < streams; ++i)
    OVERLAP_CUDA_TRY(cudaStreamSynchronize(pool_.stream(i)));
  OVERLAP_TRY(issued);
  *secondsPerBatch = issueSeconds / streams;
  return Status::success();
}

Status LinkBench::graphLaunch(int streams, std::size_t bytesPerCopy, double* secondsPerOperation) {
  if (streams < 1 || streams > 2 * limits_.maxPieces ||
      bytesPerCopy * static_cast<std::size_t>(streams) > limits_.maxBytes)
    return beyond("LinkBench::graphLaunch: beyond the limits");
  if (roundGraph_ == nullptr || roundGraphStreams_ != streams) {
    if (roundGraph_ != nullptr)
      OVERLAP_CUDA_TRY(cudaGraphExecDestroy(roundGraph_));
    roundGraph_ = nullptr;
    OVERLAP_CUDA_TRY(cudaStreamBeginCapture(pool_.stream(0), cudaStreamCaptureModeThreadLocal));
    const Status issued = issueRound(streams, bytesPerCopy, true, true);
    cudaGraph_t graph = nullptr;
    const cudaError_t ended = OVERLAP_CUDA_CALL(cudaStreamEndCapture(pool_.stream(0), &graph));
    OVERLAP_TRY(issued);
    if (ended != cudaSuccess)
      return OVERLAP_STATUS_OF(cudaStreamEndCapture(pool_.stream(0), &graph), ended);
    const cudaError_t made = OVERLAP_CUDA_CALL(cudaGraphInstantiate(&roundGraph_, graph, 0));
    (void)cudaGraphDestroy(graph);
    if (made != cudaSuccess)
      return OVERLAP_STATUS_OF(cudaGraphInstantiate(&roundGraph_, graph, 0), made);
    roundGraphStreams_ = streams;
  }
  const Clock::time_point begin = Clock::now();
  const cudaError_t launched = OVERLAP_CUDA_CALL(cudaGraphLaunch(roundGraph_, pool_.stream(0)));
  *secondsPerOperation = secondsSince(begin) / (3.0 * streams);
  if (launched != cudaSuccess)
    return OVERLAP_STATUS_OF(cudaGraphLaunch(roundGraph_, pool_.stream(0)), launched);
  OVERLAP_CUDA_TRY(cudaStreamSynchronize(pool_.stream(0)));
  return Status::success();
}

Status LinkBench::stagedCall(std::size_t bytes, int copies, int threads, double* seconds) {
  if (copies < 1 || bytes < 2 * static_cast<std::size_t>(copies) ||
      bytes > limits_.maxPageableBytes || bytes > limits_.maxBytes || threads < 1)
    return beyond("LinkBench::stagedCall: no thread, fewer bytes than copies, or more bytes than "
                  "the pageable buffer");
  if (!staging_) {
    int device = 0;
    OVERLAP_CUDA_TRY(cudaGetDevice(&device));
    staging_ = std::make_unique<StagingResources>(device);
  }
  const std::size_t half = bytes / 2;
  std::vector<StagedCopy> pieces;
  for (int c = 0; c < copies; ++c) {
    long long lo = 0;
    long long hi = 0;
    chunkBounds(static_cast<long long>(half), copies, c, lo, hi);
    const auto offset = static_cast<std::size_t>(lo);
    const auto length = static_cast<std::size_t>(hi - lo);
    pieces.push_back({PieceDirection::ToDevice, pageable_.get() + offset,
                      static_cast<char*>(deviceIn_) + offset, length});
    pieces.push_back({PieceDirection::ToHost, pageable_.get() + half + offset,
                      static_cast<char*>(deviceOut_) + offset, length});
  }
  const cudaStream_t stream = pool_.stream(0);
  StagingConfig asked;
  asked.threads = threads;
  const auto start = std::chrono::steady_clock::now();
  StagingRing ring;
  Status status = ring.start(*staging_, pieces, asked);
  for (std::size_t c = 0; c < pieces.size() && status.ok(); ++c)
    status = ring.issue(pieces[c], stream);
  if (status.ok())
    status = ring.finish(); // the copy back's pieces are in pageable memory
  else
    ring.abandon();
  OVERLAP_TRY(status);
  *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  OVERLAP_CUDA_TRY(cudaStreamSynchronize(stream));
  return Status::success();
}

} // namespace overlap::calibration
