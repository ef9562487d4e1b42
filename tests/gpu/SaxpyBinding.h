// y = a*x + y in offset mode, written as overlap-gen writes bindings: each chunk's kernel gets
// pointers advanced to the chunk and its length. x is an input, y an InOut array.
#pragma once

#include "overlap/Binding.cuh"

namespace overlap::test {

struct SaxpyBinding {
  static constexpr int kArrays = 2;

  long long n = 0;
  float a = 0;
  const float* x = nullptr;
  float* y = nullptr;
  long long block = 256; // block.x; 2048 makes every launch fail, for the error-path tests

  long long partitionExtent() const { return n; }
  long long partitionBegin() const { return 0; }
  long long granule() const { return 1; }
  Status checkCall() const { return Status::success(); }
  HostArray array(int i) const {
    if (i == 0)
      return {const_cast<float*>(x), sizeof(float), n, Direction::In, "x"};
    return {y, sizeof(float), n, Direction::InOut, "y"};
  }
  static int sectionCount(int) { return 1; }
  static bool sectionIsChunked(int, int) { return true; }
  Section section(int, int, long long lo, long long hi) const { return {lo, hi}; }
  Status launch(void* const* bases, long long lo, long long hi, cudaStream_t stream) const;
};

// The CPU result, rounding every operation as the kernel does.
void saxpyReference(long long n, float a, const float* x, float* y);

} // namespace overlap::test
