// The asynchronous entry points (K_<variant>_async, K_tuned_async) of the generated examples, on
// the caller's stream: every variant equals the synchronous Explicit at odd sizes, both issue
// orders, full buffers and out of core; work the caller queued before the call is done before the
// call reads its inputs (a host function on the stream writes them late), work queued after it
// sees its outputs; the call returns before its stream runs (the host function waits for the
// return); calls in flight at once on one stream and on two keep their own device memory; a call
// captured into a CUDA graph replays correctly; and pageable arrays make the call synchronous,
// still ordered on the stream. The graph forms (StreamsConfig::graph) pass the same tests, the
// ordering one on a replay.
#include "ExampleCases.h"
#include "GpuTestSupport.h"
#include "buoydiff.overlap.h"
#include "saxpy.overlap.h"

#include "overlap/Dispatch.h"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace {

using overlap::IssueOrder;
using overlap::Variant;
using overlap::test::bitwiseEqual;
using overlap::test::HostBuffer;
using overlap::test::HostMemory;

using AsyncCase = overlap::test::ExampleCase;
using overlap::test::caseName;
using overlap::test::configOf;

std::vector<AsyncCase> asyncCases() {
  std::vector<AsyncCase> cases = {{Variant::Explicit}, {Variant::Mapped}};
  for (Variant variant : {Variant::Streams, Variant::Hybrid})
    for (IssueOrder order : {IssueOrder::DepthFirst, IssueOrder::BreadthFirst}) {
      for (int streams : {1, 3, 16})
        cases.push_back({variant, streams, order});
      cases.push_back({variant, 3, order, 10});
      cases.push_back({variant, 2, order, 5, true});
      for (int streams : {1, 3, 16})
        cases.push_back({variant, streams, order, 0, false, true});
      cases.push_back({variant, 3, order, 10, false, true});
    }
  return cases;
}

// Runs the case's asynchronous entry point among the four given.
template <class Explicit, class Mapped, class Streams, class Hybrid>
overlap::Status runAsyncCase(const AsyncCase& c, Explicit&& explicitFn, Mapped&& mappedFn,
                             Streams&& streamsFn, Hybrid&& hybridFn) {
  switch (c.variant) {
  case Variant::Explicit:
    return explicitFn();
  case Variant::Mapped:
    return mappedFn();
  case Variant::Streams:
    return streamsFn(configOf(c));
  case Variant::Hybrid:
    break;
  }
  return hybridFn(configOf(c));
}

// The case's asynchronous saxpy on `stream`.
overlap::Status saxpyAsync(const AsyncCase& c, int n, float a, const float* x, float* y,
                           cudaStream_t stream) {
  return runAsyncCase(
      c, [&] { return saxpy_explicit_async(n, a, x, y, stream); },
      [&] { return saxpy_mapped_async(n, a, x, y, stream); },
      [&](const overlap::StreamsConfig& config) {
        return saxpy_streams_async(n, a, x, y, config, stream);
      },
      [&](const overlap::StreamsConfig& config) {
        return saxpy_hybrid_async(n, a, x, y, config, stream);
      });
}

// A stream of the test's own (blocking, like most applications'), destroyed at the end.
class UserStream {
public:
  UserStream() { status_ = cudaStreamCreate(&stream_); }
  ~UserStream() {
    if (status_ == cudaSuccess)
      (void)cudaStreamDestroy(stream_);
  }
  bool ok() const { return status_ == cudaSuccess; }
  cudaStream_t get() const { return stream_; }

private:
  cudaError_t status_ = cudaErrorUnknown;
  cudaStream_t stream_ = nullptr;
};

// Host work on a stream (cudaLaunchHostFunc), owned by the test until the stream ran it.
class HostStep {
public:
  explicit HostStep(std::function<void()> work) : work_(std::move(work)) {}
  cudaError_t enqueue(cudaStream_t stream) {
    return cudaLaunchHostFunc(stream, &HostStep::run, this);
  }

private:
  static void CUDART_CB run(void* self) { static_cast<HostStep*>(self)->work_(); }
  std::function<void()> work_;
};

std::vector<float> randomFloats(overlap::test::Random& random, std::size_t count) {
  std::vector<float> values(count);
  random.fill(values.data(), values.size());
  return values;
}

template <class T> std::vector<T> copyOf(const HostBuffer<T>& buffer) {
  return std::vector<T>(buffer.data(), buffer.data() + buffer.size());
}

template <class T> void fillFrom(HostBuffer<T>& buffer, const std::vector<T>& values) {
  std::copy(values.begin(), values.end(), buffer.data());
}

class AsyncExampleTest : public testing::TestWithParam<AsyncCase> {
protected:
  void SetUp() override { OVERLAP_SKIP_WITHOUT_GPU(); }
  overlap::test::Random random_;
};

// saxpy (in-out y): the inputs are written by a host step queued before the call, the outputs read
// by one queued after it; the first waits for the call to return, so a call that waited for its
// stream would leave it waiting (and the test failing), not hanging.
TEST_P(AsyncExampleTest, SaxpyIsOrderedOnTheCallersStreamAndEqualsExplicit) {
  SCOPED_TRACE(random_.trace());
  const AsyncCase& c = GetParam();
  const UserStream stream;
  ASSERT_TRUE(stream.ok());
  for (const int n : {1, 2, 1009, (1 << 20) + 3}) {
    if (n > overlap::test::maxTestExtent())
      continue;
    SCOPED_TRACE("n = " + std::to_string(n));
    const float a = 1.5f;
    const std::vector<float> x = randomFloats(random_, static_cast<std::size_t>(n));
    const std::vector<float> y0 = randomFloats(random_, static_cast<std::size_t>(n));
    std::vector<float> want = y0;
    OVERLAP_ASSERT_OK(saxpy_explicit(n, a, x.data(), want.data()));

    HostBuffer<float> hostX;
    HostBuffer<float> hostY;
    OVERLAP_ASSERT_OK(HostBuffer<float>::allocate(x.size(), HostMemory::Pinned, &hostX));
    OVERLAP_ASSERT_OK(HostBuffer<float>::allocate(x.size(), HostMemory::Pinned, &hostY));
    std::fill(hostX.data(), hostX.data() + n, 3.0f); // not the inputs: the step writes them
    std::fill(hostY.data(), hostY.data() + n, 5.0f);
    // A first call grows the pools of streams and memory; the one checked below finds them. In
    // the graph form the first runs uncaptured and the second is captured: the third replays.
    const auto call = [&] { return saxpyAsync(c, n, a, hostX.data(), hostY.data(), stream.get()); };
    for (int warm = 0; warm < (c.graph ? 2 : 1); ++warm) {
      OVERLAP_ASSERT_OK(call());
      ASSERT_EQ(cudaStreamSynchronize(stream.get()), cudaSuccess);
    }
    std::fill(hostX.data(), hostX.data() + n, 3.0f);
    std::fill(hostY.data(), hostY.data() + n, 5.0f);
    std::atomic<bool> returned{false};
    bool sawReturn = false;
    HostStep writeInputs([&] {
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
      while (!returned.load() && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      sawReturn = returned.load();
      fillFrom(hostX, x);
      fillFrom(hostY, y0);
    });
    std::vector<float> seen;
    HostStep readOutputs([&] { seen = copyOf(hostY); });
    ASSERT_EQ(writeInputs.enqueue(stream.get()), cudaSuccess);
    OVERLAP_ASSERT_OK(call());
    returned = true;
    ASSERT_EQ(readOutputs.enqueue(stream.get()), cudaSuccess);
    ASSERT_EQ(cudaStreamSynchronize(stream.get()), cudaSuccess);
    EXPECT_TRUE(sawReturn) << "the call waited for its stream";
    ASSERT_EQ(seen.size(), want.size());
    EXPECT_TRUE(bitwiseEqual(want.data(), seen.data(), want.size()));
  }
}

// buoydiff (a broadcast level, a halo, a pure output that Hybrid maps), on the legacy default
// stream.
TEST_P(AsyncExampleTest, BuoydiffOnTheDefaultStreamEqualsExplicit) {
  SCOPED_TRACE(random_.trace());
  const AsyncCase& c = GetParam();
  const long long plane = 1031;
  for (const int levels : {1, 2, 13}) {
    SCOPED_TRACE("levels = " + std::to_string(levels));
    const std::size_t count = static_cast<std::size_t>(levels * plane);
    const std::vector<float> rho = randomFloats(random_, count);
    std::vector<float> want(count, 7.0f);
    OVERLAP_ASSERT_OK(buoydiff_explicit(levels, plane, rho.data(), want.data()));
    HostBuffer<float> hostRho;
    HostBuffer<float> out;
    OVERLAP_ASSERT_OK(HostBuffer<float>::allocate(count, HostMemory::Pinned, &hostRho));
    OVERLAP_ASSERT_OK(HostBuffer<float>::allocate(count, HostMemory::Pinned, &out));
    fillFrom(hostRho, rho);
    std::fill(out.data(), out.data() + count, 7.0f);
    const cudaStream_t stream = nullptr;
    OVERLAP_ASSERT_OK(runAsyncCase(
        c,
        [&] { return buoydiff_explicit_async(levels, plane, hostRho.data(), out.data(), stream); },
        [&] { return buoydiff_mapped_async(levels, plane, hostRho.data(), out.data(), stream); },
        [&](const overlap::StreamsConfig& config) {
          return buoydiff_streams_async(levels, plane, hostRho.data(), out.data(), config, stream);
        },
        [&](const overlap::StreamsConfig& config) {
          return buoydiff_hybrid_async(levels, plane, hostRho.data(), out.data(), config, stream);
        }));
    ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
    EXPECT_TRUE(bitwiseEqual(want.data(), out.data(), count));
  }
}

// Six calls in flight on each of two streams, each on arrays of its own, with no synchronization
// between them: a call that shared device memory with another in flight would mix their data.
TEST_P(AsyncExampleTest, CallsInFlightAtOnceKeepTheirOwnDeviceMemory) {
  SCOPED_TRACE(random_.trace());
  const AsyncCase& c = GetParam();
  const UserStream first;
  const UserStream second;
  ASSERT_TRUE(first.ok() && second.ok());
  const int n = static_cast<int>(std::min(100003LL, overlap::test::maxTestExtent()));
  const int calls = 12;
  std::vector<HostBuffer<float>> xs(calls);
  std::vector<HostBuffer<float>> ys(calls);
  std::vector<std::vector<float>> wants(calls);
  for (int i = 0; i < calls; ++i) {
    const std::vector<float> x = randomFloats(random_, n);
    wants[static_cast<std::size_t>(i)] = randomFloats(random_, n);
    OVERLAP_ASSERT_OK(HostBuffer<float>::allocate(n, HostMemory::Pinned, &xs[i]));
    OVERLAP_ASSERT_OK(HostBuffer<float>::allocate(n, HostMemory::Pinned, &ys[i]));
    fillFrom(xs[i], x);
    fillFrom(ys[i], wants[static_cast<std::size_t>(i)]);
    OVERLAP_ASSERT_OK(
        saxpy_explicit(n, -0.75f, x.data(), wants[static_cast<std::size_t>(i)].data()));
  }
  for (int i = 0; i < calls; ++i) {
    const cudaStream_t stream = (i % 2 == 0 ? first : second).get();
    float* const x = xs[i].data();
    float* const y = ys[i].data();
    OVERLAP_ASSERT_OK(saxpyAsync(c, n, -0.75f, x, y, stream));
  }
  ASSERT_EQ(cudaStreamSynchronize(first.get()), cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(second.get()), cudaSuccess);
  for (int i = 0; i < calls; ++i)
    EXPECT_TRUE(bitwiseEqual(wants[static_cast<std::size_t>(i)].data(), ys[i].data(),
                             static_cast<std::size_t>(n)))
        << "call " << i;
}

// Pageable arrays: the call runs synchronously (it returns after its stream's earlier work and its
// own), and stays ordered after what the stream held.
TEST_P(AsyncExampleTest, PageableArraysMakeTheCallSynchronousAndOrdered) {
  SCOPED_TRACE(random_.trace());
  const AsyncCase& c = GetParam();
  const UserStream stream;
  ASSERT_TRUE(stream.ok());
  const int n = 4099;
  const std::vector<float> x = randomFloats(random_, n);
  const std::vector<float> y0 = randomFloats(random_, n);
  std::vector<float> want = y0;
  OVERLAP_ASSERT_OK(saxpy_explicit(n, 2.5f, x.data(), want.data()));
  std::vector<float> hostX(n, 3.0f);
  std::vector<float> hostY(n, 5.0f);
  HostStep writeInputs([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    hostX = x;
    hostY = y0;
  });
  ASSERT_EQ(writeInputs.enqueue(stream.get()), cudaSuccess);
  OVERLAP_ASSERT_OK(saxpyAsync(c, n, 2.5f, hostX.data(), hostY.data(), stream.get()));
  // No synchronization: the results are in already.
  EXPECT_TRUE(bitwiseEqual(want.data(), hostY.data(), want.size()));
  EXPECT_EQ(cudaStreamQuery(stream.get()), cudaSuccess);
}

// The caller captures an asynchronous call into a CUDA graph (stream capture) and replays it: the
// fork and join, copies, kernels and stream-ordered buffers of the call become the graph's nodes,
// and every replay computes the call again on what the host arrays then hold.
TEST_P(AsyncExampleTest, ACallCapturedIntoACudaGraphReplaysCorrectly) {
  SCOPED_TRACE(random_.trace());
  const AsyncCase& c = GetParam();
  const UserStream stream;
  ASSERT_TRUE(stream.ok());
  const int n = static_cast<int>(std::min(100003LL, overlap::test::maxTestExtent()));
  HostBuffer<float> hostX;
  HostBuffer<float> hostY;
  OVERLAP_ASSERT_OK(HostBuffer<float>::allocate(n, HostMemory::Pinned, &hostX));
  OVERLAP_ASSERT_OK(HostBuffer<float>::allocate(n, HostMemory::Pinned, &hostY));
  const auto call = [&] {
    return saxpyAsync(c, n, 0.25f, hostX.data(), hostY.data(), stream.get());
  };
  // Outside the capture: the pools grow (a capture may not allocate streams or memory pools).
  fillFrom(hostX, randomFloats(random_, static_cast<std::size_t>(n)));
  fillFrom(hostY, randomFloats(random_, static_cast<std::size_t>(n)));
  OVERLAP_ASSERT_OK(call());
  ASSERT_EQ(cudaStreamSynchronize(stream.get()), cudaSuccess);

  cudaGraph_t graph = nullptr;
  ASSERT_EQ(cudaStreamBeginCapture(stream.get(), cudaStreamCaptureModeThreadLocal), cudaSuccess);
  const overlap::Status captured = call();
  ASSERT_EQ(cudaStreamEndCapture(stream.get(), &graph), cudaSuccess);
  const std::unique_ptr<CUgraph_st, cudaError_t (*)(cudaGraph_t)> ownGraph(graph, cudaGraphDestroy);
  OVERLAP_ASSERT_OK(captured);
  cudaGraphExec_t exec = nullptr;
  ASSERT_EQ(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
  const std::unique_ptr<CUgraphExec_st, cudaError_t (*)(cudaGraphExec_t)> ownExec(
      exec, cudaGraphExecDestroy);
  for (int replay = 0; replay < 3; ++replay) {
    const std::vector<float> x = randomFloats(random_, static_cast<std::size_t>(n));
    std::vector<float> want = randomFloats(random_, static_cast<std::size_t>(n));
    fillFrom(hostX, x);
    fillFrom(hostY, want);
    OVERLAP_ASSERT_OK(saxpy_explicit(n, 0.25f, x.data(), want.data()));
    ASSERT_EQ(cudaGraphLaunch(exec, stream.get()), cudaSuccess);
    ASSERT_EQ(cudaStreamSynchronize(stream.get()), cudaSuccess);
    EXPECT_TRUE(bitwiseEqual(want.data(), hostY.data(), want.size())) << "replay " << replay;
  }
}

INSTANTIATE_TEST_SUITE_P(AllVariants, AsyncExampleTest, testing::ValuesIn(asyncCases()), caseName);

// K_tuned_async runs its choice on the caller's stream.
TEST(AsyncTunedEntry, SaxpyTunedAsyncEqualsExplicit) {
  OVERLAP_SKIP_WITHOUT_GPU();
  overlap::test::Random random;
  SCOPED_TRACE(random.trace());
  const UserStream stream;
  ASSERT_TRUE(stream.ok());
  for (const int n : {1, 1009, (1 << 22) + 1}) {
    if (n > overlap::test::maxTestExtent())
      continue;
    const std::vector<float> x = randomFloats(random, static_cast<std::size_t>(n));
    std::vector<float> want = randomFloats(random, static_cast<std::size_t>(n));
    HostBuffer<float> hostX;
    HostBuffer<float> hostY;
    OVERLAP_ASSERT_OK(HostBuffer<float>::allocate(x.size(), HostMemory::Pinned, &hostX));
    OVERLAP_ASSERT_OK(HostBuffer<float>::allocate(x.size(), HostMemory::Pinned, &hostY));
    fillFrom(hostX, x);
    fillFrom(hostY, want);
    OVERLAP_ASSERT_OK(saxpy_explicit(n, 0.5f, x.data(), want.data()));
    OVERLAP_ASSERT_OK(saxpy_tuned_async(n, 0.5f, hostX.data(), hostY.data(), stream.get()));
    ASSERT_TRUE(overlap::lastDispatchChoice(saxpy_descriptor).has_value());
    ASSERT_EQ(cudaStreamSynchronize(stream.get()), cudaSuccess);
    EXPECT_TRUE(bitwiseEqual(want.data(), hostY.data(), want.size())) << "n = " << n;
  }
}

} // namespace
