#include "frontend/ToolDriver.h"

#include "frontend/AtomicOutputs.h"
#include "frontend/Depfile.h"
#include "frontend/Generator.h"
#include "frontend/IrJson.h"

#include <clang/Basic/Version.h>

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

#ifndef OVERLAP_VERSION_STRING
#error "OVERLAP_VERSION_STRING must be the project version"
#endif

namespace overlap::frontend {
namespace {

constexpr const char* kToolName = "overlap-gen";

std::string absolutePath(const std::string& path) {
  llvm::SmallString<256> absolute(path);
  llvm::sys::fs::make_absolute(absolute);
  llvm::sys::path::remove_dots(absolute, /*remove_dot_dot=*/true);
  return std::string(absolute);
}

std::vector<std::string> outputPaths(const ToolOptions& options) {
  return {options.header, options.source, options.depfile};
}

// After a failure nothing of an earlier run may remain for the build to pick up.
ToolExit failWith(ToolExit exit, const ToolOptions& options, llvm::raw_ostream& err) {
  if (llvm::Error error = removeStaleOutputs(outputPaths(options))) {
    err << kToolName << ": error: " << llvm::toString(std::move(error)) << "\n";
    return ToolExit::UsageOrIoError;
  }
  return exit;
}

llvm::Error writeOutputs(const ToolOptions& options, const GeneratorResult& result) {
  AtomicOutputs outputs;
  if (llvm::Error error = outputs.stage(options.header, result.files->header))
    return error;
  if (llvm::Error error = outputs.stage(options.source, result.files->source))
    return error;
  if (!options.depfile.empty()) {
    const std::string depfile = formatDepfile(options.source, result.frontend.dependencies);
    if (llvm::Error error = outputs.stage(options.depfile, depfile))
      return error;
  }
  return outputs.commit();
}

} // namespace

ToolExit runTool(const ToolOptions& options, llvm::raw_ostream& out, llvm::raw_ostream& err,
                 bool colors) {
  if (options.help) {
    out << toolUsage(kToolName);
    return ToolExit::Success;
  }
  if (options.version) {
    out << kToolName << " " << OVERLAP_VERSION_STRING << " (clang " << CLANG_VERSION_STRING
        << ")\n";
    return ToolExit::Success;
  }
  if (!llvm::sys::fs::is_regular_file(options.input)) {
    err << kToolName << ": error: cannot read the input '" << options.input
        << "': not a regular file\n";
    return failWith(ToolExit::UsageOrIoError, options, err);
  }

  GeneratorRequest request;
  request.inputPath = options.input;
  request.compilerArgs = options.compilerArgs;
  request.cudaPath = options.cudaPath;
  request.emit = defaultEmitOptions(options.inputInclude.empty() ? absolutePath(options.input)
                                                                 : options.inputInclude,
                                    options.header, options.input);
  if (!options.headerInclude.empty())
    request.emit.headerInclude = options.headerInclude;

  const GeneratorResult result = generate(request, err, colors);
  if (!result.ok())
    return failWith(ToolExit::InputErrors, options, err);
  if (options.dumpIr)
    out << kernelsToJson(result.frontend.kernels).dump(2) << "\n";
  if (options.header.empty())
    return ToolExit::Success;
  if (llvm::Error error = writeOutputs(options, result)) {
    err << kToolName << ": error: " << llvm::toString(std::move(error)) << "\n";
    return failWith(ToolExit::UsageOrIoError, options, err);
  }
  return ToolExit::Success;
}

int overlapGenMain(int argc, const char* const* argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  const ParsedToolCommandLine parsed = parseToolCommandLine(args);
  if (!parsed.ok()) {
    llvm::errs() << kToolName << ": error: " << parsed.error << "\n" << toolUsage(kToolName);
    return static_cast<int>(ToolExit::UsageOrIoError);
  }
  const ToolExit exit =
      runTool(parsed.options, llvm::outs(), llvm::errs(), llvm::errs().has_colors());
  llvm::outs().flush();
  return static_cast<int>(exit);
}

} // namespace overlap::frontend
