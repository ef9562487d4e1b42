#include "Calibrator.h"

#include "AllLinksBench.h"
#include "Format.h"
#include "HostCopyBench.h"

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

namespace overlap::calibration {

namespace {

using Clock = std::chrono::steady_clock;
constexpr TransferDirection kDirections[] = {TransferDirection::HostToDevice,
                                             TransferDirection::DeviceToHost};

// One quantity timed at each x into a series.
struct Sweep {
  using Measure = std::function<Status(double x, double* seconds)>;
  Series* into;
  std::vector<double> xs;
  Measure one;
};

// Sweeps measured together, `repeats` times each after the warm-up. A failed optional step is
// recorded in `skipped`, its parameters unknown, unless it left the device unusable.
struct Step {
  std::string what;
  bool optional = false;
  int repeats = 1;
  std::vector<Sweep> sweeps;
};

template <class T> std::vector<double> asDoubles(const std::vector<T>& values) {
  return std::vector<double>(values.begin(), values.end());
}

// In passes (Calibrator.h says why); the series are filled only if every run succeeded.
Status measure(const Step& step, int warmup) {
  std::vector<Series> series;
  for (const Sweep& sweep : step.sweeps)
    series.push_back({sweep.xs, std::vector<std::vector<double>>(sweep.xs.size())});
  for (int pass = 0; pass < warmup + step.repeats; ++pass)
    for (std::size_t s = 0; s < series.size(); ++s)
      for (std::size_t i = 0; i < series[s].x.size(); ++i) {
        double seconds = 0;
        OVERLAP_TRY(step.sweeps[s].one(series[s].x[i], &seconds));
        if (pass >= warmup)
          series[s].seconds[i].push_back(seconds);
      }
  for (std::size_t s = 0; s < series.size(); ++s)
    *step.sweeps[s].into = std::move(series[s]);
  return Status::success();
}

// Numbers the steps and reports how long each took.
Status runSteps(const std::vector<Step>& steps, int warmup, const Progress& progress,
                std::vector<std::string>* skipped) {
  const Progress say = progress ? progress : [](const std::string&) {};
  for (std::size_t k = 0; k < steps.size(); ++k) {
    const Step& step = steps[k];
    std::size_t points = 0;
    for (const Sweep& sweep : step.sweeps)
      points += sweep.xs.size();
    const std::string what = step.what + format(": %zu points x %d repeats", points, step.repeats);
    say(format("[%2zu/%zu] ", k + 1, steps.size()) + what + " ...");
    const Clock::time_point begin = Clock::now();
    const Status status = measure(step, warmup);
    if (status.ok()) {
      const double seconds = std::chrono::duration<double>(Clock::now() - begin).count();
      say("       " + what + format(" done in %.2f s", seconds));
    } else if (!step.optional || cudaDeviceSynchronize() != cudaSuccess) {
      return status;
    } else {
      (void)cudaGetLastError(); // reported here; later launches must not see it as theirs
      skipped->push_back(step.what + ": " + status.message());
      say("       skipped, the parameter stays unknown: " + status.message());
    }
  }
  return Status::success();
}

// One timed transfer at x: x is the bytes of one message in one piece, or with `message` > 0 the
// pieces of `message` bytes. Against a busy link (the other direction copying backgroundBytesFor),
// the sample is refused when the other direction ended first: the link was not busy both ways
// throughout, and the sample would mix in one-way time. With `idleAtEnd`, such a sample is kept
// and counted there instead (the accuracy check notes how many).
Sweep::Measure transferAt(LinkBench& bench, TransferDirection direction, std::size_t message,
                          bool busy = false, int* idleAtEnd = nullptr) {
  return [=, &bench](double x, double* seconds) -> Status {
    const std::size_t bytes = message > 0 ? message : static_cast<std::size_t>(x);
    const int pieces = message > 0 ? static_cast<int>(x) : 1;
    if (!busy)
      return bench.transfer(direction, bytes, pieces, seconds);
    double background = 0;
    OVERLAP_TRY(bench.transfer(direction, bytes, pieces, seconds, backgroundBytesFor(bytes, pieces),
                               &background));
    if (background < *seconds && idleAtEnd != nullptr)
      ++*idleAtEnd;
    else if (background < *seconds)
      return Status{cudaErrorInvalidValue,
                    "LinkBench::transfer: the other direction finished first, so the link was "
                    "not busy throughout",
                    __FILE__, __LINE__};
    return Status::success();
  };
}

} // namespace

void identify(const DeviceDescription& device, const std::string& date, HardwareProfile* p) {
  p->deviceName = device.name;
  p->pcie = device.pcie.describe();
  p->driver = device.driverVersion;
  p->date = date;
  p->computeCapabilityMajor = device.computeCapabilityMajor;
  p->computeCapabilityMinor = device.computeCapabilityMinor;
  p->multiprocessors = device.multiprocessors;
  p->copyEngines = device.copyEngines;
  p->implicitSynchronization = device.implicitSynchronization();
}

LinkBenchLimits limitsFor(const CalibrationPlan& plan, bool calibrate, bool checkAccuracy) {
  LinkBenchLimits limits;
  if (calibrate)
    limits = {plan.maxBytes(), largest(plan.pageableBytes), plan.maxPieces()};
  if (checkAccuracy) {
    limits.maxBytes = std::max(limits.maxBytes, largest(plan.accuracy.sizeBytes));
    limits.maxPieces = std::max(limits.maxPieces, largest(plan.accuracy.pieceCounts));
  }
  return limits;
}

Status measureLink(LinkBench& bench, const CalibrationPlan& plan, const Progress& progress,
                   CalibrationMeasurements* m) {
  const std::vector<double> sizes = asDoubles(plan.sizeBytes);
  const std::vector<double> pieces = asDoubles(plan.pieceCounts);
  const int busy = plan.busyLinkRepeats;
  const std::size_t messages = plan.pieceMessageBytes.size();
  std::vector<Step> steps;
  // A step of one sweep.
  auto add = [&steps](const std::string& what, bool optional, int repeats, Series* into,
                      std::vector<double> xs, Sweep::Measure one) {
    steps.push_back({what, optional, repeats, {{into, std::move(xs), std::move(one)}}});
  };
  for (TransferDirection direction : kDirections) {
    const std::string name = directionName(direction);
    DirectionMeasurements& d =
        direction == TransferDirection::HostToDevice ? m->hostToDevice : m->deviceToHost;
    d.pieces.resize(messages);
    d.bidirectionalPieces.resize(messages);
    Step g{name + " g (n pieces on n streams)", false, plan.repeats, {}};
    Step busyG{name + " bidirectional g (other direction busy)", true, busy, {}};
    for (std::size_t i = 0; i < messages; ++i) {
      const std::size_t bytes = plan.pieceMessageBytes[i];
      g.sweeps.push_back({&d.pieces[i], pieces, transferAt(bench, direction, bytes)});
      busyG.sweeps.push_back(
          {&d.bidirectionalPieces[i], pieces, transferAt(bench, direction, bytes, true)});
    }
    add(name + " L+o (1-byte copies)", false, plan.latencyRepeats, &d.latency, {1},
        transferAt(bench, direction, 0));
    add(name + " G", false, plan.repeats, &d.sizes, sizes, transferAt(bench, direction, 0));
    steps.push_back(g);
    add(name + " pageable G", true, plan.repeats, &d.pageableSizes, asDoubles(plan.pageableBytes),
        [&bench, direction](double bytes, double* s) {
          return bench.pageableCopy(direction, static_cast<std::size_t>(bytes), s);
        });
    add(name + " bidirectional G (other direction busy)", true, busy, &d.bidirectionalSizes, sizes,
        transferAt(bench, direction, 0, true));
    steps.push_back(busyG);
  }

  Step widths{"mapped read and write kernels per element width", true, plan.repeats, {}};
  m->mappedByWidth.resize(plan.mappedElementBytes.size());
  for (std::size_t i = 0; i < plan.mappedElementBytes.size(); ++i) {
    MappedWidthSeries& w = m->mappedByWidth[i];
    w.elementBytes = plan.mappedElementBytes[i];
    for (MappedAccess access : {MappedAccess::Read, MappedAccess::Write})
      widths.sweeps.push_back(
          {access == MappedAccess::Read ? &w.readSizes : &w.writeSizes,
           asDoubles(plan.mappedKernelBytes), [&bench, access, &w](double bytes, double* s) {
             return bench.mappedKernel(access, w.elementBytes, static_cast<std::size_t>(bytes), s);
           }});
  }
  steps.push_back(widths);

  // The host's per-call costs: many short bursts into an idle device, each a sample; x is the
  // calls per burst (streams for the copy calls).
  const int samples = plan.hostCostSamples;
  const std::size_t roundBytes = plan.streamRoundBytes;
  add("kernel launch overhead (bursts of empty-kernel launches)", true, samples, &m->kernelLaunch,
      {static_cast<double>(plan.launchBurst)},
      [&bench](double n, double* s) { return bench.launchBurst(static_cast<int>(n), s); });
  add("stream synchronization (launch + synchronize)", true, samples, &m->launchSync,
      {static_cast<double>(plan.launchSyncCount)},
      [&bench](double n, double* s) { return bench.launchSyncOverhead(static_cast<int>(n), s); });
  add("host time per copy call (a copy in and out per stream)", true, samples, &m->copyCall,
      {static_cast<double>(plan.copyCallStreams)}, [&bench, roundBytes](double n, double* s) {
        return bench.copyCalls(static_cast<int>(n), roundBytes, s);
      });
  add("host time per batch of copies (one batch per stream)", true, samples, &m->copyBatch,
      {static_cast<double>(plan.copyBatchCopies)},
      [&bench, &plan, roundBytes](double n, double* s) {
        return bench.copyBatches(plan.copyCallStreams, static_cast<int>(n), roundBytes, s);
      });
  add("host time per operation of a graph launch (a streamed round on 16 streams)", true, samples,
      &m->graphLaunch, {static_cast<double>(plan.copyCallStreams)},
      [&bench, roundBytes](double n, double* s) {
        return bench.graphLaunch(static_cast<int>(n), roundBytes, s);
      });
  add("per-stream overhead t_sc (minimal streamed rounds)", true, plan.streamRoundRepeats,
      &m->streamRounds, asDoubles(plan.streamCounts), [&bench, roundBytes](double n, double* s) {
        return bench.streamedRound(static_cast<int>(n), roundBytes, s);
      });

  // The host's copies between pageable and pinned memory: the staging ring's rate.
  std::unique_ptr<HostCopyBench> hostCopies;
  if (!plan.hostCopyBytes.empty()) {
    const int threads = m->hostCopyThreads =
        HostCopyBench::parallelThreads(static_cast<int>(std::thread::hardware_concurrency()));
    const Status made = HostCopyBench::create(largest(plan.hostCopyBytes), threads, &hostCopies);
    if (made.ok()) {
      const std::vector<double> bytes = asDoubles(plan.hostCopyBytes);
      auto copies = [&hostCopies](int n) {
        return [&hostCopies, n](double total, double* s) {
          return hostCopies->copy(static_cast<std::size_t>(total), n, s);
        };
      };
      Step step{format("host copies between pageable and pinned memory (1 to %d threads)", threads),
                true,
                plan.repeats,
                {{&m->hostCopy, bytes, copies(1)}}};
      // The counts between: their series are in place before the step points at them.
      for (int between : {2, 4, 8})
        if (between < threads)
          m->hostCopyByThreads.push_back({between, {}});
      for (CalibrationMeasurements::HostCopyThreadsSeries& t : m->hostCopyByThreads)
        step.sweeps.push_back({&t.sizes, bytes, copies(t.threads)});
      step.sweeps.push_back({&m->hostCopyParallel, bytes, copies(threads)});
      steps.push_back(step);
      // A small staged call of many pieces on 4 threads to the widest ring: each thread more
      // costs the hand-overs of every piece, and copies nothing the first few would not. x is
      // threads x pieces, so that the slope is the cost per thread and piece.
      const int pieces = 2 * plan.stagedCallCopies;
      if (plan.stagedCallBytes > 0 && threads > 4) {
        std::vector<double> counts;
        for (int n = 4; n < threads; n += 2)
          counts.push_back(n * pieces);
        counts.push_back(threads * pieces);
        add("small staged calls over ring threads x pieces", true, plan.hostCostSamples,
            &m->stagedCallThreadPieces, counts, [&bench, &plan, pieces](double x, double* s) {
              return bench.stagedCall(plan.stagedCallBytes, plan.stagedCallCopies,
                                      static_cast<int>(x) / pieces, s);
            });
      }
    } else {
      (void)cudaGetLastError(); // reported here; later calls must not see it as theirs
      m->skipped.push_back("host copies: " + made.message());
    }
  }

  // With several GPUs: copies to and from all of them at once, x the bytes in all.
  int devices = 0;
  std::unique_ptr<AllLinksBench> links;
  if (cudaGetDeviceCount(&devices) == cudaSuccess && devices >= 2) {
    const Status made =
        AllLinksBench::create(devices, std::size_t{8} << 20, std::size_t{256} << 20, &links);
    if (made.ok()) {
      m->allLinksDevices = devices;
      std::vector<double> bytes;
      for (double perDevice : {128.0, 512.0, 1024.0})
        bytes.push_back(perDevice * (1 << 20) * devices);
      add(format("all %d links at once (one host thread per device, both directions)", devices),
          true, plan.repeats, &m->allLinks, bytes, [&links](double total, double* s) {
            const auto eachWay = static_cast<std::size_t>(total) / 2;
            return links->copy(eachWay, eachWay, links->devices(), s);
          });
      add(format("all %d links at once, to the devices only", devices), true, plan.repeats,
          &m->allLinksOneWay, bytes, [&links](double total, double* s) {
            return links->copy(static_cast<std::size_t>(total), 0, links->devices(), s);
          });
    } else {
      m->skipped.push_back("all links at once: " + made.message());
    }
  } else {
    (void)cudaGetLastError(); // no count: one device, as far as the calibration goes
  }
  return runSteps(steps, plan.warmup, progress, &m->skipped);
}

Status checkAccuracy(LinkBench& bench, const HardwareProfile& profile,
                     const CalibrationPlan& calibration, const Progress& progress,
                     AccuracyReport* report) {
  const AccuracyPlan& plan = calibration.accuracy;
  // One series per case (in AccuracyCase order) and size, x = pieces, in passes over all of them.
  const std::size_t sizes = plan.sizeBytes.size();
  std::vector<Series> series(4 * sizes);
  Step oneWayStep{"accuracy, one direction alone", false, plan.repeats, {}};
  Step busyStep{"accuracy, the other direction busy", false, plan.busyLinkRepeats, {}};
  int idleAtEnd = 0; // busy-link samples whose other direction ended first
  const std::vector<double> pieces = asDoubles(plan.pieceCounts);
  auto caseOf = [sizes](std::size_t c) { return static_cast<AccuracyCase>(c / sizes); };
  for (std::size_t c = 0; c < series.size(); ++c) {
    const bool busy = isBidirectional(caseOf(c));
    (busy ? busyStep : oneWayStep)
        .sweeps.push_back({&series[c], pieces,
                           transferAt(bench, kDirections[c / sizes % 2], plan.sizeBytes[c % sizes],
                                      busy, &idleAtEnd)});
  }
  OVERLAP_TRY(runSteps({oneWayStep, busyStep}, calibration.warmup, progress, nullptr));

  const LinkDirection* links[] = {&profile.hostToDevice, &profile.deviceToHost};
  for (std::size_t c = 0; c < series.size(); ++c)
    for (std::size_t i = 0; i < series[c].x.size(); ++i) {
      const double bytes = static_cast<double>(plan.sizeBytes[c % sizes]);
      const int n = static_cast<int>(series[c].x[i]);
      report->rows.push_back({caseOf(c), bytes, n,
                              predictTransferSeconds(*links[c / sizes % 2], bytes, n, caseOf(c)),
                              summarize(series[c].seconds[i])});
    }
  if (busyStep.repeats > plan.repeats)
    report->notes.push_back("the bidirectional cases were repeated " +
                            std::to_string(busyStep.repeats) + " times, the one-way cases " +
                            std::to_string(plan.repeats) + " times");
  const std::size_t busySamples =
      2 * sizes * pieces.size() * static_cast<std::size_t>(calibration.warmup + busyStep.repeats);
  if (busySamples > 0)
    report->notes.push_back(
        std::to_string(idleAtEnd) + " of " + std::to_string(busySamples) +
        " bidirectional samples (warm-up included) ended after the other direction (kept; the "
        "link was not busy both ways throughout those)");
  return Status::success();
}

} // namespace overlap::calibration
