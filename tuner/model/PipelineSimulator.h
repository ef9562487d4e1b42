// Plays a sequence of copies and kernels, issued to CUDA streams in a given order, on a model of
// the device's engines, and returns when each finishes. The modern model (ModernModel.h) builds
// the sequences of the variants; this file only knows engines, queues and the link.
//
// What it models, and why:
// - Engines: a kernel that fills the GPU runs alone on the compute engine. On devices with
//   concurrent kernels (compute capability 2.0+), a kernel holding only part of the resident
//   block slots (SimOp::gpuShare: a chunk with fewer blocks than a wave) starts beside the
//   running ones while they leave slots free; while the shares add up to more than one, every
//   running kernel progresses at 1/sum of its speed alone (the device's work per second is
//   shared). A chunk of a frame histogram launches 8 blocks on 132 multiprocessors, and 8 such
//   chunks take as long as one on an H200. With 2+ copy
//   engines each direction has its own, with 1 both share it (paper 001 §IV). A third copy
//   engine (H100) does not speed up one host link.
// - Queues: "within any engine all external dependencies are lost; tasks in each engine's queue
//   are executed in the order they are issued" (paper 003) on devices without Hyper-Q; this is
//   why depth-first issue serializes a one-copy-engine C1060. With Hyper-Q (compute capability
//   3.5+), each engine has `hardwareQueues` hardware queues (CUDA_DEVICE_MAX_CONNECTIONS, 8 by
//   default) and stream s puts its operations for that engine in queue s mod hardwareQueues: a
//   GPU channel feeds one engine, so a stream's kernels and its copies travel in different
//   queues. A queue hands its head operation to the engine once the operation's dependencies are
//   done, and the engine runs operations in the order they were handed over. More streams than
//   queues therefore create false dependencies only among operations of one engine, and they
//   cost time only when an operation behind the head would be ready before it. In a chunked
//   pipeline on a copy engine per direction, operations of one engine become ready in issue
//   order, so breadth-first issue over 64 streams keeps the pipeline (measured on an H200:
//   within 0.3 % of depth-first, docs/model.md); with one copy engine,
//   copies both ways share its queues and a depth-first copy in can wait behind an earlier
//   chunk's copy out (paper 001's Titan category).
// - Implicit synchronization (compute capability < 3.5 with concurrent kernels, paper 000 §3.1,
//   paper 001 §IV): a device-to-host copy waits until every kernel issued before it, in any
//   stream, has completed.
// - The link: LogGP per transfer (paper 001 §V): a transfer that starts on an idle engine pays
//   L+o, one that follows the previous transfer of its direction back to back pays g (the
//   bidirectional g while the other direction's copy engine is busy with a copy: on the H100 and
//   H200 the device-to-host gap more than doubles then, which pipelines of 32-64 chunks that
//   copy both ways pay per chunk); then its bytes flow at 1/G. While copies run in both directions
//   at once, each runs at its bidirectional G (paper 001 Table II, paper 002 §4.1.2), that of
//   large pieces for a copy whose pieces (SimOp::bytes / copies) are that large where the profile
//   has one (the H100's host-to-device link: 44-47 GB/s from 128 MiB up, 48-51 below); a copy
//   against mapped traffic the other way runs at the G measured for that (Table II
//   "explicit-mapped") while that traffic asks for all of its direction's link time, as the
//   calibration's traffic kernel does, and otherwise is slowed in proportion to the share it uses,
//   up to the (small pieces') bidirectional G's slowdown at a full share; mapped traffic against
//   copies the other way is slowed by its direction's small-piece bidirectional ratio, and
//   against only mapped traffic the other way by the ratio of the profile's mapped both-ways cost
//   to the one-way mapped cost of its direction (falling back to the bidirectional ratio where
//   that is not known). Flows of one direction share it.
// - Kernels reading or writing mapped host memory carry link flows of their own (Mapped reads
//   and writes, Hybrid writes) and finish when their compute time and their flows are done. The
//   threads move those bytes as they compute, so a flow never runs faster than its bytes over
//   its kernel's compute time (after the first byte's latency); the link time such a paced flow
//   leaves goes to the other flows of its direction.
// - The host issues the operations one call after another (SimOp::issuedAt); an operation is
//   ready no earlier than its call has returned.
// - Host copies (the staging ring of PageableMode::Stage, overlap/StagingRing.h): copies
//   between the user's pageable memory and a pinned slot, made by `hostCopyLanes` host threads
//   that take the lowest-numbered host copy whose events are done; each runs at one thread's
//   speed, and together they share the memory system's (the profile's parallel host copy G).
//   They belong to no stream and wait only through their events.
#pragma once

#include "overlap/HardwareProfile.h"

#include <vector>

namespace overlap::model {

enum class OpKind { CopyToDevice, Kernel, CopyToHost, HostCopy };

struct SimOp {
  OpKind kind = OpKind::Kernel;
  int stream = 0;

  // Copies: bytes of all `copies` separate transfers this operation stands for, from pinned
  // host memory or, when `pageable`, through the driver's staging buffers at the pageable G.
  // Host copies: the bytes one staging thread copies (`stream` is ignored).
  double bytes = 0;
  int copies = 1;
  bool pageable = false;

  // Kernels: compute time (launch overhead included), and bytes read from / written to mapped
  // host memory while it runs.
  double computeSeconds = 0;
  // The fraction of the device's resident thread-block slots the kernel occupies, in (0, 1]
  // (see Engines above). Values outside (0, 1] are taken as 1: a kernel that fills the GPU.
  double gpuShare = 1;
  double mappedReadBytes = 0;
  double mappedWriteBytes = 0;
  // What those bytes cost alone on the link, when the op's element widths price them differently
  // from the device's full-line mapped G (MappedWidthCost.h); 0: the device's.
  double mappedReadSecondsPerByte = 0;
  double mappedWriteSecondsPerByte = 0;

  // Indices of earlier operations (in the issue sequence) this one waits for through events,
  // besides the operations issued before it in its own stream.
  std::vector<int> waitsFor;

  // When the host's call issuing this operation returns: the device cannot see it earlier.
  // Issue calls cost host time, so a pipeline of many short chunks can be limited by the host
  // while the device waits for work.
  double issuedAt = 0;
};

// The device as the simulator sees it.
struct SimDevice {
  int copyEngines = 1;
  bool implicitSynchronization = false;
  bool hyperQ = true;
  int hardwareQueues = 8;
  // Kernels of different streams may run at once (compute capability 2.0+). Without it every
  // kernel runs alone, whatever its gpuShare (paper 000's GTX 280).
  bool concurrentKernels = true;

  // A pageable G of 0 falls back to the pinned G. simDeviceOf replaces an unknown
  // bidirectional G by G (dropping a large-piece G without it) and an unknown G with mapped
  // traffic by the bidirectional G.
  LinkDirection hostToDevice;
  LinkDirection deviceToHost;
  // G of kernels reading / writing mapped host memory, alone on the link.
  double mappedReadSecondsPerByte = 0;
  double mappedWriteSecondsPerByte = 0;
  // Per byte each way of mapped traffic while the other direction is as busy with mapped traffic
  // (HardwareProfile::mappedBothWaysSecondsPerByte), measured with 16-byte elements like the
  // two values above; 0: not known.
  double mappedBothWaysSecondsPerByte = 0;

  // Host copies: threads running them at once, one thread's G and all threads' G together.
  int hostCopyLanes = 1;
  double hostCopySecondsPerByte = 0;
  double hostCopyParallelSecondsPerByte = 0;
  // Host time each host copy's hand-over costs per lane idle when it is taken (the ring's idle
  // threads woken: HardwareProfile::hostCopyThreadPieceS); 0: none.
  double hostCopyHandOverS = 0;
};

// What a profile that did not measure the host copies is assumed to have: 10 GB/s on one thread
// (glibc's memcpy of large blocks on the Xeon and EPYC servers GPUs sit in runs at 8-12 GB/s) and
// 50 GB/s on any number, about a third of a two-socket DDR5 server's bandwidth (a copy reads and
// writes each byte, and the link's DMA reads it once more). Rough on purpose: overlap-calibrate
// measures both.
constexpr double kDefaultHostCopySecondsPerByte = 1e-10;
constexpr double kDefaultHostCopyParallelSecondsPerByte = 2e-11;

// Hyper-Q came with compute capability 3.5; a profile without a compute capability is taken to
// have it unless it has implicit synchronization.
bool hasHyperQ(const HardwareProfile& profile);
// Concurrent kernels came with compute capability 2.0 (Fermi); a profile without a compute
// capability is taken to have them.
bool hasConcurrentKernels(const HardwareProfile& profile);

// The device of a profile. Missing values fall back so that the model stays usable: a mapped G of
// 0 takes the copy G of its direction, a bidirectional G of 0 means no slowdown. The mapped
// both-ways cost is kept only when both one-way mapped costs are measured: it is used as a ratio
// to them, and a ratio to a copy G standing in for one would compare different kernels' traffic.
// Unknown host copy costs take the defaults above; the lanes are 1 (the caller sets them).
SimDevice simDeviceOf(const HardwareProfile& profile, int hardwareQueues);

struct OpTiming {
  double start = 0;
  double end = 0;
};

struct SimResult {
  double makespan = 0;           // when the last operation finishes (0 for no operations)
  std::vector<OpTiming> timings; // per operation, in issue order
  // The host copies' hand-overs (SimDevice::hostCopyHandOverS), not in the makespan: the ring's
  // lock is taken by whoever wakes, so the caller adds it to the call.
  double handOverSeconds = 0;
};

// `ops` in issue order. Throws std::invalid_argument for a wait on a later operation (the issue
// order could never satisfy it).
SimResult simulate(const std::vector<SimOp>& ops, const SimDevice& device);

} // namespace overlap::model
