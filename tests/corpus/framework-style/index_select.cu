// index_select along dimension 0 of a contiguous tensor, PyTorch style: dst[j, :] =
// src[indices[j], :] for j < numIndices, each slice innerSize elements long (an embedding lookup
// is the same gather with the weight as src). One thread per output element through
// CUDA_KERNEL_LOOP_TYPE with an int64_t linear index, over a grid capped as ATen caps it; the
// index is checked with CUDA_KERNEL_ASSERT.
//
// Modeled on: pytorch/pytorch, aten/src/ATen/native/cuda/Indexing.cu (indexSelectLargeIndex,
// index_select_out_cuda_impl: template over the scalar and the index type, int64_t or int; the
// grid min(ceil_div(total, 128), ...)), aten/src/ATen/cuda/detail/KernelUtils.h
// (CUDA_KERNEL_LOOP_TYPE) and c10/macros/Macros.h (C10_LAUNCH_BOUNDS_1, CUDA_KERNEL_ASSERT).
// ATen passes TensorInfo structs that hold the pointers; here the tensors are contiguous and
// passed as arrays. Written anew for this corpus.
//
// Exercises: int64_t and int index arrays read in chunks while the table they index is a
// broadcast input (prepare makes the indices valid), int64_t sizes, a kernel template with two
// named instantiations in a nested namespace, __launch_bounds__ through a macro between
// `template` and `__global__`, a grid-stride loop under an explicit, capped grid.
#include <overlap/annotate.h>

#include <cassert>
#include <cstdint>

#define C10_LAUNCH_BOUNDS_1(max_threads_per_block) __launch_bounds__((max_threads_per_block))
#define CUDA_KERNEL_ASSERT(cond) assert(cond)

#define CUDA_KERNEL_LOOP_TYPE(i, n, index_type)                                                    \
  int64_t _i_n_d_e_x = blockIdx.x * blockDim.x + threadIdx.x;                                      \
  for (index_type i = _i_n_d_e_x; _i_n_d_e_x < (n);                                                \
       _i_n_d_e_x += blockDim.x * gridDim.x, i = _i_n_d_e_x)

namespace at {
namespace native {

constexpr int kIndexSelectThreads = 128;
constexpr int kIndexSelectMaxBlocks = 1024; // ATen: multiprocessors * 8

// clang-format off
OVERLAP_KERNEL(partition(numIndices) offset(numIndices)
               extent(dst: numIndices * innerSize) extent(src: srcSelectDimSize * innerSize)
               extent(indices: numIndices)
               copyin(src, indices[lo:hi]) copyout(dst[lo * innerSize : hi * innerSize])
               launch(grid: min(ceil_div(len * innerSize, kIndexSelectThreads),
                                kIndexSelectMaxBlocks),
                      block: kIndexSelectThreads)
               instantiate(index_select_float_int64: scalar_t = float, index_t = int64_t)
               instantiate(index_select_double_int32: scalar_t = double, index_t = int)
               tune(numIndices = 65536, innerSize = 256, srcSelectDimSize = 8192))
// clang-format on
template <typename scalar_t, typename index_t>
C10_LAUNCH_BOUNDS_1(kIndexSelectThreads)
__global__
    void index_select_large_index(scalar_t* __restrict__ dst, const scalar_t* __restrict__ src,
                                  const index_t* __restrict__ indices, int64_t numIndices,
                                  int64_t innerSize, int64_t srcSelectDimSize) {
  const int64_t totalSize = numIndices * innerSize;
  CUDA_KERNEL_LOOP_TYPE(linearIndex, totalSize, int64_t) {
    const int64_t dstIndex = linearIndex / innerSize;
    const int64_t elementInSlice = linearIndex % innerSize;
    const index_t srcIndex = indices[dstIndex];
    CUDA_KERNEL_ASSERT(srcIndex >= 0 && srcIndex < srcSelectDimSize);
    dst[dstIndex * innerSize + elementInSlice] = src[srcIndex * innerSize + elementInSlice];
  }
}

} // namespace native
} // namespace at
