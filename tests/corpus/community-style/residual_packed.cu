// out = inp1 + inp2, 16 bytes at a time through llm.c's packed type: the loads and stores are in
// helper templates (load128cs casts to int4 and calls the streaming load __ldcs, store128 casts
// the target), not in the kernel. The annotation gives no granule: the generator must find the
// 16-byte accesses inside the helpers, or chunks starting at odd elements would fault.
//
// Modeled on: karpathy/llm.c, llmc/cuda_common.cuh (Packed128, load128cs, store128) and
// llmc/layernorm.cuh (residual_forward_kernel). Written anew for this corpus, on floats.
//
// Exercises: alignas(16) struct template with memcpy-based conversions; helper templates with
// reinterpret_cast<const int4*> and __ldcs (a cache-hint load Clang's CUDA headers lack); a
// granule found two calls away from the kernel.
#include <overlap/annotate.h>

#include <cstring>

namespace llmc {

template <class ElementType> struct alignas(16) Packed128 {
  Packed128() = default;
  __device__ explicit Packed128(int4 bits) { memcpy(&payload, &bits, sizeof(bits)); }
  __device__ ElementType &operator[](int index) { return payload[index]; }
  __device__ const ElementType &operator[](int index) const { return payload[index]; }
  __device__ int4 get_bits() const {
    int4 bits;
    memcpy(&bits, &payload, sizeof(bits));
    return bits;
  }
  static constexpr int size = sizeof(int4) / sizeof(ElementType);
  ElementType payload[size];
};

template <class ElementType>
__device__ Packed128<ElementType> load128cs(const ElementType *address) {
  return Packed128<ElementType>{__ldcs(reinterpret_cast<const int4 *>(address))};
}

template <class ElementType>
__device__ void store128(ElementType *target, Packed128<ElementType> value) {
  *reinterpret_cast<int4 *>(target) = value.get_bits();
}

typedef Packed128<float> f128;

// N is a multiple of f128::size, as llm.c's channel counts are.
OVERLAP_KERNEL(partition(N) offset(N)
               extent(out, inp1, inp2: N)
               copyin(inp1[lo:hi], inp2[lo:hi]) copyout(out[lo:hi])
               launch(grid: ceil_div(len, 256 * 4), block: 256)
               tune(N = 16777216))
__global__ void residual_forward_kernel(float *out, const float *inp1, const float *inp2, int N) {
  const int idx = (blockIdx.x * blockDim.x + threadIdx.x) * f128::size;
  if (idx < N) {
    f128 packed_out;
    const f128 packed_inp1 = load128cs(inp1 + idx);
    const f128 packed_inp2 = load128cs(inp2 + idx);
    for (int k = 0; k < f128::size; ++k)
      packed_out[k] = packed_inp1[k] + packed_inp2[k];
    store128(out + idx, packed_out);
  }
}

} // namespace llmc
