#include "overlap/FaultInjection.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace overlap {
namespace fault {
namespace detail {

std::atomic<int> gState{static_cast<int>(State::Unread)};

} // namespace detail

namespace {

// A whole program armed from the environment may make millions of calls; the texts kept for
// matchedCallTexts() stop here, the count does not.
constexpr std::size_t kMaxRecordedTexts = 100000;

// Above every cudaError_t value of CUDA 13 (the largest, cudaErrorApiFailureBase, is 10000).
constexpr int kLargestErrorValue = 10000;

struct Injector {
  std::mutex mutex;
  bool failing = false; // false: only counting
  std::string substring;
  long long k = 0;
  cudaError_t error = cudaSuccess;
  long long matched = 0;
  std::vector<std::string> texts;
  bool fired = false;
  std::string firedCall;
};

Injector& injector() {
  // Never destroyed: calls from static destructors may still ask.
  static Injector* const instance = new Injector;
  return *instance;
}

void setState(detail::State state) {
  detail::gState.store(static_cast<int>(state), std::memory_order_relaxed);
}

// Called with the mutex held.
void armLocked(Injector& in, bool failing, const std::string& substring, long long k,
               cudaError_t error) {
  in.failing = failing;
  in.substring = substring;
  in.k = k;
  in.error = error;
  in.matched = 0;
  in.texts.clear();
  in.fired = false;
  in.firedCall.clear();
  setState(detail::State::Armed);
}

// Called with the mutex held, once: the first intercepted call of a process that armed nothing.
void readEnvironmentLocked(Injector& in) {
  const char* const value = std::getenv("OVERLAP_INJECT_FAULT");
  if (value == nullptr || *value == '\0') {
    setState(detail::State::Disarmed);
    return;
  }
  FaultSpec spec;
  std::string why;
  if (!parseFaultSpec(value, &spec, &why)) {
    // A debugging switch that silently does nothing would be mistaken for a passing run; this is
    // the one message the runtime prints, and only when the user set the variable.
    std::fprintf(stderr, "overlap: OVERLAP_INJECT_FAULT=\"%s\" ignored: %s\n", value, why.c_str());
    setState(detail::State::Disarmed);
    return;
  }
  armLocked(in, true, spec.substring, spec.k, spec.error);
}

bool starts_with(const char* text, const char* prefix) {
  return std::strncmp(text, prefix, std::strlen(prefix)) == 0;
}

} // namespace

cudaError_t defaultErrorFor(const char* call) {
  if (call == nullptr)
    return cudaErrorUnknown;
  if (starts_with(call, "cudaMalloc") || starts_with(call, "cudaHostAlloc") ||
      starts_with(call, "cudaHostRegister"))
    return cudaErrorMemoryAllocation;
  if (std::strstr(call, "<<<") != nullptr)
    return cudaErrorLaunchOutOfResources;
  return cudaErrorUnknown;
}

void countCalls(const std::string& substring) {
  Injector& in = injector();
  const std::lock_guard<std::mutex> lock(in.mutex);
  armLocked(in, false, substring, 0, cudaSuccess);
}

void failCall(const std::string& substring, long long k, cudaError_t error) {
  Injector& in = injector();
  const std::lock_guard<std::mutex> lock(in.mutex);
  armLocked(in, true, substring, k, error);
}

bool armFromEnvironment() {
  Injector& in = injector();
  const std::lock_guard<std::mutex> lock(in.mutex);
  readEnvironmentLocked(in);
  return detail::gState.load(std::memory_order_relaxed) == static_cast<int>(detail::State::Armed);
}

void disarm() {
  Injector& in = injector();
  const std::lock_guard<std::mutex> lock(in.mutex);
  // Disarming also counts as having read the environment: an explicit disarm wins over it.
  setState(detail::State::Disarmed);
}

long long matchedCalls() {
  Injector& in = injector();
  const std::lock_guard<std::mutex> lock(in.mutex);
  return in.matched;
}

std::vector<std::string> matchedCallTexts() {
  Injector& in = injector();
  const std::lock_guard<std::mutex> lock(in.mutex);
  return in.texts;
}

bool fired() {
  Injector& in = injector();
  const std::lock_guard<std::mutex> lock(in.mutex);
  return in.fired;
}

std::string firedCall() {
  Injector& in = injector();
  const std::lock_guard<std::mutex> lock(in.mutex);
  return in.firedCall;
}

bool parseFaultSpec(const std::string& text, FaultSpec* spec, std::string* why) {
  // The substring may contain '#' and '=' itself (call texts do), so the count is taken after
  // the last '#'.
  const std::size_t hash = text.rfind('#');
  if (hash == std::string::npos) {
    *why = "expected <substring>#<k>[=<cudaError name>]";
    return false;
  }
  std::string count = text.substr(hash + 1);
  std::string errorName;
  const std::size_t equals = count.find('=');
  const bool namesError = equals != std::string::npos;
  if (namesError) {
    errorName = count.substr(equals + 1);
    count.resize(equals);
  }
  if (count.empty() || count.find_first_not_of("0123456789") != std::string::npos ||
      count.size() > 18) {
    *why = "k must be a positive integer, got \"" + count + "\"";
    return false;
  }
  const long long k = std::stoll(count);
  if (k < 1) {
    *why = "k is 1-based, got 0";
    return false;
  }
  cudaError_t error = cudaSuccess;
  if (namesError) {
    bool known = false;
    for (int value = 1; value <= kLargestErrorValue && !known; ++value) {
      const char* const name = cudaGetErrorName(static_cast<cudaError_t>(value));
      if (name != nullptr && errorName == name) {
        error = static_cast<cudaError_t>(value);
        known = true;
      }
    }
    if (!known) {
      *why = "\"" + errorName + "\" is not the name of a CUDA error other than cudaSuccess";
      return false;
    }
  }
  spec->substring = text.substr(0, hash);
  spec->k = k;
  spec->error = error;
  return true;
}

namespace detail {

cudaError_t interceptSlow(const char* call) {
  Injector& in = injector();
  const std::lock_guard<std::mutex> lock(in.mutex);
  if (gState.load(std::memory_order_relaxed) == static_cast<int>(State::Unread))
    readEnvironmentLocked(in);
  if (gState.load(std::memory_order_relaxed) != static_cast<int>(State::Armed))
    return cudaSuccess;
  const char* const text = call != nullptr ? call : "";
  if (std::strstr(text, in.substring.c_str()) == nullptr)
    return cudaSuccess;
  ++in.matched;
  if (in.texts.size() < kMaxRecordedTexts)
    in.texts.emplace_back(text);
  if (!in.failing || in.fired || in.matched != in.k)
    return cudaSuccess;
  in.fired = true;
  in.firedCall = text;
  return in.error != cudaSuccess ? in.error : defaultErrorFor(text);
}

} // namespace detail
} // namespace fault
} // namespace overlap
