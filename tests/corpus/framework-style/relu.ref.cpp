// CPU reference of relu.cu (caffe::ReLUForward<float>, caffe::ReLUForward<double>): a comparison
// and at most one multiplication per element, rounded as the GPU rounds it: bit for bit. Random
// inputs (±[0.25, 1)) take both branches.
#include "CorpusCase.h"

namespace {

using overlap::corpus::arg;
using overlap::corpus::CallArgs;

// Entry point: ReLUForward_<Dtype>(int n, const Dtype* in, Dtype* out, Dtype negative_slope).
template <class Dtype> void reference(CallArgs args) {
  const int n = arg<int>(args, 0);
  const Dtype* in = arg<const Dtype*>(args, 1);
  Dtype* out = arg<Dtype*>(args, 2);
  const Dtype negative_slope = arg<Dtype>(args, 3);
  for (int i = 0; i < n; ++i)
    out[i] = in[i] > 0 ? in[i] : in[i] * negative_slope;
}

} // namespace

OVERLAP_CORPUS_CASE(ReLUForward_float, "caffe::ReLUForward_float",
                    {{{"n", 1}, {"negative_slope", 0.0}},
                     {{"n", 3}, {"negative_slope", 0.01}},
                     {{"n", 1009}, {"negative_slope", 0.1}},
                     {{"n", 262145}, {"negative_slope", 0.2}}},
                    {{"n", 16777216}, {"negative_slope", 0.01}}, // 64 MiB in and out
                    0.0, reference<float>, nullptr);

OVERLAP_CORPUS_CASE(ReLUForward_double, "caffe::ReLUForward_double",
                    {{{"n", 1}, {"negative_slope", 0.0}},
                     {{"n", 3}, {"negative_slope", 0.01}},
                     {{"n", 1009}, {"negative_slope", 0.1}},
                     {{"n", 262145}, {"negative_slope", 0.2}}},
                    {{"n", 8388608}, {"negative_slope", 0.01}}, // 64 MiB in and out
                    0.0, reference<double>, nullptr);
