// Which host memory a tuned call was given, as its dispatch (Dispatch.h) sees it: a call whose
// arrays are all page-locked (pinned, registered, held by the registration cache, device or
// managed memory) runs what was tuned on pinned memory; a call with any pageable array runs what
// was tuned on pageable memory, where per-call registration or staging costs what it costs.
#pragma once

#include "overlap/Descriptor.h"

namespace overlap {

enum class CallMemory : unsigned char { Pinned, Pageable };

inline const char* to_string(CallMemory memory) {
  return memory == CallMemory::Pinned ? "pinned" : "pageable";
}

// Pageable when any of the call's arrays is (classifyHostRange; absent optional arrays and
// empty ones left out), else Pinned. Each array's kind is remembered per thread by address and
// asked again every kCallMemoryRecheckCalls uses and whenever the registration cache registers or
// unpins a range, so that a call does not pay a cudaPointerGetAttributes per array: memory the
// user frees and allocates again at one address as another kind (cudaFreeHost, then malloc) is
// seen late, which may cost speed (the other memory's variant runs) but never correctness (every
// variant classifies its arrays itself before it copies).
CallMemory classifyCallMemory(const KernelDescriptor& kernel, ArgPointers args);

inline constexpr unsigned kCallMemoryRecheckCalls = 1024;

} // namespace overlap
