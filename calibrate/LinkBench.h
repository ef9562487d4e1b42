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

#include "CalibrationKernels.h"

#include "overlap/PinnedBuffer.h"
#include "overlap/Status.h"
#include "overlap/StreamEventPool.h"
#include "overlap/Timing.h"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <functional>
#include <memory>

namespace overlap::calibration {

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

  bool canMapHostMemory() const { return mappedBlocks_ > 0; }

  // One message of `bytes` cut into `pieces` (overlap::chunkBounds) on `pieces` streams.
  Status transfer(TransferDirection direction, std::size_t bytes, int pieces, bool gated,
                  double* seconds);
  // Both directions at once, the same `bytes` in `pieces` each, on streams of their own; each
  // direction's time runs from the common start to its own last piece (the one finishing later
  // runs alone at the end).
  Status bidirectional(std::size_t bytes, int pieces, bool gated, double* hostToDeviceSeconds,
                       double* deviceToHostSeconds);
  // `bytes` in `pieces` in `direction` while the other direction copies `backgroundBytes` on
  // a stream of its own, both released together: the situation paper 001 Table II's
  // bidirectional G describes. The link was busy throughout only if `backgroundSeconds` is at
  // least `seconds`; the caller decides what to do otherwise. Always gated.
  Status transferAgainstBusyLink(TransferDirection direction, std::size_t bytes, int pieces,
                                 std::size_t backgroundBytes, double* seconds,
                                 double* backgroundSeconds);
  // One copy from/to pageable host memory, host clock to completion.
  Status pageableCopy(TransferDirection direction, std::size_t bytes, double* seconds);
  // A copy while a kernel moves mapped host memory the other way, both released together; the
  // kernel passes over `kernelBytes` again and again until the copy has finished.
  Status copyAgainstMapped(TransferDirection direction, std::size_t copyBytes,
                           std::size_t kernelBytes, double* copySeconds, double* kernelSeconds);
  // A kernel reading (or writing) `bytes` of mapped host memory, timed with events.
  Status mappedKernel(bool write, std::size_t bytes, double* seconds);
  // A kernel reading (or writing) `bytes` of mapped host memory in elements of `element_bytes`
  // (CalibrationKernels.h, MappedWidthTraffic), timed with events.
  Status mappedWidthKernel(bool write, int elementBytes, std::size_t bytes, double* seconds);
  // A kernel reading `bytes` of mapped host memory and writing as many to another mapped buffer
  // in the same pass (CalibrationKernels.h, MappedBothWaysTraffic), timed with events.
  Status mappedBothWaysKernel(std::size_t bytes, double* seconds);
  // Host time per empty-kernel launch (paper 002 eq. 4.7) over a burst of `launches` launches on
  // one stream, the host clock stopped when the last call returns; the stream is synchronized
  // after the clock stops, so each burst starts with an idle device, as a pipeline's few dozen
  // calls do. (Thousands back to back could fill the launch queue and time the device instead;
  // on the H100 they measured the same, 4.31 / 4.07 us against bursts' 4.35 / 3.87 us.)
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

private:
  LinkBench() = default;

  Status begin(bool gated);
  Status finish(bool gated);
  void releaseGate();
  void stopTraffic();
  Status issuePieces(TransferDirection direction, std::size_t bytes, int pieces, int firstStream,
                     const Event& end);
  Status copy(TransferDirection direction, std::size_t offset, std::size_t bytes,
              cudaStream_t stream);
  // Whether a round of `streams` streams moving `bytes` each way per stream fits the buffers.
  bool roundFits(int streams, std::size_t bytes) const;
  // On each of the first `streams` streams a copy in of `bytes`, an empty kernel when
  // `withKernels`, and a copy out; stops at the first call that fails.
  Status issueRound(int streams, std::size_t bytes, bool withKernels);
  // Waits for the first `streams` streams.
  Status synchronizeStreams(int streams);
  // One launch of a mapped-traffic kernel over `bytes`, timed with events on stream 0; bytes
  // beyond the buffers are refused with `beyondBuffers` (a literal) as the status's text.
  Status timeMappedKernel(std::size_t bytes, const char* beyondBuffers,
                          const std::function<Status(cudaStream_t)>& launch, double* seconds);

  LinkBenchLimits limits_;
  PinnedBuffer hostIn_;  // source of host-to-device copies, read by the mapped read kernel
  PinnedBuffer hostOut_; // target of device-to-host copies, written by the mapped write kernel
  void* deviceIn_ = nullptr;
  void* deviceOut_ = nullptr;
  unsigned long long* sink_ = nullptr;
  std::unique_ptr<unsigned char[]> pageable_;
  PinnedBuffer gate_; // flags in mapped memory: open, timed out, stop (LinkBench.cpp)
  int* gateDevice_ = nullptr;
  void* hostInMapped_ = nullptr;
  void* hostOutMapped_ = nullptr;
  int mappedBlocks_ = 0;
  StreamEventPool pool_;
  Event start_;
  Event endFirst_;
  Event endSecond_;
};

} // namespace overlap::calibration
