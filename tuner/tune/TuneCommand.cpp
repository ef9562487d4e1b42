#include "tune/TuneCommand.h"

#include "model/WorkloadFromDescriptor.h"
#include "overlap/ByteSize.h"
#include "overlap/Device.h"
#include "overlap/DeviceMemoryBudget.h"
#include "overlap/ProfileCatalog.h"
#include "overlap/ProfileIo.h"
#include "tune/ArgumentSlots.h"
#include "tune/ConsoleSummary.h"
#include "tune/CrossoverPlot.h"
#include "tune/DescriptorRunner.h"
#include "tune/ReportJson.h"
#include "tune/ReportMarkdown.h"
#include "tune/ResultsFile.h"
#include "tune/SvgPlot.h"
#include "tune/SweepReport.h"
#include "tune/T4Report.h"
#include "tune/TuneOptions.h"
#include "tune/TuningSupervisor.h"
#include "tune/WorkerChannel.h"

#include <cuda_runtime_api.h>
#include <limits.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <random>

namespace overlap::tune {
namespace {

bool writeText(const std::string& path, const std::string& text, std::ostream& err) {
  if (writeTextFile(path, text))
    return true;
  err << "overlap-tune: cannot write " << path << "\n";
  return false;
}

// The device to run on, or why there is none.
struct Gpu {
  bool present = false;
  std::string name;
  std::string problem;
};

Gpu findGpu(int ordinal) {
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
  Status status = describeDevice(ordinal, &description);
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
bool chooseProfile(const TuneOptions& options, const Gpu& gpu, HardwareProfile* profile,
                   std::string* origin, std::vector<std::string>* notes, std::ostream& err) {
  if (!options.profile.empty()) {
    const ProfileError found = findProfile(options.profile, profile, origin);
    if (!found.ok()) {
      err << "overlap-tune: " << found.message() << "\n";
      return false;
    }
    return true;
  }
  CatalogEntry entry;
  bool measuredHere = false;
  std::vector<ProfileError> skipped;
  const bool found =
      profileForDevice(gpu.present ? gpu.name : std::string(), &entry, &measuredHere, &skipped);
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
  if (measuredHere) {
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

std::string kernelIdentity(const KernelDescriptor& descriptor) {
  std::string identity;
  for (int i = 0; i < descriptor.paramCount; ++i)
    identity += std::string(descriptor.params[i].type) + ";";
  return identity;
}

struct KernelOutcome {
  bool ok = true;
  bool referenceFailed = false;
};

// What every size of one kernel's tuning shares.
struct KernelTuning {
  const KernelDescriptor& descriptor;
  const TuneOptions& options;
  const Gpu& gpu;
  const HardwareProfile& profile;
  const std::string& profileOrigin;
  const std::vector<std::string>& profileNotes;
  CandidateWatch* watch;
  std::ostream& out;
  std::ostream& err;
  CallMemory memory; // of the host arrays
};

// Where a kernel's reports go: <dir>/<kernel> for pinned memory, <dir>/<kernel>.<memory> else.
std::string reportStem(const KernelTuning& k) {
  return k.options.outputDir + "/" + k.descriptor.name +
         (k.memory == CallMemory::Pinned ? "" : std::string(".") + to_string(k.memory));
}

// One tuning at one size, its reports written as `base`.{json,md,svg}.
struct SizeTuning {
  bool ok = true;
  bool referenceFailed = false;
  TuningRun run;
  long long extent = 0; // the call's partition extent P
  std::string report;   // the JSON report's path
};

// The call's partition extent at these arguments, for the results file (the dispatch chooses by
// it); -1 when the arguments are incomplete.
long long partitionExtentAt(const KernelDescriptor& descriptor,
                            const std::map<std::string, long long>& arguments) {
  RandomBits bits(0);
  ArgumentSlots slots;
  std::string error;
  if (!slots.fill(descriptor, arguments, bits, &error))
    return -1;
  return descriptor.partitionExtent(slots.pointers());
}

SizeTuning tuneSize(const KernelTuning& k, const std::map<std::string, long long>& arguments,
                    const std::string& base, bool printSummary) {
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
  tuning.extent = descriptor.partitionExtent(slots.pointers());

  TuningSetup setup;
  TuningRun& header = setup.header;
  header.kernel = descriptor.name;
  header.sourceFile = descriptor.sourceFile;
  header.sourceLine = descriptor.sourceLine;
  header.arguments.assign(arguments.begin(), arguments.end());
  header.device = k.gpu.name;
  header.profileName = k.profile.name;
  header.profileOrigin = k.profileOrigin;
  header.date = todayUtc();
  header.memory = k.memory;
  header.tolerance = options.tolerance;
  header.notes = k.profileNotes;
  if (k.memory == CallMemory::Registered)
    header.notes.push_back("host arrays: allocated pageable 16 bytes past a page (as malloc puts "
                           "a large array) and registered (cudaHostRegister) once before the "
                           "runs, as the registration cache holds them");
  if (k.memory == CallMemory::Managed)
    header.notes.push_back("host arrays: cudaMallocManaged, written by the host before every "
                           "verified run; the model prices them as pinned memory");
  setup.profile = &k.profile;
  const std::unique_ptr<model::PerformanceModel> model = model::makeModel(model::ModelKind::Modern);
  setup.model = model.get();
  // The pointers are not set yet; the runner allocates every array, optional ones too.
  setup.workload = model::workloadFromDescriptor(descriptor, slots.pointers(), 0,
                                                 model::OptionalArrays::AllPresent);
  setup.workload.transfers.hostMemoryPinned = k.memory != CallMemory::Pageable;
  // The worker's calls obey the environment's budget: the model must know it to predict them.
  std::string budgetProblem;
  setup.workload.deviceMemory.budgetBytes =
      model::deviceMemoryBudgetFromEnvironment(&budgetProblem);
  if (!budgetProblem.empty())
    header.notes.push_back(budgetProblem);
  // Without one, the calls take the device's free memory less a margin: a call larger than that
  // runs out of core, and the model predicts it so.
  if (setup.workload.deviceMemory.budgetBytes == 0 && k.gpu.present) {
    // The runtime's own rule (the environment's budget is unset here, so it is the automatic one).
    DeviceMemoryBudget available;
    if (resolveDeviceMemoryBudget(0, 0, SIZE_MAX, &available).ok()) {
      const double automatic = static_cast<double>(available.bytes);
      setup.workload.deviceMemory.budgetBytes =
          model::automaticDeviceMemoryBudget(setup.workload, automatic);
      if (setup.workload.deviceMemory.budgetBytes > 0)
        header.notes.push_back("the call's full buffers (" +
                               formatBytes(setup.workload.deviceMemory.fullBytes) +
                               ") exceed the budget of " + formatBytes(automatic) + " (" +
                               available.source + "): the model predicts it out of core within " +
                               formatBytes(setup.workload.deviceMemory.budgetBytes));
    } else {
      (void)cudaGetLastError();
    }
  }
  setup.kernelIdentity = kernelIdentity(descriptor);

  const auto progress = [&](const std::string& line) {
    if (!options.quiet)
      k.out << "  " << line << "\n" << std::flush;
  };
  k.out << "== " << descriptor.name << " (" << descriptor.sourceFile << ":" << descriptor.sourceLine
        << ")" << (k.memory == CallMemory::Pinned ? "" : std::string(" ") + to_string(k.memory));
  for (const auto& [name, value] : arguments)
    k.out << " " << name << "=" << value;
  k.out << "\n";

  TuningRun& run = tuning.run;
  if (!k.gpu.present || options.modelOnly) {
    const double tE = options.tuner.kernelSeconds.value_or(0);
    run = predictOnly(setup, options.tuner, tE,
                      options.tuner.kernelSeconds
                          ? "given by the user"
                          : "unknown without a measurement: 0 assumed (transfers only); give "
                            "--kernel-time to include it");
    run.notes.push_back(k.gpu.present ? "--model-only: nothing was run"
                                      : "nothing was run: " + k.gpu.problem);
  } else {
    RunnerOptions runnerOptions;
    runnerOptions.memory = k.memory;
    runnerOptions.tolerance = options.tolerance;
    runnerOptions.seed = seed;
    const std::unique_ptr<DescriptorRunner> runner =
        DescriptorRunner::create(descriptor, arguments, runnerOptions, &error);
    if (!runner) {
      k.err << "overlap-tune: " << descriptor.name << ": " << error << "\n";
      tuning.ok = false;
      return tuning;
    }
    const std::string cacheDir =
        options.cacheDir ? *options.cacheDir : options.outputDir + "/cache";
    run = tune(*runner, setup, options.tuner, TuningCache(cacheDir), progress, k.watch);
    tuning.referenceFailed = !run.winner;
  }

  tuning.report = base + ".json";
  const std::string svgName = std::filesystem::path(base + ".svg").filename().string();
  tuning.ok &= writeText(base + ".json", toJsonText(run), k.err) &&
               writeText(base + ".svg", renderSvgPlot(run), k.err) &&
               writeText(base + ".md", renderMarkdown(run, svgName), k.err) &&
               writeText(base + ".T4.json", toT4ResultsText(run), k.err) &&
               writeText(base + ".T4-metadata.json", toT4MetadataText(run), k.err);
  if (printSummary)
    printConsoleSummary(k.out, run);
  else
    printWinnerLine(k.out, run);
  k.out << "reports: " << base << ".md, " << base << ".json, " << base << ".svg\n";
  return tuning;
}

// The results file's record of one size: its winner, measured and predicted.
ResultsSize resultsSize(const SizeTuning& tuning) {
  const TuningRun& run = tuning.run;
  const CandidateOutcome& winner = run.candidates[*run.winner];
  ResultsSize size;
  size.extent = tuning.extent;
  size.arguments = run.arguments;
  size.choice = winner.candidate;
  size.medianSeconds = winner.timing.median;
  size.predictedSeconds = winner.predictedSeconds.value_or(0);
  size.kernelSeconds = run.kernelSeconds;
  size.speedupOverExplicit = run.speedup(*run.winner).value_or(0);
  size.report = tuning.report;
  return size;
}

// A tuning whose winner goes into the results file: measured, not predicted.
bool recordable(const SizeTuning& tuning) {
  return tuning.ok && tuning.run.winner && !tuning.run.modelOnly && tuning.extent >= 0;
}

KernelOutcome tuneSweep(const KernelTuning& k, std::map<std::string, long long> arguments,
                        ResultsFile* results) {
  const KernelDescriptor& descriptor = k.descriptor;
  const SweepSpec& spec = *k.options.sweep;
  KernelOutcome outcome;
  std::map<std::string, long long> low = arguments, high = arguments;
  low[spec.parameter] = spec.low;
  high[spec.parameter] = spec.high;
  if (partitionExtentAt(descriptor, low) == partitionExtentAt(descriptor, high)) {
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
  runSweep(spec, [&](long long value, bool refinement) -> std::optional<model::Candidate> {
    arguments[spec.parameter] = value;
    k.out << "-- " << descriptor.name << " " << spec.parameter << "=" << value
          << (refinement ? " (bisecting where the winner changes)" : "") << "\n";
    const std::string base =
        reportStem(k) + "." + spec.parameter + "-" + std::to_string(value) + ".tuning";
    SizeTuning tuning = tuneSize(k, arguments, base, false);
    outcome.ok &= tuning.ok;
    outcome.referenceFailed |= tuning.referenceFailed;
    SweepPointRun point;
    point.value = value;
    point.extent = tuning.extent;
    point.refinement = refinement;
    point.report = std::filesystem::path(tuning.report).filename().string();
    point.run = tuning.run;
    sweep.points.push_back(std::move(point));
    tunings.push_back(tuning);
    const std::optional<std::size_t> winner = sweepWinner(tuning.run);
    return winner ? std::optional<model::Candidate>(tuning.run.candidates[*winner].candidate)
                  : std::nullopt;
  });
  std::sort(sweep.points.begin(), sweep.points.end(),
            [](const SweepPointRun& a, const SweepPointRun& b) { return a.value < b.value; });

  const std::string base = reportStem(k) + ".sweep";
  const std::string svgName = std::filesystem::path(base + ".svg").filename().string();
  outcome.ok &= writeText(base + ".json", sweepJsonText(sweep), k.err) &&
                writeText(base + ".svg", renderCrossoverPlot(sweep), k.err) &&
                writeText(base + ".md", renderSweepMarkdown(sweep, svgName), k.err);
  printSweepSummary(k.out, sweep);
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
      entry.sizes.push_back(resultsSize(tuning));
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

KernelOutcome tuneKernel(const KernelTuning& k, ResultsFile* results) {
  const KernelDescriptor& descriptor = k.descriptor;
  const TuneOptions& options = k.options;
  KernelOutcome outcome;
  std::vector<std::string> unknown;
  const std::map<std::string, long long> arguments =
      tuningArguments(descriptor, options.arguments, &unknown);
  if (options.kernels.size() == 1)
    for (const std::string& name : unknown) {
      k.err << "overlap-tune: " << descriptor.name << " has no integer parameter \"" << name
            << "\"\n";
      outcome.ok = false;
      return outcome;
    }
  if (options.sweep) {
    if (arguments.count(options.sweep->parameter))
      return tuneSweep(k, arguments, results);
    if (options.kernels.size() == 1) {
      k.err << "overlap-tune: " << descriptor.name << " has no integer parameter \""
            << options.sweep->parameter << "\" to sweep\n";
      outcome.ok = false;
      return outcome;
    }
    k.out << "note: " << descriptor.name << " has no argument " << options.sweep->parameter
          << ": tuned at one size\n";
  }
  const SizeTuning tuning = tuneSize(k, arguments, reportStem(k) + ".tuning", true);
  outcome.ok = tuning.ok;
  outcome.referenceFailed = tuning.referenceFailed;
  if (results && recordable(tuning)) {
    ResultsEntry entry;
    entry.kernel = tuning.run.kernel;
    entry.device = tuning.run.device;
    entry.memory = k.memory;
    entry.date = tuning.run.date;
    entry.sizes.push_back(resultsSize(tuning));
    results->put(entry);
  }
  return outcome;
}

} // namespace

int runTuneCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  TuneOptions options;
  std::string error;
  if (!parseTuneOptions(args, &options, &error)) {
    err << "overlap-tune: " << error << "\n" << tuneUsage("overlap-tune");
    return 1;
  }
  if (options.help) {
    out << tuneUsage("overlap-tune");
    return 0;
  }
  std::vector<const KernelDescriptor*> kernels;
  for (int i = 0; i < registeredKernelCount(); ++i)
    kernels.push_back(registeredKernel(i));
  if (options.list) {
    for (const KernelDescriptor* k : kernels) {
      out << k->name << " (" << k->sourceFile << ":" << k->sourceLine << ")";
      for (int i = 0; i < k->tuneDefaultCount; ++i)
        out << " " << k->params[k->tuneDefaults[i].param].name << "=" << k->tuneDefaults[i].value;
      out << "\n";
    }
    return 0;
  }
  if (!options.kernels.empty()) {
    std::vector<const KernelDescriptor*> selected;
    for (const std::string& name : options.kernels) {
      const KernelDescriptor* found = findRegisteredKernel(name.c_str());
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

  const Gpu gpu = findGpu(options.device);
  if (!gpu.present)
    out << "overlap-tune: " << gpu.problem
        << ": NOTHING WILL BE RUN; writing the model's predictions only\n";
  HardwareProfile profile;
  std::string origin;
  std::vector<std::string> profileNotes;
  if (!chooseProfile(options, gpu, &profile, &origin, &profileNotes, err))
    return 1;
  out << "profile: " << profile.name << " (" << origin << ")\n";
  for (const std::string& note : profileNotes)
    out << "  note: " << note << "\n";

  std::error_code code;
  std::filesystem::create_directories(options.outputDir, code);
  ResultsFile results;
  const bool updateResults = !options.resultsFile.empty();
  bool older = false;
  if (updateResults && !readResultsFile(options.resultsFile, &results, &error, &older)) {
    if (!older) {
      err << "overlap-tune: " << error << "\n";
      return 1;
    }
    // Written by an older Overlap: re-tuning is the remedy its error names, so this replaces it.
    out << "warning: " << error << ": it is replaced by this tuning's results; its other entries "
        << "are dropped (tune their kernels again)\n";
    results = {};
  }
  // A worker tells its supervisor about every run (TuningSupervisor.h).
  std::unique_ptr<WorkerChannel> channel;
  if (options.workerFd)
    channel = std::make_unique<WorkerChannel>(*options.workerFd);
  int status = 0;
  for (const KernelDescriptor* kernel : kernels)
    for (const CallMemory memory : options.memories) {
      const KernelTuning tuning{*kernel,      options,       gpu, profile, origin,
                                profileNotes, channel.get(), out, err,     memory};
      const KernelOutcome outcome = tuneKernel(tuning, updateResults ? &results : nullptr);
      if (!outcome.ok)
        status = 1;
      else if (outcome.referenceFailed && status == 0)
        status = 2;
    }
  if (updateResults && gpu.present && !options.modelOnly) {
    if (!writeResultsFile(options.resultsFile, results, &error)) {
      err << "overlap-tune: " << error << "\n";
      return 1;
    }
    out << "results file: " << options.resultsFile << " (rebuild to dispatch to these winners)\n";
  }
  return status;
}

int runTuneTool(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  TuneOptions options;
  std::string error;
  // Whatever runs nothing on a GPU, or is the worker itself, needs no supervisor.
  if (!parseTuneOptions(args, &options, &error) || options.help || options.list ||
      options.modelOnly || !options.supervise || options.workerFd)
    return runTuneCommand(args, out, err);

  char executable[PATH_MAX];
  const ssize_t length = ::readlink("/proc/self/exe", executable, sizeof executable - 1);
  if (length <= 0) {
    err << "overlap-tune: cannot find this executable to start the tuning worker (readlink "
           "/proc/self/exe failed); use --no-supervise to tune in this process\n";
    return 1;
  }
  SupervisorOptions supervisor;
  supervisor.workerCommand.push_back(std::string(executable, static_cast<std::size_t>(length)));
  supervisor.workerCommand.insert(supervisor.workerCommand.end(), args.begin(), args.end());

  // A restarted worker resumes from the cache; with --no-cache it gets a private one, removed at
  // the end, so nothing is read from or left in a shared cache.
  std::string privateCache;
  if (options.cacheDir && options.cacheDir->empty()) {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "overlap-tune-cache-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) {
      err << "overlap-tune: cannot create a private tuning cache in "
          << std::filesystem::temp_directory_path().string() << "\n";
      return 1;
    }
    privateCache = pattern;
    supervisor.workerCommand.push_back("--cache-dir");
    supervisor.workerCommand.push_back(privateCache);
    supervisor.cacheKept = false;
  }
  TuningSupervisor tuning(std::move(supervisor), out, err);
  const int status = tuning.run();
  if (!privateCache.empty()) {
    std::error_code ignored;
    std::filesystem::remove_all(privateCache, ignored);
  }
  return status;
}

} // namespace overlap::tune
