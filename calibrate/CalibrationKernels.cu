#include "CalibrationKernels.h"

namespace overlap::calibration {

namespace {

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

// A per-block fold of per-thread values into sink[blockIdx.x], which the read kernels store so
// that their loads are not optimized away: any single thread's value would let the compiler drop
// the loads of the others. Every thread of the block must call it (it holds barriers).
__device__ void storeBlockFold(unsigned long long folded, unsigned long long* sink) {
  __shared__ unsigned long long blockFold;
  if (threadIdx.x == 0)
    blockFold = 0;
  __syncthreads();
  atomicXor(&blockFold, folded);
  __syncthreads();
  if (threadIdx.x == 0)
    sink[blockIdx.x] = blockFold;
}

template <MappedAccess kAccess>
__global__ void mappedTrafficKernel(uint4* data, std::size_t vectors, unsigned char* tail,
                                    std::size_t tailBytes, unsigned long long* sink,
                                    const volatile int* stop, volatile int* timedOut,
                                    long long timeoutNs) {
  __shared__ int stopSeen;
  const unsigned long long start = globalNanoseconds();
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  unsigned long long folded = 0;
  for (unsigned pass = 0;; ++pass) {
    for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
         i < vectors; i += stride) {
      if (kAccess == MappedAccess::Write) {
        const unsigned value = static_cast<unsigned>(i) + pass;
        data[i] = make_uint4(value, value ^ 0x5a5a5a5au, ~value, value * 2654435761u);
      } else {
        const uint4 v = data[i];
        folded ^= (static_cast<unsigned long long>(v.x) << 32 | v.y) ^
                  (static_cast<unsigned long long>(v.z) << 32 | v.w);
      }
    }
    if (stop == nullptr)
      break;
    // One thread per block polls, so the polls add no noticeable traffic to what is measured.
    __syncthreads();
    if (threadIdx.x == 0) {
      int seen = *stop;
      if (seen == 0 && static_cast<long long>(globalNanoseconds() - start) > timeoutNs) {
        *timedOut = 1;
        seen = 1;
      }
      stopSeen = seen;
    }
    __syncthreads();
    if (stopSeen != 0)
      break;
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    for (std::size_t i = 0; i < tailBytes; ++i) {
      if (kAccess == MappedAccess::Write)
        tail[i] = static_cast<unsigned char>(i);
      else
        folded ^= tail[i];
    }
  }
  if (kAccess == MappedAccess::Read)
    storeBlockFold(folded, sink);
}

// What a read folds in and a write stores, per element type: cheap, and different per element
// and pass so neither the loads nor the stores can be elided.
__device__ unsigned long long fold(unsigned char v) {
  return v;
}
__device__ unsigned long long fold(unsigned short v) {
  return v;
}
__device__ unsigned long long fold(unsigned int v) {
  return v;
}
__device__ unsigned long long fold(unsigned long long v) {
  return v;
}
__device__ unsigned long long fold(uint4 v) {
  return (static_cast<unsigned long long>(v.x) << 32 | v.y) ^
         (static_cast<unsigned long long>(v.z) << 32 | v.w);
}

template <class T> __device__ T elementValue(std::size_t i) {
  return static_cast<T>(i * 2654435761u);
}
template <> __device__ uint4 elementValue<uint4>(std::size_t i) {
  const unsigned value = static_cast<unsigned>(i);
  return make_uint4(value, value ^ 0x5a5a5a5au, ~value, value * 2654435761u);
}

template <class T, MappedAccess kAccess>
__global__ void mappedWidthKernel(T* data, std::size_t count, unsigned long long* sink) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  unsigned long long folded = 0;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += stride) {
    if (kAccess == MappedAccess::Write)
      data[i] = elementValue<T>(i);
    else
      folded ^= fold(data[i]) + i;
  }
  if (kAccess == MappedAccess::Read)
    storeBlockFold(folded, sink);
}

__global__ void mappedBothWaysKernel(const uint4* in, uint4* out, std::size_t count) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += stride) {
    const uint4 v = in[i];
    const unsigned index = static_cast<unsigned>(i);
    out[i] = make_uint4(v.x ^ index, v.y + index, ~v.z, v.w * 2654435761u);
  }
}

template <class T> void launchWidth(const MappedWidthTraffic& t, cudaStream_t stream) {
  T* data = static_cast<T*>(t.mapped);
  const std::size_t count = t.bytes / sizeof(T);
  if (t.access == MappedAccess::Write)
    mappedWidthKernel<T, MappedAccess::Write>
        <<<t.blocks, kMappedKernelThreads, 0, stream>>>(data, count, t.sink);
  else
    mappedWidthKernel<T, MappedAccess::Read>
        <<<t.blocks, kMappedKernelThreads, 0, stream>>>(data, count, t.sink);
}

// The launch's own error, reported at the line of the launch.
Status launchStatus(const char* launch, int line) {
  const cudaError_t error = cudaGetLastError();
  return error == cudaSuccess ? Status::success() : Status{error, launch, __FILE__, line};
}

// Errors of earlier calls were returned by those calls; what remains recorded is not this
// launch's.
void forgetReportedErrors() {
  (void)cudaGetLastError();
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

Status launchMappedTraffic(const MappedTraffic& t, cudaStream_t stream) {
  const std::size_t vectors = t.bytes / sizeof(uint4);
  unsigned char* base = static_cast<unsigned char*>(t.mapped);
  unsigned char* tail = base + vectors * sizeof(uint4);
  const std::size_t tailBytes = t.bytes - vectors * sizeof(uint4);
  forgetReportedErrors();
  if (t.access == MappedAccess::Write) {
    mappedTrafficKernel<MappedAccess::Write><<<t.blocks, kMappedKernelThreads, 0, stream>>>(
        static_cast<uint4*>(t.mapped), vectors, tail, tailBytes, t.sink, t.stop, t.timedOut,
        t.timeoutNs);
    return launchStatus("mappedTrafficKernel<Write><<<blocks, 256, 0, stream>>>", __LINE__);
  }
  mappedTrafficKernel<MappedAccess::Read><<<t.blocks, kMappedKernelThreads, 0, stream>>>(
      static_cast<uint4*>(t.mapped), vectors, tail, tailBytes, t.sink, t.stop, t.timedOut,
      t.timeoutNs);
  return launchStatus("mappedTrafficKernel<Read><<<blocks, 256, 0, stream>>>", __LINE__);
}

Status launchMappedWidthTraffic(const MappedWidthTraffic& t, cudaStream_t stream) {
  if (t.elementBytes <= 0 || t.bytes % static_cast<std::size_t>(t.elementBytes) != 0)
    return Status{cudaErrorInvalidValue,
                  "launchMappedWidthTraffic: bytes is not a multiple of the element width",
                  __FILE__, __LINE__};
  forgetReportedErrors();
  switch (t.elementBytes) {
  case 1:
    launchWidth<unsigned char>(t, stream);
    break;
  case 2:
    launchWidth<unsigned short>(t, stream);
    break;
  case 4:
    launchWidth<unsigned int>(t, stream);
    break;
  case 8:
    launchWidth<unsigned long long>(t, stream);
    break;
  case 16:
    launchWidth<uint4>(t, stream);
    break;
  default:
    return Status{cudaErrorInvalidValue,
                  "launchMappedWidthTraffic: element width is not 1, 2, 4, 8 or 16 bytes", __FILE__,
                  __LINE__};
  }
  return launchStatus("mappedWidthKernel<T, access><<<blocks, 256, 0, stream>>>", __LINE__);
}

Status launchMappedBothWays(const MappedBothWaysTraffic& t, cudaStream_t stream) {
  if (t.in == nullptr || t.out == nullptr || t.bytes % sizeof(uint4) != 0)
    return Status{cudaErrorInvalidValue,
                  "launchMappedBothWays: a buffer is null or bytes is not a multiple of 16",
                  __FILE__, __LINE__};
  forgetReportedErrors();
  mappedBothWaysKernel<<<t.blocks, kMappedKernelThreads, 0, stream>>>(
      static_cast<const uint4*>(t.in), static_cast<uint4*>(t.out), t.bytes / sizeof(uint4));
  return launchStatus("mappedBothWaysKernel<<<blocks, 256, 0, stream>>>", __LINE__);
}

} // namespace overlap::calibration
