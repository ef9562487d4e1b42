#include "Calibrator.h"

#include "HostCopyBench.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <string>
#include <thread>
#include <vector>

namespace overlap::calibration {

namespace {

using Clock = std::chrono::steady_clock;
using MeasureOne = std::function<Status(double x, double* seconds)>;

std::string mebibytes(std::size_t bytes) {
  char text[32];
  if (bytes < (std::size_t{1} << 20))
    std::snprintf(text, sizeof(text), "%zu B", bytes);
  else
    std::snprintf(text, sizeof(text), "%g MiB", static_cast<double>(bytes) / (1 << 20));
  return text;
}

template <class T> std::vector<double> asDoubles(const std::vector<T>& values) {
  return std::vector<double>(values.begin(), values.end());
}

// Two series measured together: each run times both (the two directions of one bidirectional
// round).
using MeasureTwo = std::function<Status(double x, double* first, double* second)>;

Status measureSeriesPair(const std::vector<double>& xs, int warmup, int repeats,
                         const MeasureTwo& both, Series* first, Series* second) {
  std::vector<std::vector<double>> samples[2] = {std::vector<std::vector<double>>(xs.size()),
                                                 std::vector<std::vector<double>>(xs.size())};
  for (int pass = 0; pass < warmup + repeats; ++pass) {
    for (std::size_t i = 0; i < xs.size(); ++i) {
      double seconds[2] = {0, 0};
      OVERLAP_TRY(both(xs[i], &seconds[0], &seconds[1]));
      if (pass < warmup)
        continue;
      samples[0][i].push_back(seconds[0]);
      samples[1][i].push_back(seconds[1]);
    }
  }
  for (std::size_t i = 0; i < xs.size(); ++i) {
    first->add(xs[i], std::move(samples[0][i]));
    second->add(xs[i], std::move(samples[1][i]));
  }
  return Status::success();
}

Status measureSeries(const std::vector<double>& xs, int warmup, int repeats, const MeasureOne& one,
                     Series* series) {
  Series unused;
  return measureSeriesPair(
      xs, warmup, repeats, [&](double x, double* seconds, double*) { return one(x, seconds); },
      series, &unused);
}

// Leaves `samples` alone unless every run succeeds.
Status measureSamples(int warmup, int repeats, const std::function<Status(double*)>& one,
                      std::vector<double>* samples) {
  std::vector<double> measured;
  for (int i = 0; i < warmup + repeats; ++i) {
    double seconds = 0;
    OVERLAP_TRY(one(&seconds));
    if (i >= warmup)
      measured.push_back(seconds);
  }
  *samples = std::move(measured);
  return Status::success();
}

// One transfer while the other direction copies more; refused when the other direction ended
// first, since then the link was not busy both ways throughout and the sample would mix in
// one-way time.
Status againstBusyLink(LinkBench& bench, TransferDirection direction, std::size_t bytes, int pieces,
                       double* seconds) {
  double background = 0;
  OVERLAP_TRY(bench.transferAgainstBusyLink(
      direction, bytes, pieces, backgroundBytesFor(bytes, pieces), seconds, &background));
  if (background < *seconds)
    return Status{cudaErrorInvalidValue,
                  "transfer_against_busy_link: the other direction finished first, so the link "
                  "was not busy throughout",
                  __FILE__, __LINE__};
  return Status::success();
}

// Numbers the steps and reports how long each took. A failed optional step is recorded in
// `skipped` and its parameter stays unknown, unless the failure left the device unusable.
class Steps {
public:
  Steps(const Progress& progress, int total, std::vector<std::string>* skipped)
      : progress_(progress), total_(total), skipped_(skipped) {}

  Status optional(const std::string& what, const std::function<Status()>& step) {
    const Status status = run(what, step);
    if (status.ok())
      return status;
    const cudaError_t device = cudaDeviceSynchronize();
    if (device != cudaSuccess)
      return status;
    (void)cudaGetLastError(); // reported here; later launches must not see it as theirs
    skipped_->push_back(what + ": " + status.message());
    if (progress_)
      progress_("       skipped, the parameter stays unknown: " + status.message());
    return Status::success();
  }

  Status run(const std::string& what, const std::function<Status()>& step) {
    char prefix[32];
    std::snprintf(prefix, sizeof(prefix), "[%2d/%d] ", ++done_, total_);
    if (progress_)
      progress_(prefix + what + " ...");
    const Clock::time_point begin = Clock::now();
    OVERLAP_TRY(step());
    char took[48];
    std::snprintf(took, sizeof(took), " done in %.2f s",
                  std::chrono::duration<double>(Clock::now() - begin).count());
    if (progress_)
      progress_(std::string("       ") + what + took);
    return Status::success();
  }

private:
  const Progress& progress_;
  int total_;
  std::vector<std::string>* skipped_;
  int done_ = 0;
};

} // namespace

std::string todayUtc() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[16];
  std::strftime(text, sizeof(text), "%Y-%m-%d", &utc);
  return text;
}

DeviceIdentity identityOf(const DeviceDescription& device, const std::string& date) {
  DeviceIdentity id;
  id.name = device.name;
  id.pcie = device.pcie.describe();
  id.driver = device.driverVersion;
  id.date = date;
  id.computeCapabilityMajor = device.computeCapabilityMajor;
  id.computeCapabilityMinor = device.computeCapabilityMinor;
  id.multiprocessors = device.multiprocessors;
  id.copyEngines = device.copyEngines;
  id.implicitSynchronization = device.implicitSynchronization();
  return id;
}

LinkBenchLimits limitsFor(const CalibrationPlan& plan, const AccuracyPlan* accuracy) {
  LinkBenchLimits limits;
  limits.maxBytes = plan.maxBytes();
  limits.maxPageableBytes = plan.maxPageableBytes();
  limits.maxPieces = plan.maxPieces();
  if (accuracy) {
    limits.maxBytes = std::max(limits.maxBytes, accuracy->maxBytes());
    limits.maxPieces = std::max(limits.maxPieces, accuracy->maxPieces());
  }
  return limits;
}

Status measureLink(LinkBench& bench, const CalibrationPlan& plan, const Progress& progress,
                   CalibrationMeasurements* m) {
  const int stepsPerDirection = 6;
  const bool hostCopies = plan.hostCopyBytes > 0 && !plan.hostCopyThreads.empty();
  Steps steps(progress, 2 * stepsPerDirection + 11 + (hostCopies ? 1 : 0), &m->skipped);
  const TransferDirection directions[] = {TransferDirection::HostToDevice,
                                          TransferDirection::DeviceToHost};
  const std::string repeats = " x " + std::to_string(plan.repeats) + " repeats";
  const std::string sizes = std::to_string(plan.sizeBytes.size()) + " sizes " +
                            (plan.sizeBytes.empty() ? "" : mebibytes(plan.sizeBytes.front())) +
                            ".." + (plan.sizeBytes.empty() ? "" : mebibytes(plan.sizeBytes.back()));

  for (TransferDirection direction : directions) {
    DirectionMeasurements& d =
        direction == TransferDirection::HostToDevice ? m->hostToDevice : m->deviceToHost;
    const std::string name = directionName(direction);
    OVERLAP_TRY(
        steps.run(name + " L+o: 1-byte copies x " + std::to_string(plan.latencyRepeats), [&] {
          return measureSamples(
              plan.warmup, plan.latencyRepeats,
              [&](double* s) { return bench.transfer(direction, 1, 1, true, s); },
              &d.oneByteSeconds);
        }));
    OVERLAP_TRY(steps.run(name + " G: " + sizes + repeats, [&] {
      return measureSeries(
          asDoubles(plan.sizeBytes), plan.warmup, plan.repeats,
          [&](double x, double* s) {
            return bench.transfer(direction, static_cast<std::size_t>(x), 1, true, s);
          },
          &d.sizes);
    }));
    OVERLAP_TRY(steps.run(name + " g: n = " + std::to_string(plan.pieceCounts.front()) + ".." +
                              std::to_string(plan.pieceCounts.back()) + " pieces of " +
                              std::to_string(plan.pieceMessageBytes.size()) + " sizes" + repeats,
                          [&] {
                            for (std::size_t message : plan.pieceMessageBytes) {
                              Series series;
                              OVERLAP_TRY(measureSeries(
                                  asDoubles(plan.pieceCounts), plan.warmup, plan.repeats,
                                  [&](double n, double* s) {
                                    return bench.transfer(direction, message, static_cast<int>(n),
                                                          true, s);
                                  },
                                  &series));
                              d.pieces.push_back(std::move(series));
                              d.pieceMessageBytes.push_back(static_cast<double>(message));
                            }
                            return Status::success();
                          }));
    OVERLAP_TRY(steps.optional(
        name + " pageable G: " + std::to_string(plan.pageableBytes.size()) + " sizes" + repeats,
        [&] {
          return measureSeries(
              asDoubles(plan.pageableBytes), plan.warmup, plan.repeats,
              [&](double x, double* s) {
                return bench.pageableCopy(direction, static_cast<std::size_t>(x), s);
              },
              &d.pageableSizes);
        }));
    OVERLAP_TRY(steps.optional(
        name + " G against mapped traffic: " + std::to_string(plan.withMappedBytes.size()) +
            " sizes" + repeats,
        [&] {
          return measureSeries(
              asDoubles(plan.withMappedBytes), plan.warmup, plan.repeats,
              [&](double x, double* s) {
                const std::size_t bytes = static_cast<std::size_t>(x);
                double kernelSeconds = 0;
                OVERLAP_TRY(bench.copyAgainstMapped(
                    direction, bytes, bytes * plan.withMappedKernelFactor, s, &kernelSeconds));
                if (kernelSeconds < *s)
                  return Status{cudaErrorInvalidValue,
                                "copy_against_mapped: the mapped kernel ended before the copy, "
                                "so the copy did not meet mapped traffic throughout",
                                __FILE__, __LINE__};
                return Status::success();
              },
              &d.withMappedSizes);
        }));
    OVERLAP_TRY(steps.optional(
        name + " mapped " + (direction == TransferDirection::HostToDevice ? "read" : "write") +
            " kernel: " + std::to_string(plan.mappedKernelBytes.size()) + " sizes" + repeats,
        [&] {
          const bool write = direction == TransferDirection::DeviceToHost;
          return measureSeries(
              asDoubles(plan.mappedKernelBytes), plan.warmup, plan.repeats,
              [&](double x, double* s) {
                return bench.mappedKernel(write, static_cast<std::size_t>(x), s);
              },
              write ? &m->mappedWriteSizes : &m->mappedReadSizes);
        }));
  }

  OVERLAP_TRY(steps.optional("mapped read and write kernels per element width (" +
                                 std::to_string(plan.mappedElementBytes.size()) + " widths): " +
                                 std::to_string(plan.mappedKernelBytes.size()) + " sizes" + repeats,
                             [&] {
                               // Filled only when every width succeeded, so a skipped step leaves
                               // no partial list.
                               std::vector<MappedWidthSeries> widths;
                               for (int elementBytes : plan.mappedElementBytes) {
                                 MappedWidthSeries width;
                                 width.elementBytes = elementBytes;
                                 for (const bool write : {false, true})
                                   OVERLAP_TRY(measureSeries(
                                       asDoubles(plan.mappedKernelBytes), plan.warmup, plan.repeats,
                                       [&](double x, double* s) {
                                         return bench.mappedWidthKernel(
                                             write, elementBytes, static_cast<std::size_t>(x), s);
                                       },
                                       write ? &width.writeSizes : &width.readSizes));
                                 widths.push_back(std::move(width));
                               }
                               m->mappedByWidth = std::move(widths);
                               return Status::success();
                             }));
  const std::string bothWaysStep =
      "mapped kernel reading and writing as many bytes (both ways at once): " +
      std::to_string(plan.mappedKernelBytes.size()) + " sizes" + repeats;
  OVERLAP_TRY(steps.optional(bothWaysStep, [&] {
    // Filled only when every size succeeded, so a skipped step leaves no partial series.
    Series series;
    OVERLAP_TRY(measureSeries(
        asDoubles(plan.mappedKernelBytes), plan.warmup, plan.repeats,
        [&](double x, double* s) {
          return bench.mappedBothWaysKernel(static_cast<std::size_t>(x), s);
        },
        &series));
    m->mappedBothWaysSizes = std::move(series);
    return Status::success();
  }));

  // The busy link's rate varies far more from one copy to the next than the one-way link's, so
  // these steps repeat each point more often (CalibrationPlan::busyLinkRepeats).
  const int busyRepeats = plan.busyLinkRepeatCount();
  const std::string busyRepeatsLabel = " x " + std::to_string(busyRepeats) + " repeats";
  for (TransferDirection direction : directions) {
    DirectionMeasurements& d =
        direction == TransferDirection::HostToDevice ? m->hostToDevice : m->deviceToHost;
    OVERLAP_TRY(steps.optional(
        std::string(directionName(direction)) +
            " bidirectional G (other direction busy): " + sizes + busyRepeatsLabel,
        [&] {
          return measureSeries(
              asDoubles(plan.sizeBytes), plan.warmup, busyRepeats,
              [&](double x, double* s) {
                return againstBusyLink(bench, direction, static_cast<std::size_t>(x), 1, s);
              },
              &d.bidirectionalSizes);
        }));
    OVERLAP_TRY(steps.optional(
        std::string(directionName(direction)) + " bidirectional g (other direction busy): n = " +
            std::to_string(plan.pieceCounts.front()) + ".." +
            std::to_string(plan.pieceCounts.back()) + " pieces of " +
            std::to_string(plan.pieceMessageBytes.size()) + " sizes" + busyRepeatsLabel,
        [&] {
          // Filled only when every size succeeded, so a skipped step leaves no partial series.
          std::vector<Series> all;
          for (std::size_t message : plan.pieceMessageBytes) {
            Series series;
            OVERLAP_TRY(measureSeries(
                asDoubles(plan.pieceCounts), plan.warmup, busyRepeats,
                [&](double n, double* s) {
                  return againstBusyLink(bench, direction, message, static_cast<int>(n), s);
                },
                &series));
            all.push_back(std::move(series));
          }
          d.bidirectionalPieces = std::move(all);
          d.bidirectionalPieceMessageBytes = asDoubles(plan.pieceMessageBytes);
          return Status::success();
        }));
  }
  OVERLAP_TRY(steps.optional(
      "simultaneous g (both directions in as many pieces at once): n = " +
          std::to_string(plan.pieceCounts.front()) + ".." +
          std::to_string(plan.pieceCounts.back()) + " pieces of " +
          std::to_string(plan.pieceMessageBytes.size()) + " sizes" + busyRepeatsLabel,
      [&] {
        // Filled only when every size succeeded, so a skipped step leaves no partial series.
        std::vector<Series> toDevice;
        std::vector<Series> toHost;
        for (std::size_t message : plan.pieceMessageBytes) {
          Series in;
          Series out;
          OVERLAP_TRY(measureSeriesPair(
              asDoubles(plan.pieceCounts), plan.warmup, busyRepeats,
              [&](double n, double* inSeconds, double* outSeconds) {
                return bench.bidirectional(message, static_cast<int>(n), true, inSeconds,
                                           outSeconds);
              },
              &in, &out));
          toDevice.push_back(std::move(in));
          toHost.push_back(std::move(out));
        }
        m->hostToDevice.simultaneousPieces = std::move(toDevice);
        m->deviceToHost.simultaneousPieces = std::move(toHost);
        m->hostToDevice.simultaneousPieceMessageBytes = asDoubles(plan.pieceMessageBytes);
        m->deviceToHost.simultaneousPieceMessageBytes = asDoubles(plan.pieceMessageBytes);
        return Status::success();
      }));
  // The host's per-call costs: many short bursts, each a sample (CalibrationPlan.h).
  const std::string bursts = std::to_string(plan.hostCostSamples) + " bursts (+" +
                             std::to_string(plan.warmup) + " warm-up) of ";
  OVERLAP_TRY(
      steps.optional("kernel launch overhead: " + bursts + std::to_string(plan.launchBurst) +
                         " empty-kernel launches, synchronized between bursts",
                     [&] {
                       return measureSamples(
                           plan.warmup, plan.hostCostSamples,
                           [&](double* s) { return bench.launchBurst(plan.launchBurst, s); },
                           &m->kernelLaunchSeconds);
                     }));
  OVERLAP_TRY(steps.optional("stream synchronization: " + bursts +
                                 std::to_string(plan.launchSyncCount) + " launch + synchronize",
                             [&] {
                               return measureSamples(
                                   plan.warmup, plan.hostCostSamples,
                                   [&](double* s) {
                                     return bench.launchSyncOverhead(plan.launchSyncCount, s);
                                   },
                                   &m->launchSyncSeconds);
                             }));
  OVERLAP_TRY(steps.optional(
      "per-stream overhead t_sc: rounds on 1.." + std::to_string(plan.streamCounts.back()) +
          " streams x " + std::to_string(plan.streamRoundRepeats) + " repeats",
      [&] {
        return measureSeries(
            asDoubles(plan.streamCounts), plan.warmup, plan.streamRoundRepeats,
            [&](double n, double* s) {
              return bench.streamedRound(static_cast<int>(n), plan.streamRoundBytes, s);
            },
            &m->streamRounds);
      }));
  OVERLAP_TRY(steps.optional(
      "host time per copy call: " + bursts + std::to_string(2 * plan.copyCallStreams) +
          " cudaMemcpyAsync calls (in and out on " + std::to_string(plan.copyCallStreams) +
          " streams), synchronized between bursts",
      [&] {
        return measureSamples(
            plan.warmup, plan.hostCostSamples,
            [&](double* s) {
              return bench.copyCalls(plan.copyCallStreams, plan.streamRoundBytes, s);
            },
            &m->copyCallSeconds);
      }));
  if (hostCopies) {
    // Thread counts beyond the hardware threads would time the scheduler, not the memory.
    std::vector<double> threads;
    const int hardware = static_cast<int>(std::thread::hardware_concurrency());
    for (int t : plan.hostCopyThreads)
      if (t == 1 || t <= hardware)
        threads.push_back(t);
    if (threads.empty())
      threads.push_back(1);
    OVERLAP_TRY(steps.optional(
        "host copies (staging): " + mebibytes(plan.hostCopyBytes) + " pageable to pinned on 1.." +
            std::to_string(static_cast<int>(threads.back())) + " threads" + repeats,
        [&] {
          HostCopyBench copies;
          OVERLAP_TRY(HostCopyBench::create(plan.hostCopyBytes, &copies));
          m->hostCopyBytes = static_cast<double>(plan.hostCopyBytes);
          return measureSeries(
              threads, plan.warmup, plan.repeats,
              [&](double x, double* s) { return copies.copy(static_cast<int>(x), s); },
              &m->hostCopy);
        }));
  }
  return Status::success();
}

} // namespace overlap::calibration
