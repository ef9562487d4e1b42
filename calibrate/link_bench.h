// The measurements of the calibration on one GPU: pinned buffers, streams and events allocated
// once, and one method per kind of timed operation. Each method times one run; repeating and
// fitting are the caller's business.
//
// Gating: with `gated`, a one-thread kernel holds the first stream until the host has issued
// every piece and set a flag in mapped memory; the timed interval then starts when the device
// is released. This measures the link as paper 001 §V models it (a single port, pieces back to
// back, g the gap the device needs between them) without the host's issue rate, which for 256
// pieces of 64 KiB is slower than the link itself. Ungated runs start the clock as soon as the
// first piece is issued and show what the issue rate adds.
#pragma once

#include "calibration_kernels.h"

#include "overlap/pinned_buffer.h"
#include "overlap/status.h"
#include "overlap/stream_event_pool.h"
#include "overlap/timing.h"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <functional>
#include <memory>

namespace overlap::calibration {

enum class TransferDirection : unsigned char { HostToDevice, DeviceToHost };

const char* direction_name(TransferDirection direction); // "host_to_device" / "device_to_host"

struct LinkBenchLimits {
  std::size_t max_bytes = 0;          // largest message, and largest mapped-kernel range
  std::size_t max_pageable_bytes = 0; // 0: no pageable buffer
  int max_pieces = 1;                 // pieces per direction (streams needed: twice that)
};

class LinkBench {
public:
  // Allocates on the current device.
  static Status create(const LinkBenchLimits& limits, std::unique_ptr<LinkBench>* bench);
  ~LinkBench(); // waits for the device before freeing
  LinkBench(const LinkBench&) = delete;
  LinkBench& operator=(const LinkBench&) = delete;

  bool can_map_host_memory() const { return mapped_blocks_ > 0; }

  // One message of `bytes` cut into `pieces` (overlap::chunk_bounds) on `pieces` streams.
  Status transfer(TransferDirection direction, std::size_t bytes, int pieces, bool gated,
                  double* seconds);
  // Both directions at once, the same `bytes` in `pieces` each, on streams of their own; each
  // direction's time runs from the common start to its own last piece (the one finishing later
  // runs alone at the end).
  Status bidirectional(std::size_t bytes, int pieces, bool gated, double* host_to_device_seconds,
                       double* device_to_host_seconds);
  // `bytes` in `pieces` in `direction` while the other direction copies `background_bytes` on
  // a stream of its own, both released together: the situation paper 001 Table II's
  // bidirectional G describes. The link was busy throughout only if `background_seconds` is at
  // least `seconds`; the caller decides what to do otherwise. Always gated.
  Status transfer_against_busy_link(TransferDirection direction, std::size_t bytes, int pieces,
                                    std::size_t background_bytes, double* seconds,
                                    double* background_seconds);
  // One copy from/to pageable host memory, host clock to completion.
  Status pageable_copy(TransferDirection direction, std::size_t bytes, double* seconds);
  // A copy while a kernel moves mapped host memory the other way, both released together; the
  // kernel passes over `kernel_bytes` again and again until the copy has finished.
  Status copy_against_mapped(TransferDirection direction, std::size_t copy_bytes,
                             std::size_t kernel_bytes, double* copy_seconds,
                             double* kernel_seconds);
  // A kernel reading (or writing) `bytes` of mapped host memory, timed with events.
  Status mapped_kernel(bool write, std::size_t bytes, double* seconds);
  // A kernel reading (or writing) `bytes` of mapped host memory in elements of `element_bytes`
  // (calibration_kernels.h, MappedWidthTraffic), timed with events.
  Status mapped_width_kernel(bool write, int element_bytes, std::size_t bytes, double* seconds);
  // A kernel reading `bytes` of mapped host memory and writing as many to another mapped buffer
  // in the same pass (calibration_kernels.h, MappedBothWaysTraffic), timed with events.
  Status mapped_both_ways_kernel(std::size_t bytes, double* seconds);
  // Host time per empty-kernel launch (paper 002 eq. 4.7) over a burst of `launches` launches on
  // one stream, the host clock stopped when the last call returns; the stream is synchronized
  // after the clock stops, so each burst starts with an idle device, as a pipeline's few dozen
  // calls do. (Thousands back to back could fill the launch queue and time the device instead;
  // on the H100 they measured the same, 4.31 / 4.07 us against bursts' 4.35 / 3.87 us.)
  Status launch_burst(int launches, double* seconds_per_launch);
  // Host time per launch followed by cudaStreamSynchronize (paper 002 eq. 4.1).
  Status launch_sync_overhead(int iterations, double* seconds_per_iteration);
  // Host time of one minimal streamed round: on each of `streams` streams a copy in of
  // `bytes_per_stream`, an empty kernel and a copy out, then every stream synchronized.
  Status streamed_round(int streams, std::size_t bytes_per_stream, double* seconds);
  // Host time per cudaMemcpyAsync call: on each of `streams` streams a copy in and a copy out of
  // `bytes_per_copy`, the host clock stopped when the last call returns (the synchronization
  // after it is not timed). A pipeline's host pays this per copy while the device works.
  Status copy_calls(int streams, std::size_t bytes_per_copy, double* seconds_per_call);

private:
  LinkBench() = default;

  Status begin(bool gated);
  Status finish(bool gated);
  void release_gate();
  void stop_traffic();
  Status issue_pieces(TransferDirection direction, std::size_t bytes, int pieces, int first_stream,
                      const Event& end);
  Status copy(TransferDirection direction, std::size_t offset, std::size_t bytes,
              cudaStream_t stream);
  // Whether a round of `streams` streams moving `bytes` each way per stream fits the buffers.
  bool round_fits(int streams, std::size_t bytes) const;
  // On each of the first `streams` streams a copy in of `bytes`, an empty kernel when
  // `with_kernels`, and a copy out; stops at the first call that fails.
  Status issue_round(int streams, std::size_t bytes, bool with_kernels);
  // Waits for the first `streams` streams.
  Status synchronize_streams(int streams);
  // One launch of a mapped-traffic kernel over `bytes`, timed with events on stream 0; bytes
  // beyond the buffers are refused with `beyond_buffers` (a literal) as the status's text.
  Status time_mapped_kernel(std::size_t bytes, const char* beyond_buffers,
                            const std::function<Status(cudaStream_t)>& launch, double* seconds);

  LinkBenchLimits limits_;
  PinnedBuffer host_in_;  // source of host-to-device copies, read by the mapped read kernel
  PinnedBuffer host_out_; // target of device-to-host copies, written by the mapped write kernel
  void* device_in_ = nullptr;
  void* device_out_ = nullptr;
  unsigned long long* sink_ = nullptr;
  std::unique_ptr<unsigned char[]> pageable_;
  PinnedBuffer gate_; // flags in mapped memory: open, timed out, stop (link_bench.cpp)
  int* gate_device_ = nullptr;
  void* host_in_mapped_ = nullptr;
  void* host_out_mapped_ = nullptr;
  int mapped_blocks_ = 0;
  StreamEventPool pool_;
  Event start_;
  Event end_first_;
  Event end_second_;
};

} // namespace overlap::calibration
