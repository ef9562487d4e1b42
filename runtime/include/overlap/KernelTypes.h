// Plain descriptions of an annotated kernel's arrays and of how one call is chunked. No CUDA
// dependency: the model and the tuner's planning code use these too.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace overlap {

// T itself: generated code writes a type whose declarator wraps the name (a pointer to an array,
// `const float (*)[4]`) as Spelled<...> before a name or a `*`.
template <class T> using Spelled = T;

enum class Direction : unsigned char { In, Out, InOut };

inline bool reads(Direction d) {
  return d != Direction::Out;
}
inline bool writes(Direction d) {
  return d != Direction::In;
}

// Element type of an array, for filling it with random data and for comparing results. An
// element may hold several lanes of one kind (float4, int2, __half2, struct {float x, y, z;}):
// `kind` is then the lane's kind and the element size a multiple of its size (laneCount).
enum class ElementKind : unsigned char {
  F32,
  F64,
  I8,
  U8,
  I16,
  U16,
  I32,
  U32,
  I64,
  U64,
  F16,  // IEEE binary16 (__half)
  BF16, // bfloat16 (__nv_bfloat16)
  Other // structs and other types: compared byte by byte
};

// Bytes of one value of `kind`; 0 for Other.
inline std::size_t elementKindSize(ElementKind kind) {
  switch (kind) {
  case ElementKind::I8:
  case ElementKind::U8:
    return 1;
  case ElementKind::I16:
  case ElementKind::U16:
  case ElementKind::F16:
  case ElementKind::BF16:
    return 2;
  case ElementKind::F32:
  case ElementKind::I32:
  case ElementKind::U32:
    return 4;
  case ElementKind::F64:
  case ElementKind::I64:
  case ElementKind::U64:
    return 8;
  case ElementKind::Other:
    break;
  }
  return 0;
}

inline bool isFloating(ElementKind kind) {
  return kind == ElementKind::F32 || kind == ElementKind::F64 || kind == ElementKind::F16 ||
         kind == ElementKind::BF16;
}

inline bool isInteger(ElementKind kind) {
  return kind != ElementKind::Other && !isFloating(kind);
}

// Lanes of `kind` in an element of `elementSize` bytes; 0 when the element is not made of them
// (Other, or a size that is no multiple of the kind's): such elements are handled as bytes.
inline std::size_t laneCount(ElementKind kind, std::size_t elementSize) {
  const std::size_t lane = elementKindSize(kind);
  if (lane == 0 || elementSize == 0 || elementSize % lane != 0)
    return 0;
  return elementSize / lane;
}

// How the chunks' kernels combine their contributions to a reduction array (annotation
// reduce(...)): device-resident in every variant, copied in once before the first launch and
// out once after the last, updated in place (atomically) by every chunk's kernel.
enum class ReduceOp : unsigned char { None, Sum, Product, Min, Max, BitAnd, BitOr, BitXor };

// Half-open element range [begin, end) of one array.
struct Section {
  long long begin = 0;
  long long end = 0;
  long long size() const { return end > begin ? end - begin : 0; }
  bool empty() const { return end <= begin; }
};

// Clips a section to the array's extent [0, extent): halos at the ends of the partition reach
// outside the array and are cut off, as the annotation language documents.
inline Section clip(Section s, long long extent) {
  if (s.begin < 0)
    s.begin = 0;
  if (s.end > extent)
    s.end = extent;
  if (s.end < s.begin)
    s.end = s.begin;
  return s;
}

enum class Variant : unsigned char { Explicit, Mapped, Streams, Hybrid };

// The two issue orders of NVIDIA's "How to overlap data transfers" post (paper 003).
enum class IssueOrder : unsigned char {
  DepthFirst,  // per chunk: copy in, kernel, copy out
  BreadthFirst // all copies in, then all kernels, then all copies out
};

// What a call does with the user's pageable arrays (not page-locked: new, malloc, std::vector).
// Pinned, device and managed memory is used as it is whatever the mode. docs/generated-code.md,
// "Host memory", says what each costs.
enum class PageableMode : unsigned char {
  // The process's choice: CachedRegister where OVERLAP_PIN_CACHE turns the registration cache on
  // for every call, else Register (overlap/PinCache.h).
  Default,
  // cudaHostRegister for the call, unregistered after it: about one pageable copy per call.
  Register,
  // Registered once and kept in the process's registration cache, so that later calls on the same
  // pages pay nothing; the user unpins a buffer before freeing it (overlap/PinCache.h).
  // Register where OVERLAP_PIN_CACHE=off.
  CachedRegister,
  // Streams and Hybrid: copied through a ring of pinned staging buffers by host threads, which
  // overlap with the link (overlap/StagingRing.h); nothing is registered but Hybrid's mapped
  // outputs (as Default). Mapped, which copies nothing, registers as Default.
  Stage
};

inline const char* to_string(PageableMode mode) {
  switch (mode) {
  case PageableMode::Default:
    return "default";
  case PageableMode::Register:
    return "registered per call";
  case PageableMode::CachedRegister:
    return "cached registration";
  case PageableMode::Stage:
    return "staged";
  }
  return "?";
}

// The staging ring of PageableMode::Stage; 0 is "automatic" (resolvedStaging()).
struct StagingConfig {
  int threads = 0;           // host threads copying between user memory and the ring
  std::size_t slotBytes = 0; // one slot of the ring: the piece one copy moves
  int slots = 0;             // slots of the ring
};

// Where a streamed call keeps its arrays on the device (docs/generated-code.md, "Device memory").
enum class DeviceBuffers : unsigned char {
  // Full buffers when they fit the call's device-memory budget, else the ring.
  Auto,
  // A buffer of each array's full extent (element e at offset e): what a call that fits takes.
  Full,
  // Out of core: one slot per stream holding one chunk's sections of every chunked array at a
  // time, reused by the stream's next chunk; whole and broadcast arrays stay resident.
  Ring
};

inline const char* to_string(DeviceBuffers buffers) {
  switch (buffers) {
  case DeviceBuffers::Auto:
    return "auto";
  case DeviceBuffers::Full:
    return "full";
  case DeviceBuffers::Ring:
    return "ring";
  }
  return "?";
}

// Members are only ever appended, so that aggregate initialisers such as {streams, order} keep
// their meaning.
struct StreamsConfig {
  int streams = 4;
  IssueOrder order = IssueOrder::DepthFirst;
  PageableMode pageable = PageableMode::Default;
  StagingConfig staging = {};
  // Chunks the partition is cut into, chunk c on stream c % streams; never more than ceil(P / G).
  // 0: one per stream, or, out of core, as many as the budget needs.
  int chunks = 0;
  DeviceBuffers buffers = DeviceBuffers::Auto;
  // Bytes of device memory the call may take; 0: the process's budget (DeviceMemoryBudget.h).
  std::size_t deviceMemoryBudget = 0;
  // GPUs the partition is split across (detail/MultiDevice.cuh): 1, the current device; G > 1, the
  // first G of the selected devices; 0, all of them. Selected: those of deviceMask (bit d: device
  // d), else OVERLAP_DEVICES's list (0,1), else every visible device (DeviceSplit.h).
  int devices = 1;
  std::uint64_t deviceMask = 0;
  // Streams and Hybrid: replay the pipeline as a CUDA graph captured from an earlier call of the
  // same shape (GraphCache.h), the Graph-Streams and Graph-Hybrid variants.
  bool graph = false;
};

inline const char* to_string(Variant variant) {
  switch (variant) {
  case Variant::Explicit:
    return "Explicit";
  case Variant::Mapped:
    return "Mapped";
  case Variant::Streams:
    return "Streams";
  case Variant::Hybrid:
    return "Hybrid";
  }
  return "?";
}

inline const char* to_string(IssueOrder order) {
  return order == IssueOrder::DepthFirst ? "depth-first" : "breadth-first";
}

// " on 2 GPUs", " on all GPUs", or nothing for a call on the current device.
inline std::string describeDevices(const StreamsConfig& config) {
  if (config.devices == 1)
    return std::string();
  return " on " + (config.devices == 0 ? std::string("all") : std::to_string(config.devices)) +
         " GPUs";
}

// A variant as reports, reasons and logs name it: "Explicit", "Mapped", "Mapped(registered per
// call)", "Streams(16, depth-first)", "Hybrid(4, breadth-first, staged)", "Hybrid(8, depth-first,
// staged, 4 staging threads)", "Streams(4, 64 chunks, depth-first, ring)", "Graph-Streams(4,
// depth-first)". The chunks only where they are not one per
// stream, the pageable mode only where it is not the default (Explicit registers nothing; Stage is
// Default for Mapped, which copies nothing), so that the names that always were stay as they were.
inline std::string describe(Variant variant, const StreamsConfig& config) {
  const std::string mode = to_string(config.pageable);
  switch (variant) {
  case Variant::Explicit:
    return to_string(variant) + describeDevices(config);
  case Variant::Mapped:
    return (config.pageable == PageableMode::Default || config.pageable == PageableMode::Stage
                ? std::string(to_string(variant))
                : std::string(to_string(variant)) + "(" + mode + ")") +
           describeDevices(config);
  case Variant::Streams:
  case Variant::Hybrid:
    break;
  }
  // Chunks only where they differ from the streams, so that one chunk per stream reads as always.
  const bool ownChunks = config.chunks > 0 && config.chunks != config.streams;
  return std::string(config.graph ? "Graph-" : "") + to_string(variant) + "(" +
         std::to_string(config.streams) +
         (ownChunks ? ", " + std::to_string(config.chunks) + " chunks" : std::string()) + ", " +
         to_string(config.order) +
         (config.pageable == PageableMode::Default ? std::string() : ", " + mode) +
         (config.pageable == PageableMode::Stage && config.staging.threads > 0
              ? ", " + std::to_string(config.staging.threads) + " staging threads"
              : std::string()) +
         (config.buffers == DeviceBuffers::Auto ? std::string()
                                                : std::string(", ") + to_string(config.buffers)) +
         ")" + describeDevices(config);
}

// The staging ring a call of `stagedBytes` (both directions) uses, given what was asked for and
// the host's hardware threads: every 0 of `asked` filled in. One definition for the runtime and
// the model. Threads: 4, one more per 8 MiB staged beyond 32 MiB, 16 at most, and one hardware
// thread stays the caller's (it issues the copies). On an H100 host, pageable-to-pinned copies ran
// 11 GB/s on one thread, 22 on 4, 30 on 8 and 44-49 on 12-16: staged calls of 130-800 MB ran
// 1.3-1.7x faster on 15 threads than on 4, calls under 60 MB no faster on more than 4 (a piece
// costs more to hand over than it gives). On an H200 host the ring alone moved 134 MiB 1.35x
// faster on 15 threads than on 8 (bench/README.md, "The staging ring alone"). Slots: 4 MiB, smaller
// for small calls so that the ring still pipelines (two pieces per thread) but never below 256 KiB,
// where a piece costs more to hand over than to copy. Slots: two per thread (one filling, one
// crossing the link) and two more for the copies out.
inline StagingConfig resolvedStaging(StagingConfig asked, long long stagedBytes,
                                     int hardwareThreads) {
  constexpr std::size_t kMiB = std::size_t{1} << 20;
  constexpr std::size_t kGranule = 64 * 1024;
  StagingConfig config = asked;
  if (config.threads < 1) {
    constexpr long long kBytesPerThread = 8LL << 20;
    const long long wanted = std::clamp(stagedBytes / kBytesPerThread, 4LL, 16LL);
    const int spare = hardwareThreads > 1 ? hardwareThreads - 1 : 1;
    config.threads = static_cast<int>(std::min<long long>(spare, wanted));
  }
  if (config.slotBytes == 0) {
    const std::size_t perPiece =
        stagedBytes > 0
            ? static_cast<std::size_t>(stagedBytes) / (2 * static_cast<std::size_t>(config.threads))
            : 0;
    std::size_t slot = (perPiece + kGranule - 1) / kGranule * kGranule;
    if (slot < kMiB / 4)
      slot = kMiB / 4;
    if (slot > 4 * kMiB)
      slot = 4 * kMiB;
    config.slotBytes = slot;
  }
  if (config.slots < 1)
    config.slots = 2 * config.threads + 2;
  return config;
}

// The pieces one staged copy of `bytes` is cut into, in order (StagingRing.h); one definition for
// the runtime and the model. A piece is one thread's copy to or from a slot, at most a slot. At
// the ends of a call the link would wait for one thread's copy of a whole slot (about 9 GB/s a
// thread against the link's 50: 0.45 ms for 4 MiB), so an input's pieces are at most the inputs'
// bytes before them and an output's at most the outputs' bytes after them, but at least a quarter
// MiB (4 MiB slots: 256 KiB, 256 KiB, 512 KiB, 1 MiB, 2 MiB, then 4 MiB). `beyond`: the bytes of
// the same direction the call stages before this copy (to the device) or after it (to the host).
inline std::vector<std::size_t> stagedPieceBytes(std::size_t bytes, bool toDevice,
                                                 std::size_t beyond, std::size_t slotBytes) {
  const std::size_t slot = std::max<std::size_t>(1, slotBytes);
  const std::size_t smallest = std::min<std::size_t>(slot, std::size_t{256} << 10);
  std::vector<std::size_t> pieces;
  for (std::size_t cut = 0; cut < bytes;) { // from the copy's start in, from its end out
    const std::size_t piece =
        std::min(bytes - cut, std::max(smallest, std::min(slot, beyond + cut)));
    pieces.push_back(piece);
    cut += piece;
  }
  if (!toDevice)
    std::reverse(pieces.begin(), pieces.end());
  return pieces;
}

// One staged copy of a call, as the cut sees it.
struct StagedBytes {
  bool toDevice = true;
  std::size_t bytes = 0;
};

// Every staged copy's pieces, in the call's order: stagedPieceBytes with each copy's `beyond`.
inline std::vector<std::vector<std::size_t>> stagedPieces(const std::vector<StagedBytes>& copies,
                                                          std::size_t slotBytes) {
  std::size_t outAfter = 0; // the outputs' bytes after the copy being cut
  for (const StagedBytes& copy : copies)
    if (!copy.toDevice)
      outAfter += copy.bytes;
  std::size_t inBefore = 0; // the inputs' bytes before it
  std::vector<std::vector<std::size_t>> pieces;
  for (const StagedBytes& copy : copies) {
    if (!copy.toDevice)
      outAfter -= copy.bytes;
    pieces.push_back(stagedPieceBytes(copy.bytes, copy.toDevice,
                                      copy.toDevice ? inBefore : outAfter, slotBytes));
    if (copy.toDevice)
      inBefore += copy.bytes;
  }
  return pieces;
}

// The partitioned index range of one call, [begin, begin + extent), and the granule its chunk
// boundaries keep: every boundary but the end lies at begin + a multiple of granule (so that a
// kernel loading float4 from its chunk's first element stays aligned).
struct Partition {
  long long begin = 0;
  long long extent = 0;  // P >= 0
  long long granule = 1; // G >= 1
};

// Granules of the partition, the last one possibly short: ceil(P / G).
inline long long granuleCount(const Partition& partition) {
  return partition.extent > 0 ? (partition.extent - 1) / partition.granule + 1 : 0;
}

// C = min(asked, ceil(P / G)): the chunks asked for (one per stream unless StreamsConfig::chunks
// says otherwise), but never an empty one.
inline long long chunkCount(const Partition& partition, long long asked) {
  const long long granules = granuleCount(partition);
  return asked < granules ? asked : granules;
}

// The chunk [lo, hi) that chunk `index` of `count` covers: whole granules, split so that the
// chunks' granule counts differ by at most one, the last chunk having the larger count; it ends
// at begin + P. Chunk lengths thus differ by at most one granule (the short last granule lies in
// a chunk of the larger count), and with count <= granuleCount every chunk has work (a larger
// count makes empty chunks). No intermediate value exceeds begin + P.
inline void chunkBounds(const Partition& partition, long long count, long long index, long long& lo,
                        long long& hi) {
  const long long granules = granuleCount(partition);
  // floor(index * granules / count) without overflow.
  const auto firstGranule = [&](long long i) {
    return granules / count * i + (granules % count) * i / count;
  };
  const long long first = firstGranule(index);
  const long long end = firstGranule(index + 1);
  lo = partition.begin + first * partition.granule;
  hi = partition.begin + (end == granules ? partition.extent : end * partition.granule);
}

// The chunk of [0, extent) in one-element granules.
inline void chunkBounds(long long extent, long long count, long long index, long long& lo,
                        long long& hi) {
  chunkBounds(Partition{0, extent, 1}, count, index, lo, hi);
}

} // namespace overlap
