// a[i] = scale * a[i] * b[i] over `size` double-precision complex numbers: the pointwise product
// that turns a convolution into a multiplication in the Fourier domain (with the 1/N of the
// inverse FFT folded into `scale`). Grid-stride loop; static kernel and helpers, as in the sample.
//
// Modeled on: NVIDIA cuda-samples, Samples/4_CUDA_Libraries/simpleCUFFT/simpleCUFFT.cu
// (ComplexPointwiseMulAndScale with `typedef float2 Complex` and static inline ComplexMul /
// ComplexScale helpers), here in double precision (double2, as cufftDoubleComplex). Written anew
// for this corpus.
//
// Exercises: double2 element type behind a typedef; a static (internal-linkage) kernel; a
// read-write array (copy) next to a read-only one; grid-stride launch; a double scalar parameter;
// host code in the file that launches the kernel (as the sample's main does).
#include <overlap/annotate.h>

typedef double2 Complex;

static __device__ __host__ inline Complex ComplexMul(Complex a, Complex b) {
  Complex c;
  c.x = a.x * b.x - a.y * b.y;
  c.y = a.x * b.y + a.y * b.x;
  return c;
}

static __device__ __host__ inline Complex ComplexScale(Complex a, double s) {
  Complex c;
  c.x = s * a.x;
  c.y = s * a.y;
  return c;
}

OVERLAP_KERNEL(partition(size) offset(size)
               extent(a, b: size)
               copy(a[lo:hi]) copyin(b[lo:hi])
               launch(gridstride, block: 256)
               tune(size = 4194304))
static __global__ void ComplexPointwiseMulAndScale(Complex *a, const Complex *b, int size,
                                                   double scale) {
  const int numThreads = blockDim.x * gridDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < size; i += numThreads)
    a[i] = ComplexScale(ComplexMul(a[i], b[i]), scale);
}

// How the application calls it between the forward and the inverse transform (cuFFT leaves the
// result scaled by N).
void multiplySpectra(Complex *d_signal, const Complex *d_filter, int size, cudaStream_t stream) {
  ComplexPointwiseMulAndScale<<<32, 256, 0, stream>>>(d_signal, d_filter, size, 1.0 / size);
}
