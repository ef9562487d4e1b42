// 8-bit block quantization, ggml style: floats in blocks of QK8_0 = 32 values, each block stored
// as a half scale d = max|x| / 127 and 32 int8 quants round(x / d) (block_q8_0). quantize_q8_0
// has one thread per value and a warp per block (the warp's maximum by xor shuffles; lane 0
// writes the scale); dequantize_block has one thread per two values and takes the block's layout
// from template arguments (values per block, quants per byte, a dequantize function), as ggml's
// convert.cu does for every quantization type.
//
// Modeled on: ggerganov/llama.cpp, ggml/src/ggml-common.h (block_q8_0, QK8_0, QR8_0),
// ggml/src/ggml-cuda/quantize.cu (quantize_q8_1: a thread per value, warp_reduce_max, lane 0
// stores the scale), ggml/src/ggml-cuda/convert.cu (dequantize_block, CUDA_DEQUANTIZE_BLOCK_SIZE)
// and ggml/src/ggml-cuda/dequantize.cuh (dequantize_q8_0). Written anew for this corpus; ggml
// passes the blocks as `void *`, which has no element type, so here they are typed.
//
// Exercises: an array of a typedef'd C struct (a half and int8_t[32]: 34 bytes, no padding) as an
// output and as an input; chunks of whole blocks with a length in values
// (partition(k / QK8_0) offset(k = QK8_0 * len)); int64_t lengths; warp shuffles with an early
// return of whole warps; a `static` kernel template whose arguments are the file's macros, a
// function pointer through a typedef and the destination type (float and half).
#include <overlap/annotate.h>

#include <cuda_fp16.h>

#include <cstdint>

#define QK8_0 32
#define QR8_0 1
#define WARP_SIZE 32
#define CUDA_QUANTIZE_BLOCK_SIZE 256
#define CUDA_DEQUANTIZE_BLOCK_SIZE 256

typedef half ggml_half;

// As ggml-common.h writes it: a struct without a name, which the generated header declares by its
// typedef's name.
typedef struct {
  ggml_half d;      // delta
  int8_t qs[QK8_0]; // quants
} block_q8_0;
static_assert(sizeof(block_q8_0) == sizeof(ggml_half) + QK8_0, "wrong q8_0 block size/padding");

typedef void (*dequantize_kernel_t)(const block_q8_0* vx, const int64_t ib, const int iqs,
                                    float2& v);

static __device__ __forceinline__ float warp_reduce_max(float x) {
#pragma unroll
  for (int offset = WARP_SIZE / 2; offset > 0; offset >>= 1)
    x = fmaxf(x, __shfl_xor_sync(0xffffffff, x, offset, WARP_SIZE));
  return x;
}

// clang-format off
OVERLAP_KERNEL(partition(k / QK8_0) offset(k = QK8_0 * len)
               extent(x: k) extent(vy: k / QK8_0)
               copyin(x[lo * QK8_0 : hi * QK8_0]) copyout(vy[lo:hi])
               launch(grid: ceil_div(len * QK8_0, CUDA_QUANTIZE_BLOCK_SIZE),
                      block: CUDA_QUANTIZE_BLOCK_SIZE)
               tune(k = 33554432))
// clang-format on
static __global__ void quantize_q8_0(const float* __restrict__ x, block_q8_0* __restrict__ vy,
                                     const int64_t k) {
  const int64_t i = (int64_t)blockDim.x * blockIdx.x + threadIdx.x;

  if (i >= k) { // k is a multiple of QK8_0: whole warps leave
    return;
  }

  const int64_t ib = i / QK8_0;  // block index
  const int64_t iqs = i % QK8_0; // quant index

  const float xi = x[i];
  const float amax = warp_reduce_max(fabsf(xi));
  const float d = amax / 127;
  const int8_t q = amax == 0.0f ? 0 : roundf(xi / d);

  vy[ib].qs[iqs] = q;

  if (iqs > 0) {
    return;
  }

  vy[ib].d = d;
}

static __device__ __forceinline__ void dequantize_q8_0(const block_q8_0* vx, const int64_t ib,
                                                       const int iqs, float2& v) {
  const float d = vx[ib].d;

  v.x = vx[ib].qs[iqs + 0];
  v.y = vx[ib].qs[iqs + 1];

  v.x *= d;
  v.y *= d;
}

// clang-format off
OVERLAP_KERNEL(partition(k / qk) offset(k = qk * len)
               extent(vx: k / qk) extent(y: k)
               copyin(vx[lo:hi]) copyout(y[lo * qk : hi * qk])
               launch(grid: ceil_div(len * qk, 2 * CUDA_DEQUANTIZE_BLOCK_SIZE),
                      block: CUDA_DEQUANTIZE_BLOCK_SIZE)
               instantiate(dequantize_block_q8_0_f32: qk = QK8_0, qr = QR8_0,
                           dequantize_kernel = dequantize_q8_0, dst_t = float)
               instantiate(dequantize_block_q8_0_f16: qk = QK8_0, qr = QR8_0,
                           dequantize_kernel = dequantize_q8_0, dst_t = half)
               tune(k = 33554432))
// clang-format on
template <int qk, int qr, dequantize_kernel_t dequantize_kernel, typename dst_t>
static __global__ void dequantize_block(const block_q8_0* __restrict__ vx, dst_t* __restrict__ y,
                                        const int64_t k) {
  const int64_t i = 2 * ((int64_t)blockDim.x * blockIdx.x + threadIdx.x);

  if (i >= k) {
    return;
  }

  const int64_t ib = i / qk;       // block index
  const int iqs = (i % qk) / qr;   // quant index
  const int64_t iybs = i - i % qk; // y block start index
  const int y_offset = qr == 1 ? 1 : qk / 2;

  // dequantize
  float2 v;
  dequantize_kernel(vx, ib, iqs, v);

  y[iybs + iqs + 0] = v.x;
  y[iybs + iqs + y_offset] = v.y;
}
