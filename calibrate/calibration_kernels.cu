#include "calibration_kernels.h"

namespace overlap::calibration {

namespace {

__device__ unsigned long long global_nanoseconds() {
  unsigned long long now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  return now;
}

__global__ void gate_kernel(const volatile int* open, volatile int* timed_out,
                            long long timeout_ns) {
  const unsigned long long start = global_nanoseconds();
  while (*open == 0) {
    if (static_cast<long long>(global_nanoseconds() - start) > timeout_ns) {
      *timed_out = 1;
      return;
    }
    // Each poll is a read across PCIe; sleeping between polls keeps the link quiet.
    __nanosleep(1000);
  }
}

__global__ void empty_kernel() {}

// A per-block fold of per-thread values into sink[blockIdx.x], which the read kernels store so
// that their loads are not optimized away: any single thread's value would let the compiler drop
// the loads of the others. Every thread of the block must call it (it holds barriers).
__device__ void store_block_fold(unsigned long long folded, unsigned long long* sink) {
  __shared__ unsigned long long block_fold;
  if (threadIdx.x == 0)
    block_fold = 0;
  __syncthreads();
  atomicXor(&block_fold, folded);
  __syncthreads();
  if (threadIdx.x == 0)
    sink[blockIdx.x] = block_fold;
}

template <MappedAccess kAccess>
__global__ void mapped_traffic_kernel(uint4* data, std::size_t vectors, unsigned char* tail,
                                      std::size_t tail_bytes, unsigned long long* sink,
                                      const volatile int* stop, volatile int* timed_out,
                                      long long timeout_ns) {
  __shared__ int stop_seen;
  const unsigned long long start = global_nanoseconds();
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
      if (seen == 0 && static_cast<long long>(global_nanoseconds() - start) > timeout_ns) {
        *timed_out = 1;
        seen = 1;
      }
      stop_seen = seen;
    }
    __syncthreads();
    if (stop_seen != 0)
      break;
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    for (std::size_t i = 0; i < tail_bytes; ++i) {
      if (kAccess == MappedAccess::Write)
        tail[i] = static_cast<unsigned char>(i);
      else
        folded ^= tail[i];
    }
  }
  if (kAccess == MappedAccess::Read)
    store_block_fold(folded, sink);
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

template <class T> __device__ T element_value(std::size_t i) {
  return static_cast<T>(i * 2654435761u);
}
template <> __device__ uint4 element_value<uint4>(std::size_t i) {
  const unsigned value = static_cast<unsigned>(i);
  return make_uint4(value, value ^ 0x5a5a5a5au, ~value, value * 2654435761u);
}

template <class T, MappedAccess kAccess>
__global__ void mapped_width_kernel(T* data, std::size_t count, unsigned long long* sink) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  unsigned long long folded = 0;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += stride) {
    if (kAccess == MappedAccess::Write)
      data[i] = element_value<T>(i);
    else
      folded ^= fold(data[i]) + i;
  }
  if (kAccess == MappedAccess::Read)
    store_block_fold(folded, sink);
}

__global__ void mapped_both_ways_kernel(const uint4* in, uint4* out, std::size_t count) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += stride) {
    const uint4 v = in[i];
    const unsigned index = static_cast<unsigned>(i);
    out[i] = make_uint4(v.x ^ index, v.y + index, ~v.z, v.w * 2654435761u);
  }
}

template <class T> void launch_width(const MappedWidthTraffic& t, cudaStream_t stream) {
  T* data = static_cast<T*>(t.mapped);
  const std::size_t count = t.bytes / sizeof(T);
  if (t.access == MappedAccess::Write)
    mapped_width_kernel<T, MappedAccess::Write>
        <<<t.blocks, kMappedKernelThreads, 0, stream>>>(data, count, t.sink);
  else
    mapped_width_kernel<T, MappedAccess::Read>
        <<<t.blocks, kMappedKernelThreads, 0, stream>>>(data, count, t.sink);
}

// The launch's own error, reported at the line of the launch.
Status launch_status(const char* launch, int line) {
  const cudaError_t error = cudaGetLastError();
  return error == cudaSuccess ? Status::success() : Status{error, launch, __FILE__, line};
}

// Errors of earlier calls were returned by those calls; what remains recorded is not this
// launch's.
void forget_reported_errors() {
  (void)cudaGetLastError();
}

} // namespace

Status launch_gate(const int* open, int* timed_out, long long timeout_ns, cudaStream_t stream) {
  forget_reported_errors();
  gate_kernel<<<1, 1, 0, stream>>>(open, timed_out, timeout_ns);
  return launch_status("gate_kernel<<<1, 1, 0, stream>>>", __LINE__);
}

Status launch_empty(cudaStream_t stream) {
  forget_reported_errors();
  empty_kernel<<<1, 1, 0, stream>>>();
  return launch_status("empty_kernel<<<1, 1, 0, stream>>>", __LINE__);
}

Status launch_mapped_traffic(const MappedTraffic& t, cudaStream_t stream) {
  const std::size_t vectors = t.bytes / sizeof(uint4);
  unsigned char* base = static_cast<unsigned char*>(t.mapped);
  unsigned char* tail = base + vectors * sizeof(uint4);
  const std::size_t tail_bytes = t.bytes - vectors * sizeof(uint4);
  forget_reported_errors();
  if (t.access == MappedAccess::Write) {
    mapped_traffic_kernel<MappedAccess::Write><<<t.blocks, kMappedKernelThreads, 0, stream>>>(
        static_cast<uint4*>(t.mapped), vectors, tail, tail_bytes, t.sink, t.stop, t.timed_out,
        t.timeout_ns);
    return launch_status("mapped_traffic_kernel<Write><<<blocks, 256, 0, stream>>>", __LINE__);
  }
  mapped_traffic_kernel<MappedAccess::Read><<<t.blocks, kMappedKernelThreads, 0, stream>>>(
      static_cast<uint4*>(t.mapped), vectors, tail, tail_bytes, t.sink, t.stop, t.timed_out,
      t.timeout_ns);
  return launch_status("mapped_traffic_kernel<Read><<<blocks, 256, 0, stream>>>", __LINE__);
}

Status launch_mapped_width_traffic(const MappedWidthTraffic& t, cudaStream_t stream) {
  if (t.element_bytes <= 0 || t.bytes % static_cast<std::size_t>(t.element_bytes) != 0)
    return Status{cudaErrorInvalidValue,
                  "launch_mapped_width_traffic: bytes is not a multiple of the element width",
                  __FILE__, __LINE__};
  forget_reported_errors();
  switch (t.element_bytes) {
  case 1:
    launch_width<unsigned char>(t, stream);
    break;
  case 2:
    launch_width<unsigned short>(t, stream);
    break;
  case 4:
    launch_width<unsigned int>(t, stream);
    break;
  case 8:
    launch_width<unsigned long long>(t, stream);
    break;
  case 16:
    launch_width<uint4>(t, stream);
    break;
  default:
    return Status{cudaErrorInvalidValue,
                  "launch_mapped_width_traffic: element width is not 1, 2, 4, 8 or 16 bytes",
                  __FILE__, __LINE__};
  }
  return launch_status("mapped_width_kernel<T, access><<<blocks, 256, 0, stream>>>", __LINE__);
}

Status launch_mapped_both_ways(const MappedBothWaysTraffic& t, cudaStream_t stream) {
  if (t.in == nullptr || t.out == nullptr || t.bytes % sizeof(uint4) != 0)
    return Status{cudaErrorInvalidValue,
                  "launch_mapped_both_ways: a buffer is null or bytes is not a multiple of 16",
                  __FILE__, __LINE__};
  forget_reported_errors();
  mapped_both_ways_kernel<<<t.blocks, kMappedKernelThreads, 0, stream>>>(
      static_cast<const uint4*>(t.in), static_cast<uint4*>(t.out), t.bytes / sizeof(uint4));
  return launch_status("mapped_both_ways_kernel<<<blocks, 256, 0, stream>>>", __LINE__);
}

} // namespace overlap::calibration
