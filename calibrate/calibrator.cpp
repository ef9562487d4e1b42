#include "calibrator.h"

#include "host_copy_bench.h"

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

template <class T> std::vector<double> as_doubles(const std::vector<T>& values) {
  return std::vector<double>(values.begin(), values.end());
}

// Two series measured together: each run times both (the two directions of one bidirectional
// round).
using MeasureTwo = std::function<Status(double x, double* first, double* second)>;

Status measure_series_pair(const std::vector<double>& xs, int warmup, int repeats,
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

Status measure_series(const std::vector<double>& xs, int warmup, int repeats, const MeasureOne& one,
                      Series* series) {
  Series unused;
  return measure_series_pair(
      xs, warmup, repeats, [&](double x, double* seconds, double*) { return one(x, seconds); },
      series, &unused);
}

// Leaves `samples` alone unless every run succeeds.
Status measure_samples(int warmup, int repeats, const std::function<Status(double*)>& one,
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
Status against_busy_link(LinkBench& bench, TransferDirection direction, std::size_t bytes,
                         int pieces, double* seconds) {
  double background = 0;
  OVERLAP_TRY(bench.transfer_against_busy_link(
      direction, bytes, pieces, background_bytes_for(bytes, pieces), seconds, &background));
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

std::string today_utc() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[16];
  std::strftime(text, sizeof(text), "%Y-%m-%d", &utc);
  return text;
}

DeviceIdentity identity_of(const DeviceDescription& device, const std::string& date) {
  DeviceIdentity id;
  id.name = device.name;
  id.pcie = device.pcie.describe();
  id.driver = device.driver_version;
  id.date = date;
  id.compute_capability_major = device.compute_capability_major;
  id.compute_capability_minor = device.compute_capability_minor;
  id.multiprocessors = device.multiprocessors;
  id.copy_engines = device.copy_engines;
  id.implicit_synchronization = device.implicit_synchronization();
  return id;
}

LinkBenchLimits limits_for(const CalibrationPlan& plan, const AccuracyPlan* accuracy) {
  LinkBenchLimits limits;
  limits.max_bytes = plan.max_bytes();
  limits.max_pageable_bytes = plan.max_pageable_bytes();
  limits.max_pieces = plan.max_pieces();
  if (accuracy) {
    limits.max_bytes = std::max(limits.max_bytes, accuracy->max_bytes());
    limits.max_pieces = std::max(limits.max_pieces, accuracy->max_pieces());
  }
  return limits;
}

Status measure_link(LinkBench& bench, const CalibrationPlan& plan, const Progress& progress,
                    CalibrationMeasurements* m) {
  const int steps_per_direction = 6;
  const bool host_copies = plan.host_copy_bytes > 0 && !plan.host_copy_threads.empty();
  Steps steps(progress, 2 * steps_per_direction + 11 + (host_copies ? 1 : 0), &m->skipped);
  const TransferDirection directions[] = {TransferDirection::HostToDevice,
                                          TransferDirection::DeviceToHost};
  const std::string repeats = " x " + std::to_string(plan.repeats) + " repeats";
  const std::string sizes = std::to_string(plan.size_bytes.size()) + " sizes " +
                            (plan.size_bytes.empty() ? "" : mebibytes(plan.size_bytes.front())) +
                            ".." +
                            (plan.size_bytes.empty() ? "" : mebibytes(plan.size_bytes.back()));

  for (TransferDirection direction : directions) {
    DirectionMeasurements& d =
        direction == TransferDirection::HostToDevice ? m->host_to_device : m->device_to_host;
    const std::string name = direction_name(direction);
    OVERLAP_TRY(
        steps.run(name + " L+o: 1-byte copies x " + std::to_string(plan.latency_repeats), [&] {
          return measure_samples(
              plan.warmup, plan.latency_repeats,
              [&](double* s) { return bench.transfer(direction, 1, 1, true, s); },
              &d.one_byte_seconds);
        }));
    OVERLAP_TRY(steps.run(name + " G: " + sizes + repeats, [&] {
      return measure_series(
          as_doubles(plan.size_bytes), plan.warmup, plan.repeats,
          [&](double x, double* s) {
            return bench.transfer(direction, static_cast<std::size_t>(x), 1, true, s);
          },
          &d.sizes);
    }));
    OVERLAP_TRY(steps.run(name + " g: n = " + std::to_string(plan.piece_counts.front()) + ".." +
                              std::to_string(plan.piece_counts.back()) + " pieces of " +
                              std::to_string(plan.piece_message_bytes.size()) + " sizes" + repeats,
                          [&] {
                            for (std::size_t message : plan.piece_message_bytes) {
                              Series series;
                              OVERLAP_TRY(measure_series(
                                  as_doubles(plan.piece_counts), plan.warmup, plan.repeats,
                                  [&](double n, double* s) {
                                    return bench.transfer(direction, message, static_cast<int>(n),
                                                          true, s);
                                  },
                                  &series));
                              d.pieces.push_back(std::move(series));
                              d.piece_message_bytes.push_back(static_cast<double>(message));
                            }
                            return Status::success();
                          }));
    OVERLAP_TRY(steps.optional(
        name + " pageable G: " + std::to_string(plan.pageable_bytes.size()) + " sizes" + repeats,
        [&] {
          return measure_series(
              as_doubles(plan.pageable_bytes), plan.warmup, plan.repeats,
              [&](double x, double* s) {
                return bench.pageable_copy(direction, static_cast<std::size_t>(x), s);
              },
              &d.pageable_sizes);
        }));
    OVERLAP_TRY(steps.optional(
        name + " G against mapped traffic: " + std::to_string(plan.with_mapped_bytes.size()) +
            " sizes" + repeats,
        [&] {
          return measure_series(
              as_doubles(plan.with_mapped_bytes), plan.warmup, plan.repeats,
              [&](double x, double* s) {
                const std::size_t bytes = static_cast<std::size_t>(x);
                double kernel_seconds = 0;
                OVERLAP_TRY(bench.copy_against_mapped(
                    direction, bytes, bytes * plan.with_mapped_kernel_factor, s, &kernel_seconds));
                if (kernel_seconds < *s)
                  return Status{cudaErrorInvalidValue,
                                "copy_against_mapped: the mapped kernel ended before the copy, "
                                "so the copy did not meet mapped traffic throughout",
                                __FILE__, __LINE__};
                return Status::success();
              },
              &d.with_mapped_sizes);
        }));
    OVERLAP_TRY(steps.optional(
        name + " mapped " + (direction == TransferDirection::HostToDevice ? "read" : "write") +
            " kernel: " + std::to_string(plan.mapped_kernel_bytes.size()) + " sizes" + repeats,
        [&] {
          const bool write = direction == TransferDirection::DeviceToHost;
          return measure_series(
              as_doubles(plan.mapped_kernel_bytes), plan.warmup, plan.repeats,
              [&](double x, double* s) {
                return bench.mapped_kernel(write, static_cast<std::size_t>(x), s);
              },
              write ? &m->mapped_write_sizes : &m->mapped_read_sizes);
        }));
  }

  OVERLAP_TRY(steps.optional(
      "mapped read and write kernels per element width (" +
          std::to_string(plan.mapped_element_bytes.size()) +
          " widths): " + std::to_string(plan.mapped_kernel_bytes.size()) + " sizes" + repeats,
      [&] {
        // Filled only when every width succeeded, so a skipped step leaves no partial list.
        std::vector<MappedWidthSeries> widths;
        for (int element_bytes : plan.mapped_element_bytes) {
          MappedWidthSeries width;
          width.element_bytes = element_bytes;
          for (const bool write : {false, true})
            OVERLAP_TRY(measure_series(
                as_doubles(plan.mapped_kernel_bytes), plan.warmup, plan.repeats,
                [&](double x, double* s) {
                  return bench.mapped_width_kernel(write, element_bytes,
                                                   static_cast<std::size_t>(x), s);
                },
                write ? &width.write_sizes : &width.read_sizes));
          widths.push_back(std::move(width));
        }
        m->mapped_by_width = std::move(widths);
        return Status::success();
      }));
  const std::string both_ways_step =
      "mapped kernel reading and writing as many bytes (both ways at once): " +
      std::to_string(plan.mapped_kernel_bytes.size()) + " sizes" + repeats;
  OVERLAP_TRY(steps.optional(both_ways_step, [&] {
    // Filled only when every size succeeded, so a skipped step leaves no partial series.
    Series series;
    OVERLAP_TRY(measure_series(
        as_doubles(plan.mapped_kernel_bytes), plan.warmup, plan.repeats,
        [&](double x, double* s) {
          return bench.mapped_both_ways_kernel(static_cast<std::size_t>(x), s);
        },
        &series));
    m->mapped_both_ways_sizes = std::move(series);
    return Status::success();
  }));

  // The busy link's rate varies far more from one copy to the next than the one-way link's, so
  // these steps repeat each point more often (CalibrationPlan::busy_link_repeats).
  const int busy_repeats = plan.busy_link_repeat_count();
  const std::string busy_repeats_label = " x " + std::to_string(busy_repeats) + " repeats";
  for (TransferDirection direction : directions) {
    DirectionMeasurements& d =
        direction == TransferDirection::HostToDevice ? m->host_to_device : m->device_to_host;
    OVERLAP_TRY(steps.optional(
        std::string(direction_name(direction)) +
            " bidirectional G (other direction busy): " + sizes + busy_repeats_label,
        [&] {
          return measure_series(
              as_doubles(plan.size_bytes), plan.warmup, busy_repeats,
              [&](double x, double* s) {
                return against_busy_link(bench, direction, static_cast<std::size_t>(x), 1, s);
              },
              &d.bidirectional_sizes);
        }));
    OVERLAP_TRY(steps.optional(
        std::string(direction_name(direction)) + " bidirectional g (other direction busy): n = " +
            std::to_string(plan.piece_counts.front()) + ".." +
            std::to_string(plan.piece_counts.back()) + " pieces of " +
            std::to_string(plan.piece_message_bytes.size()) + " sizes" + busy_repeats_label,
        [&] {
          // Filled only when every size succeeded, so a skipped step leaves no partial series.
          std::vector<Series> all;
          for (std::size_t message : plan.piece_message_bytes) {
            Series series;
            OVERLAP_TRY(measure_series(
                as_doubles(plan.piece_counts), plan.warmup, busy_repeats,
                [&](double n, double* s) {
                  return against_busy_link(bench, direction, message, static_cast<int>(n), s);
                },
                &series));
            all.push_back(std::move(series));
          }
          d.bidirectional_pieces = std::move(all);
          d.bidirectional_piece_message_bytes = as_doubles(plan.piece_message_bytes);
          return Status::success();
        }));
  }
  OVERLAP_TRY(steps.optional(
      "simultaneous g (both directions in as many pieces at once): n = " +
          std::to_string(plan.piece_counts.front()) + ".." +
          std::to_string(plan.piece_counts.back()) + " pieces of " +
          std::to_string(plan.piece_message_bytes.size()) + " sizes" + busy_repeats_label,
      [&] {
        // Filled only when every size succeeded, so a skipped step leaves no partial series.
        std::vector<Series> to_device;
        std::vector<Series> to_host;
        for (std::size_t message : plan.piece_message_bytes) {
          Series in;
          Series out;
          OVERLAP_TRY(measure_series_pair(
              as_doubles(plan.piece_counts), plan.warmup, busy_repeats,
              [&](double n, double* in_seconds, double* out_seconds) {
                return bench.bidirectional(message, static_cast<int>(n), true, in_seconds,
                                           out_seconds);
              },
              &in, &out));
          to_device.push_back(std::move(in));
          to_host.push_back(std::move(out));
        }
        m->host_to_device.simultaneous_pieces = std::move(to_device);
        m->device_to_host.simultaneous_pieces = std::move(to_host);
        m->host_to_device.simultaneous_piece_message_bytes = as_doubles(plan.piece_message_bytes);
        m->device_to_host.simultaneous_piece_message_bytes = as_doubles(plan.piece_message_bytes);
        return Status::success();
      }));
  // The host's per-call costs: many short bursts, each a sample (calibration_plan.h).
  const std::string bursts = std::to_string(plan.host_cost_samples) + " bursts (+" +
                             std::to_string(plan.warmup) + " warm-up) of ";
  OVERLAP_TRY(
      steps.optional("kernel launch overhead: " + bursts + std::to_string(plan.launch_burst) +
                         " empty-kernel launches, synchronized between bursts",
                     [&] {
                       return measure_samples(
                           plan.warmup, plan.host_cost_samples,
                           [&](double* s) { return bench.launch_burst(plan.launch_burst, s); },
                           &m->kernel_launch_seconds);
                     }));
  OVERLAP_TRY(steps.optional("stream synchronization: " + bursts +
                                 std::to_string(plan.launch_sync_count) + " launch + synchronize",
                             [&] {
                               return measure_samples(
                                   plan.warmup, plan.host_cost_samples,
                                   [&](double* s) {
                                     return bench.launch_sync_overhead(plan.launch_sync_count, s);
                                   },
                                   &m->launch_sync_seconds);
                             }));
  OVERLAP_TRY(steps.optional(
      "per-stream overhead t_sc: rounds on 1.." + std::to_string(plan.stream_counts.back()) +
          " streams x " + std::to_string(plan.stream_round_repeats) + " repeats",
      [&] {
        return measure_series(
            as_doubles(plan.stream_counts), plan.warmup, plan.stream_round_repeats,
            [&](double n, double* s) {
              return bench.streamed_round(static_cast<int>(n), plan.stream_round_bytes, s);
            },
            &m->stream_rounds);
      }));
  OVERLAP_TRY(steps.optional(
      "host time per copy call: " + bursts + std::to_string(2 * plan.copy_call_streams) +
          " cudaMemcpyAsync calls (in and out on " + std::to_string(plan.copy_call_streams) +
          " streams), synchronized between bursts",
      [&] {
        return measure_samples(
            plan.warmup, plan.host_cost_samples,
            [&](double* s) {
              return bench.copy_calls(plan.copy_call_streams, plan.stream_round_bytes, s);
            },
            &m->copy_call_seconds);
      }));
  if (host_copies) {
    // Thread counts beyond the hardware threads would time the scheduler, not the memory.
    std::vector<double> threads;
    const int hardware = static_cast<int>(std::thread::hardware_concurrency());
    for (int t : plan.host_copy_threads)
      if (t == 1 || t <= hardware)
        threads.push_back(t);
    if (threads.empty())
      threads.push_back(1);
    OVERLAP_TRY(steps.optional(
        "host copies (staging): " + mebibytes(plan.host_copy_bytes) + " pageable to pinned on 1.." +
            std::to_string(static_cast<int>(threads.back())) + " threads" + repeats,
        [&] {
          HostCopyBench copies;
          OVERLAP_TRY(HostCopyBench::create(plan.host_copy_bytes, &copies));
          m->host_copy_bytes = static_cast<double>(plan.host_copy_bytes);
          return measure_series(
              threads, plan.warmup, plan.repeats,
              [&](double x, double* s) { return copies.copy(static_cast<int>(x), s); },
              &m->host_copy);
        }));
  }
  return Status::success();
}

} // namespace overlap::calibration
