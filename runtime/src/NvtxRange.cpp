#include "overlap/NvtxRange.h"

// Header-only NVTX3 from the toolkit: nothing to link but the dynamic loader.
#include <nvtx3/nvToolsExt.h>

namespace overlap {

NvtxRange::NvtxRange(const char* name) {
  nvtxRangePushA(name);
}

NvtxRange::~NvtxRange() {
  nvtxRangePop();
}

} // namespace overlap
