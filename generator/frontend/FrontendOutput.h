// What one parse of an annotated .cu file yields, free of Clang types.
#pragma once

#include "ir/KernelIR.h"

#include <string>
#include <vector>

namespace overlap::frontend {

// An annotated kernel as found in the source, before its annotation is checked.
struct FoundKernel {
  ir::KernelSignature signature;
  std::string annotation; // the text between OVERLAP_KERNEL's parentheses, verbatim
  unsigned line = 0;      // of the kernel's name
  unsigned annotationLine = 0, annotationColumn = 0; // of the annotation text's first character
};

struct FrontendOutput {
  // Every annotated __global__ kernel defined at a supported scope, in source order, whether or
  // not its annotation checked.
  std::vector<FoundKernel> found;
  // The IR of the kernels (and instantiations of kernel templates) whose annotations checked.
  // Complete only when the parse reported no errors.
  std::vector<ir::Kernel> kernels;
  // The file's __constant__ and __device__ variables, and what the generated header needs.
  std::vector<ir::DeviceGlobal> globals;
  ir::HeaderNeeds header;
  // Declarations that make Clang instantiate the kernel templates the annotations list, to append
  // to the file for a second parse; empty when the parse was final.
  std::string instantiationRequests;
  // The input file first, then every file it included, directly or not.
  std::vector<std::string> dependencies;
  unsigned errorCount = 0;
  bool ok() const { return errorCount == 0; }
};

} // namespace overlap::frontend
