// Which host memory a tuned call was given, as its dispatch (Dispatch.h) sees it. Four kinds,
// because kernels and copies price them differently:
//  - Pinned: page-locked memory (cudaMallocHost, cudaHostAlloc, the user's cudaHostRegister or
//    the registration cache's) whose every array starts on a host line (kHostLineBytes), or
//    device memory;
//  - Registered: page-locked memory where some array starts off a host line, as malloc, new[] and
//    std::vector put a large array (16 bytes past a page): copies run at pinned speed, but a
//    kernel's reads and writes of it (Mapped, Hybrid's outputs) straddle two lines each and ran
//    1.2-1.6x and 1.6-2.0x slower on an H200 (bench/README.md, "Host addresses and huge pages"),
//    so its winner may differ. The registration cache's arrays mostly are such; the tuner's
//    registered arrays are (TuneCommand: `--memory registered`);
//  - Pageable: memory nobody registered, which per-call registration or staging moves;
//  - Managed: cudaMallocManaged memory, which copies and kernels make the driver migrate.
#pragma once

#include "overlap/Descriptor.h"

#include <cstddef>
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
// empty ones left out), else Managed when any is managed, else Registered when any page-locked
// one starts off a host line, else Pinned.
// Each array's kind is remembered per thread by address and asked again every
// kCallMemoryRecheckCalls uses and whenever the registration cache registers or unpins a range, so
// that a call does not pay a cudaPointerGetAttributes per array: memory the user frees and
// allocates again at one address as another kind (cudaFreeHost, then malloc) is seen late, which
// may cost speed (the other memory's variant runs) but never correctness (every variant classifies
// its arrays itself before it copies).
CallMemory classifyCallMemory(const KernelDescriptor& kernel, ArgPointers args);

// The bytes a kernel's read or write of host memory crosses the link in: a warp's 32 floats at an
// address off such a line touch two.
inline constexpr std::size_t kHostLineBytes = 128;

// Whether every array of the call (absent and empty ones left out) starts on a host line: a call
// whose pageable arrays the registration cache is to hold is Pinned or Registered by this.
bool arraysStartOnHostLines(const KernelDescriptor& kernel, ArgPointers args);

inline constexpr unsigned kCallMemoryRecheckCalls = 1024;

} // namespace overlap
