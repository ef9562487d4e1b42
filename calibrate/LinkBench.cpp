#include "LinkBench.h"

#include "overlap/KernelTypes.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <functional>

namespace overlap::calibration {

namespace {

// Long enough for the host to issue 512 pieces on a loaded machine, short enough that a lost
// release does not hang a calibration.
constexpr long long kGateTimeoutNs = 10'000'000'000LL;

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point begin) {
  return std::chrono::duration<double>(Clock::now() - begin).count();
}

// The words of the gate buffer: what the host sets to release the device, what a kernel sets
// when the host kept it waiting too long, and what stops endless mapped traffic.
constexpr int kOpen = 0;
constexpr int kTimedOut = 1;
constexpr int kStop = 2;

volatile int* gateWord(const PinnedBuffer& gate, int index) {
  return static_cast<volatile int*>(gate.as<int>() + index);
}

} // namespace

const char* directionName(TransferDirection direction) {
  return direction == TransferDirection::HostToDevice ? "host_to_device" : "device_to_host";
}

Status LinkBench::create(const LinkBenchLimits& limits, std::unique_ptr<LinkBench>* bench) {
  std::unique_ptr<LinkBench> b(new LinkBench());
  b->limits_ = limits;
  const std::size_t bytes = limits.maxBytes > 0 ? limits.maxBytes : 1;
  OVERLAP_TRY(PinnedBuffer::allocate(bytes, &b->hostIn_));
  OVERLAP_TRY(PinnedBuffer::allocate(bytes, &b->hostOut_));
  // Touch every page with data that is not all zeros, as real inputs are.
  std::memset(b->hostIn_.data(), 0x5a, bytes);
  std::memset(b->hostOut_.data(), 0xa5, bytes);
  OVERLAP_CUDA_TRY(cudaMalloc(&b->deviceIn_, bytes));
  OVERLAP_CUDA_TRY(cudaMalloc(&b->deviceOut_, bytes));
  OVERLAP_CUDA_TRY(cudaMemset(b->deviceOut_, 0x3c, bytes));
  if (limits.maxPageableBytes > 0) {
    b->pageable_.reset(new unsigned char[limits.maxPageableBytes]);
    std::memset(b->pageable_.get(), 0x69, limits.maxPageableBytes);
  }

  OVERLAP_TRY(PinnedBuffer::allocate(3 * sizeof(int), &b->gate_));
  *gateWord(b->gate_, kOpen) = 1;
  *gateWord(b->gate_, kTimedOut) = 0;
  *gateWord(b->gate_, kStop) = 1;
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

  const int streams = 2 * (limits.maxPieces > 1 ? limits.maxPieces : 1);
  OVERLAP_TRY(b->pool_.reserveStreams(streams));
  OVERLAP_TRY(b->pool_.reserveEvents(streams));
  OVERLAP_TRY(Event::create(&b->start_));
  OVERLAP_TRY(Event::create(&b->endFirst_));
  OVERLAP_TRY(Event::create(&b->endSecond_));
  *bench = std::move(b);
  return Status::success();
}

LinkBench::~LinkBench() {
  releaseGate();
  stopTraffic();
  // Nothing may still copy into memory about to be freed; failures cannot be reported here.
  cudaDeviceSynchronize();
  cudaFree(deviceIn_);
  cudaFree(deviceOut_);
  cudaFree(sink_);
}

void LinkBench::releaseGate() {
  if (gate_.data()) {
    std::atomic_thread_fence(std::memory_order_seq_cst);
    *gateWord(gate_, kOpen) = 1;
  }
}

void LinkBench::stopTraffic() {
  if (gate_.data()) {
    std::atomic_thread_fence(std::memory_order_seq_cst);
    *gateWord(gate_, kStop) = 1;
  }
}

Status LinkBench::begin(bool gated) {
  cudaStream_t first = pool_.stream(0);
  if (gated) {
    *gateWord(gate_, kTimedOut) = 0;
    *gateWord(gate_, kOpen) = 0;
    *gateWord(gate_, kStop) = 0;
    std::atomic_thread_fence(std::memory_order_seq_cst);
    OVERLAP_TRY(launchGate(gateDevice_ + kOpen, gateDevice_ + kTimedOut, kGateTimeoutNs, first));
  }
  const cudaError_t recorded = cudaEventRecord(start_.get(), first);
  if (recorded != cudaSuccess) {
    releaseGate(); // the caller returns at once: the gate must not wait out its timeout
    return OVERLAP_STATUS_OF(cudaEventRecord(start_.get(), first), recorded);
  }
  return Status::success();
}

Status LinkBench::finish(bool gated) {
  releaseGate();
  stopTraffic();
  OVERLAP_CUDA_TRY(cudaDeviceSynchronize());
  if (gated && *gateWord(gate_, kTimedOut) != 0)
    return Status{cudaErrorTimeout,
                  "gate_kernel or mapped_traffic_kernel: the host did not release the device "
                  "within 10 s",
                  __FILE__, __LINE__};
  return Status::success();
}

Status LinkBench::copy(TransferDirection direction, std::size_t offset, std::size_t bytes,
                       cudaStream_t stream) {
  if (direction == TransferDirection::HostToDevice)
    OVERLAP_CUDA_TRY(cudaMemcpyAsync(static_cast<char*>(deviceIn_) + offset,
                                     hostIn_.as<char>() + offset, bytes, cudaMemcpyHostToDevice,
                                     stream));
  else
    OVERLAP_CUDA_TRY(cudaMemcpyAsync(hostOut_.as<char>() + offset,
                                     static_cast<char*>(deviceOut_) + offset, bytes,
                                     cudaMemcpyDeviceToHost, stream));
  return Status::success();
}

Status LinkBench::issuePieces(TransferDirection direction, std::size_t bytes, int pieces,
                              int firstStream, const Event& end) {
  cudaStream_t lead = pool_.stream(firstStream);
  for (int i = 0; i < pieces; ++i) {
    const int index = firstStream + i;
    cudaStream_t stream = pool_.stream(index);
    long long lo = 0;
    long long hi = 0;
    chunkBounds(static_cast<long long>(bytes), pieces, i, lo, hi);
    // Stream 0 already starts behind the start event; every other stream waits for it.
    if (index != 0)
      OVERLAP_CUDA_TRY(cudaStreamWaitEvent(stream, start_.get(), 0));
    OVERLAP_TRY(
        copy(direction, static_cast<std::size_t>(lo), static_cast<std::size_t>(hi - lo), stream));
    if (i > 0) {
      OVERLAP_CUDA_TRY(cudaEventRecord(pool_.event(index), stream));
      OVERLAP_CUDA_TRY(cudaStreamWaitEvent(lead, pool_.event(index), 0));
    }
  }
  OVERLAP_CUDA_TRY(cudaEventRecord(end.get(), lead));
  return Status::success();
}

Status LinkBench::transfer(TransferDirection direction, std::size_t bytes, int pieces, bool gated,
                           double* seconds) {
  if (bytes > limits_.maxBytes || pieces < 1 || pieces > limits_.maxPieces)
    return Status{cudaErrorInvalidValue, "LinkBench::transfer: size or pieces beyond the limits",
                  __FILE__, __LINE__};
  OVERLAP_TRY(begin(gated));
  Status issued = issuePieces(direction, bytes, pieces, 0, endFirst_);
  Status finished = finish(gated);
  OVERLAP_TRY(issued);
  OVERLAP_TRY(finished);
  return elapsedSeconds(start_, endFirst_, seconds);
}

Status LinkBench::bidirectional(std::size_t bytes, int pieces, bool gated,
                                double* hostToDeviceSeconds, double* deviceToHostSeconds) {
  if (bytes > limits_.maxBytes || pieces < 1 || pieces > limits_.maxPieces)
    return Status{cudaErrorInvalidValue,
                  "LinkBench::bidirectional: size or pieces beyond the limits", __FILE__, __LINE__};
  OVERLAP_TRY(begin(gated));
  Status issued = issuePieces(TransferDirection::HostToDevice, bytes, pieces, 0, endFirst_);
  keepFirst(issued,
            issuePieces(TransferDirection::DeviceToHost, bytes, pieces, pieces, endSecond_));
  Status finished = finish(gated);
  OVERLAP_TRY(issued);
  OVERLAP_TRY(finished);
  OVERLAP_TRY(elapsedSeconds(start_, endFirst_, hostToDeviceSeconds));
  return elapsedSeconds(start_, endSecond_, deviceToHostSeconds);
}

Status LinkBench::transferAgainstBusyLink(TransferDirection direction, std::size_t bytes,
                                          int pieces, std::size_t backgroundBytes, double* seconds,
                                          double* backgroundSeconds) {
  if (bytes > limits_.maxBytes || pieces < 1 || pieces > limits_.maxPieces)
    return Status{cudaErrorInvalidValue,
                  "LinkBench::transfer_against_busy_link: size or pieces beyond the limits",
                  __FILE__, __LINE__};
  OVERLAP_TRY(begin(true));
  // The other direction uses the other pair of buffers, on the stream after the pieces'.
  const TransferDirection other = direction == TransferDirection::HostToDevice
                                      ? TransferDirection::DeviceToHost
                                      : TransferDirection::HostToDevice;
  cudaStream_t background = pool_.stream(pieces);
  auto issue = [&]() -> Status {
    OVERLAP_CUDA_TRY(cudaStreamWaitEvent(background, start_.get(), 0));
    for (std::size_t issued = 0; issued < backgroundBytes;) {
      const std::size_t chunk = std::min(backgroundBytes - issued, limits_.maxBytes);
      OVERLAP_TRY(copy(other, 0, chunk, background));
      issued += chunk;
    }
    OVERLAP_CUDA_TRY(cudaEventRecord(endSecond_.get(), background));
    return issuePieces(direction, bytes, pieces, 0, endFirst_);
  };
  Status status = issue();
  keepFirst(status, finish(true));
  OVERLAP_TRY(status);
  OVERLAP_TRY(elapsedSeconds(start_, endFirst_, seconds));
  return elapsedSeconds(start_, endSecond_, backgroundSeconds);
}

Status LinkBench::pageableCopy(TransferDirection direction, std::size_t bytes, double* seconds) {
  if (bytes > limits_.maxPageableBytes || !pageable_)
    return Status{cudaErrorInvalidValue, "LinkBench::pageable_copy: beyond the pageable buffer",
                  __FILE__, __LINE__};
  cudaStream_t stream = pool_.stream(0);
  const Clock::time_point begin = Clock::now();
  if (direction == TransferDirection::HostToDevice)
    OVERLAP_CUDA_TRY(
        cudaMemcpyAsync(deviceIn_, pageable_.get(), bytes, cudaMemcpyHostToDevice, stream));
  else
    OVERLAP_CUDA_TRY(
        cudaMemcpyAsync(pageable_.get(), deviceOut_, bytes, cudaMemcpyDeviceToHost, stream));
  OVERLAP_CUDA_TRY(cudaStreamSynchronize(stream));
  *seconds = secondsSince(begin);
  return Status::success();
}

Status LinkBench::copyAgainstMapped(TransferDirection direction, std::size_t copyBytes,
                                    std::size_t kernelBytes, double* copySeconds,
                                    double* kernelSeconds) {
  if (copyBytes > limits_.maxBytes || kernelBytes > limits_.maxBytes)
    return Status{cudaErrorInvalidValue, "LinkBench::copy_against_mapped: beyond the buffers",
                  __FILE__, __LINE__};
  OVERLAP_TRY(begin(true));
  cudaStream_t copyStream = pool_.stream(0);
  cudaStream_t kernelStream = pool_.stream(1);
  // The kernel's traffic runs against the copy (a copy in meets mapped writes to the host, a
  // copy out mapped reads) and goes on until the copy has finished, however the two share the
  // link.
  MappedTraffic traffic;
  traffic.access =
      direction == TransferDirection::HostToDevice ? MappedAccess::Write : MappedAccess::Read;
  traffic.mapped = direction == TransferDirection::HostToDevice ? hostOutMapped_ : hostInMapped_;
  traffic.bytes = kernelBytes;
  traffic.sink = sink_;
  traffic.blocks = mappedBlocks_;
  traffic.stop = gateDevice_ + kStop;
  traffic.timedOut = gateDevice_ + kTimedOut;
  traffic.timeoutNs = kGateTimeoutNs;
  auto issue = [&]() -> Status {
    OVERLAP_CUDA_TRY(cudaStreamWaitEvent(kernelStream, start_.get(), 0));
    OVERLAP_TRY(launchMappedTraffic(traffic, kernelStream));
    OVERLAP_CUDA_TRY(cudaEventRecord(endSecond_.get(), kernelStream));
    OVERLAP_TRY(copy(direction, 0, copyBytes, copyStream));
    OVERLAP_CUDA_TRY(cudaEventRecord(endFirst_.get(), copyStream));
    return Status::success();
  };
  Status status = issue();
  if (status.ok()) {
    releaseGate();
    // The traffic stops only once the copy is over.
    const cudaError_t copied = cudaEventSynchronize(endFirst_.get());
    if (copied != cudaSuccess)
      status = OVERLAP_STATUS_OF(cudaEventSynchronize(endFirst_.get()), copied);
  }
  keepFirst(status, finish(true));
  OVERLAP_TRY(status);
  OVERLAP_TRY(elapsedSeconds(start_, endFirst_, copySeconds));
  return elapsedSeconds(start_, endSecond_, kernelSeconds);
}

Status LinkBench::timeMappedKernel(std::size_t bytes, const char* beyondBuffers,
                                   const std::function<Status(cudaStream_t)>& launch,
                                   double* seconds) {
  if (bytes > limits_.maxBytes)
    return Status{cudaErrorInvalidValue, beyondBuffers, __FILE__, __LINE__};
  cudaStream_t stream = pool_.stream(0);
  OVERLAP_CUDA_TRY(cudaEventRecord(start_.get(), stream));
  OVERLAP_TRY(launch(stream));
  OVERLAP_CUDA_TRY(cudaEventRecord(endFirst_.get(), stream));
  OVERLAP_CUDA_TRY(cudaEventSynchronize(endFirst_.get()));
  return elapsedSeconds(start_, endFirst_, seconds);
}

Status LinkBench::mappedKernel(bool write, std::size_t bytes, double* seconds) {
  MappedTraffic traffic;
  traffic.access = write ? MappedAccess::Write : MappedAccess::Read;
  traffic.mapped = write ? hostOutMapped_ : hostInMapped_;
  traffic.bytes = bytes;
  traffic.sink = sink_;
  traffic.blocks = mappedBlocks_;
  return timeMappedKernel(
      bytes, "LinkBench::mapped_kernel: beyond the buffers",
      [&](cudaStream_t stream) { return launchMappedTraffic(traffic, stream); }, seconds);
}

Status LinkBench::mappedWidthKernel(bool write, int elementBytes, std::size_t bytes,
                                    double* seconds) {
  MappedWidthTraffic traffic;
  traffic.access = write ? MappedAccess::Write : MappedAccess::Read;
  traffic.elementBytes = elementBytes;
  traffic.mapped = write ? hostOutMapped_ : hostInMapped_;
  traffic.bytes = bytes;
  traffic.sink = sink_;
  traffic.blocks = mappedBlocks_;
  return timeMappedKernel(
      bytes, "LinkBench::mapped_width_kernel: beyond the buffers",
      [&](cudaStream_t stream) { return launchMappedWidthTraffic(traffic, stream); }, seconds);
}

Status LinkBench::mappedBothWaysKernel(std::size_t bytes, double* seconds) {
  MappedBothWaysTraffic traffic;
  // The two buffers of the copies: each maxBytes long, distinct, and mapped in create().
  traffic.in = hostInMapped_;
  traffic.out = hostOutMapped_;
  traffic.bytes = bytes;
  traffic.blocks = mappedBlocks_;
  return timeMappedKernel(
      bytes, "LinkBench::mapped_both_ways_kernel: beyond the buffers",
      [&](cudaStream_t stream) { return launchMappedBothWays(traffic, stream); }, seconds);
}

Status LinkBench::launchBurst(int launches, double* secondsPerLaunch) {
  if (launches < 1)
    return Status{cudaErrorInvalidValue, "LinkBench::launch_burst: no launches", __FILE__,
                  __LINE__};
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

bool LinkBench::roundFits(int streams, std::size_t bytes) const {
  return streams >= 1 && streams <= 2 * limits_.maxPieces &&
         bytes * static_cast<std::size_t>(streams) <= limits_.maxBytes;
}

Status LinkBench::issueRound(int streams, std::size_t bytes, bool withKernels) {
  for (int i = 0; i < streams; ++i) {
    cudaStream_t stream = pool_.stream(i);
    const std::size_t offset = static_cast<std::size_t>(i) * bytes;
    OVERLAP_TRY(copy(TransferDirection::HostToDevice, offset, bytes, stream));
    if (withKernels)
      OVERLAP_TRY(launchEmpty(stream));
    OVERLAP_TRY(copy(TransferDirection::DeviceToHost, offset, bytes, stream));
  }
  return Status::success();
}

Status LinkBench::synchronizeStreams(int streams) {
  for (int i = 0; i < streams; ++i)
    OVERLAP_CUDA_TRY(cudaStreamSynchronize(pool_.stream(i)));
  return Status::success();
}

Status LinkBench::streamedRound(int streams, std::size_t bytesPerStream, double* seconds) {
  if (!roundFits(streams, bytesPerStream))
    return Status{cudaErrorInvalidValue, "LinkBench::streamed_round: beyond the limits", __FILE__,
                  __LINE__};
  const Clock::time_point begin = Clock::now();
  const Status issued = issueRound(streams, bytesPerStream, true);
  // Also after a failed call: what was issued must finish before the buffers are reused.
  OVERLAP_TRY(synchronizeStreams(streams));
  OVERLAP_TRY(issued);
  *seconds = secondsSince(begin);
  return Status::success();
}

Status LinkBench::copyCalls(int streams, std::size_t bytesPerCopy, double* secondsPerCall) {
  if (!roundFits(streams, bytesPerCopy))
    return Status{cudaErrorInvalidValue, "LinkBench::copy_calls: beyond the limits", __FILE__,
                  __LINE__};
  const Clock::time_point begin = Clock::now();
  const Status issued = issueRound(streams, bytesPerCopy, false);
  const double issueSeconds = secondsSince(begin);
  // Also after a failed call: what was issued must finish before the buffers are reused.
  OVERLAP_TRY(synchronizeStreams(streams));
  OVERLAP_TRY(issued);
  *secondsPerCall = issueSeconds / (2.0 * streams);
  return Status::success();
}

} // namespace overlap::calibration
