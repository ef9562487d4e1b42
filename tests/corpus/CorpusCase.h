// One kernel of the corpus (tests/corpus/README.md): the calls to check it at and its CPU
// reference. The GPU harness (CorpusGpuTest.cpp) finds the kernel's descriptor by name,
// allocates every array from the annotation's extents, fills the inputs with fresh random data
// (then calls `prepare`, where a kernel needs valid inputs such as indices), runs every variant
// and compares each with Explicit and with the reference.
#pragma once

#include "overlap/Descriptor.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace overlap::corpus {

// The scalar arguments of one call, by parameter name as the generated entry points take them.
// Parameters not listed keep their tune(...) default.
using Scalars = std::vector<std::pair<std::string, double>>;

// The arguments of one call as the generated entry points take them (kernel parameters in order,
// less the range bounds the pipeline sets, then the annotation's param(...) ones): args[i] points
// at the i-th argument's value, as for cudaLaunchKernel.
using CallArgs = const void* const*;

struct Case {
  const char* kernel;              // the descriptor's name: the kernel's, or its instantiation's
  std::vector<Scalars> smallCalls; // n = 1, n below the stream count, n prime, ...
  Scalars largeCall;               // tens of MB of traffic
  // Relative tolerance against the reference (and against Explicit where the kernel's result
  // depends on the order of atomic updates); 0: bit for bit.
  double tolerance;
  // Computes the outputs from the inputs on the CPU, in place, for the arguments of one call.
  void (*reference)(CallArgs args);
  // Makes random inputs valid where the kernel needs it (indices in range, sorted offsets); null
  // when any random input is valid.
  void (*prepare)(CallArgs args, std::uint64_t seed);
};

bool registerCase(const Case& c);
const std::vector<Case>& cases();

// Reads argument i of a call as the type the entry point takes it.
template <class T> T arg(CallArgs args, int i) {
  return *static_cast<const T*>(args[i]);
}

} // namespace overlap::corpus

// Registers a case from a static initializer in the kernel's .ref.cpp file.
#define OVERLAP_CORPUS_CASE(id, ...)                                                               \
  static const bool overlapCorpusCase_##id =                                                       \
      ::overlap::corpus::registerCase(::overlap::corpus::Case{__VA_ARGS__})
