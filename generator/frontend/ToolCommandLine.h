// The command line of overlap-gen:
//   overlap-gen <input.cu> --header <out.h> --source <out.cu> [--depfile <out.d>]
//               [--cuda-path <dir>] [--header-include <name>] [--input-include <name>]
//               [--dump-ir] [--version] [--help] [-- <compiler args>...]
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace overlap::frontend {

struct ToolOptions {
  std::string input;
  std::string header;
  std::string source;
  std::string depfile;       // empty: none
  std::string cudaPath;      // empty: $CUDA_PATH, then /usr/local/cuda
  std::string headerInclude; // empty: the file name of `header`
  std::string inputInclude;  // empty: the absolute path of `input`
  bool dumpIr = false;       // print the IR of every kernel as JSON to stdout
  bool version = false;
  bool help = false;
  std::vector<std::string> compilerArgs; // everything after "--"
};

struct ParsedToolCommandLine {
  ToolOptions options;
  std::string error; // a usage error; empty on success
  bool ok() const { return error.empty(); }
};

// `args` without the program name. Options take their value as the next argument or after '='.
// --header and --source come together; without them only --dump-ir output is produced.
ParsedToolCommandLine parseToolCommandLine(const std::vector<std::string>& args);

std::string toolUsage(std::string_view programName);

} // namespace overlap::frontend
