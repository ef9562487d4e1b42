#include "link_bench.h"

#include "overlap/kernel_types.h"

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

double seconds_since(Clock::time_point begin) {
  return std::chrono::duration<double>(Clock::now() - begin).count();
}

// The words of the gate buffer: what the host sets to release the device, what a kernel sets
// when the host kept it waiting too long, and what stops endless mapped traffic.
constexpr int kOpen = 0;
constexpr int kTimedOut = 1;
constexpr int kStop = 2;

volatile int* gate_word(const PinnedBuffer& gate, int index) {
  return static_cast<volatile int*>(gate.as<int>() + index);
}

} // namespace

const char* direction_name(TransferDirection direction) {
  return direction == TransferDirection::HostToDevice ? "host_to_device" : "device_to_host";
}

Status LinkBench::create(const LinkBenchLimits& limits, std::unique_ptr<LinkBench>* bench) {
  std::unique_ptr<LinkBench> b(new LinkBench());
  b->limits_ = limits;
  const std::size_t bytes = limits.max_bytes > 0 ? limits.max_bytes : 1;
  OVERLAP_TRY(PinnedBuffer::allocate(bytes, &b->host_in_));
  OVERLAP_TRY(PinnedBuffer::allocate(bytes, &b->host_out_));
  // Touch every page with data that is not all zeros, as real inputs are.
  std::memset(b->host_in_.data(), 0x5a, bytes);
  std::memset(b->host_out_.data(), 0xa5, bytes);
  OVERLAP_CUDA_TRY(cudaMalloc(&b->device_in_, bytes));
  OVERLAP_CUDA_TRY(cudaMalloc(&b->device_out_, bytes));
  OVERLAP_CUDA_TRY(cudaMemset(b->device_out_, 0x3c, bytes));
  if (limits.max_pageable_bytes > 0) {
    b->pageable_.reset(new unsigned char[limits.max_pageable_bytes]);
    std::memset(b->pageable_.get(), 0x69, limits.max_pageable_bytes);
  }

  OVERLAP_TRY(PinnedBuffer::allocate(3 * sizeof(int), &b->gate_));
  *gate_word(b->gate_, kOpen) = 1;
  *gate_word(b->gate_, kTimedOut) = 0;
  *gate_word(b->gate_, kStop) = 1;
  int device = 0;
  OVERLAP_CUDA_TRY(cudaGetDevice(&device));
  int can_map = 0;
  OVERLAP_CUDA_TRY(cudaDeviceGetAttribute(&can_map, cudaDevAttrCanMapHostMemory, device));
  if (!can_map)
    return Status{cudaErrorNotSupported,
                  "cudaDevAttrCanMapHostMemory == 0: the gate and the "
                  "mapped measurements need mapped host memory",
                  __FILE__, __LINE__};
  OVERLAP_CUDA_TRY(
      cudaHostGetDevicePointer(reinterpret_cast<void**>(&b->gate_device_), b->gate_.data(), 0));
  OVERLAP_CUDA_TRY(cudaHostGetDevicePointer(&b->host_in_mapped_, b->host_in_.data(), 0));
  OVERLAP_CUDA_TRY(cudaHostGetDevicePointer(&b->host_out_mapped_, b->host_out_.data(), 0));
  int multiprocessors = 0;
  OVERLAP_CUDA_TRY(
      cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
  // Enough loads in flight to cover PCIe latency: 8 blocks of 256 threads per multiprocessor.
  b->mapped_blocks_ = 8 * multiprocessors;
  OVERLAP_CUDA_TRY(cudaMalloc(reinterpret_cast<void**>(&b->sink_),
                              sizeof(unsigned long long) * b->mapped_blocks_));

  const int streams = 2 * (limits.max_pieces > 1 ? limits.max_pieces : 1);
  OVERLAP_TRY(b->pool_.reserve_streams(streams));
  OVERLAP_TRY(b->pool_.reserve_events(streams));
  OVERLAP_TRY(Event::create(&b->start_));
  OVERLAP_TRY(Event::create(&b->end_first_));
  OVERLAP_TRY(Event::create(&b->end_second_));
  *bench = std::move(b);
  return Status::success();
}

LinkBench::~LinkBench() {
  release_gate();
  stop_traffic();
  // Nothing may still copy into memory about to be freed; failures cannot be reported here.
  cudaDeviceSynchronize();
  cudaFree(device_in_);
  cudaFree(device_out_);
  cudaFree(sink_);
}

void LinkBench::release_gate() {
  if (gate_.data()) {
    std::atomic_thread_fence(std::memory_order_seq_cst);
    *gate_word(gate_, kOpen) = 1;
  }
}

void LinkBench::stop_traffic() {
  if (gate_.data()) {
    std::atomic_thread_fence(std::memory_order_seq_cst);
    *gate_word(gate_, kStop) = 1;
  }
}

Status LinkBench::begin(bool gated) {
  cudaStream_t first = pool_.stream(0);
  if (gated) {
    *gate_word(gate_, kTimedOut) = 0;
    *gate_word(gate_, kOpen) = 0;
    *gate_word(gate_, kStop) = 0;
    std::atomic_thread_fence(std::memory_order_seq_cst);
    OVERLAP_TRY(launch_gate(gate_device_ + kOpen, gate_device_ + kTimedOut, kGateTimeoutNs, first));
  }
  const cudaError_t recorded = cudaEventRecord(start_.get(), first);
  if (recorded != cudaSuccess) {
    release_gate(); // the caller returns at once: the gate must not wait out its timeout
    return OVERLAP_STATUS_OF(cudaEventRecord(start_.get(), first), recorded);
  }
  return Status::success();
}

Status LinkBench::finish(bool gated) {
  release_gate();
  stop_traffic();
  OVERLAP_CUDA_TRY(cudaDeviceSynchronize());
  if (gated && *gate_word(gate_, kTimedOut) != 0)
    return Status{cudaErrorTimeout,
                  "gate_kernel or mapped_traffic_kernel: the host did not release the device "
                  "within 10 s",
                  __FILE__, __LINE__};
  return Status::success();
}

Status LinkBench::copy(TransferDirection direction, std::size_t offset, std::size_t bytes,
                       cudaStream_t stream) {
  if (direction == TransferDirection::HostToDevice)
    OVERLAP_CUDA_TRY(cudaMemcpyAsync(static_cast<char*>(device_in_) + offset,
                                     host_in_.as<char>() + offset, bytes, cudaMemcpyHostToDevice,
                                     stream));
  else
    OVERLAP_CUDA_TRY(cudaMemcpyAsync(host_out_.as<char>() + offset,
                                     static_cast<char*>(device_out_) + offset, bytes,
                                     cudaMemcpyDeviceToHost, stream));
  return Status::success();
}

Status LinkBench::issue_pieces(TransferDirection direction, std::size_t bytes, int pieces,
                               int first_stream, const Event& end) {
  cudaStream_t lead = pool_.stream(first_stream);
  for (int i = 0; i < pieces; ++i) {
    const int index = first_stream + i;
    cudaStream_t stream = pool_.stream(index);
    long long lo = 0;
    long long hi = 0;
    chunk_bounds(static_cast<long long>(bytes), pieces, i, lo, hi);
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
  if (bytes > limits_.max_bytes || pieces < 1 || pieces > limits_.max_pieces)
    return Status{cudaErrorInvalidValue, "LinkBench::transfer: size or pieces beyond the limits",
                  __FILE__, __LINE__};
  OVERLAP_TRY(begin(gated));
  Status issued = issue_pieces(direction, bytes, pieces, 0, end_first_);
  Status finished = finish(gated);
  OVERLAP_TRY(issued);
  OVERLAP_TRY(finished);
  return elapsed_seconds(start_, end_first_, seconds);
}

Status LinkBench::bidirectional(std::size_t bytes, int pieces, bool gated,
                                double* host_to_device_seconds, double* device_to_host_seconds) {
  if (bytes > limits_.max_bytes || pieces < 1 || pieces > limits_.max_pieces)
    return Status{cudaErrorInvalidValue,
                  "LinkBench::bidirectional: size or pieces beyond the limits", __FILE__, __LINE__};
  OVERLAP_TRY(begin(gated));
  Status issued = issue_pieces(TransferDirection::HostToDevice, bytes, pieces, 0, end_first_);
  keep_first(issued,
             issue_pieces(TransferDirection::DeviceToHost, bytes, pieces, pieces, end_second_));
  Status finished = finish(gated);
  OVERLAP_TRY(issued);
  OVERLAP_TRY(finished);
  OVERLAP_TRY(elapsed_seconds(start_, end_first_, host_to_device_seconds));
  return elapsed_seconds(start_, end_second_, device_to_host_seconds);
}

Status LinkBench::transfer_against_busy_link(TransferDirection direction, std::size_t bytes,
                                             int pieces, std::size_t background_bytes,
                                             double* seconds, double* background_seconds) {
  if (bytes > limits_.max_bytes || pieces < 1 || pieces > limits_.max_pieces)
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
    for (std::size_t issued = 0; issued < background_bytes;) {
      const std::size_t chunk = std::min(background_bytes - issued, limits_.max_bytes);
      OVERLAP_TRY(copy(other, 0, chunk, background));
      issued += chunk;
    }
    OVERLAP_CUDA_TRY(cudaEventRecord(end_second_.get(), background));
    return issue_pieces(direction, bytes, pieces, 0, end_first_);
  };
  Status status = issue();
  keep_first(status, finish(true));
  OVERLAP_TRY(status);
  OVERLAP_TRY(elapsed_seconds(start_, end_first_, seconds));
  return elapsed_seconds(start_, end_second_, background_seconds);
}

Status LinkBench::pageable_copy(TransferDirection direction, std::size_t bytes, double* seconds) {
  if (bytes > limits_.max_pageable_bytes || !pageable_)
    return Status{cudaErrorInvalidValue, "LinkBench::pageable_copy: beyond the pageable buffer",
                  __FILE__, __LINE__};
  cudaStream_t stream = pool_.stream(0);
  const Clock::time_point begin = Clock::now();
  if (direction == TransferDirection::HostToDevice)
    OVERLAP_CUDA_TRY(
        cudaMemcpyAsync(device_in_, pageable_.get(), bytes, cudaMemcpyHostToDevice, stream));
  else
    OVERLAP_CUDA_TRY(
        cudaMemcpyAsync(pageable_.get(), device_out_, bytes, cudaMemcpyDeviceToHost, stream));
  OVERLAP_CUDA_TRY(cudaStreamSynchronize(stream));
  *seconds = seconds_since(begin);
  return Status::success();
}

Status LinkBench::copy_against_mapped(TransferDirection direction, std::size_t copy_bytes,
                                      std::size_t kernel_bytes, double* copy_seconds,
                                      double* kernel_seconds) {
  if (copy_bytes > limits_.max_bytes || kernel_bytes > limits_.max_bytes)
    return Status{cudaErrorInvalidValue, "LinkBench::copy_against_mapped: beyond the buffers",
                  __FILE__, __LINE__};
  OVERLAP_TRY(begin(true));
  cudaStream_t copy_stream = pool_.stream(0);
  cudaStream_t kernel_stream = pool_.stream(1);
  // The kernel's traffic runs against the copy (a copy in meets mapped writes to the host, a
  // copy out mapped reads) and goes on until the copy has finished, however the two share the
  // link.
  MappedTraffic traffic;
  traffic.access =
      direction == TransferDirection::HostToDevice ? MappedAccess::Write : MappedAccess::Read;
  traffic.mapped =
      direction == TransferDirection::HostToDevice ? host_out_mapped_ : host_in_mapped_;
  traffic.bytes = kernel_bytes;
  traffic.sink = sink_;
  traffic.blocks = mapped_blocks_;
  traffic.stop = gate_device_ + kStop;
  traffic.timed_out = gate_device_ + kTimedOut;
  traffic.timeout_ns = kGateTimeoutNs;
  auto issue = [&]() -> Status {
    OVERLAP_CUDA_TRY(cudaStreamWaitEvent(kernel_stream, start_.get(), 0));
    OVERLAP_TRY(launch_mapped_traffic(traffic, kernel_stream));
    OVERLAP_CUDA_TRY(cudaEventRecord(end_second_.get(), kernel_stream));
    OVERLAP_TRY(copy(direction, 0, copy_bytes, copy_stream));
    OVERLAP_CUDA_TRY(cudaEventRecord(end_first_.get(), copy_stream));
    return Status::success();
  };
  Status status = issue();
  if (status.ok()) {
    release_gate();
    // The traffic stops only once the copy is over.
    const cudaError_t copied = cudaEventSynchronize(end_first_.get());
    if (copied != cudaSuccess)
      status = OVERLAP_STATUS_OF(cudaEventSynchronize(end_first_.get()), copied);
  }
  keep_first(status, finish(true));
  OVERLAP_TRY(status);
  OVERLAP_TRY(elapsed_seconds(start_, end_first_, copy_seconds));
  return elapsed_seconds(start_, end_second_, kernel_seconds);
}

Status LinkBench::time_mapped_kernel(std::size_t bytes, const char* beyond_buffers,
                                     const std::function<Status(cudaStream_t)>& launch,
                                     double* seconds) {
  if (bytes > limits_.max_bytes)
    return Status{cudaErrorInvalidValue, beyond_buffers, __FILE__, __LINE__};
  cudaStream_t stream = pool_.stream(0);
  OVERLAP_CUDA_TRY(cudaEventRecord(start_.get(), stream));
  OVERLAP_TRY(launch(stream));
  OVERLAP_CUDA_TRY(cudaEventRecord(end_first_.get(), stream));
  OVERLAP_CUDA_TRY(cudaEventSynchronize(end_first_.get()));
  return elapsed_seconds(start_, end_first_, seconds);
}

Status LinkBench::mapped_kernel(bool write, std::size_t bytes, double* seconds) {
  MappedTraffic traffic;
  traffic.access = write ? MappedAccess::Write : MappedAccess::Read;
  traffic.mapped = write ? host_out_mapped_ : host_in_mapped_;
  traffic.bytes = bytes;
  traffic.sink = sink_;
  traffic.blocks = mapped_blocks_;
  return time_mapped_kernel(
      bytes, "LinkBench::mapped_kernel: beyond the buffers",
      [&](cudaStream_t stream) { return launch_mapped_traffic(traffic, stream); }, seconds);
}

Status LinkBench::mapped_width_kernel(bool write, int element_bytes, std::size_t bytes,
                                      double* seconds) {
  MappedWidthTraffic traffic;
  traffic.access = write ? MappedAccess::Write : MappedAccess::Read;
  traffic.element_bytes = element_bytes;
  traffic.mapped = write ? host_out_mapped_ : host_in_mapped_;
  traffic.bytes = bytes;
  traffic.sink = sink_;
  traffic.blocks = mapped_blocks_;
  return time_mapped_kernel(
      bytes, "LinkBench::mapped_width_kernel: beyond the buffers",
      [&](cudaStream_t stream) { return launch_mapped_width_traffic(traffic, stream); }, seconds);
}

Status LinkBench::mapped_both_ways_kernel(std::size_t bytes, double* seconds) {
  MappedBothWaysTraffic traffic;
  // The two buffers of the copies: each max_bytes long, distinct, and mapped in create().
  traffic.in = host_in_mapped_;
  traffic.out = host_out_mapped_;
  traffic.bytes = bytes;
  traffic.blocks = mapped_blocks_;
  return time_mapped_kernel(
      bytes, "LinkBench::mapped_both_ways_kernel: beyond the buffers",
      [&](cudaStream_t stream) { return launch_mapped_both_ways(traffic, stream); }, seconds);
}

Status LinkBench::launch_burst(int launches, double* seconds_per_launch) {
  if (launches < 1)
    return Status{cudaErrorInvalidValue, "LinkBench::launch_burst: no launches", __FILE__,
                  __LINE__};
  cudaStream_t stream = pool_.stream(0);
  Status issued = Status::success();
  const Clock::time_point begin = Clock::now();
  for (int i = 0; i < launches && issued.ok(); ++i)
    issued = launch_empty(stream);
  const double issue_seconds = seconds_since(begin);
  // Also after a failed launch: the next burst must start with an idle device.
  OVERLAP_CUDA_TRY(cudaStreamSynchronize(stream));
  OVERLAP_TRY(issued);
  *seconds_per_launch = issue_seconds / launches;
  return Status::success();
}

Status LinkBench::launch_sync_overhead(int iterations, double* seconds_per_iteration) {
  cudaStream_t stream = pool_.stream(0);
  const Clock::time_point begin = Clock::now();
  for (int i = 0; i < iterations; ++i) {
    OVERLAP_TRY(launch_empty(stream));
    OVERLAP_CUDA_TRY(cudaStreamSynchronize(stream));
  }
  *seconds_per_iteration = seconds_since(begin) / iterations;
  return Status::success();
}

bool LinkBench::round_fits(int streams, std::size_t bytes) const {
  return streams >= 1 && streams <= 2 * limits_.max_pieces &&
         bytes * static_cast<std::size_t>(streams) <= limits_.max_bytes;
}

Status LinkBench::issue_round(int streams, std::size_t bytes, bool with_kernels) {
  for (int i = 0; i < streams; ++i) {
    cudaStream_t stream = pool_.stream(i);
    const std::size_t offset = static_cast<std::size_t>(i) * bytes;
    OVERLAP_TRY(copy(TransferDirection::HostToDevice, offset, bytes, stream));
    if (with_kernels)
      OVERLAP_TRY(launch_empty(stream));
    OVERLAP_TRY(copy(TransferDirection::DeviceToHost, offset, bytes, stream));
  }
  return Status::success();
}

Status LinkBench::synchronize_streams(int streams) {
  for (int i = 0; i < streams; ++i)
    OVERLAP_CUDA_TRY(cudaStreamSynchronize(pool_.stream(i)));
  return Status::success();
}

Status LinkBench::streamed_round(int streams, std::size_t bytes_per_stream, double* seconds) {
  if (!round_fits(streams, bytes_per_stream))
    return Status{cudaErrorInvalidValue, "LinkBench::streamed_round: beyond the limits", __FILE__,
                  __LINE__};
  const Clock::time_point begin = Clock::now();
  const Status issued = issue_round(streams, bytes_per_stream, true);
  // Also after a failed call: what was issued must finish before the buffers are reused.
  OVERLAP_TRY(synchronize_streams(streams));
  OVERLAP_TRY(issued);
  *seconds = seconds_since(begin);
  return Status::success();
}

Status LinkBench::copy_calls(int streams, std::size_t bytes_per_copy, double* seconds_per_call) {
  if (!round_fits(streams, bytes_per_copy))
    return Status{cudaErrorInvalidValue, "LinkBench::copy_calls: beyond the limits", __FILE__,
                  __LINE__};
  const Clock::time_point begin = Clock::now();
  const Status issued = issue_round(streams, bytes_per_copy, false);
  const double issue_seconds = seconds_since(begin);
  // Also after a failed call: what was issued must finish before the buffers are reused.
  OVERLAP_TRY(synchronize_streams(streams));
  OVERLAP_TRY(issued);
  *seconds_per_call = issue_seconds / (2.0 * streams);
  return Status::success();
}

} // namespace overlap::calibration
