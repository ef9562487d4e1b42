// One case of the example tests: a variant and, for Streams and Hybrid, its settings; named in
// gtest's and ctest's output as "Explicit", "Mapped", "Streams3x10RingBreadthFirst", ...
#pragma once

#include "overlap/KernelTypes.h"

#include <gtest/gtest.h>

#include <ostream>
#include <string>

namespace overlap::test {

struct ExampleCase {
  Variant variant;
  int streams = 0; // Streams and Hybrid only
  IssueOrder order = IssueOrder::DepthFirst;
  int chunks = 0;     // 0: one per stream
  bool ring = false;  // out of core: DeviceBuffers::Ring, one slot per stream
  bool graph = false; // StreamsConfig::graph: Graph-Streams, Graph-Hybrid
};

inline std::string describe(const ExampleCase& c) {
  switch (c.variant) {
  case Variant::Explicit:
    return "Explicit";
  case Variant::Mapped:
    return "Mapped";
  default:
    break;
  }
  return std::string(c.graph ? "Graph" : "") +
         (c.variant == Variant::Streams ? "Streams" : "Hybrid") + std::to_string(c.streams) +
         (c.chunks > 0 ? "x" + std::to_string(c.chunks) : "") + (c.ring ? "Ring" : "") +
         (c.order == IssueOrder::DepthFirst ? "DepthFirst" : "BreadthFirst");
}

// Readable parameters in gtest's and ctest's output.
inline void PrintTo(const ExampleCase& c, std::ostream* out) {
  *out << describe(c);
}

inline std::string caseName(const testing::TestParamInfo<ExampleCase>& info) {
  return describe(info.param);
}

// The StreamsConfig of a streamed case.
inline StreamsConfig configOf(const ExampleCase& c) {
  StreamsConfig config{c.streams, c.order};
  config.chunks = c.chunks;
  config.buffers = c.ring ? DeviceBuffers::Ring : DeviceBuffers::Auto;
  config.graph = c.graph;
  return config;
}

} // namespace overlap::test
