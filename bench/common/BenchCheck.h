// What a benchmark program does with a failure: it says what failed, prefixed with the program's
// name, and exits with status 1 (a benchmark that cannot measure has nothing to report).
#pragma once

#include "overlap/Status.h"

#include <cuda_runtime_api.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace bench {

[[noreturn]] inline void fail(const std::string& why) {
  std::fprintf(stderr, "%s: %s\n", program_invocation_short_name, why.c_str());
  std::exit(1);
}

inline void check(const overlap::Status& status, const std::string& what) {
  if (!status.ok())
    fail(what + ": " + status.message());
}

inline void checkCuda(cudaError_t error, const char* what) {
  if (error != cudaSuccess)
    fail(std::string(what) + ": " + cudaGetErrorString(error));
}

} // namespace bench
