// overlap_size_bench: the size benchmark's one executable (scripts/bench.sh sizes,
// bench/README.md), with the benchmark's kernels linked in. Without a subcommand it is their tuner
// (overlap_tune()'s command line: --sweep, --results-file, ...); `values` prints argument values
// for call sizes given as traffic, `measure` times one kernel at given sizes (SizeMeasure.h),
// `summarize` writes the summary of several kernels' measurements (SizeSummary.h).
#include "SizeMeasure.h"
#include "SizeSummary.h"

#include "tune/TuneCommand.h"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

const char* kUsage = R"(usage:
  overlap_size_bench [tuner options]      the tuner of the linked kernels (--help)
  overlap_size_bench values --kernel K --param P [--arg NAME=VALUE]... --traffic LO..HI:COUNT
                            [--scale F]
      COUNT values of P whose calls move LO..HI bytes (log-spaced; each target times F)
  overlap_size_bench measure --kernel K --param P [--arg NAME=VALUE]... --values V,V,...
                             [--results FILE] [--old-results FILE] --output FILE [--seed N]
  overlap_size_bench summarize --output-prefix PREFIX [--title TEXT] FILE...
)";

bool parseInteger(const std::string& text, long long* value) {
  char* end = nullptr;
  *value = std::strtoll(text.c_str(), &end, 10);
  return !text.empty() && *end == '\0';
}

// The options every subcommand shares; false on an unknown or malformed one.
struct Command {
  std::string kernel, param, traffic, values, results, oldResults, output, prefix, title;
  double scale = 1;
  std::uint64_t seed = 1;
  std::map<std::string, long long> arguments;
  std::vector<std::string> files;
};

bool parse(const std::vector<std::string>& args, Command* command) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg.rfind("--", 0) != 0) {
      command->files.push_back(arg);
      continue;
    }
    if (i + 1 >= args.size())
      return false;
    const std::string value = args[++i];
    long long integer = 0;
    if (arg == "--kernel")
      command->kernel = value;
    else if (arg == "--param")
      command->param = value;
    else if (arg == "--traffic")
      command->traffic = value;
    else if (arg == "--values")
      command->values = value;
    else if (arg == "--results")
      command->results = value;
    else if (arg == "--old-results")
      command->oldResults = value;
    else if (arg == "--output")
      command->output = value;
    else if (arg == "--output-prefix")
      command->prefix = value;
    else if (arg == "--title")
      command->title = value;
    else if (arg == "--scale")
      command->scale = std::atof(value.c_str());
    else if (arg == "--seed" && parseInteger(value, &integer))
      command->seed = static_cast<std::uint64_t>(integer);
    else if (arg == "--arg") {
      const std::size_t equals = value.find('=');
      if (equals == std::string::npos || !parseInteger(value.substr(equals + 1), &integer))
        return false;
      command->arguments[value.substr(0, equals)] = integer;
    } else
      return false;
  }
  return true;
}

// "LO..HI:COUNT" (bytes may be written 1e9); false when malformed.
bool parseTraffic(const std::string& text, double* low, double* high, int* count) {
  const std::size_t dots = text.find("..");
  const std::size_t colon = text.find(':', dots == std::string::npos ? 0 : dots);
  if (dots == std::string::npos || colon == std::string::npos)
    return false;
  char* end = nullptr;
  *low = std::strtod(text.substr(0, dots).c_str(), &end);
  if (*end != '\0')
    return false;
  *high = std::strtod(text.substr(dots + 2, colon - dots - 2).c_str(), &end);
  if (*end != '\0')
    return false;
  long long parsed = 0;
  if (!parseInteger(text.substr(colon + 1), &parsed))
    return false;
  *count = static_cast<int>(parsed);
  return *count >= 2 && *low > 0 && *high > *low;
}

int values(const Command& command) {
  const overlap::KernelDescriptor* kernel = overlap::findRegisteredKernel(command.kernel.c_str());
  double low = 0, high = 0;
  int count = 0;
  if (!kernel || command.param.empty() || !parseTraffic(command.traffic, &low, &high, &count)) {
    std::cerr << kUsage;
    return 1;
  }
  std::string separator;
  long long previous = 0;
  for (int i = 0; i < count; ++i) {
    const double bytes = command.scale * low * std::pow(high / low, double(i) / (count - 1));
    const long long value =
        overlap::bench::valueForTraffic(*kernel, command.arguments, command.param, bytes);
    if (value == previous)
      continue;
    std::cout << separator << value;
    separator = ",";
    previous = value;
  }
  std::cout << "\n";
  return 0;
}

int measure(const Command& command) {
  overlap::bench::MeasureOptions options;
  options.kernel = command.kernel;
  options.parameter = command.param;
  options.arguments = command.arguments;
  options.results = command.results;
  options.oldResults = command.oldResults;
  options.seed = command.seed;
  std::stringstream list(command.values);
  for (std::string item; std::getline(list, item, ',');) {
    long long value = 0;
    if (!parseInteger(item, &value) || value < 1) {
      std::cerr << "overlap_size_bench: --values: \"" << item << "\" is not a size\n";
      return 1;
    }
    options.values.push_back(value);
  }
  if (options.kernel.empty() || options.parameter.empty() || options.values.empty() ||
      command.output.empty()) {
    std::cerr << kUsage;
    return 1;
  }
  std::string text;
  std::string error;
  if (!overlap::bench::measureSizes(options, std::cout, &text, &error)) {
    std::cerr << "overlap_size_bench: " << error << "\n";
    return 1;
  }
  std::ofstream(command.output) << text;
  return 0;
}

int summarize(const Command& command) {
  if (command.prefix.empty() || command.files.empty()) {
    std::cerr << kUsage;
    return 1;
  }
  std::vector<std::string> runs;
  for (const std::string& file : command.files) {
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    runs.push_back(text.str());
  }
  overlap::bench::SizeSummary summary;
  std::string error;
  if (!overlap::bench::summarizeSizes(
          runs, command.title.empty() ? "K_tuned across call sizes" : command.title, &summary,
          &error)) {
    std::cerr << "overlap_size_bench: " << error << "\n";
    return 1;
  }
  std::ofstream(command.prefix + ".md") << summary.markdown;
  std::ofstream(command.prefix + ".json") << summary.json;
  std::cout << "K_tuned / best: geomean " << summary.tuned.geomean << ", worst "
            << summary.tuned.worst << " (" << summary.tuned.worstKernel << " at "
            << summary.tuned.worstValue << "); size-blind: geomean " << summary.old.geomean
            << ", worst " << summary.old.worst << "\n";
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  const std::string sub = args.empty() ? "" : args[0];
  if (sub != "values" && sub != "measure" && sub != "summarize")
    return overlap::tune::runTuneTool(args, std::cout, std::cerr);
  Command command;
  if (!parse(std::vector<std::string>(args.begin() + 1, args.end()), &command)) {
    std::cerr << kUsage;
    return 1;
  }
  if (sub == "values")
    return values(command);
  if (sub == "measure")
    return measure(command);
  return summarize(command);
}
