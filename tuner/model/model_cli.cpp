#include "model/model_cli.h"

#include "model/prediction_table_printer.h"
#include "model/stream_count_estimates.h"
#include "overlap/profile_catalog.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <map>
#include <utility>

namespace overlap::model {

namespace {

std::optional<double> parse_number(const std::string& text) {
  if (text.empty())
    return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(text.c_str(), &end);
  if (errno != 0 || end != text.c_str() + text.size() || !std::isfinite(value))
    return std::nullopt;
  return value;
}

std::optional<long long> parse_integer(const std::string& text) {
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

OptionHandler bytes_into(double Workload::* field) {
  return [field](ModelCliOptions& options, const std::string& value) -> std::string {
    const std::optional<double> bytes = parse_byte_size(value);
    if (!bytes)
      return "expected a byte size such as 268435456, 256MiB or 1.5GB";
    options.workload.*field = *bytes;
    return {};
  };
}

OptionHandler count_into(std::function<void(ModelCliOptions&, long long)> store, long long min,
                         long long max) {
  return [store = std::move(store), min, max](ModelCliOptions& options,
                                              const std::string& value) -> std::string {
    const std::optional<long long> count = parse_integer(value);
    if (!count || *count < min || *count > max)
      return "expected an integer from " + std::to_string(min) + " to " + std::to_string(max);
    store(options, *count);
    return {};
  };
}

const std::map<std::string, OptionHandler>& value_options() {
  static const std::map<std::string, OptionHandler> handlers = {
      {"--profile",
       [](ModelCliOptions& options, const std::string& value) -> std::string {
         options.profile = value;
         return {};
       }},
      {"--h2d-bytes", bytes_into(&Workload::h2d_bytes)},
      {"--d2h-bytes", bytes_into(&Workload::d2h_bytes)},
      {"--broadcast-bytes", bytes_into(&Workload::broadcast_bytes)},
      {"--halo-bytes", bytes_into(&Workload::halo_bytes_per_boundary)},
      {"--inout-bytes", bytes_into(&Workload::inout_d2h_bytes)},
      {"--kernel-ms",
       [](ModelCliOptions& options, const std::string& value) -> std::string {
         const std::optional<double> ms = parse_number(value);
         if (!ms || *ms < 0)
           return "expected a non-negative time in milliseconds";
         options.workload.kernel_seconds = *ms * 1e-3;
         return {};
       }},
      {"--extent",
       count_into([](ModelCliOptions& o, long long v) { o.workload.partition_extent = v; }, 1,
                  1LL << 62)},
      {"--h2d-copies",
       count_into([](ModelCliOptions& o, long long v) { o.workload.h2d_copies_per_chunk = int(v); },
                  1, 1024)},
      {"--d2h-copies",
       count_into([](ModelCliOptions& o, long long v) { o.workload.d2h_copies_per_chunk = int(v); },
                  1, 1024)},
      {"--blocks", count_into([](ModelCliOptions& o, long long v) { o.workload.total_blocks = v; },
                              1, 1LL << 62)},
      {"--blocks-per-sm",
       count_into(
           [](ModelCliOptions& o, long long v) { o.workload.resident_blocks_per_sm = int(v); }, 1,
           1024)},
      {"--mapped-reads",
       [](ModelCliOptions& options, const std::string& value) -> std::string {
         const std::optional<double> factor = parse_number(value);
         if (!factor || *factor < 1)
           return "expected a factor of at least 1";
         options.workload.mapped_read_factor = *factor;
         return {};
       }},
      {"--max-streams",
       count_into([](ModelCliOptions& o, long long v) { o.search.max_streams = int(v); }, 1, 4096)},
      {"--tolerance",
       [](ModelCliOptions& options, const std::string& value) -> std::string {
         const std::optional<double> tolerance = parse_number(value);
         if (!tolerance || *tolerance < 0)
           return "expected a non-negative fraction such as 0.1 (10 %)";
         options.search.tolerance = *tolerance;
         return {};
       }},
      {"--stream-tolerance",
       [](ModelCliOptions& options, const std::string& value) -> std::string {
         const std::optional<double> tolerance = parse_number(value);
         if (!tolerance || *tolerance < 0)
           return "expected a non-negative fraction such as 0.03 (3 %)";
         options.search.stream_tolerance = *tolerance;
         return {};
       }},
      {"--max-kept",
       count_into([](ModelCliOptions& o, long long v) { o.search.max_kept = int(v); }, 0, 1 << 20)},
      {"--hardware-queues",
       count_into([](ModelCliOptions& o, long long v) { o.modern.hardware_queues = int(v); }, 1,
                  128)},
      {"--model",
       [](ModelCliOptions& options, const std::string& value) -> std::string {
         const std::optional<ModelKind> kind = parse_model_kind(value);
         if (!kind)
           return "expected modern, paper000, paper001 or paper002";
         options.model = *kind;
         return {};
       }},
  };
  return handlers;
}

std::unique_ptr<PerformanceModel> model_of(const ModelCliOptions& options) {
  if (options.model == ModelKind::Modern)
    return std::make_unique<ModernModel>(options.modern);
  return make_model(options.model);
}

} // namespace

std::optional<double> parse_byte_size(const std::string& text) {
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
  const std::optional<double> value = parse_number(number);
  if (!value || *value < 0)
    return std::nullopt;
  return *value * scale;
}

std::string model_cli_usage() {
  return R"(usage: overlap-model --profile NAME|FILE.json --h2d-bytes SIZE --d2h-bytes SIZE
                     --kernel-ms T [options]
       overlap-model --list-profiles

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
model:
  --model KIND            modern (default), paper000, paper001 or paper002
  --halo-twice            send halo elements once per chunk needing them (default: once)
  --hardware-queues N     CUDA_DEVICE_MAX_CONNECTIONS (default 8)
SIZE: bytes, or with a unit: KB MB GB TB (powers of 1000), KiB MiB GiB TiB (powers of 1024).
)";
}

ModelCliParse parse_model_cli(const std::vector<std::string>& args) {
  ModelCliOptions options;
  bool has_h2d = false;
  bool has_d2h = false;
  bool has_kernel = false;
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
      options.list_profiles = true;
      continue;
    }
    if (name == "--halo-twice") {
      options.modern.halo_sent_twice = true;
      continue;
    }
    if (name == "--pageable") {
      options.workload.host_memory_pinned = false;
      continue;
    }
    const auto handler = value_options().find(name);
    if (handler == value_options().end())
      return {std::nullopt, "unknown option '" + name + "' (see --help)"};
    if (!value) {
      if (i + 1 >= args.size())
        return {std::nullopt, "option " + name + " needs a value"};
      value = args[++i];
    }
    const std::string error = handler->second(options, *value);
    if (!error.empty())
      return {std::nullopt, "option " + name + " '" + *value + "': " + error};
    has_h2d |= name == "--h2d-bytes";
    has_d2h |= name == "--d2h-bytes";
    has_kernel |= name == "--kernel-ms";
  }
  if (options.help || options.list_profiles)
    return {options, {}};
  if (options.profile.empty())
    return {std::nullopt, "--profile is required (a name from --list-profiles or a JSON file)"};
  if (!has_h2d || !has_d2h || !has_kernel)
    return {std::nullopt, "--h2d-bytes, --d2h-bytes and --kernel-ms are required"};
  // Explicit copies every chunked section and the broadcast data, each with its own copy.
  Workload& workload = options.workload;
  workload.explicit_h2d_copies = workload.h2d_copies_per_chunk + (workload.broadcast_bytes > 0);
  workload.explicit_d2h_copies = workload.d2h_copies_per_chunk;
  return {options, {}};
}

int run_model_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  const ModelCliParse parsed = parse_model_cli(args);
  if (!parsed.options) {
    err << "overlap-model: " << parsed.error << "\n";
    return 2;
  }
  const ModelCliOptions& options = *parsed.options;
  if (options.help) {
    out << model_cli_usage();
    return 0;
  }
  if (options.list_profiles) {
    const ProfileListing listing = list_profiles();
    for (const CatalogEntry& entry : listing.entries)
      out << entry.profile.name << "  " << profile_key(entry.profile) << "  (" << entry.origin
          << ")\n";
    for (const ProfileError& skipped : listing.skipped)
      err << "overlap-model: skipped " << skipped.message() << "\n";
    return 0;
  }
  const std::string problem = validate(options.workload);
  if (!problem.empty()) {
    err << "overlap-model: " << problem << "\n";
    return 1;
  }
  HardwareProfile profile;
  std::string origin;
  const ProfileError found = find_profile(options.profile, &profile, &origin);
  if (!found.ok()) {
    err << "overlap-model: " << found.message() << "\n";
    return 1;
  }
  const std::unique_ptr<PerformanceModel> model = model_of(options);
  const Prediction prediction = predict(*model, profile, options.workload, options.search);
  PredictionReport report;
  report.model_name = model->name();
  report.profile_origin = origin;
  report.profile = &profile;
  report.workload = &options.workload;
  report.prediction = &prediction;
  report.estimates = stream_count_estimates(profile, options.workload);
  print_prediction_report(out, report);
  return 0;
}

} // namespace overlap::model
