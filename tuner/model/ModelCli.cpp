#include "model/ModelCli.h"

#include "model/PredictionTablePrinter.h"
#include "model/StreamCountEstimates.h"
#include "overlap/ProfileCatalog.h"
#include "overlap/ProfileIo.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <map>
#include <utility>

namespace overlap::model {

namespace {

std::optional<double> parseNumber(const std::string& text) {
  if (text.empty())
    return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(text.c_str(), &end);
  if (errno != 0 || end != text.c_str() + text.size() || !std::isfinite(value))
    return std::nullopt;
  return value;
}

std::optional<long long> parseInteger(const std::string& text) {
  if (text.empty())
    return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  if (errno != 0 || end != text.c_str() + text.size())
    return std::nullopt;
  return value;
}

// What one option does with its value; an error message when the value is unusable.
using OptionHandler = std::function<std::string(ModelCliOptions&, const std::string&)>;

OptionHandler bytesInto(double Workload::Transfers::*field) {
  return [field](ModelCliOptions& options, const std::string& value) -> std::string {
    const std::optional<double> bytes = parseByteSize(value);
    if (!bytes)
      return "expected a byte size such as 268435456, 256MiB or 1.5GB";
    options.workload.transfers.*field = *bytes;
    return {};
  };
}

OptionHandler countInto(std::function<void(ModelCliOptions&, long long)> store, long long min,
                        long long max) {
  return [store = std::move(store), min, max](ModelCliOptions& options,
                                              const std::string& value) -> std::string {
    const std::optional<long long> count = parseInteger(value);
    if (!count || *count < min || *count > max)
      return "expected an integer from " + std::to_string(min) + " to " + std::to_string(max);
    store(options, *count);
    return {};
  };
}

const std::map<std::string, OptionHandler>& valueOptions() {
  static const std::map<std::string, OptionHandler> handlers = {
      {"--profile",
       [](ModelCliOptions& options, const std::string& value) -> std::string {
         options.profile = value;
         return {};
       }},
      {"--show-profile",
       [](ModelCliOptions& options, const std::string& value) -> std::string {
         options.showProfile = value;
         return {};
       }},
      {"--h2d-bytes", bytesInto(&Workload::Transfers::h2dBytes)},
      {"--d2h-bytes", bytesInto(&Workload::Transfers::d2hBytes)},
      {"--broadcast-bytes", bytesInto(&Workload::Transfers::broadcastBytes)},
      {"--halo-bytes", bytesInto(&Workload::Transfers::haloBytesPerBoundary)},
      {"--inout-bytes", bytesInto(&Workload::Transfers::inoutD2hBytes)},
      {"--kernel-ms",
       [](ModelCliOptions& options, const std::string& value) -> std::string {
         const std::optional<double> ms = parseNumber(value);
         if (!ms || *ms < 0)
           return "expected a non-negative time in milliseconds";
         options.workload.launch.kernelSeconds = *ms * 1e-3;
         return {};
       }},
      {"--extent",
       countInto([](ModelCliOptions& o, long long v) { o.workload.partition.extent = v; }, 1,
                 1LL << 62)},
      {"--h2d-copies",
       countInto(
           [](ModelCliOptions& o, long long v) { o.workload.transfers.h2dCopiesPerChunk = int(v); },
           1, 1024)},
      {"--d2h-copies",
       countInto(
           [](ModelCliOptions& o, long long v) { o.workload.transfers.d2hCopiesPerChunk = int(v); },
           1, 1024)},
      {"--blocks",
       countInto([](ModelCliOptions& o, long long v) { o.workload.launch.totalBlocks = v; }, 1,
                 1LL << 62)},
      {"--blocks-per-sm",
       countInto(
           [](ModelCliOptions& o, long long v) { o.workload.launch.residentBlocksPerSm = int(v); },
           1, 1024)},
      {"--mapped-reads",
       [](ModelCliOptions& options, const std::string& value) -> std::string {
         const std::optional<double> factor = parseNumber(value);
         if (!factor || *factor < 1)
           return "expected a factor of at least 1";
         options.workload.mapped.readFactor = *factor;
         return {};
       }},
      {"--max-streams",
       countInto([](ModelCliOptions& o, long long v) { o.search.maxStreams = int(v); }, 1, 4096)},
      {"--tolerance",
       [](ModelCliOptions& options, const std::string& value) -> std::string {
         const std::optional<double> tolerance = parseNumber(value);
         if (!tolerance || *tolerance < 0)
           return "expected a non-negative fraction such as 0.1 (10 %)";
         options.search.tolerance = *tolerance;
         return {};
       }},
      {"--stream-tolerance",
       [](ModelCliOptions& options, const std::string& value) -> std::string {
         const std::optional<double> tolerance = parseNumber(value);
         if (!tolerance || *tolerance < 0)
           return "expected a non-negative fraction such as 0.03 (3 %)";
         options.search.streamTolerance = *tolerance;
         return {};
       }},
      {"--max-chunks-per-stream",
       countInto([](ModelCliOptions& o, long long v) { o.search.maxChunksPerStream = int(v); }, 1,
                 1024)},
      {"--min-chunk-bytes",
       [](ModelCliOptions& options, const std::string& value) -> std::string {
         const std::optional<double> bytes = parseByteSize(value);
         if (!bytes)
           return "expected a byte size such as 1MiB";
         options.search.minChunkBytes = *bytes;
         return {};
       }},
      {"--device-budget",
       [](ModelCliOptions& options, const std::string& value) -> std::string {
         const std::optional<double> bytes = parseByteSize(value);
         if (!bytes)
           return "expected a byte size such as 16GiB";
         options.workload.deviceMemory.budgetBytes = *bytes;
         return {};
       }},
      {"--device-bytes",
       [](ModelCliOptions& options, const std::string& value) -> std::string {
         const std::optional<double> bytes = parseByteSize(value);
         if (!bytes)
           return "expected a byte size such as 24GiB";
         options.workload.deviceMemory.fullBytes = *bytes;
         return {};
       }},
      {"--max-kept",
       countInto([](ModelCliOptions& o, long long v) { o.search.maxKept = int(v); }, 0, 1 << 20)},
      {"--hardware-queues",
       countInto([](ModelCliOptions& o, long long v) { o.modern.hardwareQueues = int(v); }, 1,
                 128)},
      {"--model",
       [](ModelCliOptions& options, const std::string& value) -> std::string {
         const std::optional<ModelKind> kind = parseModelKind(value);
         if (!kind)
           return "expected modern, paper000, paper001 or paper002";
         options.model = *kind;
         return {};
       }},
  };
  return handlers;
}

std::unique_ptr<PerformanceModel> modelOf(const ModelCliOptions& options) {
  if (options.model == ModelKind::Modern)
    return std::make_unique<ModernModel>(options.modern);
  return makeModel(options.model);
}

} // namespace

std::optional<double> parseByteSize(const std::string& text) {
  static const std::pair<const char*, double> units[] = {{"KiB", 1024.0},
                                                         {"MiB", 1024.0 * 1024},
                                                         {"GiB", 1024.0 * 1024 * 1024},
                                                         {"TiB", 1099511627776.0},
                                                         {"KB", 1e3},
                                                         {"MB", 1e6},
                                                         {"GB", 1e9},
                                                         {"TB", 1e12},
                                                         {"B", 1.0}};
  std::string number = text;
  double scale = 1;
  for (const auto& [suffix, factor] : units) {
    const std::string unit = suffix;
    if (number.size() > unit.size() &&
        number.compare(number.size() - unit.size(), unit.size(), unit) == 0) {
      number.resize(number.size() - unit.size());
      scale = factor;
      break;
    }
  }
  const std::optional<double> value = parseNumber(number);
  if (!value || *value < 0)
    return std::nullopt;
  return *value * scale;
}

std::string modelCliUsage() {
  return R"(usage: overlap-model --profile NAME|FILE.json --h2d-bytes SIZE --d2h-bytes SIZE
                     --kernel-ms T [options]
       overlap-model --list-profiles
       overlap-model --show-profile NAME|FILE.json

Predicts the time of every variant (Explicit, Mapped, Streams, Hybrid) and stream count of one
call from a hardware profile, without a GPU, and prints the candidates the tuner would run.

workload:
  --h2d-bytes SIZE        chunked input bytes over the whole range (all input arrays)
  --d2h-bytes SIZE        output bytes over the whole range (copyout and copy arrays)
  --broadcast-bytes SIZE  inputs sent once before the pipeline (default 0)
  --kernel-ms T           kernel time t_E of the whole range, in milliseconds
  --extent P              partition extent: stream counts include its divisors (default unknown)
  --halo-bytes SIZE       extra input bytes per chunk boundary (default 0)
  --inout-bytes SIZE      part of --d2h-bytes from copy (in-out) arrays (default 0)
  --h2d-copies K          input sections copied per chunk (default 1)
  --d2h-copies K          output sections copied per chunk (default 1)
  --blocks B              thread blocks of the whole-range launch (enables the fill penalty)
  --blocks-per-sm K       resident blocks per multiprocessor (default 1)
  --mapped-reads F        times Mapped reads each input byte over the link (default 1)
  --pageable              the arrays are pageable (default: pinned)
search:
  --max-streams N         largest stream count considered (default 64)
  --tolerance X           keep candidates within X of the predicted best (default 0.1 = 10 %)
  --stream-tolerance X    ... and within X of their own variant's best (default 0.03 = 3 %)
  --max-kept K            keep at most K candidates besides Explicit (default: no limit)
  --max-chunks-per-stream K  also 2, 4, ... K chunks per stream (default 8; 1: one per stream)
  --min-chunk-bytes SIZE  ... while each chunk moves at least SIZE both ways (default 1MiB)
device memory:
  --device-budget SIZE    device memory a call may take (default: unlimited); over it the call
                          runs out of core: no Explicit, Streams and Hybrid on the ring
  --device-bytes SIZE     the call's full-size device buffers (default: its arrays' bytes
                          from the sizes above)
model:
  --model KIND            modern (default), paper000, paper001 or paper002
  --halo-twice            send halo elements once per chunk needing them (default: once)
  --hardware-queues N     CUDA_DEVICE_MAX_CONNECTIONS (default 8)
SIZE: bytes, or with a unit: KB MB GB TB (powers of 1000), KiB MiB GiB TiB (powers of 1024).
)";
}

ModelCliParse parseModelCli(const std::vector<std::string>& args) {
  ModelCliOptions options;
  bool hasH2d = false;
  bool hasD2h = false;
  bool hasKernel = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string name = args[i];
    std::optional<std::string> value;
    if (const std::size_t equals = name.find('=');
        name.rfind("--", 0) == 0 && equals != name.npos) {
      value = name.substr(equals + 1);
      name.resize(equals);
    }
    if (name == "--help" || name == "-h") {
      options.help = true;
      continue;
    }
    if (name == "--list-profiles") {
      options.listProfiles = true;
      continue;
    }
    if (name == "--halo-twice") {
      options.modern.haloSentTwice = true;
      continue;
    }
    if (name == "--pageable") {
      options.workload.transfers.hostMemoryPinned = false;
      continue;
    }
    const auto handler = valueOptions().find(name);
    if (handler == valueOptions().end())
      return {std::nullopt, "unknown option '" + name + "' (see --help)"};
    if (!value) {
      if (i + 1 >= args.size())
        return {std::nullopt, "option " + name + " needs a value"};
      value = args[++i];
    }
    const std::string error = handler->second(options, *value);
    if (!error.empty())
      return {std::nullopt, "option " + name + " '" + *value + "': " + error};
    hasH2d |= name == "--h2d-bytes";
    hasD2h |= name == "--d2h-bytes";
    hasKernel |= name == "--kernel-ms";
  }
  if (options.help || options.listProfiles || !options.showProfile.empty())
    return {options, {}};
  if (options.profile.empty())
    return {std::nullopt, "--profile is required (a name from --list-profiles or a JSON file)"};
  if (!hasH2d || !hasD2h || !hasKernel)
    return {std::nullopt, "--h2d-bytes, --d2h-bytes and --kernel-ms are required"};
  // Explicit copies every chunked section and the broadcast data, each with its own copy.
  Workload& workload = options.workload;
  workload.transfers.explicitH2dCopies =
      workload.transfers.h2dCopiesPerChunk + (workload.transfers.broadcastBytes > 0);
  workload.transfers.explicitD2hCopies = workload.transfers.d2hCopiesPerChunk;
  // The arrays' device buffers as the sizes above describe them: each input once (in-out arrays
  // among them), the pure outputs, the broadcast inputs and the reductions.
  Workload::DeviceMemory& memory = workload.deviceMemory;
  const Workload::Transfers& transfers = workload.transfers;
  memory.pureOutputFullBytes = std::max(0.0, transfers.d2hBytes - transfers.inoutD2hBytes);
  memory.residentBytes = transfers.broadcastBytes + transfers.reductionBytes;
  if (memory.fullBytes <= 0)
    memory.fullBytes = transfers.h2dBytes + memory.pureOutputFullBytes + memory.residentBytes;
  memory.pureOutputFullBytes = std::min(memory.pureOutputFullBytes, memory.fullBytes);
  return {options, {}};
}

int runModelCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  const ModelCliParse parsed = parseModelCli(args);
  if (!parsed.options) {
    err << "overlap-model: " << parsed.error << "\n";
    return 2;
  }
  const ModelCliOptions& options = *parsed.options;
  if (options.help) {
    out << modelCliUsage();
    return 0;
  }
  if (options.listProfiles) {
    const ProfileListing listing = listProfiles();
    for (const CatalogEntry& entry : listing.entries)
      out << entry.profile.name << "  " << profileKey(entry.profile) << "  (" << entry.origin
          << ")\n";
    for (const ProfileError& skipped : listing.skipped)
      err << "overlap-model: skipped " << skipped.message() << "\n";
    return 0;
  }
  if (!options.showProfile.empty()) {
    HardwareProfile profile;
    std::string origin;
    const ProfileError found = findProfile(options.showProfile, &profile, &origin);
    if (!found.ok()) {
      err << "overlap-model: " << found.message() << "\n";
      return 1;
    }
    out << "// " << origin << "\n" << profileToJson(profile);
    return 0;
  }
  const std::string problem = validate(options.workload);
  if (!problem.empty()) {
    err << "overlap-model: " << problem << "\n";
    return 1;
  }
  HardwareProfile profile;
  std::string origin;
  const ProfileError found = findProfile(options.profile, &profile, &origin);
  if (!found.ok()) {
    err << "overlap-model: " << found.message() << "\n";
    return 1;
  }
  const std::unique_ptr<PerformanceModel> model = modelOf(options);
  const Prediction prediction = predict(*model, profile, options.workload, options.search);
  PredictionReport report;
  report.modelName = model->name();
  report.profileOrigin = origin;
  report.profile = &profile;
  report.workload = &options.workload;
  report.prediction = &prediction;
  report.estimates = streamCountEstimates(profile, options.workload);
  printPredictionReport(out, report);
  return 0;
}

} // namespace overlap::model
