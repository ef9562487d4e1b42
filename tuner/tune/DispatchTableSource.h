// The C++ source of a program's dispatch table (overlap/Dispatch.h): every entry of a results file
// as an overlap::BakedChoice with its tuned sizes, registered by a static initializer, and the
// model's dispatch when the program links overlap_tuner_dispatch. What overlap-bake writes for
// overlap_add_kernels(... TUNING_RESULTS); CUDA-free text.
#pragma once

#include "tune/ResultsFile.h"

#include <string>

namespace overlap::tune {

struct DispatchTableOptions {
  std::string origin; // for the header comment: where the entries come from
  bool model = false; // also install the model's dispatch (tune/ModelChoice.h)
};

std::string renderDispatchTable(const ResultsFile& file, const DispatchTableOptions& options);

// `text` as a C++ string literal, quotes included; bytes outside printable ASCII as octal escapes.
std::string cxxStringLiteral(const std::string& text);

} // namespace overlap::tune
