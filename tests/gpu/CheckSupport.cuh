// What the checks of one strategy configuration against Explicit and a CPU reference share:
// random and copied host buffers, runs on a scribbled device cache, and the trace of a case.
#pragma once

#include "GpuTestSupport.h"
#include "StrategyCases.cuh"
#include "overlap/DeviceContext.h"

#include <algorithm>
#include <string>

namespace overlap::test {

template <class T>
void allocateRandom(std::size_t count, HostMemory memory, Random& random, HostBuffer<T>* out) {
  OVERLAP_ASSERT_OK(HostBuffer<T>::allocate(count, memory, out));
  random.fill(out->data(), count);
}

template <class T>
void allocateCopy(const HostBuffer<T>& source, HostMemory memory, HostBuffer<T>* out) {
  OVERLAP_ASSERT_OK(HostBuffer<T>::allocate(source.size(), memory, out));
  std::copy(source.data(), source.data() + source.size(), out->data());
}

// Runs one strategy on a device cache full of garbage: an element the strategy fails to copy in
// then reads as garbage, not as what the previous run left in the same place.
template <class B> Status runScribbled(const B& binding, const StrategyCase& c) {
  OVERLAP_TRY(scribbleCachedDeviceMemory(0xFF));
  return runCase(binding, c);
}

inline const StrategyCase kExplicit{Variant::Explicit, {}};

inline std::string describe(const StrategyCase& c, HostMemory memory, const char* extent,
                            long long p) {
  return nameOf(c) + ", " + to_string(memory) + " memory, " + extent + " = " + std::to_string(p);
}

} // namespace overlap::test
