// What one call of an annotated kernel moves and computes, in the terms the performance models
// use: bytes per direction, how they split into chunks, and the kernel time t_E. CUDA-free; the
// tuner fills it from a generated descriptor (WorkloadFromDescriptor.h), the command-line tool
// from its options, the tests by hand.
#pragma once

#include "overlap/HardwareProfile.h"
#include "overlap/KernelTypes.h"

#include <cstddef>
#include <string>
#include <vector>

namespace overlap::model {

// The bytes of a call's arrays of one element width, each element counted once: how a Mapped
// kernel's link traffic splits over the widths the profile prices separately
// (HardwareProfile::mappedByWidth).
struct MappedBytesOfWidth {
  std::size_t elementBytes = 0;
  double readBytes = 0;       // inputs, chunked and broadcast
  double pureOutputBytes = 0; // copyout arrays: Hybrid writes these through mapped memory too
  double inoutOutputBytes = 0;
};

// In parts a reader can take one at a time. Built in one place per source: workloadFromDescriptor
// from a generated descriptor, parseModelCli from options, tests by hand. After that the tuner
// sets only what the call, not the kernel, decides: t_E once measured, and whether the arrays are
// pinned.
struct Workload {
  // The partitioned index.
  struct Partition {
    // P: the extent of the partitioned index. Stream counts are chosen among its divisors, and
    // no more chunks than P are ever made. 0 means unknown: only powers of two are proposed then.
    long long extent = 0;
    // G: chunk boundaries lie at multiples of it from the partition's origin, so no more than
    // ceil(P / G) chunks are made (overlap::chunkCount), and those are equal when a stream count
    // divides ceil(P / G).
    long long granule = 1;
  };

  // What the copying variants move over the link, and in how many copies.
  struct Transfers {
    // Input bytes of the chunked input sections over the whole range [0, P): what Explicit
    // copies to the device, and what the pipelined variants split into chunks.
    double h2dBytes = 0;
    // Input bytes independent of the chunk (whole arrays and broadcast sections, e.g. matrix B
    // of C = A·B): sent once, before the pipeline, and waited for by every chunk's kernel.
    double broadcastBytes = 0;
    // Extra input bytes that each boundary between two adjacent chunks adds when every chunk is
    // sent its full section (the halo of a stencil-like kernel).
    double haloBytesPerBoundary = 0;

    // Output bytes (copyout and copy arrays) over the whole range.
    double d2hBytes = 0;
    // The part of d2hBytes that belongs to copy (in-out) arrays. Hybrid maps only pure outputs;
    // in-out arrays are copied back as in Streams.
    double inoutD2hBytes = 0;

    // Bytes of the reduction arrays (each counted once; not part of the byte counts above):
    // device-resident in every variant, Mapped included, copied to the device once before the
    // first kernel and back once after the last (after every stream's kernels in Streams and
    // Hybrid). The modern model prices them; the papers' models, which know no such arrays,
    // leave them out.
    double reductionBytes = 0;
    // Whether the host can combine every reduction array's partial results of the devices of a
    // split call (HostReduction.h): if not, the runtime refuses to split the call.
    bool reductionsCombineOnHost = true;

    // Number of separate copies one chunk needs per direction (one per chunked section): each
    // copy pays the per-transfer gap g (or L+o after an idle engine).
    int h2dCopiesPerChunk = 1;
    int d2hCopiesPerChunk = 1;
    // Copies of the non-pipelined transfer (Explicit), broadcast sections and reduction arrays
    // included.
    int explicitH2dCopies = 1;
    int explicitD2hCopies = 1;

    // Whether the user's arrays are pinned (page-locked) already. Pageable arrays are copied at
    // the pageable G by Explicit and registered for the call's duration by the other variants
    // (runtime/include/overlap/HostArrayPinning.h), which costs about one pageable copy. A
    // property of the call, not of the kernel: the caller sets it.
    bool hostMemoryPinned = true;
  };

  // How a Mapped kernel's reads and writes of host memory cross the link.
  struct MappedTraffic {
    // Bytes that cross the link per input byte when the kernel reads host memory directly: 1
    // when each element is read once; more when neighbouring chunks share a halo or the kernel
    // re-reads its inputs (paper 001 §VI: "Bhd and Bdh become larger if elements in
    // device-mapped host memory are read or written multiple times").
    double readFactor = 1;
    // The same for broadcast inputs. The annotation does not say how often a kernel re-reads a
    // broadcast array, so 1 (the optimistic value, which never prunes Mapped wrongly) unless the
    // caller knows better.
    double broadcastReadFactor = 1;
    // Whether broadcastReadFactor is known. While it is not, a Mapped prediction with broadcast
    // inputs is only a lower bound (a matmul re-reads B once per row block: 86 % under on the
    // H200), so pruning keeps Mapped when it could win but never measures others against it.
    bool broadcastReadsKnown = false;

    // The narrowest element, in bytes, of the arrays a Mapped kernel reads or writes through the
    // link; 0: unknown. The profile's mapped G comes from warps that each request whole 128-byte
    // lines; a warp whose threads touch consecutive elements narrower than
    // kMappedFullLineElementBytes requests 32- or 64-byte pieces instead, which cost more per
    // byte than that G says (1-byte pixels: 2.5-4x the prediction on the H200).
    std::size_t narrowestElementBytes = 0;
    // The arrays' bytes per element width, widths ascending; empty: unknown, every mapped byte
    // is priced at the profile's full-line mapped G. They weight the per-width costs only; the
    // bytes that cross the link are still the transfers' h2dBytes, broadcastBytes and d2hBytes
    // with the read factors.
    std::vector<MappedBytesOfWidth> bytesByWidth;
  };

  // The kernel itself.
  struct Launch {
    // t_E: the kernel time over the whole range [0, P), measured from Explicit or given by the
    // user.
    double kernelSeconds = 0;
    // Launch geometry of the whole-range launch, for the penalty of chunks too small to fill the
    // GPU (paper 000 §2, §4.1). 0: unknown, no penalty.
    long long totalBlocks = 0;
    // Thread blocks one multiprocessor holds at once for this kernel (occupancy). 0: unknown,
    // taken as 1, so only chunks with fewer blocks than multiprocessors are penalised.
    int residentBlocksPerSm = 0;
  };

  // Whether the call fits the device (docs/generated-code.md, "Device memory"). A call whose
  // full-size buffers exceed the budget runs out of core: Explicit cannot run it; Streams and
  // Hybrid keep one ring slot per stream, each holding one chunk's sections at a time.
  struct DeviceMemory {
    // Bytes of device memory a call may take (OVERLAP_DEVICE_MEMORY_BUDGET); 0: unlimited, every
    // call fits (the default: no prediction changes unless a budget is given).
    double budgetBytes = 0;
    // The full-extent buffers of every array the copying variants keep on the device, each
    // padded to the runtime's 256-byte alignment (Explicit, Streams); 0: unknown, taken as fits.
    double fullBytes = 0;
    // The part of fullBytes that belongs to pure outputs, which Hybrid maps instead.
    double pureOutputFullBytes = 0;
    // Out of core, what stays resident at full extent: arrays without chunked sections (whole
    // and broadcast-only inputs, reduction arrays); the chunked ones get a window per slot.
    double residentBytes = 0;
    // Arrays with a broadcast section beside chunked ones (buoydiff's level 0 of t), which the
    // kernel addresses through one pointer: out of core the runtime pages them (PagedArrays.h),
    // their broadcast pages resident (in residentBytes) and each slot holding its chunk's part
    // rounded out to whole pages (kPagedArrayPadding per slot).
    int pagedArrays = 0;
  };

  Partition partition;
  Transfers transfers;
  MappedTraffic mapped;
  Launch launch;
  DeviceMemory deviceMemory;
};

struct Candidate; // PerformanceModel.h

// 128 bytes (one L2 line) over a warp's 32 threads: the narrowest element whose coalesced access
// still asks the link for whole lines, as the calibration's kernel does.
constexpr std::size_t kMappedFullLineElementBytes = 4;

// Whether the model's Mapped time for this workload is a lower bound only: broadcast inputs with
// unknown re-reads, or mapped arrays narrower than kMappedFullLineElementBytes (see above).
bool mappedPredictionIsLowerBound(const Workload& workload);
// The same on a given profile: narrow elements make Mapped a lower bound only when the profile
// cannot price them (no per-width costs, or a workload that does not say its widths).
bool mappedPredictionIsLowerBound(const Workload& workload, const HardwareProfile& profile);

// The number of chunks a pipelined variant makes with `streams` streams: one per stream, but
// never more than ceil(P / G) (the runtime never launches an empty chunk).
int chunkCount(const Workload& workload, int streams);

// How a Streams or Hybrid candidate cuts the call and where its arrays live, as the runtime's
// shapePipeline decides (templates/overlap/detail/Pipeline.cuh): the chunks asked for
// (askedChunks) up to ceil(P / G), full buffers when they fit the budget; out of core the ring,
// with the chunks asked for or, when the candidate asks for none, the fewest of C, 2C, 4C, ... (C
// one per stream) whose ring fits.
struct PipelineShape {
  int chunks = 0;  // 0: the candidate cannot run (out of core, its ring does not fit the budget)
  int streams = 0; // min(candidate streams, chunks): also the ring's slots
  bool ring = false;
};
PipelineShape pipelineShape(const Workload& workload, const Candidate& candidate);
// pipelineShape(...).chunks for Streams and Hybrid; 1 for Explicit and Mapped.
int chunkCount(const Workload& workload, const Candidate& candidate);

// The device memory a variant's full-size buffers take (Hybrid: without its mapped outputs).
double fullDeviceBytes(const Workload& workload, Variant variant);
// Whether those exceed the workload's budget: Explicit cannot run then, Streams and Hybrid run
// the ring. Never for Mapped, whose arrays stay in host memory.
bool runsOutOfCore(const Workload& workload, Variant variant);
// The device memory of the out-of-core ring of `slots` slots for `chunks` chunks: the resident
// arrays and one slot per stream holding the largest chunk's sections (halo included), padded.
double ringDeviceBytes(const Workload& workload, Variant variant, int slots, long long chunks);
// Whether the candidate can run within the budget: in core, or out of core on a ring that fits.
bool fitsDeviceMemory(const Workload& workload, const Candidate& candidate);
// What the papers describe: one chunk per stream in core, on one GPU. Their models predict nothing
// else.
bool oneChunkPerStreamInCore(const Workload& workload, const Candidate& candidate);
// Why a candidate cannot run (fitsDeviceMemory false), for the reports; empty when it can.
std::string deviceMemoryProblem(const Workload& workload, const Candidate& candidate);

// ceil(P / G): the most chunks the partition can be cut into; 0 when P is unknown.
long long granuleCount(const Workload& workload);

// Bytes of input the pipelined variants send in total with `chunks` chunks.
double pipelinedH2dBytes(const Workload& workload, long long chunks, bool haloSentTwice);

// An empty string when the workload is usable, otherwise what is wrong with it (negative sizes,
// a negative kernel time, inout bytes exceeding output bytes, copy counts below one...).
std::string validate(const Workload& workload);

} // namespace overlap::model
