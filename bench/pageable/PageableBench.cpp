// The pageable benchmark of issue 25 (scripts/bench.sh pageable): one application's call with
// pageable arrays, timed in each way a pageable caller can run it (PageableMode), against the same
// call on pinned arrays. Wall time of whole calls on the host clock, medians.
//
//   bench_pageable --kernel K [--arg NAME=VALUE]... [--name APP] [--loop 100] [--repeats 5]
//                  --output APP.json
//   bench_pageable --small --output small.json    saxpy calls of 2 KiB .. 1 MiB, K_tuned's too
//
// One-off call: the fastest pinned configuration against pageable Explicit, per-call registration
// and staging (each its fastest configuration; a staged call keeps no state, so any of its runs is
// a one-off; the staging ring's buffers and threads exist after the warm-up, as in any process
// that called before). Loop: `loop` calls on the same buffers with the registration cache against
// the pinned loop of the fastest pinned configuration and of the cached loop's own; the cached
// loop's configuration is the fastest with a warm cache, timed call by call in turn (a cache is no
// use to Explicit), and the fastest pinned configuration with the cache on pageable arrays in huge
// pages (Memory::HugePageable); the loops are interleaved in blocks of 10 calls. Pageable Explicit,
// per-call registration and staging in a loop are their `slowLoop` calls (interleaved one by one)
// scaled to `loop` calls (they keep no state between calls). Host copies: the call's bytes copied
// between pageable memory and pinned slots alone, the bound of any staged call. Small calls: every
// way, and saxpy_tuned's own call (no tuning results are baked into this program, so the dispatch's
// model chooses for pageable memory). Every configuration's result is checked once against pinned
// Explicit's, bit for bit.
#include "HostCopyBench.h"

#include "overlap/Descriptor.h"
#include "overlap/Dispatch.h"
#include "overlap/PinCache.h"
#include "overlap/PinnedBuffer.h"

#include <cuda_runtime_api.h>
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace {

using overlap::KernelDescriptor;
using overlap::PageableMode;
using overlap::RunConfig;
using overlap::Variant;

// Calls of one loop between the other loops' (interleavedLoops).
constexpr int kLoopBlock = 10;

struct Options {
  std::string kernel;
  std::string name;
  std::map<std::string, long long> arguments;
  int loop = 100;
  int slowLoop = 10; // calls of the stateless modes' loops, scaled to `loop`
  int repeats = 5;
  bool small = false;
  std::string output;
};

[[noreturn]] void usage(const std::string& why) {
  std::fprintf(stderr,
               "bench_pageable: %s\nusage: bench_pageable --kernel K [--arg NAME=VALUE]... "
               "[--name APP] [--loop N] [--repeats N] --output FILE\n"
               "       bench_pageable --small --output FILE\n",
               why.c_str());
  std::exit(2);
}

Options parse(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc)
        usage(flag + " needs a value");
      return argv[++i];
    };
    if (flag == "--kernel") {
      options.kernel = value();
    } else if (flag == "--name") {
      options.name = value();
    } else if (flag == "--arg") {
      const std::string arg = value();
      const std::size_t equals = arg.find('=');
      if (equals == std::string::npos)
        usage("--arg " + arg + ": expected NAME=VALUE");
      options.arguments[arg.substr(0, equals)] = std::atoll(arg.c_str() + equals + 1);
    } else if (flag == "--loop") {
      options.loop = std::atoi(value().c_str());
    } else if (flag == "--repeats") {
      options.repeats = std::atoi(value().c_str());
    } else if (flag == "--small") {
      options.small = true;
    } else if (flag == "--output") {
      options.output = value();
    } else {
      usage("unknown flag " + flag);
    }
  }
  if (options.output.empty() || (!options.small && options.kernel.empty()))
    usage("--output and --kernel (or --small) are required");
  if (options.name.empty())
    options.name = options.small ? "small" : options.kernel;
  options.loop = std::max(1, options.loop);
  options.slowLoop = std::min(options.slowLoop, options.loop);
  options.repeats = std::max(1, options.repeats);
  return options;
}

// SplitMix64, as the tests' random data.
class Random {
public:
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }

private:
  std::uint64_t state_ = 2026;
};

// Valid values of the kind: floats in [0.5, 2), any bits for integers.
void fill(const overlap::ArrayDescriptor& array, unsigned char* data, std::size_t bytes,
          Random& random) {
  if (array.kind == overlap::ElementKind::F32) {
    auto* values = reinterpret_cast<float*>(data);
    for (std::size_t i = 0; i < bytes / sizeof(float); ++i)
      values[i] = 0.5f + 1.5f * static_cast<float>(random.next() >> 40) / 16777216.0f;
    return;
  }
  for (std::size_t i = 0; i < bytes; i += 8) {
    const std::uint64_t bits = random.next();
    std::memcpy(data + i, &bits, std::min<std::size_t>(8, bytes - i));
  }
}

// Pageable: as `new[]` gives it, in 4 KiB pages, 16 bytes past a page for a large array (as a
// std::vector's); HugePageable: pageable at the start of a transparent huge page (2 MiB). A
// kernel's reads and writes of host memory cross the bus in 128-byte lines, and run slower off
// them and on small pages (bench/README.md, "Host addresses and huge pages"), whatever the memory
// is.
enum class Memory : unsigned char { Pageable, Pinned, HugePageable };

const char* to_string(Memory memory) {
  switch (memory) {
  case Memory::Pageable:
    return "pageable";
  case Memory::Pinned:
    return "pinned";
  case Memory::HugePageable:
    return "pageable, huge pages";
  }
  return "?";
}

// One application's call: its arguments and every array in pageable (both alignments) and pinned
// memory, with the pristine inputs and pinned Explicit's result.
class App {
public:
  std::string prepare(const KernelDescriptor& descriptor,
                      const std::map<std::string, long long>& arguments) {
    descriptor_ = &descriptor;
    values_.assign(static_cast<std::size_t>(descriptor.paramCount), 0);
    for (int p = 0; p < descriptor.paramCount; ++p) {
      args_.push_back(&values_[static_cast<std::size_t>(p)]);
      const overlap::ParamDescriptor& param = descriptor.params[p];
      if (param.isPointer)
        continue;
      long long value = 0;
      for (int t = 0; t < descriptor.tuneDefaultCount; ++t)
        if (descriptor.tuneDefaults[t].param == p)
          value = descriptor.tuneDefaults[t].value;
      const auto given = arguments.find(param.name);
      if (given != arguments.end())
        value = given->second;
      void* const slot = &values_[static_cast<std::size_t>(p)];
      if (param.kind == overlap::ElementKind::F32)
        *static_cast<float*>(slot) = 1.5f;
      else if (param.size == sizeof(int))
        *static_cast<int*>(slot) = static_cast<int>(value);
      else
        *static_cast<long long*>(slot) = value;
    }
    Random random;
    for (int a = 0; a < descriptor.arrayCount; ++a) {
      const overlap::ArrayDescriptor& array = descriptor.arrays[a];
      Array buffers;
      buffers.bytes =
          static_cast<std::size_t>(std::max(0LL, descriptor.arrayExtent(args_.data(), a))) *
          array.elementSize;
      const std::size_t allocated = std::max<std::size_t>(buffers.bytes, 1);
      buffers.pageable.reset(new unsigned char[allocated]);
      constexpr std::size_t kHugePage = 2 << 20;
      const std::size_t huge = (allocated + kHugePage - 1) / kHugePage * kHugePage;
      buffers.huge.reset(static_cast<unsigned char*>(std::aligned_alloc(kHugePage, huge)));
      if (!buffers.huge)
        return "huge-page memory for " + std::string(array.name);
      (void)madvise(buffers.huge.get(), huge, MADV_HUGEPAGE); // before the first touch
      buffers.pristine.reset(new unsigned char[allocated]);
      buffers.reference.reset(new unsigned char[allocated]);
      const overlap::Status status = overlap::PinnedBuffer::allocate(allocated, &buffers.pinned);
      if (!status.ok())
        return "pinned memory for " + std::string(array.name) + ": " + status.message();
      fill(array, buffers.pristine.get(), buffers.bytes, random);
      arrays_.push_back(std::move(buffers));
    }
    restore(Memory::Pageable);
    restore(Memory::Pinned);
    restore(Memory::HugePageable);
    const overlap::Status status = run(RunConfig{}, Memory::Pinned);
    if (!status.ok())
      return "pinned Explicit: " + status.message();
    for (Array& array : arrays_)
      std::memcpy(array.reference.get(), array.pinned.data(), array.bytes);
    return {};
  }

  // `config` null: K_tuned's call (overlap::dispatch), whatever it chooses.
  overlap::Status run(const RunConfig* config, Memory memory) {
    for (int a = 0; a < descriptor_->arrayCount; ++a) {
      Array& array = arrays_[static_cast<std::size_t>(a)];
      void* const data = array.data(memory);
      std::memcpy(&values_[static_cast<std::size_t>(descriptor_->arrays[a].param)], &data,
                  sizeof(data));
    }
    return config ? descriptor_->run(args_.data(), *config)
                  : overlap::dispatch(*descriptor_, args_.data());
  }
  overlap::Status run(const RunConfig& config, Memory memory) { return run(&config, memory); }

  void restore(Memory memory) {
    for (Array& array : arrays_)
      std::memcpy(array.data(memory), array.pristine.get(), array.bytes);
  }

  // One call on the pristine inputs, its every array compared with pinned Explicit's.
  bool correct(const RunConfig* config, Memory memory) {
    restore(memory);
    if (!run(config, memory).ok())
      return false;
    for (Array& array : arrays_) {
      if (std::memcmp(array.data(memory), array.reference.get(), array.bytes) != 0)
        return false;
    }
    return true;
  }

  RunConfig lastTunedChoice() const {
    const std::optional<overlap::VariantChoice> choice = overlap::lastDispatchChoice(*descriptor_);
    return choice ? choice->config : RunConfig{};
  }

  std::size_t bytes() const {
    std::size_t total = 0;
    for (const Array& array : arrays_)
      total += array.bytes;
    return total;
  }

  void unpinPageable() {
    for (Array& array : arrays_)
      for (Memory memory : {Memory::Pageable, Memory::HugePageable})
        (void)overlap::unpin(array.data(memory), std::max<std::size_t>(array.bytes, 1));
  }

private:
  struct Free {
    void operator()(unsigned char* data) const { std::free(data); }
  };
  struct Array {
    unsigned char* data(Memory memory) {
      switch (memory) {
      case Memory::Pinned:
        return static_cast<unsigned char*>(pinned.data());
      case Memory::HugePageable:
        return huge.get();
      case Memory::Pageable:
        break;
      }
      return pageable.get();
    }

    std::size_t bytes = 0;
    std::unique_ptr<unsigned char[]> pageable;
    std::unique_ptr<unsigned char, Free> huge;
    overlap::PinnedBuffer pinned;
    std::unique_ptr<unsigned char[]> pristine;
    std::unique_ptr<unsigned char[]> reference;
  };

  const KernelDescriptor* descriptor_ = nullptr;
  std::vector<long long> values_;
  std::vector<const void*> args_;
  std::vector<Array> arrays_;
};

double secondsOf(const std::function<overlap::Status()>& call, overlap::Status* status) {
  const auto start = std::chrono::steady_clock::now();
  *status = call();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

RunConfig configOf(Variant variant, int streams, PageableMode mode,
                   overlap::StagingConfig staging = {}) {
  RunConfig config;
  config.variant = variant;
  config.streams = overlap::StreamsConfig{streams, overlap::IssueOrder::DepthFirst, mode, staging};
  return config;
}

std::string configLabel(const RunConfig& config) {
  std::string text;
  switch (config.variant) {
  case Variant::Explicit:
    return "Explicit";
  case Variant::Mapped:
    text = "Mapped";
    break;
  case Variant::Streams:
    text = "Streams " + std::to_string(config.streams.streams);
    break;
  case Variant::Hybrid:
    text = "Hybrid " + std::to_string(config.streams.streams);
    break;
  }
  switch (config.streams.pageable) {
  case PageableMode::Default:
    break;
  case PageableMode::Register:
    text += ", registered per call";
    break;
  case PageableMode::CachedRegister:
    text += ", cached registration";
    break;
  case PageableMode::Stage:
    text += ", staged";
    break;
  }
  if (config.streams.staging.threads > 0)
    text += ", " + std::to_string(config.streams.staging.threads) + " staging threads";
  return text;
}

// The median of `repeats` calls after one warm-up, and whether the configuration's result is
// right (checked on one more call).
struct Measured {
  RunConfig config;
  Memory memory = Memory::Pageable;
  double seconds = 0;
  bool correct = false;
  std::string error = {};
  bool tuned = false; // K_tuned's call, `config` what it chose
};

// The middle of `times` once sorted (the upper one of two).
double medianOf(std::vector<double> times) {
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

// Each configuration's median of `repeats` calls after one warm-up, the configurations' calls
// interleaved one by one (so that the link's drift falls on all of them alike), and whether each
// one's result is right (checked on one more call). A null configuration: K_tuned's calls,
// recorded with the configuration the dispatch chose.
std::vector<Measured> measureInterleaved(App& app, const std::vector<const RunConfig*>& configs,
                                         Memory memory, int repeats) {
  std::vector<Measured> all;
  std::vector<overlap::Status> statuses;
  std::vector<std::vector<double>> times(configs.size());
  for (const RunConfig* config : configs) {
    all.push_back(Measured{config ? *config : RunConfig{}, memory});
    all.back().tuned = config == nullptr;
    statuses.push_back(app.run(config, memory));
  }
  for (int r = 0; r < repeats; ++r)
    for (std::size_t i = 0; i < configs.size(); ++i)
      if (statuses[i].ok())
        times[i].push_back(secondsOf([&] { return app.run(configs[i], memory); }, &statuses[i]));
  for (std::size_t i = 0; i < configs.size(); ++i) {
    Measured& m = all[i];
    if (!statuses[i].ok()) {
      m.error = statuses[i].message();
      continue;
    }
    m.seconds = medianOf(times[i]);
    m.correct = app.correct(configs[i], memory);
    if (m.tuned)
      m.config = app.lastTunedChoice();
  }
  return all;
}
Measured measure(App& app, const RunConfig* config, Memory memory, int repeats) {
  return measureInterleaved(app, {config}, memory, repeats).front();
}
Measured measure(App& app, const RunConfig& config, Memory memory, int repeats) {
  return measure(app, &config, memory, repeats);
}

const Measured* fastest(const std::vector<Measured>& all) {
  const Measured* best = nullptr;
  for (const Measured& m : all)
    if (m.error.empty() && m.seconds > 0 && (!best || m.seconds < best->seconds))
      best = &m;
  return best;
}

std::string jsonString(const std::string& text) {
  std::string out = "\"";
  for (char c : text)
    out += c == '"' || c == '\\' ? std::string("\\") + c : std::string(1, c);
  return out + "\"";
}

std::string jsonOf(const Measured& m) {
  char text[512];
  std::snprintf(text, sizeof(text),
                "{\"config\": %s, \"memory\": \"%s\", \"seconds\": %.9g, \"correct\": %s%s}",
                jsonString((m.tuned ? "K_tuned: " : "") + configLabel(m.config)).c_str(),
                to_string(m.memory), m.seconds, m.correct ? "true" : "false",
                m.error.empty() ? "" : (", \"error\": " + jsonString(m.error)).c_str());
  return text;
}

std::string jsonList(const std::vector<Measured>& all) {
  std::string out = "[";
  for (std::size_t i = 0; i < all.size(); ++i)
    out += (i ? ",\n    " : "\n    ") + jsonOf(all[i]);
  return out + "]";
}

void log(const std::string& name, const char* what, const Measured& m) {
  std::printf("  %-24s %-18s %-32s %10.3f ms%s\n", name.c_str(), what,
              configLabel(m.config).c_str(), m.seconds * 1e3,
              m.error.empty() ? (m.correct ? "" : "  WRONG RESULT") : "  FAILED");
  std::fflush(stdout);
}

// A loop of `calls` calls on the same buffers for each of `runs`, the first call included (what a
// loop pays), the loops interleaved in blocks of `block` calls so that the link's drift between
// seconds falls on all of them alike. Each loop's time is the sum of its blocks.
std::vector<Measured> interleavedLoops(App& app, const std::vector<Measured>& runs, int calls,
                                       int block) {
  std::vector<Measured> loops;
  std::vector<overlap::Status> statuses(runs.size());
  for (const Measured& run : runs)
    loops.push_back(Measured{run.config, run.memory});
  for (int done = 0; done < calls; done += block)
    for (std::size_t i = 0; i < runs.size(); ++i) {
      if (!statuses[i].ok())
        continue;
      const int count = std::min(block, calls - done);
      loops[i].seconds += secondsOf(
          [&] {
            overlap::Status first;
            for (int c = 0; c < count && first.ok(); ++c)
              first = app.run(loops[i].config, loops[i].memory);
            return first;
          },
          &statuses[i]);
    }
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (!statuses[i].ok())
      loops[i].error = statuses[i].message();
    loops[i].correct = statuses[i].ok() && app.correct(&loops[i].config, loops[i].memory);
  }
  return loops;
}

int runApplication(const Options& options) {
  const KernelDescriptor* descriptor = overlap::findRegisteredKernel(options.kernel.c_str());
  if (!descriptor)
    usage("no kernel " + options.kernel);
  App app;
  const std::string error = app.prepare(*descriptor, options.arguments);
  if (!error.empty()) {
    std::fprintf(stderr, "%s: %s\n", options.name.c_str(), error.c_str());
    return 1;
  }
  const std::string& name = options.name;
  std::printf("%s: %s, %.1f MB of arrays\n", name.c_str(), options.kernel.c_str(),
              static_cast<double>(app.bytes()) / 1e6);
  const int r = options.repeats;
  const int counts[] = {4, 8, 16, 32};

  std::vector<Measured> pinned = {
      measure(app, RunConfig{}, Memory::Pinned, r),
      measure(app, configOf(Variant::Mapped, 1, PageableMode::Default), Memory::Pinned, r)};
  for (Variant variant : {Variant::Streams, Variant::Hybrid})
    for (int n : counts)
      pinned.push_back(
          measure(app, configOf(variant, n, PageableMode::Default), Memory::Pinned, r));
  const Measured* bestPinned = fastest(pinned);
  if (!bestPinned) {
    std::fprintf(stderr, "%s: no pinned configuration ran\n", name.c_str());
    return 1;
  }
  log(name, "pinned best", *bestPinned);

  const Measured explicitPageable = measure(app, RunConfig{}, Memory::Pageable, r);
  log(name, "pageable Explicit", explicitPageable);
  std::vector<Measured> registered = {
      measure(app, configOf(Variant::Mapped, 1, PageableMode::Register), Memory::Pageable, r)};
  std::vector<Measured> staged;
  for (Variant variant : {Variant::Streams, Variant::Hybrid})
    for (int n : {8, 16, 32}) {
      registered.push_back(
          measure(app, configOf(variant, n, PageableMode::Register), Memory::Pageable, r));
      staged.push_back(
          measure(app, configOf(variant, n, PageableMode::Stage), Memory::Pageable, r));
    }
  if (!fastest(registered) || !fastest(staged)) {
    std::fprintf(stderr, "%s: no registered or no staged configuration ran\n", name.c_str());
    return 1;
  }
  // The best staged one again on 8 threads and on all but the caller's: how many threads the
  // host's copies need depends on the call's size (resolvedStaging, bench/README.md).
  const int hardwareThreads = static_cast<int>(std::thread::hardware_concurrency());
  std::vector<int> widths = {8};
  if (hardwareThreads - 1 > 8)
    widths.push_back(hardwareThreads - 1);
  const RunConfig bestStaged = fastest(staged)->config;
  for (int threads : widths) {
    RunConfig wider = bestStaged;
    wider.streams.staging.threads = threads;
    staged.push_back(measure(app, wider, Memory::Pageable, r));
  }
  log(name, "per-call register", *fastest(registered));
  log(name, "staged", *fastest(staged));
  // The host's copies of the call's bytes alone, in the ring's pieces on its widest thread count
  // (calibrate/HostCopyBench.h): a staged call moves every byte through them, so no staged call
  // is faster. Interleaved one by one with calls of the fastest staged configuration, since the
  // host's memory bandwidth drifts as the link's does. 0 where the copies could not be timed.
  const int ringThreads = overlap::calibration::HostCopyBench::parallelThreads(hardwareThreads);
  double hostCopySeconds = 0;
  double stagedBesideSeconds = 0;
  {
    std::unique_ptr<overlap::calibration::HostCopyBench> copies;
    const RunConfig stagedBest = fastest(staged)->config;
    std::vector<double> copyTimes;
    std::vector<double> stagedTimes;
    overlap::Status status;
    double seconds = 0;
    bool ok = overlap::calibration::HostCopyBench::create(app.bytes(), ringThreads, &copies).ok();
    for (int k = 0; ok && k <= r; ++k) { // after one warm-up, as every configuration
      const double staged =
          secondsOf([&] { return app.run(&stagedBest, Memory::Pageable); }, &status);
      ok = status.ok() && copies->copy(app.bytes(), ringThreads, &seconds).ok();
      if (ok && k > 0) {
        stagedTimes.push_back(staged);
        copyTimes.push_back(seconds);
      }
    }
    if (ok && !copyTimes.empty()) {
      hostCopySeconds = medianOf(copyTimes);
      stagedBesideSeconds = medianOf(stagedTimes);
    }
    std::printf("  %-24s %-18s %-32s %10.3f ms (staged beside it %.3f ms)\n", name.c_str(),
                "host copies alone", (std::to_string(ringThreads) + " threads").c_str(),
                hostCopySeconds * 1e3, stagedBesideSeconds * 1e3);
  }

  // With a warm cache (the warm-up call registers), call by call in turn: the loop's configuration
  // is the fastest of these, which need not be the fastest pinned one (kernels read and write
  // arrays 16 bytes past a small page slower than ones at a huge page's start: Mapped, Hybrid's
  // outputs).
  std::vector<RunConfig> cachedConfigs = {
      configOf(Variant::Mapped, 1, PageableMode::CachedRegister)};
  for (Variant variant : {Variant::Streams, Variant::Hybrid})
    for (int n : counts)
      cachedConfigs.push_back(configOf(variant, n, PageableMode::CachedRegister));
  std::vector<const RunConfig*> interleaved;
  for (const RunConfig& config : cachedConfigs)
    interleaved.push_back(&config);
  const std::vector<Measured> cached =
      measureInterleaved(app, interleaved, Memory::Pageable, 2 * r + 1);
  if (!fastest(cached)) {
    std::fprintf(stderr, "%s: no cached configuration ran\n", name.c_str());
    return 1;
  }
  const RunConfig cachedConfig = fastest(cached)->config;
  RunConfig pinnedSame = cachedConfig;
  pinnedSame.streams.pageable = PageableMode::Default;
  // The fastest pinned configuration with the cache, on pageable arrays in huge pages: what the
  // cache costs apart from how the user's allocator laid the arrays out (a cache is no use to
  // Explicit: then the cached loop's configuration).
  RunConfig hugeConfig =
      bestPinned->config.variant == Variant::Explicit ? cachedConfig : bestPinned->config;
  hugeConfig.streams.pageable = PageableMode::CachedRegister;

  // Loops: a fresh cache, so the one registration is among the calls.
  (void)overlap::unpinAll();
  const overlap::RegistrationCacheStats before = overlap::registrationCacheStats();
  const std::vector<Measured> loops = interleavedLoops(
      app,
      {*bestPinned, Measured{pinnedSame, Memory::Pinned}, Measured{cachedConfig, Memory::Pageable},
       Measured{hugeConfig, Memory::HugePageable}},
      options.loop, kLoopBlock);
  const Measured& pinnedLoop = loops[0];
  const Measured& pinnedLoopSame = loops[1];
  const Measured& cachedLoop = loops[2];
  const Measured& hugeLoop = loops[3];
  overlap::RegistrationCacheStats cache = overlap::registrationCacheStats(); // the loops' own
  cache.hits -= before.hits;
  cache.registrations -= before.registrations;
  cache.evictions -= before.evictions;
  cache.invalidations -= before.invalidations;
  app.unpinPageable();
  RunConfig registerConfig = cachedConfig;
  registerConfig.streams.pageable = PageableMode::Register;
  const double scale = static_cast<double>(options.loop) / options.slowLoop;
  const std::vector<Measured> slowLoops = interleavedLoops(
      app,
      {Measured{RunConfig{}, Memory::Pageable}, Measured{registerConfig, Memory::Pageable},
       Measured{fastest(staged)->config, Memory::Pageable}},
      options.slowLoop, 1);
  const Measured& explicitLoop = slowLoops[0];
  const Measured& registerLoop = slowLoops[1];
  const Measured& stagedLoop = slowLoops[2];
  log(name, "pinned loop", pinnedLoop);
  log(name, "cached loop", cachedLoop);
  log(name, "cached loop, huge pages", hugeLoop);

  FILE* out = std::fopen(options.output.c_str(), "w");
  if (!out) {
    std::perror(options.output.c_str());
    return 1;
  }
  std::fprintf(out,
               "{\n  \"app\": %s,\n  \"kernel\": %s,\n  \"bytes\": %zu,\n  \"repeats\": %d,\n"
               "  \"loop_calls\": %d,\n  \"slow_loop_calls\": %d,\n"
               "  \"pinned\": %s,\n  \"pageable_explicit\": %s,\n  \"registered\": %s,\n"
               "  \"staged\": %s,\n  \"cached\": %s,\n",
               jsonString(name).c_str(), jsonString(options.kernel).c_str(), app.bytes(), r,
               options.loop, options.slowLoop, jsonList(pinned).c_str(),
               jsonOf(explicitPageable).c_str(), jsonList(registered).c_str(),
               jsonList(staged).c_str(), jsonList(cached).c_str());
  std::fprintf(
      out,
      "  \"loop\": {\"pinned\": %s,\n    \"pinned_same_config\": %s,\n    \"cached\": %s,\n"
      "    \"cached_huge_pages\": %s,\n"
      "    \"explicit\": %s, \"explicit_scale\": %.6g,\n    \"registered\": %s,\n"
      "    \"staged\": %s},\n",
      jsonOf(pinnedLoop).c_str(), jsonOf(pinnedLoopSame).c_str(), jsonOf(cachedLoop).c_str(),
      jsonOf(hugeLoop).c_str(), jsonOf(explicitLoop).c_str(), scale, jsonOf(registerLoop).c_str(),
      jsonOf(stagedLoop).c_str());
  std::fprintf(out,
               "  \"host_copy\": {\"threads\": %d, \"seconds\": %.6g, "
               "\"staged_beside_seconds\": %.6g},\n"
               "  \"cache\": {\"hits\": %lld, \"registrations\": %lld, \"evictions\": %lld, "
               "\"invalidations\": %lld, \"budget\": %zu}\n}\n",
               ringThreads, hostCopySeconds, stagedBesideSeconds, cache.hits, cache.registrations,
               cache.evictions, cache.invalidations, overlap::pinCacheSettings().budgetBytes);
  std::fclose(out);
  return 0;
}

// saxpy at 256 .. 131072 elements (2 KiB .. 1 MiB of x and y): many repeats of every way.
int runSmall(const Options& options) {
  const KernelDescriptor* descriptor = overlap::findRegisteredKernel("saxpy");
  if (!descriptor)
    usage("no kernel saxpy");
  FILE* out = std::fopen(options.output.c_str(), "w");
  if (!out) {
    std::perror(options.output.c_str());
    return 1;
  }
  std::fprintf(out, "{\n  \"small\": [");
  const int repeats = std::max(options.repeats, 51);
  bool first = true;
  for (long long n : {256LL, 4096LL, 32768LL, 131072LL}) {
    App app;
    const std::string error = app.prepare(*descriptor, {{"n", n}});
    if (!error.empty()) {
      std::fprintf(stderr, "saxpy %lld: %s\n", n, error.c_str());
      return 1;
    }
    const std::string name = "saxpy-" + std::to_string(n);
    std::vector<Measured> pinned = {measure(app, RunConfig{}, Memory::Pinned, repeats)};
    std::vector<Measured> pageable = {measure(app, RunConfig{}, Memory::Pageable, repeats)};
    // Cached registration last: until unpinned, the cache holds the arrays, and every mode then
    // runs on them as on pinned memory.
    for (PageableMode mode :
         {PageableMode::Register, PageableMode::Stage, PageableMode::CachedRegister})
      for (Variant variant : {Variant::Mapped, Variant::Streams, Variant::Hybrid})
        for (int streams : {1, 2, 4}) {
          if (variant == Variant::Mapped && (streams > 1 || mode == PageableMode::Stage))
            continue;
          pageable.push_back(
              measure(app, configOf(variant, streams, mode), Memory::Pageable, repeats));
          if (mode == PageableMode::Register)
            pinned.push_back(measure(app, configOf(variant, streams, PageableMode::Default),
                                     Memory::Pinned, repeats));
        }
    app.unpinPageable(); // K_tuned's arrays are pageable, not held by the cache
    // K_tuned beside pageable Explicit, call by call: small pageable copies are bimodal.
    const RunConfig explicitConfig;
    const std::vector<Measured> beside =
        measureInterleaved(app, {nullptr, &explicitConfig}, Memory::Pageable, repeats);
    const Measured& tuned = beside[0];
    log(name, "pageable K_tuned", tuned);
    log(name, "Explicit beside it", beside[1]);
    log(name, "pageable Explicit", pageable.front());
    log(name, "pageable best", *fastest(pageable));
    log(name, "pinned best", *fastest(pinned));
    std::fprintf(out,
                 "%s\n   {\"n\": %lld, \"bytes\": %zu, \"pinned\": %s,\n    \"pageable\": %s,\n"
                 "    \"tuned\": %s,\n    \"explicit_beside_tuned\": %s}",
                 first ? "" : ",", n, app.bytes(), jsonList(pinned).c_str(),
                 jsonList(pageable).c_str(), jsonOf(tuned).c_str(), jsonOf(beside[1]).c_str());
    first = false;
  }
  std::fprintf(out, "]\n}\n");
  std::fclose(out);
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  const Options options = parse(argc, argv);
  return options.small ? runSmall(options) : runApplication(options);
}
