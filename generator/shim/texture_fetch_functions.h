// Clang's CUDA runtime wrapper (__clang_cuda_runtime_wrapper.h) includes texture_fetch_functions.h,
// which CUDA 13 no longer ships. The generator only needs the host-side AST, and the texture fetch
// functions are device-only, so for CUDA 13 and later this shim stands in for the missing header;
// older toolkits still get their own through #include_next.
#pragma once

#include <cuda.h> // CUDA_VERSION

#if CUDA_VERSION < 13000
#include_next <texture_fetch_functions.h>
#endif
