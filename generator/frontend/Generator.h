// The generator end to end, minus the writing of files: parse an annotated .cu file, check its
// annotations, and print the generated header and source when there were no errors. Works on the
// real file system (overlap-gen) or on a source string (tests).
#pragma once

#include "emit/Emitter.h"
#include "frontend/FrontendOutput.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace overlap::frontend {

struct GeneratorRequest {
  std::string inputPath;
  std::vector<std::string> compilerArgs; // the user's -I/-D/-std..., passed through to clang
  std::string cudaPath;                  // empty: $CUDA_PATH, then /usr/local/cuda
  emit::EmitOptions emit;
};

struct GeneratorResult {
  FrontendOutput frontend;
  std::optional<emit::GeneratedFiles> files; // set exactly when frontend.ok()
  bool ok() const { return frontend.ok() && files.has_value(); }
};

// Diagnostics print to `diagnostics` in clang's format (colored if `colors`).
GeneratorResult generate(const GeneratorRequest& request, llvm::raw_ostream& diagnostics,
                         bool colors);

struct InMemoryResult {
  GeneratorResult result;
  std::string diagnostics; // everything clang and the generator reported, uncolored
};

// Runs on `code` as if it were the file `request.inputPath`; `otherFiles` (path → contents) are
// visible next to it, e.g. headers it includes. Everything else (CUDA, the standard library,
// overlap/annotate.h) comes from the real file system.
InMemoryResult generateInMemory(const GeneratorRequest& request, const std::string& code,
                                const std::map<std::string, std::string>& otherFiles = {});

// Emit options for an input and a header path: the source includes the header by its file name
// and the input by `inputInclude`; the base name is the input's file name without extension.
emit::EmitOptions defaultEmitOptions(const std::string& inputInclude, const std::string& headerPath,
                                     const std::string& inputPath);

} // namespace overlap::frontend
