// The measurements of the calibration on one GPU: pinned buffers, streams and events allocated
// once, and one method per kind of timed operation. Each method times one run; repeating and
// fitting are the caller's business. First the kernels it launches (CalibrationKernels.cu): each
// launch first clears the runtime's record of an earlier, already reported error, so the status
// it returns is the launch's own.
//
// Gating: a one-thread kernel holds the first stream until the host has issued every piece and
// set a flag in mapped memory; the timed interval starts when the device is released. This
// measures the link as paper 001 §V models it (one port, pieces back to back, g the gap the device
// needs between them) without the host's issue rate, slower than the link for 256 pieces of 64 KiB.
#pragma once

#include "overlap/PinnedBuffer.h"
#include "overlap/StagingRing.h"
#include "overlap/Status.h"
#include "overlap/StreamEventPool.h"
#include "overlap/Timing.h"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>

namespace overlap::calibration {

// The gate: one thread spinning until the host sets *open non-zero; after `timeoutNs` it gives up
// and sets *timedOut, which the caller reports. Both point into mapped host memory.
Status launchGate(const int* open, int* timedOut, long long timeoutNs, cudaStream_t stream);

// Does nothing: what launch overhead is measured with (paper 002 §4.1.3).
Status launchEmpty(cudaStream_t stream);

enum class MappedAccess : unsigned char { Read, Write };

// One pass over `bytes` of mapped host memory, `mapped` its device pointer, in elements of
// `elementBytes` (1, 2, 4, 8 or 16; `bytes` a multiple of it) over `blocks` blocks of 256
// threads, thread i of the grid touching element i, then i + grid size, ...: a warp asks for 32
// consecutive elements at once, as `out[i] = f(in[i])` over uchar, short, float, double or
// float4 does. The traffic of the Mapped and Hybrid variants. Reads are folded into
// sink[blockIdx.x] (one per block) so they are not optimized away.
Status launchMappedTraffic(MappedAccess access, int elementBytes, void* mapped, std::size_t bytes,
                           unsigned long long* sink, int blocks, cudaStream_t stream);

enum class TransferDirection : unsigned char { HostToDevice, DeviceToHost };

const char* directionName(TransferDirection direction); // "host_to_device" / "device_to_host"

struct LinkBenchLimits {
  std::size_t maxBytes = 0;         // largest message, and largest mapped-kernel range
  std::size_t maxPageableBytes = 0; // 0: no pageable buffer
  int maxPieces = 1;                // pieces per direction (streams needed: twice that)
};

class LinkBench {
public:
  // Allocates on the current device.
  static Status create(const LinkBenchLimits& limits, std::unique_ptr<LinkBench>* bench);
  ~LinkBench(); // waits for the device before freeing
  LinkBench(const LinkBench&) = delete;
  LinkBench& operator=(const LinkBench&) = delete;

  // One message of `bytes` cut into `pieces` (overlap::chunkBounds) on `pieces` streams, gated.
  // With `backgroundBytes`, the other direction copies that much on a stream of its own,
  // released together (the situation of paper 001 Table II's bidirectional G), and its own time
  // from the same start goes to `backgroundSeconds`: the link was busy throughout only if that
  // is at least `seconds`; the caller decides what to do otherwise.
  Status transfer(TransferDirection direction, std::size_t bytes, int pieces, double* seconds,
                  std::size_t backgroundBytes = 0, double* backgroundSeconds = nullptr);
  // One copy from/to pageable host memory, host clock to completion.
  Status pageableCopy(TransferDirection direction, std::size_t bytes, double* seconds);
  // One pass of a kernel reading or writing `bytes` of mapped host memory in elements of
  // `elementBytes` (launchMappedTraffic), timed with events.
  Status mappedKernel(MappedAccess access, int elementBytes, std::size_t bytes, double* seconds);
  // Host time per empty-kernel launch (paper 002 eq. 4.7) over a burst of `launches` launches on
  // one stream, the host clock stopped when the last call returns; the stream is synchronized
  // after the clock stops, so each burst starts with an idle device, as a pipeline's few dozen
  // calls do (bench/README.md, "Calibration").
  Status launchBurst(int launches, double* secondsPerLaunch);
  // Host time per launch followed by cudaStreamSynchronize (paper 002 eq. 4.1).
  Status launchSyncOverhead(int iterations, double* secondsPerIteration);
  // Host time of one minimal streamed round: on each of `streams` streams a copy in of
  // `bytesPerStream`, an empty kernel and a copy out, then every stream synchronized.
  Status streamedRound(int streams, std::size_t bytesPerStream, double* seconds);
  // Host time per cudaMemcpyAsync call: on each of `streams` streams a copy in and a copy out of
  // `bytesPerCopy`, the host clock stopped when the last call returns (the synchronization
  // after it is not timed). A pipeline's host pays this per copy while the device works.
  Status copyCalls(int streams, std::size_t bytesPerCopy, double* secondsPerCall);
  // Host time per batch of `copies` copies in of `bytesPerCopy`, issued together as a pipeline
  // issues a chunk's sections (overlap::CopyBatch: one cudaMemcpyBatchAsync where the driver
  // takes it), one batch on each of `streams` streams, the clock stopped when the last returns.
  Status copyBatches(int streams, int copies, std::size_t bytesPerCopy, double* secondsPerBatch);
  // Host time per operation (copy or launch) of one cudaGraphLaunch of the round of `streams`
  // streams (copies of `bytesPerCopy` and empty kernels, forked from and joined to stream 0)
  // captured into a graph, which is captured on the first call and kept; the launch is waited for
  // after the clock stops.
  Status graphLaunch(int streams, std::size_t bytesPerCopy, double* secondsPerOperation);
  // Host time of one staged call of `bytes`, half from pageable memory to the device and half
  // back, in `copies` copies each way (a chunk's copy in, then its copy out, as a pipeline's) on
  // one stream, through the runtime's staging ring on `threads` threads (StagingRing.h), until
  // the last byte is back in pageable memory. Over thread counts, at a size a few threads copy
  // alone: what a call pays per thread of its ring and piece beyond its copies.
  Status stagedCall(std::size_t bytes, int copies, int threads, double* seconds);

private:
  LinkBench() = default;

  Status issue(TransferDirection direction, std::size_t bytes, int pieces,
               std::size_t backgroundBytes);
  Status finish(); // releases the gate, waits for the device, reports a gate that timed out
  void release();  // sets the gate's open flag, which the gate kernel polls
  // From/to the pinned buffers at `offset`, or `host` (+ offset) when given.
  Status copy(TransferDirection direction, std::size_t offset, std::size_t bytes,
              cudaStream_t stream, char* host = nullptr);
  // On each of the first `streams` streams a copy in of `bytes`, an empty kernel when
  // `withKernels`, and a copy out; the host's seconds to issue them; then every stream waited for.
  Status round(int streams, std::size_t bytes, bool withKernels, double* issueSeconds);
  // The round's issue alone (no clock, no synchronization); `fork` orders streams 1.. after 0
  // and 0 after them (events), as a captured pipeline is.
  Status issueRound(int streams, std::size_t bytes, bool withKernels, bool fork);

  LinkBenchLimits limits_;
  PinnedBuffer hostIn_;  // source of host-to-device copies, read by mapped read kernels
  PinnedBuffer hostOut_; // target of device-to-host copies, written by mapped write kernels
  void* deviceIn_ = nullptr;
  void* deviceOut_ = nullptr;
  unsigned long long* sink_ = nullptr;
  std::unique_ptr<char[]> pageable_;
  PinnedBuffer gate_; // flags in mapped memory: open, timed out (LinkBench.cpp)
  int* gateDevice_ = nullptr;
  void* hostInMapped_ = nullptr;
  void* hostOutMapped_ = nullptr;
  int mappedBlocks_ = 0;
  StreamEventPool pool_;
  std::unique_ptr<StagingResources> staging_; // stagedCall's ring, made on first use
  cudaGraphExec_t roundGraph_ = nullptr;      // graphLaunch's, of roundGraphStreams_ streams
  int roundGraphStreams_ = 0;
  Event start_;
  Event endFirst_;
  Event endSecond_;
};

} // namespace overlap::calibration
