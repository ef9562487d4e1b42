// CPU reference of overloads.cu (axpy for float, daxpy for double): nvcc contracts a * x + y into
// one fused multiply-add, and std::fma rounds once as well, so the results agree bit for bit.
#include "CorpusCase.h"

#include <cmath>

namespace {

using overlap::corpus::arg;
using overlap::corpus::CallArgs;

// Entry points: axpy(int n, T a, const T* x, T* y) for T = float (axpy), double (daxpy).
template <typename T> void reference(CallArgs args) {
  const int n = arg<int>(args, 0);
  const T a = arg<T>(args, 1);
  const T* x = arg<const T*>(args, 2);
  T* y = arg<T*>(args, 3);
  for (int i = 0; i < n; ++i)
    y[i] = std::fma(a, x[i], y[i]);
}

} // namespace

OVERLAP_CORPUS_CASE(axpy, "axpy",
                    {{{"n", 1}, {"a", 2.5}},
                     {{"n", 3}, {"a", -0.75}},
                     {{"n", 1009}, {"a", 1.5}},
                     {{"n", 262143}, {"a", 0.5}}},
                    {{"n", 16777216}, {"a", 2.0}}, 0, reference<float>, nullptr);
OVERLAP_CORPUS_CASE(daxpy, "daxpy",
                    {{{"n", 1}, {"a", 2.5}},
                     {{"n", 3}, {"a", -0.75}},
                     {{"n", 1009}, {"a", 1.5}},
                     {{"n", 262143}, {"a", 0.5}}},
                    {{"n", 8388608}, {"a", 2.0}}, 0, reference<double>, nullptr);
