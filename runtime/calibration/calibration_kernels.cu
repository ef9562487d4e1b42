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

__global__ void mapped_read_kernel(const uint4* in, std::size_t vectors, const unsigned char* tail,
                                   std::size_t tail_bytes, unsigned long long* sink) {
  unsigned long long folded = 0;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < vectors;
       i += stride) {
    const uint4 v = in[i];
    folded ^= (static_cast<unsigned long long>(v.x) << 32 | v.y) ^
              (static_cast<unsigned long long>(v.z) << 32 | v.w);
  }
  if (blockIdx.x == 0 && threadIdx.x == 0)
    for (std::size_t i = 0; i < tail_bytes; ++i)
      folded ^= tail[i];
  // A per-block fold of per-thread values: any single thread's value would let the compiler
  // drop the loads of the others.
  __shared__ unsigned long long block_fold;
  if (threadIdx.x == 0)
    block_fold = 0;
  __syncthreads();
  atomicXor(&block_fold, folded);
  __syncthreads();
  if (threadIdx.x == 0)
    sink[blockIdx.x] = block_fold;
}

__global__ void mapped_write_kernel(uint4* out, std::size_t vectors, unsigned char* tail,
                                    std::size_t tail_bytes) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < vectors;
       i += stride) {
    const unsigned value = static_cast<unsigned>(i);
    out[i] = make_uint4(value, value ^ 0x5a5a5a5au, ~value, value * 2654435761u);
  }
  if (blockIdx.x == 0 && threadIdx.x == 0)
    for (std::size_t i = 0; i < tail_bytes; ++i)
      tail[i] = static_cast<unsigned char>(i);
}

// The launch's own error, reported at the line of the launch.
Status launch_status(const char* launch, int line) {
  const cudaError_t error = cudaGetLastError();
  return error == cudaSuccess ? Status::success() : Status{error, launch, __FILE__, line};
}

} // namespace

Status launch_gate(const int* open, int* timed_out, long long timeout_ns, cudaStream_t stream) {
  gate_kernel<<<1, 1, 0, stream>>>(open, timed_out, timeout_ns);
  return launch_status("gate_kernel<<<1, 1, 0, stream>>>", __LINE__);
}

Status launch_empty(cudaStream_t stream) {
  empty_kernel<<<1, 1, 0, stream>>>();
  return launch_status("empty_kernel<<<1, 1, 0, stream>>>", __LINE__);
}

Status launch_mapped_read(const void* mapped, std::size_t bytes, unsigned long long* sink,
                          int blocks, cudaStream_t stream) {
  const std::size_t vectors = bytes / sizeof(uint4);
  const unsigned char* base = static_cast<const unsigned char*>(mapped);
  mapped_read_kernel<<<blocks, kMappedKernelThreads, 0, stream>>>(
      static_cast<const uint4*>(mapped), vectors, base + vectors * sizeof(uint4),
      bytes - vectors * sizeof(uint4), sink);
  return launch_status("mapped_read_kernel<<<blocks, kMappedKernelThreads, 0, stream>>>", __LINE__);
}

Status launch_mapped_write(void* mapped, std::size_t bytes, int blocks, cudaStream_t stream) {
  const std::size_t vectors = bytes / sizeof(uint4);
  unsigned char* base = static_cast<unsigned char*>(mapped);
  mapped_write_kernel<<<blocks, kMappedKernelThreads, 0, stream>>>(
      static_cast<uint4*>(mapped), vectors, base + vectors * sizeof(uint4),
      bytes - vectors * sizeof(uint4));
  return launch_status("mapped_write_kernel<<<blocks, kMappedKernelThreads, 0, stream>>>",
                       __LINE__);
}

} // namespace overlap::calibration
