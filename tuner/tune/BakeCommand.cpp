#include "tune/BakeCommand.h"

#include "tune/FileReplace.h"

#include "tune/DispatchTableSource.h"
#include "tune/ResultsFile.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

namespace overlap::tune {
namespace {

const char* kUsage =
    "usage: overlap-bake --output FILE [--results FILE] [--model] [--origin TEXT]\n";

std::string readText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Through a temporary file and a rename, so a build never compiles half a table; an unchanged
// table is not rewritten, so nothing that depends on it is rebuilt.
bool writeIfChanged(const std::string& path, const std::string& text, std::string* error) {
  if (std::filesystem::exists(path) && readText(path) == text)
    return true;
  return replaceFile(path, text, error);
}

} // namespace

int runBakeCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  std::string output;
  std::string results;
  DispatchTableOptions options;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    const auto value = [&](std::string* text) {
      if (i + 1 >= args.size())
        return false;
      *text = args[++i];
      return true;
    };
    bool ok = true;
    if (arg == "--output")
      ok = value(&output);
    else if (arg == "--results")
      ok = value(&results);
    else if (arg == "--origin")
      ok = value(&options.origin);
    else if (arg == "--model")
      options.model = true;
    else if (arg == "--help" || arg == "-h") {
      out << kUsage;
      return 0;
    } else {
      err << "overlap-bake: unknown option \"" << arg << "\"\n" << kUsage;
      return 1;
    }
    if (!ok) {
      err << "overlap-bake: " << arg << " needs a value\n" << kUsage;
      return 1;
    }
  }
  if (output.empty()) {
    err << "overlap-bake: --output is required\n" << kUsage;
    return 1;
  }
  ResultsFile file;
  std::string error;
  if (!results.empty()) {
    if (!readResultsFile(results, &file, &error)) {
      err << "overlap-bake: " << error << "\n";
      return 1;
    }
    if (options.origin.empty())
      options.origin = results;
  }
  if (options.origin.empty())
    options.origin = "no tuning results";
  if (!writeIfChanged(output, renderDispatchTable(file, options), &error)) {
    err << "overlap-bake: " << error << "\n";
    return 1;
  }
  return 0;
}

} // namespace overlap::tune
