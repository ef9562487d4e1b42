// CPU reference of scale.cu (scale<float>, scale<double>): one multiplication per element, bit
// for bit. The descriptor names assume the default naming of issue 18 (kernel name + template
// arguments): scale_float, scale_double.
#include "CorpusCase.h"

namespace {

using overlap::corpus::arg;
using overlap::corpus::CallArgs;

// Entry point: scale_<T>(T* data, int n, T factor).
template <class T> void reference(CallArgs args) {
  T* data = arg<T*>(args, 0);
  const int n = arg<int>(args, 1);
  const T factor = arg<T>(args, 2);
  for (int i = 0; i < n; ++i)
    data[i] = factor * data[i];
}

} // namespace

OVERLAP_CORPUS_CASE(scale_float, "scale_float",
                    {{{"n", 1}, {"factor", 2.0}},
                     {{"n", 3}, {"factor", -1.5}},
                     {{"n", 1009}, {"factor", 0.1}},
                     {{"n", 999999}, {"factor", 3.0}}},
                    {{"n", 16777216}, {"factor", 2.0}}, // 64 MiB in and out
                    0.0, reference<float>, nullptr);

OVERLAP_CORPUS_CASE(scale_double, "scale_double",
                    {{{"n", 1}, {"factor", 2.0}},
                     {{"n", 3}, {"factor", -1.5}},
                     {{"n", 1009}, {"factor", 0.1}},
                     {{"n", 999999}, {"factor", 3.0}}},
                    {{"n", 8388608}, {"factor", 2.0}}, // 64 MiB in and out
                    0.0, reference<double>, nullptr);
