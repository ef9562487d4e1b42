// Fault injection for the CUDA calls of the runtime and the strategy templates, so that every
// error path (an allocation, a copy, a registration or a launch that fails midway through a call)
// can be driven from a test or a whole program without a broken GPU.
//
// Every call made through OVERLAP_CUDA_TRY or OVERLAP_CUDA_CALL (Status.h) first asks
// intercept() with the call's source text. When a fault is armed for it, the call is not made at
// all and the injected error comes back as if CUDA had returned it, so the caller sees exactly
// what a real failure of that call looks like (text, file, line) and nothing leaks from the
// device into the process (no sticky error, nothing left for cudaGetLastError). Launch glue asks
// with the launch's text ("saxpy<<<...>>>") after the launch; an injected launch fault means the
// kernel may still have run, which is what a reported asynchronous error means too.
//
// Disarmed (the normal case) intercept() costs one relaxed atomic load. The environment variable
//   OVERLAP_INJECT_FAULT=<substring>#<k>[=<cudaError name>]
// is read once, on the first intercepted call, and arms failCall() with those values (k is
// 1-based; an empty substring matches every call), so the tuner and whole programs can be tested.
//
// Process-wide: one plan for all threads. Tests arm it around one strategy call at a time.
#pragma once

#include <cuda_runtime_api.h>

#include <atomic>
#include <string>
#include <vector>

namespace overlap {
namespace fault {

// The error failCall() injects when it is given none: cudaErrorMemoryAllocation for the calls
// that allocate or pin memory (cudaMalloc*, cudaHostAlloc, cudaHostRegister), which is how they
// fail in practice; cudaErrorLaunchOutOfResources for kernel launches ("<<<" in the text), a
// launch failure that does not corrupt the context; cudaErrorUnknown for everything else.
cudaError_t defaultErrorFor(const char* call);

// Counts (and records, in order) every call whose text contains `substring` from now on, failing
// none of them. An empty substring counts every intercepted call.
void countCalls(const std::string& substring = {});

// Fails the k-th call (1-based, counted from now) whose text contains `substring`, with `error`,
// or with defaultErrorFor(call) when `error` is cudaSuccess. Only that one call fails; the calls
// before and after it are made as usual (and still counted and recorded).
void failCall(const std::string& substring, long long k, cudaError_t error = cudaSuccess);

// Reads OVERLAP_INJECT_FAULT now and arms failCall() from it, or disarms when it is unset or
// malformed; true when armed. The first intercepted call does this by itself when nothing was
// armed before; tests call it after changing the variable.
bool armFromEnvironment();

// Stops counting and failing. The counts and records stay readable until the next arm.
void disarm();

// How many intercepted calls matched since the last countCalls()/fail_call().
long long matchedCalls();
// Their texts, in order (the injected one included).
std::vector<std::string> matchedCallTexts();
// Whether the armed fault has fired, and on which text.
bool fired();
std::string firedCall();

// Parses "<substring>#<k>[=<cudaError name>]" (the environment variable's syntax). Returns false,
// with *why saying what is wrong, on anything else: k must be a positive integer and the error
// name one cudaGetErrorName gives (for example cudaErrorMemoryAllocation).
struct FaultSpec {
  std::string substring;
  long long k = 0;
  cudaError_t error = cudaSuccess; // cudaSuccess: defaultErrorFor(call)
};
bool parseFaultSpec(const std::string& text, FaultSpec* spec, std::string* why);

// Arms failCall() for its lifetime; disarms when it goes, so a failing test does not leave a
// fault armed for the next one.
class ScopedFault {
public:
  ScopedFault(const std::string& substring, long long k, cudaError_t error = cudaSuccess) {
    failCall(substring, k, error);
  }
  ScopedFault(const ScopedFault&) = delete;
  ScopedFault& operator=(const ScopedFault&) = delete;
  ~ScopedFault() { disarm(); }
};

// countCalls() for its lifetime.
class ScopedCallCount {
public:
  explicit ScopedCallCount(const std::string& substring = {}) { countCalls(substring); }
  ScopedCallCount(const ScopedCallCount&) = delete;
  ScopedCallCount& operator=(const ScopedCallCount&) = delete;
  ~ScopedCallCount() { disarm(); }
};

namespace detail {

enum class State : int {
  Unread, // the environment variable has not been read yet
  Disarmed,
  Armed // counting or failing
};

extern std::atomic<int> gState;
cudaError_t interceptSlow(const char* call);

} // namespace detail

// cudaSuccess: make the call. Anything else: do not make it, report this error instead.
inline cudaError_t intercept(const char* call) {
  if (detail::gState.load(std::memory_order_relaxed) == static_cast<int>(detail::State::Disarmed))
    return cudaSuccess;
  return detail::interceptSlow(call);
}

} // namespace fault
} // namespace overlap
