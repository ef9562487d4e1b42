#include "overlap/Dispatch.h"

#include "ChoiceCache.h"
#include "DispatchDevice.h"
#include "overlap/PinCache.h"
#include "overlap/SizeClass.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <sstream>
#include <vector>

namespace overlap {
namespace {

// What the choices are made from, besides the call: changed by registrations, by setting the
// model, and by reloadDispatchSettings(). Every change starts a new generation, which makes the
// kept choices stale.
struct Registry {
  std::mutex mutex;
  std::vector<BakedChoice> baked;
  ModelChooser model = nullptr;
  ModelPredictor predictor = nullptr;
};

Registry& registry() {
  static Registry* const instance = new Registry;
  return *instance;
}

std::atomic<std::uint64_t> gGeneration{1};

void nextGeneration() {
  gGeneration.fetch_add(1, std::memory_order_acq_rel);
}

// The environment as the first choice found it.
struct Settings {
  bool hasOverride = false;
  std::string overrideText; // OVERLAP_VARIANT
  bool log = false;         // OVERLAP_DISPATCH_LOG set and not "0"
};

std::unique_ptr<const Settings> readSettings() {
  auto settings = std::make_unique<Settings>();
  if (const char* value = std::getenv("OVERLAP_VARIANT")) {
    settings->hasOverride = true;
    settings->overrideText = value;
  }
  const char* log = std::getenv("OVERLAP_DISPATCH_LOG");
  settings->log = log && std::strcmp(log, "0") != 0;
  return settings;
}

struct SettingsStore {
  std::mutex mutex;
  std::atomic<const Settings*> current{nullptr};
  std::vector<std::unique_ptr<const Settings>> all; // readers may still hold an older one
};

SettingsStore& settingsStore() {
  static SettingsStore* const instance = new SettingsStore;
  return *instance;
}

const Settings& settings() {
  SettingsStore& store = settingsStore();
  if (const Settings* current = store.current.load(std::memory_order_acquire))
    return *current;
  const std::lock_guard<std::mutex> lock(store.mutex);
  if (const Settings* current = store.current.load(std::memory_order_relaxed))
    return *current;
  store.all.push_back(readSettings());
  store.current.store(store.all.back().get(), std::memory_order_release);
  return *store.all.back();
}

std::string lower(std::string text) {
  for (char& c : text)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

bool streamed(Variant variant) {
  return variant == Variant::Streams || variant == Variant::Hybrid;
}

// "streams:16:breadth-first", "graph-hybrid:4" and the like.
bool parseConfig(const std::string& text, RunConfig* config, std::string* error) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, ':');)
    parts.push_back(lower(part));
  RunConfig out;
  std::string name = parts.empty() ? text : parts[0];
  const std::string graphPrefix = "graph-";
  if (name == graphPrefix + "streams" || name == graphPrefix + "hybrid") {
    out.streams.graph = true;
    name = name.substr(graphPrefix.size());
  }
  if (name == "explicit")
    out.variant = Variant::Explicit;
  else if (name == "mapped")
    out.variant = Variant::Mapped;
  else if (name == "streams")
    out.variant = Variant::Streams;
  else if (name == "hybrid")
    out.variant = Variant::Hybrid;
  else {
    *error = "unknown variant \"" + text + "\"";
    return false;
  }
  if (parts.size() > (streamed(out.variant) ? 3u : 1u)) {
    *error = "too many fields in \"" + text + "\"";
    return false;
  }
  if (parts.size() >= 2) {
    char* end = nullptr;
    const long streams = std::strtol(parts[1].c_str(), &end, 10);
    if (parts[1].empty() || *end != '\0' || streams < 1 || streams > 1024) {
      *error = "stream count \"" + parts[1] + "\" is not in 1..1024";
      return false;
    }
    out.streams.streams = static_cast<int>(streams);
  }
  if (parts.size() == 3) {
    if (parts[2] == "depth-first")
      out.streams.order = IssueOrder::DepthFirst;
    else if (parts[2] == "breadth-first")
      out.streams.order = IssueOrder::BreadthFirst;
    else {
      *error = "issue order \"" + parts[2] + "\" is neither depth-first nor breadth-first";
      return false;
    }
  }
  *config = out;
  return true;
}

// The model as a SizePredictor of one call.
class CallPredictor final : public SizePredictor {
public:
  CallPredictor(ModelPredictor predictor, const KernelDescriptor& kernel, ArgPointers args,
                const std::string& deviceName, CallMemory memory)
      : predictor_(predictor), kernel_(kernel), args_(args), deviceName_(deviceName),
        memory_(memory) {}

  std::vector<std::optional<double>> predict(const std::vector<RunConfig>& configs,
                                             double kernelSeconds) override {
    std::vector<std::optional<double>> seconds(configs.size());
    if (!predictor_(kernel_, args_, deviceName_, memory_, kernelSeconds, configs.data(),
                    static_cast<int>(configs.size()), seconds.data()))
      return {};
    return seconds;
  }

private:
  ModelPredictor predictor_;
  const KernelDescriptor& kernel_;
  ArgPointers args_;
  const std::string& deviceName_;
  CallMemory memory_;
};

VariantChoice choose(const KernelDescriptor& kernel, ArgPointers args,
                     const std::string& deviceName, CallMemory memory,
                     const Settings& environment) {
  VariantChoice choice;
  choice.memory = memory;
  std::string problem;
  if (environment.hasOverride) {
    bool found = false;
    RunConfig config;
    if (parseVariantOverride(environment.overrideText, kernel.name, &found, &config, &problem)) {
      if (found) {
        choice.config = config;
        choice.source = ChoiceSource::Environment;
        choice.reason = "OVERLAP_VARIANT=" + environment.overrideText;
        return choice;
      }
    } else {
      problem = "OVERLAP_VARIANT ignored: " + problem + "; ";
    }
  }
  // Pageable arrays the registration cache pins for every call are page-locked from the first call
  // on: registered memory, or pinned where every array starts on a host line.
  const PinCacheSettings& pinCache = pinCacheSettings();
  const bool cachedRegistrations =
      memory == CallMemory::Pageable && pinCache.enabled && pinCache.everyCall;
  const CallMemory callMemory = !cachedRegistrations                   ? memory
                                : arraysStartOnHostLines(kernel, args) ? CallMemory::Pinned
                                                                       : CallMemory::Registered;
  std::string memoryNote;
  if (cachedRegistrations)
    memoryNote = "pageable arrays, registered once through the cache (OVERLAP_PIN_CACHE): ";
  else if (memory == CallMemory::Registered)
    memoryNote = "page-locked arrays off 128-byte lines: ";
  else if (memory == CallMemory::Managed)
    memoryNote = "managed arrays: ";
  else if (memory == CallMemory::Pageable)
    memoryNote = "pageable arrays: ";
  // Registered and managed memory without a tuning of their own run the pinned one: registered
  // copies run at pinned speed, only kernels that address it may be slower; every variant runs
  // managed memory as it is (docs/generated-code.md), at whatever speed the driver migrates it.
  const bool pinnedWillDo =
      callMemory == CallMemory::Registered || callMemory == CallMemory::Managed;
  ModelChooser model = nullptr;
  ModelPredictor predictor = nullptr;
  std::optional<BakedChoice> baked;
  std::optional<BakedChoice> pinnedBaked;
  std::string otherMemories; // tuned on, of no use to this call
  {
    Registry& table = registry();
    const std::lock_guard<std::mutex> lock(table.mutex);
    // The latest registration of a kernel, device and memory wins.
    for (auto it = table.baked.rbegin(); it != table.baked.rend() && !baked; ++it)
      if (std::strcmp(kernel.name, it->kernel) == 0 && deviceName == it->device) {
        if (it->memory == callMemory)
          baked = *it;
        else if (pinnedWillDo && it->memory == CallMemory::Pinned && !pinnedBaked)
          pinnedBaked = *it;
        else if (otherMemories.find(to_string(it->memory)) == std::string::npos)
          otherMemories += std::string(otherMemories.empty() ? "" : ", ") + to_string(it->memory);
      }
    model = table.model;
    predictor = table.predictor;
  }
  // "no tuning results for this device on registered[ or pinned] memory"
  const auto noTuning = [&](bool orPinned) {
    return std::string("no tuning results for this device on ") + to_string(callMemory) +
           (orPinned ? " or pinned" : "") + " memory";
  };
  if (!baked && pinnedBaked) {
    baked = pinnedBaked;
    memoryNote += noTuning(false) + ", ";
  }
  if (baked && baked->sizeCount > 0) {
    const Partition partition = partitionOf(kernel, args);
    const long long extent = std::max(0LL, partition.extent);
    CallPredictor callModel(predictor, kernel, args, deviceName, baked->memory);
    const SizeChoice sized =
        chooseBySize(baked->sizes, baked->sizeCount, extent,
                     granuleCount(Partition{0, extent, std::max(1LL, partition.granule)}),
                     predictor ? &callModel : nullptr);
    choice.config = sized.config;
    choice.source = ChoiceSource::Baked;
    choice.reason = problem + memoryNote + "tuned on " + deviceName + " on " +
                    to_string(baked->memory) + " memory: " + sized.reason;
    return choice;
  }
  std::string missing = noTuning(pinnedWillDo);
  if (!otherMemories.empty())
    missing +=
        " (only on " + otherMemories + " memory: tune with --memory " + to_string(callMemory) + ")";
  if (callMemory == CallMemory::Pageable) {
    // The model lacks the fixed costs of registering and staging (on the H100 it chose Mapped,
    // registered per call, for 2 KiB of saxpy: 8.8x slower than pageable Explicit); only a
    // tuning measures them.
    choice.config = RunConfig{};
    choice.reason = problem + memoryNote + missing + ": Explicit";
    return choice;
  }
  std::string why;
  if (model && model(kernel, args, deviceName, &choice.config, &why)) {
    choice.source = ChoiceSource::Model;
    choice.reason = problem + memoryNote + missing + "; " + why;
    return choice;
  }
  choice.config = RunConfig{};
  choice.reason = problem + memoryNote + missing + " and no model: Explicit";
  return choice;
}

// What one call looks like to the kept choices.
struct CallShape {
  long long extent = 0;         // P
  long long granules = 0;       // ceil(P / G)
  unsigned long long bytes = 0; // of every array passed, saturating
};

CallShape shapeOf(const KernelDescriptor& kernel, ArgPointers args) {
  CallShape shape;
  shape.extent = std::max(0LL, kernel.partitionExtent(args));
  const long long granule = kernel.granule ? std::max(1LL, kernel.granule(args)) : 1;
  shape.granules = granuleCount(Partition{0, shape.extent, granule});
  for (int a = 0; a < kernel.arrayCount; ++a) {
    const ArrayDescriptor& array = kernel.arrays[a];
    if (array.optional && *static_cast<const void* const*>(args[array.param]) == nullptr)
      continue;
    const unsigned long long elements =
        static_cast<unsigned long long>(std::max(0LL, kernel.arrayExtent(args, a)));
    const unsigned long long limit = ~0ull - shape.bytes;
    shape.bytes = elements > limit / std::max<std::size_t>(array.elementSize, 1)
                      ? ~0ull
                      : shape.bytes + elements * array.elementSize;
  }
  return shape;
}

// Keys: the device, the size classes and the memory, then what refines a kept choice (the call's
// chunk count when it limits the streams, a fallback). Bit 63 keeps every key nonzero.
constexpr int kBytesShift = 9;
constexpr int kGranulesShift = 18;
constexpr int kDeviceShift = 29;
constexpr int kMemoryShift = 59; // two bits
static_assert(static_cast<int>(CallMemory::Managed) < 4, "a CallMemory takes two bits of a key");
constexpr std::uint64_t kFallbackBit = 1ull << 62;
constexpr std::uint64_t kKeyBit = 1ull << 63;

std::uint64_t classKey(unsigned device, const CallShape& shape, CallMemory memory) {
  return kKeyBit | (static_cast<std::uint64_t>(memory) << kMemoryShift) |
         (static_cast<std::uint64_t>(device & 0xffff) << kDeviceShift) |
         (static_cast<std::uint64_t>(sizeClass(shape.bytes)) << kBytesShift) |
         static_cast<std::uint64_t>(sizeClass(static_cast<unsigned long long>(shape.extent)));
}

std::string classText(long long extent) {
  const int index = sizeClass(static_cast<unsigned long long>(extent));
  if (index == 0)
    return "P = 0";
  return "P in [" + std::to_string(sizeClassFloor(index)) + ", " +
         std::to_string(sizeClassFloor(index + 1)) + ")";
}

std::string labelOf(const KernelDescriptor& kernel, const VariantChoice& choice, long long extent) {
  return std::string(kernel.name) + "_tuned chose " + describe(choice.config) + " (" +
         to_string(choice.source) + ", " + classText(extent) + ")";
}

void logChoice(const KernelDescriptor& kernel, const CallShape& shape,
               const VariantChoice& choice) {
  if (!settings().log)
    return;
  std::fprintf(stderr, "overlap: %s, %s, %.3g MiB of %s arrays: %s (%s: %s)\n", kernel.name,
               classText(shape.extent).c_str(), static_cast<double>(shape.bytes) / (1 << 20),
               to_string(choice.memory), describe(choice.config).c_str(), to_string(choice.source),
               choice.reason.c_str());
}

// A split tuned on more GPUs than this machine shows runs across those it has.
void limitToVisibleDevices(VariantChoice* choice) {
  StreamsConfig& config = choice->config.streams;
  if (config.devices <= 1)
    return;
  int visible = 0;
  if (cudaGetDeviceCount(&visible) != cudaSuccess) {
    (void)cudaGetLastError();
    visible = 1;
  }
  if (config.devices <= visible)
    return;
  config.devices = std::max(1, visible);
  choice->reason += "; on " + std::to_string(config.devices) + " GPU(s): no more are visible";
}

// A kept decision and the key it is kept under.
struct Kept {
  const detail::Decision* decision;
  std::uint64_t key;
  CallShape shape;
};

detail::Decision decide(const KernelDescriptor& kernel, ArgPointers args,
                        const detail::DispatchDevice& device, const CallShape& shape,
                        CallMemory memory) {
  detail::Decision made;
  made.choice = choose(kernel, args, device.name, memory, settings());
  limitToVisibleDevices(&made.choice);
  made.label = labelOf(kernel, made.choice, shape.extent);
  logChoice(kernel, shape, made.choice);
  return made;
}

// `decision` with no more streams than the call has chunks.
detail::Decision limitedToChunks(const KernelDescriptor& kernel, const detail::Decision& decision,
                                 const CallShape& shape) {
  detail::Decision made = decision;
  made.choice.config.streams.streams = static_cast<int>(shape.granules);
  made.choice.reason +=
      "; " + std::to_string(shape.granules) + " streams: the call has no more chunks (ceil(P / G))";
  made.label = labelOf(kernel, made.choice, shape.extent);
  logChoice(kernel, shape, made.choice);
  return made;
}

Kept decisionForCall(const KernelDescriptor& kernel, ArgPointers args,
                     const detail::DispatchDevice& device, detail::KernelChoices& choices,
                     CallMemory memory) {
  const CallShape shape = shapeOf(kernel, args);
  const std::uint64_t generation = gGeneration.load(std::memory_order_acquire);
  const std::uint64_t key = classKey(device.id, shape, memory);
  const detail::Decision* decision = choices.find(key, generation);
  if (!decision)
    decision = &choices.findOrMake(key, generation,
                                   [&] { return decide(kernel, args, device, shape, memory); });
  const RunConfig& config = decision->choice.config;
  if (!streamed(config.variant) || shape.granules < 1 || config.streams.streams <= shape.granules)
    return {decision, key, shape};
  // The chunk count refines the key; it is below the stream count (at most 1024), so only small
  // calls have such keys.
  const std::uint64_t limited =
      key | (static_cast<std::uint64_t>(shape.granules) << kGranulesShift);
  const detail::Decision* kept = choices.find(limited, generation);
  if (!kept)
    kept = &choices.findOrMake(limited, generation,
                               [&] { return limitedToChunks(kernel, *decision, shape); });
  return {kept, limited, shape};
}

// Where a choice that failed before doing any work runs again: Explicit, unless it was Explicit
// that did not fit the device's memory (its budget, DeviceMemoryBudget.h); then Streams, which
// runs out of core in what the budget allows.
RunConfig fallbackConfig(const VariantChoice& failed, const Status& status) {
  RunConfig config;
  if (failed.config.variant == Variant::Explicit && status.code == cudaErrorMemoryAllocation) {
    config.variant = Variant::Streams;
    config.streams = StreamsConfig{4, IssueOrder::DepthFirst};
  }
  return config;
}

// Whether a failed run may be repeated (fallbackConfig): it did nothing the repeat could see.
bool mayFallBack(const KernelDescriptor& kernel, const VariantChoice& choice,
                 const Status& status) {
  if (choice.source == ChoiceSource::Environment)
    return false; // an override is an experiment: its failure is the answer
  if (status.code == cudaErrorMemoryAllocation)
    return true; // every variant allocates, leases and registers before it copies or launches
  if (choice.config.variant == Variant::Explicit)
    return false;
  if (status.code != cudaErrorInvalidConfiguration && status.code != cudaErrorLaunchOutOfResources)
    return false;
  // A launch of a later chunk fails after earlier chunks were written back: only where every
  // output is written whole from inputs that no variant changes is a repeat safe.
  for (int a = 0; a < kernel.arrayCount; ++a)
    if (kernel.arrays[a].direction == Direction::InOut || kernel.arrays[a].reduce != ReduceOp::None)
      return false;
  return true;
}

// fallbackConfig's choice, after `decision` failed with `status` before doing any work.
detail::Decision fallbackAfter(const KernelDescriptor& kernel, const detail::Decision& decision,
                               const Status& status, const CallShape& shape) {
  detail::Decision made;
  made.choice.source = ChoiceSource::Fallback;
  made.choice.memory = decision.choice.memory;
  made.choice.config = fallbackConfig(decision.choice, status);
  const std::string ran = describe(made.choice.config);
  made.choice.reason =
      decision.label + " failed before doing any work (" + status.message() + "): run as " + ran;
  made.label = std::string(kernel.name) + "_tuned ran " + ran + " after " + decision.label +
               " failed (" + status.message() + ")";
  logChoice(kernel, shape, made.choice);
  return made;
}

// The status of a failed choice, the choice named in front of the failing call.
Status withChoice(const Status& status, const std::string& label) {
  Status named = status;
  named.call = persistentText(label + ": " + (status.call ? status.call : "?"));
  return named;
}

} // namespace

bool registerBakedChoices(const BakedChoice* choices, int count) {
  {
    Registry& table = registry();
    const std::lock_guard<std::mutex> lock(table.mutex);
    table.baked.insert(table.baked.end(), choices, choices + count);
  }
  nextGeneration();
  return true;
}

bool setModelChooser(ModelChooser chooser) {
  {
    Registry& table = registry();
    const std::lock_guard<std::mutex> lock(table.mutex);
    table.model = chooser;
  }
  nextGeneration();
  return true;
}

bool setModelPredictor(ModelPredictor predictor) {
  {
    Registry& table = registry();
    const std::lock_guard<std::mutex> lock(table.mutex);
    table.predictor = predictor;
  }
  nextGeneration();
  return true;
}

void reloadDispatchSettings() {
  {
    SettingsStore& store = settingsStore();
    const std::lock_guard<std::mutex> lock(store.mutex);
    store.all.push_back(readSettings());
    store.current.store(store.all.back().get(), std::memory_order_release);
  }
  nextGeneration();
}

const char* to_string(ChoiceSource source) {
  switch (source) {
  case ChoiceSource::Environment:
    return "environment";
  case ChoiceSource::Baked:
    return "tuning results";
  case ChoiceSource::Model:
    return "model";
  case ChoiceSource::Default:
    return "default";
  case ChoiceSource::Fallback:
    return "fallback";
  }
  return "?";
}

std::string describe(const RunConfig& config) {
  return describe(config.variant, config.streams);
}

bool parseVariantOverride(const std::string& text, const std::string& kernel, bool* found,
                          RunConfig* config, std::string* error) {
  *found = false;
  if (text.find('=') == std::string::npos) {
    *found = parseConfig(text, config, error);
    return *found;
  }
  std::stringstream in(text);
  for (std::string entry; std::getline(in, entry, ',');) {
    const std::size_t equals = entry.find('=');
    if (equals == std::string::npos) {
      *error = "\"" + entry + "\" is not KERNEL=VARIANT";
      return false;
    }
    if (entry.substr(0, equals) != kernel)
      continue;
    if (!parseConfig(entry.substr(equals + 1), config, error))
      return false;
    *found = true;
  }
  return true;
}

VariantChoice chooseVariant(const KernelDescriptor& kernel, ArgPointers args,
                            const std::string& deviceName, CallMemory memory) {
  return choose(kernel, args, deviceName, memory, settings());
}

const VariantChoice& chooseForCall(const KernelDescriptor& kernel, ArgPointers args) {
  return decisionForCall(kernel, args, detail::currentDispatchDevice(), detail::choicesOf(kernel),
                         classifyCallMemory(kernel, args))
      .decision->choice;
}

const VariantChoice& chooseForCall(const KernelDescriptor& kernel, ArgPointers args,
                                   const std::string& deviceName, CallMemory memory) {
  return decisionForCall(kernel, args, detail::namedDispatchDevice(deviceName),
                         detail::choicesOf(kernel), memory)
      .decision->choice;
}

namespace {

// dispatch()'s choice and fallback, each run by run(config).
template <class Run>
Status dispatchWith(const KernelDescriptor& kernel, ArgPointers args, Run&& run) {
  detail::KernelChoices& choices = detail::choicesOf(kernel);
  const Kept kept = decisionForCall(kernel, args, detail::currentDispatchDevice(), choices,
                                    classifyCallMemory(kernel, args));
  const detail::Decision& decision = *kept.decision;
  choices.setLast(&decision);
  const Status status = run(decision.choice.config);
  if (status.ok())
    return status;
  if (!mayFallBack(kernel, decision.choice, status))
    return withChoice(status, decision.label);
  // Kept like any choice, under the choice's key with the fallback bit: logged once, and
  // lastDispatchChoice() tells it from the choice itself.
  const std::uint64_t key = kept.key | kFallbackBit;
  const std::uint64_t generation = gGeneration.load(std::memory_order_acquire);
  const detail::Decision* fallback = choices.find(key, generation);
  if (!fallback)
    fallback = &choices.findOrMake(
        key, generation, [&] { return fallbackAfter(kernel, decision, status, kept.shape); });
  choices.setLast(fallback);
  const Status repeated = run(fallback->choice.config);
  return repeated.ok() ? repeated : withChoice(repeated, fallback->label);
}

} // namespace

Status dispatch(const KernelDescriptor& kernel, ArgPointers args) {
  return dispatchWith(kernel, args,
                      [&](const RunConfig& config) { return kernel.run(args, config); });
}

Status dispatchAsync(const KernelDescriptor& kernel, ArgPointers args, cudaStream_t stream) {
  return dispatchWith(kernel, args, [&](RunConfig config) -> Status {
    // On the caller's stream the call stays on its stream's device (a split is synchronous).
    config.streams.devices = 1;
    config.streams.deviceMask = 0;
    if (kernel.runAsync != nullptr)
      return kernel.runAsync(args, config, stream);
    OVERLAP_CUDA_TRY(cudaStreamSynchronize(stream));
    return kernel.run(args, config);
  });
}

std::optional<VariantChoice> lastDispatchChoice(const KernelDescriptor& kernel) {
  const detail::Decision* last = detail::choicesOf(kernel).last();
  if (!last)
    return std::nullopt;
  return last->choice;
}

} // namespace overlap
