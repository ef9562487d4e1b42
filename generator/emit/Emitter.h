// Prints the generated host code for the annotated kernels of one .cu file: a header that declares
// the variants and the descriptor of every kernel (and the setters of the file's __constant__ and
// __device__ variables), and a .cu source that includes the user's file and instantiates the
// strategy templates (templates/overlap/*.cuh) for each kernel.
#pragma once

#include "ir/KernelIR.h"

#include <string>
#include <vector>

namespace overlap::emit {

struct EmitOptions {
  // How the generated source includes the user's annotated file, e.g. "/abs/path/saxpy.cu".
  std::string inputInclude;
  // How the generated source includes the generated header, e.g. "saxpy.overlap.h".
  std::string headerInclude;
  // Base name of the input file without extension, e.g. "saxpy": names the file's descriptor table.
  std::string baseName;
};

struct GeneratedFiles {
  std::string header;
  std::string source;
};

GeneratedFiles emitFiles(const ir::SourceFile& file, const EmitOptions& options);

// The suffixes of the names the generated code declares in a kernel's namespace for its entry
// name K (K_explicit, K_tuned_async, K_binding, K_params, ...): the frontend refuses a user's
// declaration of one, which would make nvcc fail on the generated source.
const std::vector<std::string>& generatedNameSuffixes();

} // namespace overlap::emit
