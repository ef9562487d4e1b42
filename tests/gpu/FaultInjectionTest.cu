// Faults that lose nothing (issue 7): a strategy call whose CUDA call fails, by fault injection
// (overlap/FaultInjection.h) at every call it makes (a graph form's while it is captured too) or
// by a real out-of-memory, returns an error naming that call, leaves its inputs bit for bit as they
// were, leaves no host memory registered and no CUDA error pending, gives its device memory back
// when asked, and a later call works.
#include "ColumnBinding.h"
#include "GpuTestSupport.h"
#include "MatmulBinding.h"
#include "SaxpyBinding.h"
#include "StrategyCases.cuh"
#include "overlap/DeviceContext.h"
#include "overlap/DeviceMemoryBudget.h"
#include "overlap/FaultInjection.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

namespace overlap::test {
namespace {

// The configurations faults are injected into: every variant, the pipelined ones in both orders
// and with one stream, fewer streams than chunks would need, and the default four; then every
// variant asynchronous (on pageable memory they run synchronously after the stream).
std::vector<StrategyCase> faultCases() {
  std::vector<StrategyCase> cases = {{Variant::Explicit, {}}, {Variant::Mapped, {}}};
  for (IssueOrder order : {IssueOrder::DepthFirst, IssueOrder::BreadthFirst}) {
    for (int streams : {1, 3, 4})
      cases.push_back({Variant::Streams, {streams, order}});
    cases.push_back({Variant::Hybrid, {3, order}});
  }
  for (StrategyCase c : oneCasePerVariant()) {
    c.async = true;
    cases.push_back(c);
  }
  return cases;
}

bool needsMapping(const StrategyCase& c) {
  return c.variant == Variant::Mapped || c.variant == Variant::Hybrid;
}

// Streams, then Hybrid where the device can map host memory, in both issue orders; otherwise as
// `like`.
std::vector<StrategyCase> pipelineCases(const StrategyCase& like, bool canMap) {
  std::vector<StrategyCase> cases;
  for (Variant variant : {Variant::Streams, Variant::Hybrid})
    for (IssueOrder order : {IssueOrder::DepthFirst, IssueOrder::BreadthFirst}) {
      if (variant == Variant::Hybrid && !canMap)
        continue;
      StrategyCase c = like;
      c.variant = variant;
      c.streams.order = order;
      cases.push_back(c);
    }
  return cases;
}

// Empty when the current device can map host memory (Mapped, Hybrid), else why not.
std::string mappingUnavailableReason() {
  int device = 0;
  int canMap = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&canMap, cudaDevAttrCanMapHostMemory, device) != cudaSuccess) {
    (void)cudaGetLastError();
    return "cudaDevAttrCanMapHostMemory could not be read";
  }
  return canMap != 0 ? std::string() : "the device cannot map host memory (Mapped, Hybrid)";
}

// The bytes of every array a binding names, to restore them before a call and compare after.
template <class B> std::vector<std::vector<unsigned char>> snapshot(const B& binding) {
  std::vector<std::vector<unsigned char>> bytes;
  for (int i = 0; i < B::kArrays; ++i) {
    const HostArray array = binding.array(i);
    const auto* data = static_cast<const unsigned char*>(array.host);
    bytes.emplace_back(data, data + static_cast<std::size_t>(array.extent) * array.elementSize);
  }
  return bytes;
}

template <class B>
void restore(const B& binding, const std::vector<std::vector<unsigned char>>& bytes) {
  for (int i = 0; i < B::kArrays; ++i)
    std::memcpy(binding.array(i).host, bytes[static_cast<std::size_t>(i)].data(),
                bytes[static_cast<std::size_t>(i)].size());
}

// Which arrays differ from `expected`: all of them when `inputsOnly` is false, else the
// Direction::In ones. Empty when none does.
template <class B>
std::string differingArrays(const B& binding,
                            const std::vector<std::vector<unsigned char>>& expected,
                            bool inputsOnly) {
  std::string names;
  const std::vector<std::vector<unsigned char>> now = snapshot(binding);
  for (int i = 0; i < B::kArrays; ++i) {
    const HostArray array = binding.array(i);
    if (inputsOnly && array.direction != Direction::In)
      continue;
    if (now[static_cast<std::size_t>(i)] != expected[static_cast<std::size_t>(i)])
      names += std::string(names.empty() ? "" : ", ") + array.name;
  }
  return names;
}

// The arrays whose registration state is not what the user gave: a pageable array left
// registered, or a pinned one unregistered.
template <class B> std::string wronglyRegistered(const B& binding, HostMemory memory) {
  std::string names;
  const cudaMemoryType wanted =
      memory == HostMemory::Pinned ? cudaMemoryTypeHost : cudaMemoryTypeUnregistered;
  for (int i = 0; i < B::kArrays; ++i) {
    const HostArray array = binding.array(i);
    cudaPointerAttributes attributes{};
    const cudaError_t error = cudaPointerGetAttributes(&attributes, array.host);
    if (error != cudaSuccess) {
      (void)cudaGetLastError();
      names += std::string(names.empty() ? "" : ", ") + array.name + " (" +
               cudaGetErrorName(error) + ")";
    } else if (attributes.type != wanted) {
      names += std::string(names.empty() ? "" : ", ") + array.name;
    }
  }
  return names;
}

// The error state a failed call must not leave behind.
void expectNoPendingError() {
  EXPECT_EQ(cudaPeekAtLastError(), cudaSuccess);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

// GraphBlock::take's allocation, as fault injection names it.
const char* const kGraphBlockAllocation = "cudaMalloc(&made, bytes)";

// Everything a failed call must leave as it found it: inputs, registrations, the error state.
template <class B>
void expectNothingLost(const B& binding, HostMemory memory,
                       const std::vector<std::vector<unsigned char>>& before) {
  EXPECT_EQ(differingArrays(binding, before, true), "") << "inputs changed";
  EXPECT_EQ(wronglyRegistered(binding, memory), "") << "registration state changed";
  expectNoPendingError();
}

using Snapshot = std::vector<std::vector<unsigned char>>;

// Releases the cached device memory (and graphs) before a counted or faulted call of `c`. A graph
// form's first call of a shape then runs uncaptured; one clean call of it first makes the counted
// or faulted call the one captured into a graph.
template <class B>
void releaseBefore(const B& binding, const StrategyCase& c, const Snapshot& initial) {
  OVERLAP_ASSERT_OK(releaseCachedDeviceMemory());
  if (c.streams.graph) {
    OVERLAP_ASSERT_OK(runCase(binding, c));
    restore(binding, initial);
  }
}

// Expects a call of each of `names` among `calls` (call texts, each beginning with the name).
void expectAmongCalls(const std::vector<std::string>& calls,
                      std::initializer_list<const char*> names, const std::string& why) {
  for (const char* name : names)
    EXPECT_TRUE(std::any_of(calls.begin(), calls.end(),
                            [&](const std::string& call) { return call.find(name) == 0; }))
        << name << " is not among the calls" << why;
}

// The calls one clean call of `c` makes, and Explicit's result (the arrays restored to `initial`
// after each). A warm-up call comes first: the first call of a process also creates the pooled
// streams and events, the staging ring's events and threads, and asks the device's attributes,
// calls that later ones no longer make, and the count must be of the calls that the faulted calls
// make (a graph form's second call, its first captured, creates the graph cache's stream). The
// cache is released before the counted call, so the allocation is among them.
template <class B>
void countCleanCalls(const B& binding, const StrategyCase& c, const Snapshot& initial,
                     Snapshot* expected, std::vector<std::string>* calls) {
  // From the initial contents: an earlier case's calls left their results in the in-out arrays.
  restore(binding, initial);
  OVERLAP_ASSERT_OK(runCase(binding, StrategyCase{Variant::Explicit, {}}));
  *expected = snapshot(binding);
  restore(binding, initial);
  for (int warm = 0; warm < (c.streams.graph ? 2 : 1); ++warm) {
    OVERLAP_ASSERT_OK(runCase(binding, c));
    restore(binding, initial);
  }
  ASSERT_NO_FATAL_FAILURE(releaseBefore(binding, c, initial));
  {
    const fault::ScopedCallCount count;
    OVERLAP_ASSERT_OK(runCase(binding, c));
    *calls = fault::matchedCallTexts();
  }
  ASSERT_EQ(differingArrays(binding, *expected, false), "") << "the clean call differs";
  ASSERT_GT(calls->size(), 0u);
}

// Fails the k-th call containing `substring` (expected to be `call`) of one call of `c` and checks
// what the failure leaves, and that a later call works.
template <class B>
void checkFault(const B& binding, const StrategyCase& c, HostMemory memory, const Snapshot& initial,
                const Snapshot& expected, const std::string& substring, long long k,
                const std::string& call) {
  restore(binding, initial);
  ASSERT_NO_FATAL_FAILURE(releaseBefore(binding, c, initial));
  Status status;
  {
    const fault::ScopedFault armed(substring, k);
    status = runCase(binding, c);
    EXPECT_TRUE(fault::fired());
    EXPECT_EQ(fault::firedCall(), call);
  }
  if (status.ok()) {
    // The tolerated failures: pinning a range only for faster copies (the copies then run
    // synchronously from pageable memory), and a graph's own device block (the call then runs
    // plain); the results must still be right.
    EXPECT_TRUE(call.find("cudaHostRegister") == 0 || call == kGraphBlockAllocation)
        << "a failed call went unreported";
    EXPECT_EQ(differingArrays(binding, expected, false), "");
  } else {
    ASSERT_NE(status.call, nullptr);
    EXPECT_EQ(std::string(status.call), call) << status.message();
  }
  expectNothingLost(binding, memory, initial);

  restore(binding, initial);
  const Status later = runCase(binding, c);
  EXPECT_TRUE(later.ok()) << "the later call: " << later.message();
  EXPECT_EQ(differingArrays(binding, expected, false), "") << "the later call vs Explicit";
}

// Counts the calls of one clean call of `c`, then fails each of them in turn and checks what
// every failure leaves.
template <class B>
void checkEveryFault(const B& binding, const StrategyCase& c, HostMemory memory) {
  const Snapshot initial = snapshot(binding);
  Snapshot expected;
  std::vector<std::string> calls;
  ASSERT_NO_FATAL_FAILURE(countCleanCalls(binding, c, initial, &expected, &calls));
  if (c.streams.graph)
    expectAmongCalls(calls, {"cudaStreamBeginCapture", "cudaGraphInstantiate", "cudaGraphLaunch"},
                     ": the call was not captured");
  bool sawAllocation = false;
  for (std::size_t k = 1; k <= calls.size(); ++k) {
    const std::string& call = calls[k - 1];
    SCOPED_TRACE("fault at call " + std::to_string(k) + " of " + std::to_string(calls.size()) +
                 ": " + call);
    checkFault(binding, c, memory, initial, expected, "", static_cast<long long>(k), call);
    sawAllocation = sawAllocation || call.find("cudaMalloc") == 0;
    if (::testing::Test::HasFailure())
      return;
  }
  // Explicit, Streams and Hybrid hold device buffers; the cache was empty before each call.
  if (c.variant != Variant::Mapped)
    EXPECT_TRUE(sawAllocation) << "cudaMalloc was never among the calls";
}

struct SaxpyData {
  HostBuffer<float> x, y;
  float a = 1.5f;
  long long n = 0;
  Status allocate(long long count, HostMemory memory, Random& random) {
    n = count;
    OVERLAP_TRY(HostBuffer<float>::allocate(static_cast<std::size_t>(n), memory, &x));
    OVERLAP_TRY(HostBuffer<float>::allocate(static_cast<std::size_t>(n), memory, &y));
    random.fill(x.data(), x.size());
    random.fill(y.data(), y.size());
    random.fill(&a, 1);
    return Status::success();
  }
  SaxpyBinding binding() const { return SaxpyBinding{n, a, x.data(), y.data()}; }
};

struct MatmulData {
  static constexpr long long kN = 29;
  static constexpr long long kK = 37;
  HostBuffer<std::uint32_t> a, b, c;
  long long m = 0;
  Status allocate(long long rows, HostMemory memory, Random& random) {
    m = rows;
    OVERLAP_TRY(HostBuffer<std::uint32_t>::allocate(static_cast<std::size_t>(m * kK), memory, &a));
    OVERLAP_TRY(HostBuffer<std::uint32_t>::allocate(static_cast<std::size_t>(kK * kN), memory, &b));
    OVERLAP_TRY(HostBuffer<std::uint32_t>::allocate(static_cast<std::size_t>(m * kN), memory, &c));
    random.fill(a.data(), a.size());
    random.fill(b.data(), b.size());
    random.fill(c.data(), c.size()); // garbage an Out array starts with
    return Status::success();
  }
  MatmulBinding binding() const { return MatmulBinding{m, kN, kK, a.data(), b.data(), c.data()}; }
};

struct ColumnData {
  static constexpr long long kPlane = 67;
  HostBuffer<float> rho, acc, out;
  long long levels = 0;
  Status allocate(long long count, HostMemory memory, Random& random) {
    levels = count;
    const auto elements = static_cast<std::size_t>(levels * kPlane);
    OVERLAP_TRY(HostBuffer<float>::allocate(elements, memory, &rho));
    OVERLAP_TRY(HostBuffer<float>::allocate(elements, memory, &acc));
    OVERLAP_TRY(HostBuffer<float>::allocate(elements, memory, &out));
    random.fill(rho.data(), elements);
    random.fill(acc.data(), elements);
    random.fill(out.data(), elements);
    return Status::success();
  }
  ColumnBinding binding() const {
    return ColumnBinding{levels, kPlane, rho.data(), acc.data(), out.data()};
  }
};

template <class Data> void checkEveryFaultOfEveryCase(long long size) {
  OVERLAP_SKIP_WITHOUT_GPU();
  const std::string noMapping = mappingUnavailableReason();
  Random random;
  SCOPED_TRACE(random.trace());
  for (HostMemory memory : {HostMemory::Pageable, HostMemory::Pinned}) {
    Data data;
    OVERLAP_ASSERT_OK(data.allocate(size, memory, random));
    for (const StrategyCase& c : faultCases()) {
      if (needsMapping(c) && !noMapping.empty())
        continue; // said once below
      SCOPED_TRACE(nameOf(c) + ", " + to_string(memory) + " memory, size " + std::to_string(size));
      checkEveryFault(data.binding(), c, memory);
      if (::testing::Test::HasFailure())
        return;
    }
  }
  if (!noMapping.empty())
    GTEST_SKIP() << "Mapped and Hybrid not tested: " << noMapping;
}

TEST(FaultInjection, EveryFailingCallOfSaxpyLosesNothing) {
  checkEveryFaultOfEveryCase<SaxpyData>(1009);
}

// Broadcast input (b, sent once and awaited through an event) and a pure output.
TEST(FaultInjection, EveryFailingCallOfMatmulLosesNothing) {
  checkEveryFaultOfEveryCase<MatmulData>(1009);
}

// Halo sections shared between chunks through events, an InOut and an Out array.
TEST(FaultInjection, EveryFailingCallOfColumnLosesNothing) {
  checkEveryFaultOfEveryCase<ColumnData>(1009);
}

// The graph forms' call that is captured, made executable and launched: capture, the entry's own
// device block, instantiation and launch fail too. Pinned arrays (on pageable ones the graph forms
// run synchronously, uncaptured).
template <class Data> void checkEveryFaultOfCapturedCalls(long long size) {
  OVERLAP_SKIP_WITHOUT_GPU();
  const std::string noMapping = mappingUnavailableReason();
  Random random;
  SCOPED_TRACE(random.trace());
  Data data;
  OVERLAP_ASSERT_OK(data.allocate(size, HostMemory::Pinned, random));
  StrategyCase captured{Variant::Streams, {3}, true};
  captured.streams.graph = true;
  for (const StrategyCase& c : pipelineCases(captured, noMapping.empty())) {
    SCOPED_TRACE(nameOf(c));
    checkEveryFault(data.binding(), c, HostMemory::Pinned);
    if (::testing::Test::HasFailure())
      return;
  }
  if (!noMapping.empty())
    GTEST_SKIP() << "Hybrid not tested: " << noMapping;
}

TEST(FaultInjection, EveryFailingCallOfACapturedSaxpyLosesNothing) {
  checkEveryFaultOfCapturedCalls<SaxpyData>(1009);
}

TEST(FaultInjection, EveryFailingCallOfACapturedColumnLosesNothing) {
  checkEveryFaultOfCapturedCalls<ColumnData>(1009);
}

// The staging ring (PageableMode::Stage) makes CUDA calls from its host threads too, whose
// order against the issuer's varies from run to run: every distinct call is failed at its first
// occurrence instead of by position. The ring's slots are freed before every call, so their
// allocation is among the calls; a ring of three 1 KiB slots cuts every copy into pieces.
template <class Data> void checkEveryFaultOfStagedCalls(long long size) {
  OVERLAP_SKIP_WITHOUT_GPU();
  const std::string noMapping = mappingUnavailableReason();
  Random random;
  SCOPED_TRACE(random.trace());
  Data data;
  OVERLAP_ASSERT_OK(data.allocate(size, HostMemory::Pageable, random));
  const auto binding = data.binding();
  const Snapshot initial = snapshot(binding);
  const StrategyCase staged{Variant::Streams,
                            {3, IssueOrder::DepthFirst, PageableMode::Stage, {2, 1024, 3}}};
  for (const StrategyCase& c : pipelineCases(staged, noMapping.empty())) {
    SCOPED_TRACE(nameOf(c) + ", staged");
    Snapshot expected;
    std::vector<std::string> calls;
    ASSERT_NO_FATAL_FAILURE(countCleanCalls(binding, c, initial, &expected, &calls));
    std::sort(calls.begin(), calls.end());
    calls.erase(std::unique(calls.begin(), calls.end()), calls.end());
    expectAmongCalls(calls, {"cudaHostAlloc", "cudaEventSynchronize"}, "");
    for (const std::string& call : calls) {
      SCOPED_TRACE("fault at the first " + call);
      checkFault(binding, c, HostMemory::Pageable, initial, expected, call, 1, call);
      if (::testing::Test::HasFailure())
        return;
    }
  }
}

TEST(FaultInjection, EveryFailingCallOfAStagedSaxpyLosesNothing) {
  checkEveryFaultOfStagedCalls<SaxpyData>(1009);
}

TEST(FaultInjection, EveryFailingCallOfAStagedColumnLosesNothing) {
  checkEveryFaultOfStagedCalls<ColumnData>(1009);
}

// Not a fault, but read from the same call record: a halo chunk's copies in are issued after a
// wait for its predecessor's (Pipeline.cuh says why). Breadth first, every copy in is issued
// before the first kernel, so chunks 1-3 of four make one wait each there, each followed by
// their copies.
TEST(HaloCopies, WaitForThePredecessorsCopiesBeforeTheirOwn) {
  OVERLAP_SKIP_WITHOUT_GPU();
  const std::string noMapping = mappingUnavailableReason();
  Random random;
  SCOPED_TRACE(random.trace());
  ColumnData data;
  OVERLAP_ASSERT_OK(data.allocate(9, HostMemory::Pinned, random));
  const ColumnBinding binding = data.binding();
  for (Variant variant : {Variant::Streams, Variant::Hybrid}) {
    const StrategyCase c{variant, {4, IssueOrder::BreadthFirst}};
    if (needsMapping(c) && !noMapping.empty())
      continue;
    SCOPED_TRACE(nameOf(c));
    OVERLAP_ASSERT_OK(runCase(binding, c)); // the first call also creates streams and events
    std::vector<std::string> calls;
    {
      const fault::ScopedCallCount count;
      OVERLAP_ASSERT_OK(runCase(binding, c));
      calls = fault::matchedCallTexts();
    }
    const auto starts = [](const std::string& call, const char* name) {
      return call.rfind(name, 0) == 0;
    };
    const auto firstLaunch = std::find_if(calls.begin(), calls.end(), [](const std::string& call) {
      return call.find("<<<") != std::string::npos;
    });
    ASSERT_NE(firstLaunch, calls.end());
    int waits = 0;
    for (auto call = calls.begin(); call != firstLaunch; ++call) {
      if (!starts(*call, "cudaStreamWaitEvent"))
        continue;
      ++waits;
      ASSERT_NE(call + 1, firstLaunch) << "a wait with no copy after it";
      EXPECT_TRUE(starts(*(call + 1), "cudaMemcpy")) << "after the wait: " << *(call + 1);
    }
    EXPECT_EQ(waits, 3);
  }
  if (!noMapping.empty())
    GTEST_SKIP() << "Hybrid not tested: " << noMapping;
}

// Streams(4) with earlier chunks in flight: the failure is in the middle of the issue loop, of a
// call large enough that its first chunks' copies are still running when it comes.
TEST(FaultInjection, OutOfMemoryMidwayThroughAStreamsPipeline) {
  OVERLAP_SKIP_WITHOUT_GPU();
  Random random;
  SCOPED_TRACE(random.trace());
  const long long n = 1LL << 22;
  for (HostMemory memory : {HostMemory::Pageable, HostMemory::Pinned})
    for (IssueOrder order : {IssueOrder::DepthFirst, IssueOrder::BreadthFirst})
      for (const char* which : {"cudaMemcpyAsync", "<<<"}) {
        const StrategyCase c{Variant::Streams, {4, order}};
        SCOPED_TRACE(nameOf(c) + ", " + to_string(memory) + ", failing the middle " + which);
        SaxpyData data;
        OVERLAP_ASSERT_OK(data.allocate(n, memory, random));
        const SaxpyBinding binding = data.binding();
        const std::vector<std::vector<unsigned char>> initial = snapshot(binding);
        long long count = 0;
        {
          const fault::ScopedCallCount counting(which);
          OVERLAP_ASSERT_OK(runCase(binding, c));
          count = fault::matchedCalls();
        }
        ASSERT_GE(count, 4);
        restore(binding, initial);
        Status status;
        {
          const fault::ScopedFault armed(which, count / 2 + 1, cudaErrorMemoryAllocation);
          status = runCase(binding, c);
          EXPECT_TRUE(fault::fired());
        }
        EXPECT_EQ(status.code, cudaErrorMemoryAllocation) << status.message();
        ASSERT_NE(status.call, nullptr);
        EXPECT_NE(std::string(status.call).find(which), std::string::npos) << status.message();
        expectNothingLost(binding, memory, initial);
        restore(binding, initial);
        OVERLAP_ASSERT_OK(runCase(binding, c));
        const std::vector<std::vector<unsigned char>> streamed = snapshot(binding);
        restore(binding, initial);
        OVERLAP_ASSERT_OK(runCase(binding, StrategyCase{Variant::Explicit, {}}));
        EXPECT_EQ(differingArrays(binding, streamed, false), "") << "the later call vs Explicit";
      }
}

// Depth first, the last copy is chunk 3's copy out: when it fails, chunks 0-2 were completely
// issued, and the call returns only once they are done; chunk 3's outputs were never copied.
TEST(FaultInjection, WorkIssuedBeforeAFailureIsFinishedWhenTheCallReturns) {
  OVERLAP_SKIP_WITHOUT_GPU();
  Random random;
  SCOPED_TRACE(random.trace());
  const long long n = (1LL << 22) + 3;
  for (HostMemory memory : {HostMemory::Pageable, HostMemory::Pinned}) {
    SCOPED_TRACE(to_string(memory));
    const StrategyCase c{Variant::Streams, {4, IssueOrder::DepthFirst}};
    SaxpyData data;
    OVERLAP_ASSERT_OK(data.allocate(n, memory, random));
    const SaxpyBinding binding = data.binding();
    const std::vector<float> yBefore(data.y.data(), data.y.data() + n);
    std::vector<float> reference = yBefore;
    saxpyReference(n, data.a, data.x.data(), reference.data());
    long long copies = 0;
    {
      const fault::ScopedCallCount counting("cudaMemcpyAsync");
      OVERLAP_ASSERT_OK(runCase(binding, c));
      copies = fault::matchedCalls();
    }
    std::copy(yBefore.begin(), yBefore.end(), data.y.data());
    const std::vector<std::vector<unsigned char>> before = snapshot(binding);
    Status status;
    {
      const fault::ScopedFault armed("cudaMemcpyAsync", copies);
      status = runCase(binding, c);
    }
    ASSERT_FALSE(status.ok());
    long long lo = 0;
    long long hi = 0;
    chunkBounds(n, 4, 3, lo, hi);
    const auto done = static_cast<std::size_t>(lo);
    EXPECT_TRUE(bitwiseEqual(reference.data(), data.y.data(), done)) << "chunks 0-2";
    EXPECT_TRUE(bitwiseEqual(yBefore.data() + done, data.y.data() + done, n - done))
        << "chunk 3, never copied out";
    expectNothingLost(binding, memory, before);
  }
}

// A failed synchronize must not let the registrations go while the kernel still reads them:
// unregistering mapped memory under a running kernel faults the kernel, and that error is sticky.
TEST(FaultInjection, AFailedSynchronizeStillWaitsBeforeUnregistering) {
  OVERLAP_SKIP_WITHOUT_GPU();
  const std::string noMapping = mappingUnavailableReason();
  if (!noMapping.empty())
    GTEST_SKIP() << noMapping;
  Random random;
  SCOPED_TRACE(random.trace());
  const long long n = 1LL << 25; // 128 MiB per array over the bus: the kernel runs for a while
  for (const StrategyCase& c : {StrategyCase{Variant::Mapped, {}},
                                StrategyCase{Variant::Hybrid, {4, IssueOrder::BreadthFirst}}}) {
    SCOPED_TRACE(nameOf(c));
    SaxpyData data;
    OVERLAP_ASSERT_OK(data.allocate(n, HostMemory::Pageable, random));
    const SaxpyBinding binding = data.binding();
    std::vector<float> reference(data.y.data(), data.y.data() + n);
    saxpyReference(n, data.a, data.x.data(), reference.data());
    const std::vector<float> yBefore(data.y.data(), data.y.data() + n);
    const std::vector<std::vector<unsigned char>> before = snapshot(binding);
    Status status;
    {
      const fault::ScopedFault armed("cudaStreamSynchronize", 1);
      status = runCase(binding, c);
    }
    EXPECT_EQ(status.code, cudaErrorUnknown);
    EXPECT_NE(std::string(status.call).find("cudaStreamSynchronize"), std::string::npos);
    expectNothingLost(binding, HostMemory::Pageable, before);
    std::copy(yBefore.begin(), yBefore.end(), data.y.data());
    OVERLAP_ASSERT_OK(runCase(binding, c));
    EXPECT_TRUE(bitwiseEqual(reference.data(), data.y.data(), static_cast<std::size_t>(n)));
  }
}

std::size_t freeDeviceBytes() {
  std::size_t free = 0;
  std::size_t total = 0;
  if (cudaMemGetInfo(&free, &total) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return free;
}

// cudaMemGetInfo counts in the driver's allocation granularity (2 MiB pages) and includes small
// driver-internal allocations (launch resources, lazily loaded modules) that come and go with the
// work; the blocks these tests lose track of, if any, are tens of MiB or more.
constexpr std::size_t kFreeBytesSlack = 8u << 20;

// Regression: a cudaFree that failed while the cache grew used to forget the old block (leaked
// for good); now the cache keeps it and a later release frees it.
TEST(FaultInjection, AFailedFreeKeepsTheBlockForALaterRelease) {
  OVERLAP_SKIP_WITHOUT_GPU();
  Random random;
  SCOPED_TRACE(random.trace());
  OVERLAP_ASSERT_OK(releaseCachedDeviceMemory());
  const std::size_t baseline = freeDeviceBytes();
  SaxpyData small, large;
  OVERLAP_ASSERT_OK(small.allocate(1LL << 23, HostMemory::Pinned, random)); // 64 MiB of buffers
  OVERLAP_ASSERT_OK(large.allocate(1LL << 24, HostMemory::Pinned, random));
  const StrategyCase explicitCase{Variant::Explicit, {}};
  OVERLAP_ASSERT_OK(runCase(small.binding(), explicitCase));
  const std::size_t smallBlock = cachedDeviceMemoryBytes();
  ASSERT_GE(smallBlock, 64u << 20);
  Status status;
  {
    const fault::ScopedFault armed("cudaFree", 1);
    status = runCase(large.binding(), explicitCase);
  }
  EXPECT_EQ(status.code, cudaErrorUnknown) << status.message();
  EXPECT_NE(std::string(status.call).find("cudaFree"), std::string::npos) << status.message();
  EXPECT_EQ(cachedDeviceMemoryBytes(), smallBlock) << "the block was forgotten";
  expectNoPendingError();
  OVERLAP_ASSERT_OK(releaseCachedDeviceMemory());
  EXPECT_EQ(cachedDeviceMemoryBytes(), 0u);
  EXPECT_LE(baseline, freeDeviceBytes() + kFreeBytesSlack) << "device memory leaked";
}

// Regression: a cudaHostUnregister that failed used to forget its range, leaving the user's
// pageable array pinned for good; now it is tried again when the registration goes.
TEST(FaultInjection, AFailedUnregisterLeavesNothingPinned) {
  OVERLAP_SKIP_WITHOUT_GPU();
  const std::string noMapping = mappingUnavailableReason();
  if (!noMapping.empty())
    GTEST_SKIP() << noMapping;
  Random random;
  SCOPED_TRACE(random.trace());
  SaxpyData data;
  OVERLAP_ASSERT_OK(data.allocate(100003, HostMemory::Pageable, random));
  const SaxpyBinding binding = data.binding();
  const std::vector<std::vector<unsigned char>> before = snapshot(binding);
  Status status;
  {
    const fault::ScopedFault armed("cudaHostUnregister", 1);
    status = runCase(binding, StrategyCase{Variant::Mapped, {}});
  }
  EXPECT_EQ(status.code, cudaErrorUnknown) << status.message();
  EXPECT_NE(std::string(status.call).find("cudaHostUnregister"), std::string::npos);
  expectNothingLost(binding, HostMemory::Pageable, before);
}

// Holds all but `leave` bytes of device memory, in pieces (one piece that large may not exist).
class DeviceMemoryHog {
public:
  DeviceMemoryHog() = default;
  DeviceMemoryHog(const DeviceMemoryHog&) = delete;
  DeviceMemoryHog& operator=(const DeviceMemoryHog&) = delete;
  ~DeviceMemoryHog() { release(); }

  void holdAllBut(std::size_t leave) {
    std::size_t piece = std::size_t{1} << 30;
    while (piece >= (std::size_t{1} << 20)) {
      const std::size_t free = freeDeviceBytes();
      if (free <= leave)
        return;
      const std::size_t take = std::min(piece, free - leave);
      void* block = nullptr;
      if (cudaMalloc(&block, take) == cudaSuccess) {
        blocks_.push_back(block);
      } else {
        (void)cudaGetLastError();
        piece /= 2;
      }
    }
  }
  void release() {
    for (void* block : blocks_)
      (void)cudaFree(block);
    blocks_.clear();
  }

private:
  std::vector<void*> blocks_;
};

TEST(FaultInjection, RealOutOfMemoryLosesNothingAndTheMemoryComesBack) {
  OVERLAP_SKIP_WITHOUT_GPU();
  const std::string noMapping = mappingUnavailableReason();
  Random random;
  SCOPED_TRACE(random.trace());
  const long long n = 1LL << 24; // 64 MiB per array, 128 MiB of device buffers
  std::vector<StrategyCase> cases = {{Variant::Explicit, {}},
                                     {Variant::Streams, {4, IssueOrder::DepthFirst}},
                                     {Variant::Streams, {4, IssueOrder::BreadthFirst}}};
  if (noMapping.empty()) {
    cases.push_back({Variant::Mapped, {}});
    cases.push_back({Variant::Hybrid, {4, IssueOrder::DepthFirst}});
  }
  for (HostMemory memory : {HostMemory::Pageable, HostMemory::Pinned}) {
    SCOPED_TRACE(to_string(memory));
    SaxpyData data;
    OVERLAP_ASSERT_OK(data.allocate(n, memory, random));
    const SaxpyBinding binding = data.binding();
    const std::vector<std::vector<unsigned char>> initial = snapshot(binding);
    // Warm up every case (streams, events, lazily loaded kernels) before memory runs short, so
    // the only allocation left to fail is the buffers'.
    for (const StrategyCase& c : cases) {
      restore(binding, initial);
      OVERLAP_ASSERT_OK(runCase(binding, c));
    }
    const std::vector<std::vector<unsigned char>> expected = snapshot(binding);
    OVERLAP_ASSERT_OK(releaseCachedDeviceMemory());
    const std::size_t baseline = freeDeviceBytes();
    {
      DeviceMemoryHog hog;
      hog.holdAllBut(32u << 20);
      ASSERT_LT(freeDeviceBytes(), 128u << 20) << "could not fill the device's memory";
      struct BudgetReset {
        ~BudgetReset() { setDeviceMemoryBudget(0); }
      } reset;
      // First the automatic budget (what is free, less a margin) refuses the buffers before any
      // allocation; then a budget that ignores the hog lets cudaMalloc itself fail.
      for (const std::size_t budget : {std::size_t{0}, std::size_t{1} << 50}) {
        SCOPED_TRACE(budget == 0 ? "automatic budget" : "a budget past the device's memory");
        setDeviceMemoryBudget(budget);
        for (const StrategyCase& c : cases) {
          SCOPED_TRACE(nameOf(c));
          restore(binding, initial);
          const Status status = runCase(binding, c);
          if (c.variant == Variant::Mapped) {
            // Needs no device buffers: works in what is left.
            EXPECT_TRUE(status.ok()) << status.message();
            EXPECT_EQ(differingArrays(binding, expected, false), "");
          } else {
            EXPECT_EQ(status.code, cudaErrorMemoryAllocation) << status.message();
            ASSERT_NE(status.call, nullptr);
            if (budget == 0)
              EXPECT_NE(status.message().find("of device memory; the budget is"), std::string::npos)
                  << status.message();
            else
              EXPECT_EQ(std::string(status.call).find("cudaMalloc"), 0u) << status.message();
          }
          expectNothingLost(binding, memory, initial);
        }
      }
    }
    for (const StrategyCase& c : cases) {
      SCOPED_TRACE("after the hog, " + nameOf(c));
      restore(binding, initial);
      OVERLAP_ASSERT_OK(runCase(binding, c));
      EXPECT_EQ(differingArrays(binding, expected, false), "");
    }
    OVERLAP_ASSERT_OK(releaseCachedDeviceMemory());
    EXPECT_LE(baseline, freeDeviceBytes() + kFreeBytesSlack) << "device memory not given back";
  }
  if (!noMapping.empty())
    GTEST_SKIP() << "Mapped and Hybrid not tested: " << noMapping;
}

} // namespace
} // namespace overlap::test
