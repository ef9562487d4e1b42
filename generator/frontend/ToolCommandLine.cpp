#include "frontend/ToolCommandLine.h"

#include <map>

namespace overlap::frontend {
namespace {

using ValueOption = std::string ToolOptions::*;
using FlagOption = bool ToolOptions::*;

const std::map<std::string_view, ValueOption>& valueOptions() {
  static const std::map<std::string_view, ValueOption> options = {
      {"--header", &ToolOptions::header},
      {"--source", &ToolOptions::source},
      {"--depfile", &ToolOptions::depfile},
      {"--cuda-path", &ToolOptions::cudaPath},
      {"--header-include", &ToolOptions::headerInclude},
      {"--input-include", &ToolOptions::inputInclude},
  };
  return options;
}

const std::map<std::string_view, FlagOption>& flagOptions() {
  static const std::map<std::string_view, FlagOption> options = {
      {"--dump-ir", &ToolOptions::dumpIr},
      {"--version", &ToolOptions::version},
      {"--help", &ToolOptions::help},
      {"-h", &ToolOptions::help},
  };
  return options;
}

std::string checkCombination(const ToolOptions& options) {
  if (options.help || options.version)
    return {};
  if (options.input.empty())
    return "no input file";
  if (options.header.empty() != options.source.empty())
    return "--header and --source must be given together";
  if (options.header.empty() && !options.dumpIr)
    return "no outputs: give --header and --source (or --dump-ir)";
  if (!options.depfile.empty() && options.source.empty())
    return "--depfile needs --source (the depfile's target)";
  if (!options.header.empty() && options.header == options.source)
    return "--header and --source name the same file";
  return {};
}

} // namespace

ParsedToolCommandLine parseToolCommandLine(const std::vector<std::string>& args) {
  ParsedToolCommandLine parsed;
  ToolOptions& options = parsed.options;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") {
      options.compilerArgs.assign(args.begin() + static_cast<std::ptrdiff_t>(i) + 1, args.end());
      break;
    }
    const std::size_t equals = arg.find('=');
    const std::string_view name =
        std::string_view(arg).substr(0, arg.rfind("--", 0) == 0 ? equals : std::string::npos);
    if (const auto flag = flagOptions().find(name); flag != flagOptions().end()) {
      if (name.size() != arg.size()) {
        parsed.error = "option '" + std::string(name) + "' takes no value";
        return parsed;
      }
      options.*(flag->second) = true;
      continue;
    }
    if (const auto value = valueOptions().find(name); value != valueOptions().end()) {
      std::string given;
      if (name.size() != arg.size()) {
        given = arg.substr(name.size() + 1);
      } else if (i + 1 < args.size()) {
        given = args[++i];
      } else {
        parsed.error = "option '" + arg + "' needs a value";
        return parsed;
      }
      if (given.empty()) {
        parsed.error = "option '" + std::string(name) + "' needs a non-empty value";
        return parsed;
      }
      options.*(value->second) = given;
      continue;
    }
    if (!arg.empty() && arg[0] == '-') {
      parsed.error = "unknown option '" + arg + "' (compiler arguments go after '--')";
      return parsed;
    }
    if (!options.input.empty()) {
      parsed.error = "more than one input file ('" + options.input + "' and '" + arg + "')";
      return parsed;
    }
    options.input = arg;
  }
  parsed.error = checkCombination(options);
  return parsed;
}

std::string toolUsage(std::string_view programName) {
  const std::string name(programName);
  return "usage: " + name +
         " <input.cu> --header <out.h> --source <out.cu> [options] [-- <compiler args>...]\n"
         "\n"
         "Generates the host code of the four data-movement variants (Explicit, Mapped, Streams,\n"
         "Hybrid) of every OVERLAP_KERNEL-annotated kernel in <input.cu>.\n"
         "\n"
         "options:\n"
         "  --header <file>          the generated header (declarations, descriptors)\n"
         "  --source <file>          the generated CUDA source (includes <input.cu>)\n"
         "  --depfile <file>         a Make-syntax dependency file for <source>\n"
         "  --cuda-path <dir>        the CUDA toolkit (default: $CUDA_PATH, /usr/local/cuda)\n"
         "  --header-include <name>  how <source> includes <header> (default: its file name)\n"
         "  --input-include <name>   how <source> includes <input.cu> (default: absolute path)\n"
         "  --dump-ir                print the IR of every kernel as JSON to stdout\n"
         "  --version                print the version\n"
         "  --help                   print this text\n"
         "\n"
         "exit status: 0 success, 1 errors in the input, 2 usage or I/O errors\n";
}

} // namespace overlap::frontend
