// C = A·B over unsigned 32-bit integers (exact on both sides, wrapping), rows of A and C cut into
// chunks in offset mode, B sent whole once (no sections: a broadcast array; paper 000 §4.1).
// A is m×k, B k×n, C m×n, row-major.
#pragma once

#include "overlap/Binding.cuh"

#include <cstdint>

namespace overlap::test {

struct MatmulBinding {
  static constexpr int kArrays = 3;

  long long m = 0;
  long long n = 0;
  long long k = 0;
  const std::uint32_t* a = nullptr;
  const std::uint32_t* b = nullptr;
  std::uint32_t* c = nullptr;

  long long partitionExtent() const { return m; }
  long long partitionBegin() const { return 0; }
  long long granule() const { return 1; }
  Status checkCall() const { return Status::success(); }
  HostArray array(int i) const {
    switch (i) {
    case 0:
      return {const_cast<std::uint32_t*>(a), sizeof(std::uint32_t), m * k, Direction::In, "a"};
    case 1:
      return {const_cast<std::uint32_t*>(b), sizeof(std::uint32_t), k * n, Direction::In, "b"};
    default:
      return {c, sizeof(std::uint32_t), m * n, Direction::Out, "c"};
    }
  }
  static int sectionCount(int i) { return i == 1 ? 0 : 1; }
  static bool sectionIsChunked(int, int) { return true; }
  Section section(int i, int, long long lo, long long hi) const {
    const long long row = i == 0 ? k : n;
    return {lo * row, hi * row};
  }
  Status launch(void* const* bases, long long lo, long long hi, cudaStream_t stream) const;
};

void matmulReference(long long m, long long n, long long k, const std::uint32_t* a,
                     const std::uint32_t* b, std::uint32_t* c);

} // namespace overlap::test
