// A named NVTX range for the lifetime of the object, so that Nsight Systems shows the phases of a
// strategy call ("overlap:streams", "h2d", "kernel", "d2h") on the host timeline next to the
// copies and kernels they issue. Without a profiler attached, a range costs a few nanoseconds.
#pragma once

namespace overlap {

class NvtxRange {
public:
  explicit NvtxRange(const char* name); // name: a string that outlives the range
  ~NvtxRange();
  NvtxRange(const NvtxRange&) = delete;
  NvtxRange& operator=(const NvtxRange&) = delete;
};

} // namespace overlap
