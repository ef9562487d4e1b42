#include "LinkBench.h"

#include <algorithm>
#include <iterator>
#include <utility>

namespace overlap::calibration {

namespace {

constexpr int kThreads = 256; // per block of the traffic kernel

__device__ unsigned long long globalNanoseconds() {
  unsigned long long now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  return now;
}

__global__ void gateKernel(const volatile int* open, volatile int* timedOut, long long timeoutNs) {
  const unsigned long long start = globalNanoseconds();
  while (*open == 0) {
    if (static_cast<long long>(globalNanoseconds() - start) > timeoutNs) {
      *timedOut = 1;
      return;
    }
    // Each poll is a read across PCIe; sleeping between polls keeps the link quiet.
    __nanosleep(1000);
  }
}

__global__ void emptyKernel() {}

// What a read folds in and a write stores, per element type: cheap, and different per element so
// neither the loads nor the stores can be elided.
template <class T> __device__ unsigned long long fold(T v) {
  return v;
}
template <> __device__ unsigned long long fold(uint4 v) {
  return (static_cast<unsigned long long>(v.x) << 32 | v.y) ^
         (static_cast<unsigned long long>(v.z) << 32 | v.w);
}
template <class T> __device__ T elementValue(unsigned long long i) {
  return static_cast<T>(i * 2654435761u);
}
template <> __device__ uint4 elementValue<uint4>(unsigned long long i) {
  const unsigned value = static_cast<unsigned>(i);
  return make_uint4(value, value ^ 0x5a5a5a5au, ~value, value * 2654435761u);
}

template <class T, MappedAccess kAccess>
__global__ void trafficKernel(T* data, std::size_t count, unsigned long long* sink) {
  __shared__ unsigned long long blockFold;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  unsigned long long folded = 0;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += stride) {
    if (kAccess == MappedAccess::Read)
      folded ^= fold(data[i]) + i;
    else
      data[i] = elementValue<T>(i);
  }
  if (kAccess == MappedAccess::Read) {
    // All threads' values folded per block: any single thread's value would let the compiler
    // drop the loads of the others.
    if (threadIdx.x == 0)
      blockFold = 0;
    __syncthreads();
    atomicXor(&blockFold, folded);
    __syncthreads();
    if (threadIdx.x == 0)
      sink[blockIdx.x] = blockFold;
  }
}

template <class T>
void launchWidth(MappedAccess access, void* mapped, std::size_t bytes, unsigned long long* sink,
                 int blocks, cudaStream_t stream) {
  const auto kernel = access == MappedAccess::Read ? trafficKernel<T, MappedAccess::Read>
                                                   : trafficKernel<T, MappedAccess::Write>;
  kernel<<<blocks, kThreads, 0, stream>>>(static_cast<T*>(mapped), bytes / sizeof(T), sink);
}

// Errors of earlier calls were returned by those calls; what remains recorded is not this
// launch's. The launch's own error is reported at the line of the launch.
void forgetReportedErrors() {
  (void)cudaGetLastError();
}
Status launchStatus(const char* launch, int line) {
  const cudaError_t error = cudaGetLastError();
  return error == cudaSuccess ? Status::success() : Status{error, launch, __FILE__, line};
}

} // namespace

Status launchGate(const int* open, int* timedOut, long long timeoutNs, cudaStream_t stream) {
  forgetReportedErrors();
  gateKernel<<<1, 1, 0, stream>>>(open, timedOut, timeoutNs);
  return launchStatus("gateKernel<<<1, 1, 0, stream>>>", __LINE__);
}

Status launchEmpty(cudaStream_t stream) {
  forgetReportedErrors();
  emptyKernel<<<1, 1, 0, stream>>>();
  return launchStatus("emptyKernel<<<1, 1, 0, stream>>>", __LINE__);
}

Status launchMappedTraffic(MappedAccess access, int elementBytes, void* mapped, std::size_t bytes,
                           unsigned long long* sink, int blocks, cudaStream_t stream) {
  using Launch = void (*)(MappedAccess, void*, std::size_t, unsigned long long*, int, cudaStream_t);
  const std::pair<int, Launch> widths[] = {{1, launchWidth<unsigned char>},
                                           {2, launchWidth<unsigned short>},
                                           {4, launchWidth<unsigned int>},
                                           {8, launchWidth<unsigned long long>},
                                           {16, launchWidth<uint4>}};
  const auto width = std::find_if(std::begin(widths), std::end(widths),
                                  [&](const auto& w) { return w.first == elementBytes; });
  if (width == std::end(widths) || bytes % static_cast<std::size_t>(elementBytes) != 0 ||
      mapped == nullptr || sink == nullptr)
    return Status{cudaErrorInvalidValue,
                  "launchMappedTraffic: no buffer, or an element width other than 1, 2, 4, 8 or "
                  "16 bytes, or bytes not a multiple of it",
                  __FILE__, __LINE__};
  forgetReportedErrors();
  width->second(access, mapped, bytes, sink, blocks, stream);
  return launchStatus("trafficKernel<T, access><<<blocks, 256, 0, stream>>>", __LINE__);
}

} // namespace overlap::calibration
