// The fault injector on calls that need no GPU: the macros' behaviour with and without a fault,
// counting, the k-th match, default errors and the environment variable's syntax.
#include "overlap/FaultInjection.h"
#include "overlap/Status.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace {

using overlap::Status;
namespace fault = overlap::fault;

// Stands in for a CUDA call: counts how often it was really made.
struct FakeCall {
  int made = 0;
  cudaError_t result = cudaSuccess;
  cudaError_t operator()() {
    ++made;
    return result;
  }
};

Status allocate(FakeCall& call) {
  OVERLAP_CUDA_TRY(call());
  return Status::success();
}

cudaError_t cudaMalloc_like(FakeCall& call) {
  return call();
}

// Three differently named calls in a row, as a strategy makes them.
Status threeSteps(FakeCall& mallocLike, FakeCall& copyLike, FakeCall& syncLike) {
  OVERLAP_CUDA_TRY(cudaMalloc_like(mallocLike));
  OVERLAP_CUDA_TRY(copyLike());
  OVERLAP_CUDA_TRY(syncLike());
  return Status::success();
}

class FaultInjection : public ::testing::Test {
protected:
  void TearDown() override { fault::disarm(); }
};

TEST_F(FaultInjection, DisarmedCallsAreMadeAndTheirResultKept) {
  fault::disarm();
  FakeCall call;
  EXPECT_TRUE(allocate(call).ok());
  EXPECT_EQ(call.made, 1);
  call.result = cudaErrorInvalidValue;
  const Status status = allocate(call);
  EXPECT_EQ(status.code, cudaErrorInvalidValue);
  EXPECT_EQ(call.made, 2);
}

TEST_F(FaultInjection, CountingRecordsEveryMatchingCallWithoutFailingAny) {
  FakeCall a, b, c;
  fault::countCalls();
  ASSERT_TRUE(threeSteps(a, b, c).ok());
  ASSERT_TRUE(threeSteps(a, b, c).ok());
  fault::disarm();
  EXPECT_EQ(fault::matchedCalls(), 6);
  const std::vector<std::string> texts = fault::matchedCallTexts();
  ASSERT_EQ(texts.size(), 6u);
  EXPECT_EQ(texts[0], "cudaMalloc_like(mallocLike)");
  EXPECT_EQ(texts[1], "copyLike()");
  EXPECT_EQ(texts[2], "syncLike()");
  EXPECT_EQ(texts[3], texts[0]);
  EXPECT_FALSE(fault::fired());
  EXPECT_EQ(a.made + b.made + c.made, 6);
}

TEST_F(FaultInjection, CountingOnlyTheCallsContainingTheSubstring) {
  FakeCall a, b, c;
  fault::countCalls("Like()");
  ASSERT_TRUE(threeSteps(a, b, c).ok());
  EXPECT_EQ(fault::matchedCalls(), 2);
  EXPECT_EQ(fault::matchedCallTexts(), (std::vector<std::string>{"copyLike()", "syncLike()"}));
}

TEST_F(FaultInjection, TheKthCallFailsWithoutBeingMadeAndNamesItself) {
  for (long long k = 1; k <= 3; ++k) {
    SCOPED_TRACE("k = " + std::to_string(k));
    FakeCall a, b, c;
    fault::ScopedCallCount count;
    ASSERT_TRUE(threeSteps(a, b, c).ok());
    const std::vector<std::string> texts = fault::matchedCallTexts();
    a = b = c = FakeCall{};
    fault::failCall("", k, cudaErrorIllegalAddress);
    const Status status = threeSteps(a, b, c);
    EXPECT_EQ(status.code, cudaErrorIllegalAddress);
    ASSERT_NE(status.call, nullptr);
    EXPECT_EQ(std::string(status.call), texts[static_cast<std::size_t>(k - 1)]);
    EXPECT_NE(std::string(status.file).find("FaultInjectionTest.cpp"), std::string::npos);
    EXPECT_TRUE(fault::fired());
    EXPECT_EQ(fault::firedCall(), texts[static_cast<std::size_t>(k - 1)]);
    // The calls before the k-th were made, the k-th and the ones after it (never reached) were not.
    EXPECT_EQ(a.made + b.made + c.made, k - 1);
    EXPECT_EQ(fault::matchedCalls(), k);
  }
}

TEST_F(FaultInjection, OnlyOneCallFailsAndLaterOnesAreMade) {
  FakeCall call;
  const fault::ScopedFault armed("call()", 2);
  EXPECT_TRUE(allocate(call).ok());
  EXPECT_FALSE(allocate(call).ok());
  EXPECT_TRUE(allocate(call).ok());
  EXPECT_TRUE(allocate(call).ok());
  EXPECT_EQ(call.made, 3);
  EXPECT_EQ(fault::matchedCalls(), 4);
}

TEST_F(FaultInjection, ScopedFaultDisarmsWhenItGoes) {
  FakeCall call;
  {
    const fault::ScopedFault armed("", 5);
    EXPECT_TRUE(allocate(call).ok());
  }
  for (int i = 0; i < 10; ++i)
    EXPECT_TRUE(allocate(call).ok());
  EXPECT_EQ(call.made, 11);
  EXPECT_FALSE(fault::fired());
}

TEST_F(FaultInjection, ExpressionFormReturnsTheInjectedError) {
  FakeCall call;
  const fault::ScopedFault armed("call", 1, cudaErrorNotReady);
  EXPECT_EQ(OVERLAP_CUDA_CALL(call()), cudaErrorNotReady);
  EXPECT_EQ(call.made, 0);
  EXPECT_EQ(OVERLAP_CUDA_CALL(call()), cudaSuccess);
  EXPECT_EQ(call.made, 1);
}

TEST_F(FaultInjection, DefaultErrorsFollowWhatTheCallDoes) {
  EXPECT_EQ(fault::defaultErrorFor("cudaMalloc(&block, bytes)"), cudaErrorMemoryAllocation);
  EXPECT_EQ(fault::defaultErrorFor("cudaMallocAsync(&p, n, s)"), cudaErrorMemoryAllocation);
  EXPECT_EQ(fault::defaultErrorFor("cudaHostAlloc(&data, bytes, flags)"),
            cudaErrorMemoryAllocation);
  EXPECT_EQ(fault::defaultErrorFor("cudaHostRegister(begin, bytes, flags)"),
            cudaErrorMemoryAllocation);
  EXPECT_EQ(fault::defaultErrorFor("saxpy<<<...>>>"), cudaErrorLaunchOutOfResources);
  EXPECT_EQ(fault::defaultErrorFor("cudaMemcpyAsync(device, host, bytes, kind, stream)"),
            cudaErrorUnknown);
  EXPECT_EQ(fault::defaultErrorFor(nullptr), cudaErrorUnknown);

  FakeCall call;
  const fault::ScopedFault armed("", 1);
  const Status status = [&]() -> Status {
    OVERLAP_CUDA_TRY(cudaMalloc_like(call));
    return Status::success();
  }();
  EXPECT_EQ(status.code, cudaErrorMemoryAllocation);
}

// Sets an environment variable for one test and restores it after.
class ScopedEnvironment {
public:
  ScopedEnvironment(const char* name, const char* value) : name_(name) {
    const char* const old = std::getenv(name);
    had_ = old != nullptr;
    if (had_)
      old_ = old;
    if (value != nullptr)
      setenv(name, value, 1);
    else
      unsetenv(name);
  }
  ~ScopedEnvironment() {
    if (had_)
      setenv(name_, old_.c_str(), 1);
    else
      unsetenv(name_);
  }

private:
  const char* name_;
  bool had_ = false;
  std::string old_;
};

TEST_F(FaultInjection, TheEnvironmentVariableArmsTheKthMatchingCall) {
  const ScopedEnvironment environment("OVERLAP_INJECT_FAULT", "call()#2=cudaErrorNotPermitted");
  ASSERT_TRUE(fault::armFromEnvironment());
  FakeCall call;
  EXPECT_TRUE(allocate(call).ok());
  const Status status = allocate(call);
  EXPECT_EQ(status.code, cudaErrorNotPermitted);
  EXPECT_STREQ(status.call, "call()");
  EXPECT_TRUE(allocate(call).ok());
  EXPECT_EQ(call.made, 2);
}

TEST_F(FaultInjection, AMalformedOrMissingVariableArmsNothing) {
  for (const char* value : {"call()", "call()#0", static_cast<const char*>(nullptr), ""}) {
    SCOPED_TRACE(value == nullptr ? "(unset)" : value);
    const ScopedEnvironment environment("OVERLAP_INJECT_FAULT", value);
    EXPECT_FALSE(fault::armFromEnvironment());
    FakeCall call;
    EXPECT_TRUE(allocate(call).ok());
    EXPECT_EQ(call.made, 1);
  }
}

TEST(FaultSpec, ParsesSubstringCountAndError) {
  fault::FaultSpec spec;
  std::string why;
  ASSERT_TRUE(fault::parseFaultSpec("cudaMemcpyAsync#3", &spec, &why)) << why;
  EXPECT_EQ(spec.substring, "cudaMemcpyAsync");
  EXPECT_EQ(spec.k, 3);
  EXPECT_EQ(spec.error, cudaSuccess);

  ASSERT_TRUE(fault::parseFaultSpec("#1=cudaErrorNotReady", &spec, &why)) << why;
  EXPECT_EQ(spec.substring, "");
  EXPECT_EQ(spec.k, 1);
  EXPECT_EQ(spec.error, cudaErrorNotReady);

  // Call texts hold '#'-free C++, but '=' and '(' occur; the count is after the last '#'.
  ASSERT_TRUE(fault::parseFaultSpec("a = b(c)#12=cudaErrorMemoryAllocation", &spec, &why));
  EXPECT_EQ(spec.substring, "a = b(c)");
  EXPECT_EQ(spec.k, 12);
  EXPECT_EQ(spec.error, cudaErrorMemoryAllocation);
}

TEST(FaultSpec, RejectsMalformedSpecsSayingWhy) {
  for (const char* bad : {"cudaMalloc", "cudaMalloc#", "cudaMalloc#0", "cudaMalloc#-2",
                          "cudaMalloc#2x", "cudaMalloc#2=", "cudaMalloc#2=cudaErrorNoSuchThing",
                          "cudaMalloc#2=cudaSuccess", "cudaMalloc#99999999999999999999"}) {
    SCOPED_TRACE(bad);
    fault::FaultSpec spec;
    std::string why;
    EXPECT_FALSE(fault::parseFaultSpec(bad, &spec, &why));
    EXPECT_FALSE(why.empty());
  }
}

} // namespace
