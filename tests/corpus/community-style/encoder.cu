// GPT-2's embedding: out[b, t, :] = wte[inp[b, t], :] + wpe[t, :], 16 bytes at a time. The token
// and position tables are whole arrays every chunk reads at positions its tokens choose; the
// chunks are batches. The tables are read through int4 in helpers, which sets no chunk granule
// (a whole array stays at element 0); the output's batches are C floats apart, so a chunk of any
// batch count keeps its 16-byte stores aligned when C is a multiple of 4 (the kernel's contract).
//
// Modeled on: karpathy/llm.c, llmc/encoder.cuh (encoder_forward_kernel3) and llmc/cuda_common.cuh
// (Packed128, load128cs, store128). Written anew for this corpus, on floats.
//
// Exercises: token indices into a broadcast table (valid indices: prepare), a host-only vocabulary
// size for the table's extent, packed loads of broadcast arrays, integer division of the flat
// index into (batch, position, channel).
#include <overlap/annotate.h>

#include <cstring>

namespace gpt2 {

struct alignas(16) Packed4 {
  Packed4() = default;
  __device__ explicit Packed4(int4 bits) { memcpy(values, &bits, sizeof(bits)); }
  __device__ int4 bits() const {
    int4 out;
    memcpy(&out, values, sizeof(out));
    return out;
  }
  float values[4];
};

__device__ Packed4 load4cs(const float *address) {
  return Packed4{__ldcs(reinterpret_cast<const int4 *>(address))};
}

__device__ void store4(float *target, Packed4 value) {
  *reinterpret_cast<int4 *>(target) = value.bits();
}

OVERLAP_KERNEL(param(int V) partition(B) offset(B)
               extent(out: B * T * C) extent(inp: B * T) extent(wte: V * C) extent(wpe: T * C)
               copyin(inp[lo * T : hi * T], wte, wpe) copyout(out[lo * T * C : hi * T * C])
               launch(grid: ceil_div(len * T * C / 4, 256), block: 256)
               tune(B = 8, T = 1024, C = 768, V = 8192))
__global__ void encoder_forward_kernel3(float *out, const int *inp, const float *wte,
                                        const float *wpe, int B, int T, int C) {
  const int idx = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  const int N = B * T * C;
  if (idx < N) {
    const int bt = idx / C;
    const int b = bt / T;
    const int t = bt % T;
    const int c = idx % C;
    const int ix = inp[b * T + t];
    const Packed4 token = load4cs(wte + ix * C + c);
    const Packed4 position = load4cs(wpe + t * C + c);
    Packed4 sum;
    for (int k = 0; k < 4; ++k)
      sum.values[k] = token.values[k] + position.values[k];
    store4(out + b * T * C + t * C + c, sum);
  }
}

} // namespace gpt2
