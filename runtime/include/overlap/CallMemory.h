// Which host memory a tuned call was given, as its dispatch (Dispatch.h) sees it. Four kinds,
// because kernels and copies price them differently:
//  - Pinned: page-locked memory the user allocated or registered (cudaMallocHost, cudaHostAlloc,
//    cudaHostRegister), or device memory;
//  - Registered: pageable memory the registration cache holds registered (PinCache.h): copies run
//    at pinned speed, but kernels that address it (Mapped, Hybrid's outputs) run 1.4-2.2x slower
//    than on cudaHostAlloc'ed pages (docs/generated-code.md), so its winner may differ;
//  - Pageable: memory nobody registered, which per-call registration or staging moves;
//  - Managed: cudaMallocManaged memory, which copies and kernels make the driver migrate.
// CUDA does not tell the user's own cudaHostRegister from cudaHostAlloc: such arrays are Pinned.
#pragma once

#include "overlap/Descriptor.h"

#include <string_view>

namespace overlap {

enum class CallMemory : unsigned char { Pinned, Registered, Pageable, Managed };

inline constexpr CallMemory kCallMemories[] = {CallMemory::Pinned, CallMemory::Registered,
                                               CallMemory::Pageable, CallMemory::Managed};

inline const char* to_string(CallMemory memory) {
  switch (memory) {
  case CallMemory::Pinned:
    return "pinned";
  case CallMemory::Registered:
    return "registered";
  case CallMemory::Pageable:
    return "pageable";
  case CallMemory::Managed:
    return "managed";
  }
  return "?";
}

// What parseCallMemory() reads, for error messages.
inline constexpr const char* kCallMemoryNames =
    "\"pinned\", \"registered\", \"pageable\" or \"managed\"";

// The kind to_string() names: false for any other text.
inline bool parseCallMemory(std::string_view text, CallMemory* memory) {
  for (const CallMemory m : kCallMemories)
    if (text == to_string(m)) {
      *memory = m;
      return true;
    }
  return false;
}

// Pageable when any of the call's arrays is (classifyHostRange; absent optional arrays and
// empty ones left out), else Managed when any is managed, else Registered when any is held by the
// registration cache, else Pinned.
// Each array's kind is remembered per thread by address and asked again every
// kCallMemoryRecheckCalls uses and whenever the registration cache registers or unpins a range, so
// that a call does not pay a cudaPointerGetAttributes per array: memory the user frees and
// allocates again at one address as another kind (cudaFreeHost, then malloc) is seen late, which
// may cost speed (the other memory's variant runs) but never correctness (every variant classifies
// its arrays itself before it copies).
CallMemory classifyCallMemory(const KernelDescriptor& kernel, ArgPointers args);

inline constexpr unsigned kCallMemoryRecheckCalls = 1024;

} // namespace overlap
