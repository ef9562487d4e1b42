// CPU reference of axpy_strided.cu (axpy_kernel): nvcc contracts Y + ALPHA * X into one fmaf
// (the PTX has fma.rn.f32), so the reference is std::fma: bit for bit.
// Elements of Y between the strided ones are left as they were.
#include "CorpusCase.h"

#include <cmath>

namespace {

using overlap::corpus::arg;
using overlap::corpus::CallArgs;

// Entry point: axpy_kernel(int N, float ALPHA, float* X, int OFFX, int INCX, float* Y, int OFFY,
// int INCY).
void reference(CallArgs args) {
  const int n = arg<int>(args, 0);
  const float alpha = arg<float>(args, 1);
  const float* x = arg<float*>(args, 2);
  const long long offx = arg<int>(args, 3), incx = arg<int>(args, 4);
  float* y = arg<float*>(args, 5);
  const long long offy = arg<int>(args, 6), incy = arg<int>(args, 7);
  for (long long i = 0; i < n; ++i)
    y[offy + i * incy] = std::fma(alpha, x[offx + i * incx], y[offy + i * incy]);
}

} // namespace

// N = 1, 3, 1009 (prime), 70001 with offsets and strides on either side. The large call,
// 65537 blocks of 512, is the one whose Explicit, Mapped and one-stream launches need the grid's
// y dimension (65535 x 2); unit strides: 128 MiB in X, 128 MiB in and out in Y.
OVERLAP_CORPUS_CASE(
    axpy_kernel, "axpy_kernel",
    {{{"N", 1}, {"ALPHA", 0.5}, {"OFFX", 0}, {"INCX", 1}, {"OFFY", 0}, {"INCY", 1}},
     {{"N", 3}, {"ALPHA", -2.0}, {"OFFX", 2}, {"INCX", 3}, {"OFFY", 1}, {"INCY", 2}},
     {{"N", 1009}, {"ALPHA", 0.1}, {"OFFX", 7}, {"INCX", 1}, {"OFFY", 0}, {"INCY", 5}},
     {{"N", 70001}, {"ALPHA", 1.5}, {"OFFX", 1}, {"INCX", 2}, {"OFFY", 4}, {"INCY", 1}}},
    {{"N", 33554944}, {"ALPHA", 0.75}, {"OFFX", 0}, {"INCX", 1}, {"OFFY", 0}, {"INCY", 1}}, 0.0,
    reference, nullptr);
