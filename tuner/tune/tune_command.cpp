#include "tune/tune_command.h"

#include "model/workload_from_descriptor.h"
#include "overlap/device.h"
#include "overlap/profile_catalog.h"
#include "tune/argument_slots.h"
#include "tune/console_summary.h"
#include "tune/crossover_plot.h"
#include "tune/descriptor_runner.h"
#include "tune/report_json.h"
#include "tune/report_markdown.h"
#include "tune/results_file.h"
#include "tune/svg_plot.h"
#include "tune/sweep_report.h"
#include "tune/t4_report.h"
#include "tune/tune_options.h"
#include "tune/tuning_supervisor.h"
#include "tune/worker_channel.h"

#include <cuda_runtime_api.h>
#include <limits.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>

namespace overlap::tune {
namespace {

std::string today_utc() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[16];
  std::strftime(text, sizeof text, "%Y-%m-%d", &utc);
  return text;
}

bool write_text(const std::string& path, const std::string& text, std::ostream& err) {
  std::ofstream out(path, std::ios::trunc);
  out << text;
  if (!out) {
    err << "overlap-tune: cannot write " << path << "\n";
    return false;
  }
  return true;
}

// The device to run on, or why there is none.
struct Gpu {
  bool present = false;
  std::string name;
  std::string problem;
};

Gpu find_gpu(int ordinal) {
  Gpu gpu;
  int count = 0;
  const cudaError_t code = cudaGetDeviceCount(&count);
  if (code != cudaSuccess || count == 0) {
    gpu.problem = code != cudaSuccess
                      ? std::string("no CUDA device (") + cudaGetErrorString(code) + ")"
                      : "no CUDA device";
    cudaGetLastError();
    return gpu;
  }
  if (ordinal >= count) {
    gpu.problem = "device " + std::to_string(ordinal) + " does not exist (" +
                  std::to_string(count) + " present)";
    return gpu;
  }
  DeviceDescription description;
  Status status = describe_device(ordinal, &description);
  if (status.ok()) {
    const cudaError_t set = cudaSetDevice(ordinal);
    if (set != cudaSuccess)
      status = OVERLAP_STATUS_OF(cudaSetDevice(ordinal), set);
  }
  if (!status.ok()) {
    gpu.problem = status.message();
    return gpu;
  }
  gpu.present = true;
  gpu.name = description.name;
  return gpu;
}

// The named profile, else a calibrated profile of this device, else the first embedded one.
bool choose_profile(const TuneOptions& options, const Gpu& gpu, HardwareProfile* profile,
                    std::string* origin, std::vector<std::string>* notes, std::ostream& err) {
  if (!options.profile.empty()) {
    const ProfileError found = find_profile(options.profile, profile, origin);
    if (!found.ok()) {
      err << "overlap-tune: " << found.message() << "\n";
      return false;
    }
    return true;
  }
  CatalogEntry entry;
  bool measured_here = false;
  std::vector<ProfileError> skipped;
  const bool found =
      profile_for_device(gpu.present ? gpu.name : std::string(), &entry, &measured_here, &skipped);
  // Unreadable user profile files must not vanish silently: the tuning would then describe
  // another machine.
  for (const ProfileError& problem : skipped)
    notes->push_back("a hardware profile file was skipped because it cannot be read: " +
                     problem.message());
  if (!found) {
    err << "overlap-tune: no hardware profile: give one with --profile\n";
    return false;
  }
  *profile = entry.profile;
  *origin = entry.origin;
  if (measured_here) {
    notes->push_back("profile chosen because it was measured on this device model (" + gpu.name +
                     ")");
    return true;
  }
  notes->push_back("no calibrated profile of " + (gpu.present ? gpu.name : std::string("a GPU")) +
                   " was found, so the embedded profile " + profile->name +
                   " was taken: predictions describe that machine, not this one (run "
                   "overlap-calibrate to measure this one)");
  return true;
}

std::string kernel_identity(const KernelDescriptor& descriptor) {
  std::string identity;
  for (int i = 0; i < descriptor.param_count; ++i)
    identity += std::string(descriptor.params[i].type) + ";";
  return identity;
}

struct KernelOutcome {
  bool ok = true;
  bool reference_failed = false;
};

// What every size of one kernel's tuning shares.
struct KernelTuning {
  const KernelDescriptor& descriptor;
  const TuneOptions& options;
  const Gpu& gpu;
  const HardwareProfile& profile;
  const std::string& profile_origin;
  const std::vector<std::string>& profile_notes;
  CandidateWatch* watch;
  std::ostream& out;
  std::ostream& err;
  CallMemory memory; // of the host arrays
};

// Where a kernel's reports go: <dir>/<kernel>, <dir>/<kernel>.pageable for pageable memory.
std::string report_stem(const KernelTuning& k) {
  return k.options.output_dir + "/" + k.descriptor.name +
         (k.memory == CallMemory::Pageable ? ".pageable" : "");
}

// One tuning at one size, its reports written as `base`.{json,md,svg}.
struct SizeTuning {
  bool ok = true;
  bool reference_failed = false;
  TuningRun run;
  long long extent = 0; // the call's partition extent P
  std::string report;   // the JSON report's path
};

// The call's partition extent at these arguments, for the results file (the dispatch chooses by
// it); -1 when the arguments are incomplete.
long long partition_extent_at(const KernelDescriptor& descriptor,
                              const std::map<std::string, long long>& arguments) {
  RandomBits bits(0);
  ArgumentSlots slots;
  std::string error;
  if (!slots.fill(descriptor, arguments, bits, &error))
    return -1;
  return descriptor.partition_extent(slots.pointers());
}

SizeTuning tune_size(const KernelTuning& k, const std::map<std::string, long long>& arguments,
                     const std::string& base, bool print_summary) {
  const KernelDescriptor& descriptor = k.descriptor;
  const TuneOptions& options = k.options;
  SizeTuning tuning;
  const std::uint64_t seed = options.seed ? *options.seed : std::random_device{}();
  RandomBits bits(seed);
  ArgumentSlots slots;
  std::string error;
  if (!slots.fill(descriptor, arguments, bits, &error)) {
    k.err << "overlap-tune: " << descriptor.name << ": " << error << "\n";
    tuning.ok = false;
    return tuning;
  }
  tuning.extent = descriptor.partition_extent(slots.pointers());

  TuningSetup setup;
  TuningRun& header = setup.header;
  header.kernel = descriptor.name;
  header.source_file = descriptor.source_file;
  header.source_line = descriptor.source_line;
  header.arguments.assign(arguments.begin(), arguments.end());
  header.device = k.gpu.name;
  header.profile_name = k.profile.name;
  header.profile_origin = k.profile_origin;
  header.date = today_utc();
  header.pinned_inputs = k.memory == CallMemory::Pinned;
  header.tolerance = options.tolerance;
  header.notes = k.profile_notes;
  setup.profile = &k.profile;
  const std::unique_ptr<model::PerformanceModel> model =
      model::make_model(model::ModelKind::Modern);
  setup.model = model.get();
  // The pointers are not set yet; the runner allocates every array, optional ones too.
  setup.workload = model::workload_from_descriptor(descriptor, slots.pointers(), 0,
                                                   model::OptionalArrays::AllPresent);
  setup.workload.host_memory_pinned = k.memory == CallMemory::Pinned;
  setup.kernel_identity = kernel_identity(descriptor);

  const auto progress = [&](const std::string& line) {
    if (!options.quiet)
      k.out << "  " << line << "\n" << std::flush;
  };
  k.out << "== " << descriptor.name << " (" << descriptor.source_file << ":"
        << descriptor.source_line << ")" << (k.memory == CallMemory::Pageable ? " pageable" : "");
  for (const auto& [name, value] : arguments)
    k.out << " " << name << "=" << value;
  k.out << "\n";

  TuningRun& run = tuning.run;
  if (!k.gpu.present || options.model_only) {
    const double t_e = options.tuner.kernel_seconds.value_or(0);
    run = predict_only(setup, options.tuner, t_e,
                       options.tuner.kernel_seconds
                           ? "given by the user"
                           : "unknown without a measurement: 0 assumed (transfers only); give "
                             "--kernel-time to include it");
    run.notes.push_back(k.gpu.present ? "--model-only: nothing was run"
                                      : "nothing was run: " + k.gpu.problem);
  } else {
    RunnerOptions runner_options;
    runner_options.pinned = k.memory == CallMemory::Pinned;
    runner_options.tolerance = options.tolerance;
    runner_options.seed = seed;
    const std::unique_ptr<DescriptorRunner> runner =
        DescriptorRunner::create(descriptor, arguments, runner_options, &error);
    if (!runner) {
      k.err << "overlap-tune: " << descriptor.name << ": " << error << "\n";
      tuning.ok = false;
      return tuning;
    }
    const std::string cache_dir =
        options.cache_dir ? *options.cache_dir : options.output_dir + "/cache";
    run = tune(*runner, setup, options.tuner, TuningCache(cache_dir), progress, k.watch);
    tuning.reference_failed = !run.winner;
  }

  tuning.report = base + ".json";
  const std::string svg_name = std::filesystem::path(base + ".svg").filename().string();
  tuning.ok &= write_text(base + ".json", to_json_text(run), k.err) &&
               write_text(base + ".svg", render_svg_plot(run), k.err) &&
               write_text(base + ".md", render_markdown(run, svg_name), k.err) &&
               write_text(base + ".T4.json", to_t4_results_text(run), k.err) &&
               write_text(base + ".T4-metadata.json", to_t4_metadata_text(run), k.err);
  if (print_summary)
    print_console_summary(k.out, run);
  else
    print_winner_line(k.out, run);
  k.out << "reports: " << base << ".md, " << base << ".json, " << base << ".svg\n";
  return tuning;
}

// The results file's record of one size: its winner, measured and predicted.
ResultsSize results_size(const SizeTuning& tuning) {
  const TuningRun& run = tuning.run;
  const CandidateOutcome& winner = run.candidates[*run.winner];
  ResultsSize size;
  size.extent = tuning.extent;
  size.arguments = run.arguments;
  size.choice = winner.candidate;
  size.median_seconds = winner.timing.median;
  size.predicted_seconds = winner.predicted_seconds.value_or(0);
  size.kernel_seconds = run.kernel_seconds;
  size.speedup_over_explicit = run.speedup(*run.winner).value_or(0);
  size.report = tuning.report;
  return size;
}

// A tuning whose winner goes into the results file: measured, not predicted.
bool recordable(const SizeTuning& tuning) {
  return tuning.ok && tuning.run.winner && !tuning.run.model_only && tuning.extent >= 0;
}

KernelOutcome tune_sweep(const KernelTuning& k, std::map<std::string, long long> arguments,
                         ResultsFile* results) {
  const KernelDescriptor& descriptor = k.descriptor;
  const SweepSpec& spec = *k.options.sweep;
  KernelOutcome outcome;
  std::map<std::string, long long> low = arguments, high = arguments;
  low[spec.parameter] = spec.low;
  high[spec.parameter] = spec.high;
  if (partition_extent_at(descriptor, low) == partition_extent_at(descriptor, high)) {
    k.err << "overlap-tune: " << descriptor.name << ": the partition extent does not change with "
          << spec.parameter
          << ", and the dispatch chooses by it: sweep the argument it depends "
             "on\n";
    outcome.ok = false;
    return outcome;
  }
  SweepRun sweep;
  sweep.kernel = descriptor.name;
  sweep.parameter = spec.parameter;
  sweep.sweep = to_string(spec);
  sweep.refinements = spec.refinements;
  std::vector<SizeTuning> tunings;
  run_sweep(spec, [&](long long value, bool refinement) -> std::optional<model::Candidate> {
    arguments[spec.parameter] = value;
    k.out << "-- " << descriptor.name << " " << spec.parameter << "=" << value
          << (refinement ? " (bisecting where the winner changes)" : "") << "\n";
    const std::string base =
        report_stem(k) + "." + spec.parameter + "-" + std::to_string(value) + ".tuning";
    SizeTuning tuning = tune_size(k, arguments, base, false);
    outcome.ok &= tuning.ok;
    outcome.reference_failed |= tuning.reference_failed;
    SweepPointRun point;
    point.value = value;
    point.extent = tuning.extent;
    point.refinement = refinement;
    point.report = std::filesystem::path(tuning.report).filename().string();
    point.run = tuning.run;
    sweep.points.push_back(std::move(point));
    tunings.push_back(tuning);
    const std::optional<std::size_t> winner = sweep_winner(tuning.run);
    return winner ? std::optional<model::Candidate>(tuning.run.candidates[*winner].candidate)
                  : std::nullopt;
  });
  std::sort(sweep.points.begin(), sweep.points.end(),
            [](const SweepPointRun& a, const SweepPointRun& b) { return a.value < b.value; });

  const std::string base = report_stem(k) + ".sweep";
  const std::string svg_name = std::filesystem::path(base + ".svg").filename().string();
  outcome.ok &= write_text(base + ".json", sweep_json_text(sweep), k.err) &&
                write_text(base + ".svg", render_crossover_plot(sweep), k.err) &&
                write_text(base + ".md", render_sweep_markdown(sweep, svg_name), k.err);
  print_sweep_summary(k.out, sweep);
  k.out << "sweep reports: " << base << ".md, " << base << ".json, " << base << ".svg\n";

  if (!results)
    return outcome;
  ResultsEntry entry;
  for (const SizeTuning& tuning : tunings) {
    if (!recordable(tuning))
      continue;
    // One size per extent: the dispatch looks sizes up by it.
    const bool known = std::any_of(entry.sizes.begin(), entry.sizes.end(),
                                   [&](const ResultsSize& s) { return s.extent == tuning.extent; });
    if (!known)
      entry.sizes.push_back(results_size(tuning));
    entry.kernel = tuning.run.kernel;
    entry.device = tuning.run.device;
    entry.memory = k.memory;
    entry.date = tuning.run.date;
  }
  if (entry.sizes.empty())
    return outcome;
  entry.sweep = sweep.sweep;
  std::sort(entry.sizes.begin(), entry.sizes.end(),
            [](const ResultsSize& a, const ResultsSize& b) { return a.extent < b.extent; });
  results->put(entry);
  return outcome;
}

KernelOutcome tune_kernel(const KernelTuning& k, ResultsFile* results) {
  const KernelDescriptor& descriptor = k.descriptor;
  const TuneOptions& options = k.options;
  KernelOutcome outcome;
  std::vector<std::string> unknown;
  const std::map<std::string, long long> arguments =
      tuning_arguments(descriptor, options.arguments, &unknown);
  if (options.kernels.size() == 1)
    for (const std::string& name : unknown) {
      k.err << "overlap-tune: " << descriptor.name << " has no integer parameter \"" << name
            << "\"\n";
      outcome.ok = false;
      return outcome;
    }
  if (options.sweep) {
    if (arguments.count(options.sweep->parameter))
      return tune_sweep(k, arguments, results);
    if (options.kernels.size() == 1) {
      k.err << "overlap-tune: " << descriptor.name << " has no integer parameter \""
            << options.sweep->parameter << "\" to sweep\n";
      outcome.ok = false;
      return outcome;
    }
    k.out << "note: " << descriptor.name << " has no argument " << options.sweep->parameter
          << ": tuned at one size\n";
  }
  const SizeTuning tuning = tune_size(k, arguments, report_stem(k) + ".tuning", true);
  outcome.ok = tuning.ok;
  outcome.reference_failed = tuning.reference_failed;
  if (results && recordable(tuning)) {
    ResultsEntry entry;
    entry.kernel = tuning.run.kernel;
    entry.device = tuning.run.device;
    entry.memory = k.memory;
    entry.date = tuning.run.date;
    entry.sizes.push_back(results_size(tuning));
    results->put(entry);
  }
  return outcome;
}

} // namespace

int run_tune_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  TuneOptions options;
  std::string error;
  if (!parse_tune_options(args, &options, &error)) {
    err << "overlap-tune: " << error << "\n" << tune_usage("overlap-tune");
    return 1;
  }
  if (options.help) {
    out << tune_usage("overlap-tune");
    return 0;
  }
  std::vector<const KernelDescriptor*> kernels;
  for (int i = 0; i < registered_kernel_count(); ++i)
    kernels.push_back(registered_kernel(i));
  if (options.list) {
    for (const KernelDescriptor* k : kernels) {
      out << k->name << " (" << k->source_file << ":" << k->source_line << ")";
      for (int i = 0; i < k->tune_default_count; ++i)
        out << " " << k->params[k->tune_defaults[i].param].name << "=" << k->tune_defaults[i].value;
      out << "\n";
    }
    return 0;
  }
  if (!options.kernels.empty()) {
    std::vector<const KernelDescriptor*> selected;
    for (const std::string& name : options.kernels) {
      const KernelDescriptor* found = find_registered_kernel(name.c_str());
      if (!found) {
        err << "overlap-tune: no annotated kernel \"" << name << "\" in this program (--list)\n";
        return 1;
      }
      selected.push_back(found);
    }
    kernels = selected;
  }
  if (kernels.empty()) {
    err << "overlap-tune: no annotated kernels are linked into this program\n";
    return 1;
  }

  const Gpu gpu = find_gpu(options.device);
  if (!gpu.present)
    out << "overlap-tune: " << gpu.problem
        << ": NOTHING WILL BE RUN; writing the model's predictions only\n";
  HardwareProfile profile;
  std::string origin;
  std::vector<std::string> profile_notes;
  if (!choose_profile(options, gpu, &profile, &origin, &profile_notes, err))
    return 1;
  out << "profile: " << profile.name << " (" << origin << ")\n";
  for (const std::string& note : profile_notes)
    out << "  note: " << note << "\n";

  std::error_code code;
  std::filesystem::create_directories(options.output_dir, code);
  ResultsFile results;
  const bool update_results = !options.results_file.empty();
  bool older = false;
  if (update_results && !read_results_file(options.results_file, &results, &error, &older)) {
    if (!older) {
      err << "overlap-tune: " << error << "\n";
      return 1;
    }
    // Written by an older Overlap: re-tuning is the remedy its error names, so this replaces it.
    out << "warning: " << error << ": it is replaced by this tuning's results; its other entries "
        << "are dropped (tune their kernels again)\n";
    results = {};
  }
  // A worker tells its supervisor about every run (tuning_supervisor.h).
  std::unique_ptr<WorkerChannel> channel;
  if (options.worker_fd)
    channel = std::make_unique<WorkerChannel>(*options.worker_fd);
  int status = 0;
  for (const KernelDescriptor* kernel : kernels)
    for (const CallMemory memory : options.memories) {
      const KernelTuning tuning{*kernel,       options,       gpu, profile, origin,
                                profile_notes, channel.get(), out, err,     memory};
      const KernelOutcome outcome = tune_kernel(tuning, update_results ? &results : nullptr);
      if (!outcome.ok)
        status = 1;
      else if (outcome.reference_failed && status == 0)
        status = 2;
    }
  if (update_results && gpu.present && !options.model_only) {
    if (!write_results_file(options.results_file, results, &error)) {
      err << "overlap-tune: " << error << "\n";
      return 1;
    }
    out << "results file: " << options.results_file << " (rebuild to dispatch to these winners)\n";
  }
  return status;
}

int run_tune_tool(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  TuneOptions options;
  std::string error;
  // Whatever runs nothing on a GPU, or is the worker itself, needs no supervisor.
  if (!parse_tune_options(args, &options, &error) || options.help || options.list ||
      options.model_only || !options.supervise || options.worker_fd)
    return run_tune_command(args, out, err);

  char executable[PATH_MAX];
  const ssize_t length = ::readlink("/proc/self/exe", executable, sizeof executable - 1);
  if (length <= 0) {
    err << "overlap-tune: cannot find this executable to start the tuning worker (readlink "
           "/proc/self/exe failed); use --no-supervise to tune in this process\n";
    return 1;
  }
  SupervisorOptions supervisor;
  supervisor.worker_command.push_back(std::string(executable, static_cast<std::size_t>(length)));
  supervisor.worker_command.insert(supervisor.worker_command.end(), args.begin(), args.end());

  // A restarted worker resumes from the cache; with --no-cache it gets a private one, removed at
  // the end, so nothing is read from or left in a shared cache.
  std::string private_cache;
  if (options.cache_dir && options.cache_dir->empty()) {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "overlap-tune-cache-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) {
      err << "overlap-tune: cannot create a private tuning cache in "
          << std::filesystem::temp_directory_path().string() << "\n";
      return 1;
    }
    private_cache = pattern;
    supervisor.worker_command.push_back("--cache-dir");
    supervisor.worker_command.push_back(private_cache);
    supervisor.cache_kept = false;
  }
  TuningSupervisor tuning(std::move(supervisor), out, err);
  const int status = tuning.run();
  if (!private_cache.empty()) {
    std::error_code ignored;
    std::filesystem::remove_all(private_cache, ignored);
  }
  return status;
}

} // namespace overlap::tune
