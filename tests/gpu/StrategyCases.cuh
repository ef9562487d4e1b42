// The strategy configurations every GPU test runs: Explicit, Mapped, and Streams and Hybrid for
// N in {1, 2, 3, 7, 16, 64} (or other counts) in both issue orders, and out of core (the ring of
// DeviceLayout.h, one slot per stream) turning 2, 3 and many times; plus dispatch and readable
// test names.
#pragma once

#include "overlap/Explicit.cuh"
#include "overlap/Hybrid.cuh"
#include "overlap/KernelTypes.h"
#include "overlap/Mapped.cuh"
#include "overlap/Status.h"
#include "overlap/Streams.cuh"

#include <string>
#include <utility>
#include <vector>

namespace overlap::test {

struct StrategyCase {
  Variant variant = Variant::Explicit;
  StreamsConfig streams;
  bool async = false; // run<Variant>Async on asyncTestStream(), then wait for the stream
};

// A GoogleTest-safe name, e.g. "Streams_N16_BreadthFirst", "Hybrid_N3_C9_Ring_DepthFirst".
inline std::string nameOf(const StrategyCase& c) {
  std::string name = to_string(c.variant);
  if (c.variant == Variant::Streams || c.variant == Variant::Hybrid) {
    name += "_N" + std::to_string(c.streams.streams);
    if (c.streams.chunks > 0)
      name += "_C" + std::to_string(c.streams.chunks);
    if (c.streams.buffers == DeviceBuffers::Ring)
      name += "_Ring";
    name += c.streams.order == IssueOrder::DepthFirst ? "_DepthFirst" : "_BreadthFirst";
    if (c.streams.graph)
      name += "_Graph";
  }
  return c.async ? name + "_Async" : name;
}

// Explicit, Mapped, and Streams and Hybrid for each stream count in both issue orders; then
// Streams and Hybrid out of core, their ring turning 2, 3 and many times (no more than the
// partition has granules: fewer at small sizes).
inline std::vector<StrategyCase> strategyCases(const std::vector<int>& streamCounts) {
  std::vector<StrategyCase> cases = {{Variant::Explicit, {}}, {Variant::Mapped, {}}};
  for (Variant variant : {Variant::Streams, Variant::Hybrid})
    for (IssueOrder order : {IssueOrder::DepthFirst, IssueOrder::BreadthFirst}) {
      for (int streams : streamCounts)
        cases.push_back({variant, {streams, order}});
      for (const auto& [streams, chunks] : {std::pair<int, int>{2, 4}, {3, 9}, {7, 259}}) {
        StreamsConfig ring{streams, order};
        ring.chunks = chunks;
        ring.buffers = DeviceBuffers::Ring;
        cases.push_back({variant, ring});
      }
    }
  return cases;
}

inline std::vector<StrategyCase> allStrategyCases() {
  return strategyCases({1, 2, 3, 7, 16, 64});
}

// One of each variant, small N: for quick runs such as under compute-sanitizer.
inline std::vector<StrategyCase> oneCasePerVariant() {
  return {{Variant::Explicit, {}},
          {Variant::Mapped, {}},
          {Variant::Streams, {3, IssueOrder::DepthFirst}},
          {Variant::Hybrid, {3, IssueOrder::BreadthFirst}}};
}

// The stream the asynchronous cases run on: a blocking stream of the test's own, as most programs
// have (created once, never destroyed).
inline cudaStream_t asyncTestStream() {
  static const cudaStream_t stream = [] {
    cudaStream_t made = nullptr;
    return cudaStreamCreate(&made) == cudaSuccess ? made : nullptr;
  }();
  return stream;
}

template <class B> Status runAsyncCase(const B& binding, const StrategyCase& c) {
  const cudaStream_t stream = asyncTestStream();
  Status first;
  switch (c.variant) {
  case Variant::Explicit:
    first = runExplicitAsync(binding, stream);
    break;
  case Variant::Mapped:
    first = runMappedAsync(binding, stream);
    break;
  case Variant::Streams:
    first = runStreamsAsync(binding, c.streams, stream);
    break;
  case Variant::Hybrid:
    first = runHybridAsync(binding, c.streams, stream);
    break;
  }
  keepFirst(first, detail::synchronize(stream));
  return first;
}

template <class B> Status runCase(const B& binding, const StrategyCase& c) {
  if (c.async)
    return runAsyncCase(binding, c);
  switch (c.variant) {
  case Variant::Explicit:
    return runExplicit(binding);
  case Variant::Mapped:
    return runMapped(binding);
  case Variant::Streams:
    return runStreams(binding, c.streams);
  case Variant::Hybrid:
    return runHybrid(binding, c.streams);
  }
  return Status{cudaErrorInvalidValue, "run_case: unknown variant", __FILE__, __LINE__};
}

// Partition extents to test a configuration with: a single element, N-1 (fewer elements than
// streams: some streams idle) when that is at least 2, a prime that no N divides, and `large`
// when given.
inline std::vector<long long> partitionExtents(const StrategyCase& c, long long large = 0) {
  std::vector<long long> extents = {1};
  const bool chunked = c.variant == Variant::Streams || c.variant == Variant::Hybrid;
  if (chunked && c.streams.streams - 1 >= 2)
    extents.push_back(c.streams.streams - 1);
  extents.push_back(1009);
  if (large > 0)
    extents.push_back(large);
  return extents;
}

} // namespace overlap::test
