// Plain descriptions of an annotated kernel's arrays and of how one call is chunked. No CUDA
// dependency: the model and the tuner's planning code use these too.
#pragma once

#include <cstddef>

namespace overlap {

enum class Direction : unsigned char { In, Out, InOut };

inline bool reads(Direction d) { return d != Direction::Out; }
inline bool writes(Direction d) { return d != Direction::In; }

// Element type of an array, for filling it with random data and for comparing results.
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
  Other // structs and other types: compared byte by byte
};

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

struct StreamsConfig {
  int streams = 4;
  IssueOrder order = IssueOrder::DepthFirst;
};

// The chunk [lo, hi) of the partition extent that chunk `index` of `count` covers. Chunks differ
// in length by at most one element, so every stream gets work whenever count <= extent.
inline void chunk_bounds(long long extent, long long count, long long index, long long& lo,
                         long long& hi) {
  lo = extent / count * index + (extent % count) * index / count;
  hi = extent / count * (index + 1) + (extent % count) * (index + 1) / count;
}

} // namespace overlap
