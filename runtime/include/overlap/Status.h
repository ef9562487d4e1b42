// Status values for CUDA work: a failing call is returned to the caller with the call's text,
// file and line, never thrown and never printed from library code (CUTLASS style).
#pragma once

#if OVERLAP_FAULT_INJECTION
#include "overlap/FaultInjection.h"
#endif

#include <cuda_runtime_api.h>

#include <string>

namespace overlap {

struct Status {
  cudaError_t code = cudaSuccess;
  const char* call = nullptr; // text of the failing call, e.g. "cudaMemcpyAsync(...)"
  const char* file = nullptr;
  int line = 0;

  bool ok() const { return code == cudaSuccess; }
  // "cudaMalloc(&p, bytes) failed at file.cu:12: out of memory (cudaErrorMemoryAllocation)"
  std::string message() const;

  static Status success() { return {}; }
};

// A copy of `text` that lives as long as the process, for Status::call texts composed at run time
// (a Status keeps a plain pointer). Equal texts share one copy, so repeated failures do not grow
// the store. Thread-safe.
const char* persistentText(const std::string& text);

// Keeps the first error: used where cleanup must go on after a failure.
inline void keepFirst(Status& first, const Status& next) {
  if (first.ok() && !next.ok())
    first = next;
}

} // namespace overlap

#define OVERLAP_STATUS_OF(expr, codeValue)                                                         \
  ::overlap::Status {                                                                              \
    (codeValue), #expr, __FILE__, __LINE__                                                         \
  }

// Makes a cudaError_t-returning call, unless fault injection (FaultInjection.h, in test builds
// only: OVERLAP_FAULT_INJECTION) fails it: then the call is not made and the injected error is the
// expression's value.
#if OVERLAP_FAULT_INJECTION
#define OVERLAP_CUDA_CALL(expr)                                                                    \
  [&]() -> cudaError_t {                                                                           \
    const cudaError_t overlapInjected_ = ::overlap::fault::intercept(#expr);                       \
    return overlapInjected_ != cudaSuccess ? overlapInjected_ : (expr);                            \
  }()
#else
#define OVERLAP_CUDA_CALL(expr) (expr)
#endif

// Evaluates a cudaError_t-returning expression (through OVERLAP_CUDA_CALL) and returns a Status
// from the enclosing function when it fails.
#define OVERLAP_CUDA_TRY(expr)                                                                     \
  do {                                                                                             \
    const cudaError_t overlapError_ = OVERLAP_CUDA_CALL(expr);                                     \
    if (overlapError_ != cudaSuccess)                                                              \
      return OVERLAP_STATUS_OF(expr, overlapError_);                                               \
  } while (0)

// Propagates a failed Status from the enclosing function.
#define OVERLAP_TRY(expr)                                                                          \
  do {                                                                                             \
    ::overlap::Status overlapStatus_ = (expr);                                                     \
    if (!overlapStatus_.ok())                                                                      \
      return overlapStatus_;                                                                       \
  } while (0)
