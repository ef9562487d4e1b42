// The size benchmark's measurements on the GPU (scripts/bench.sh sizes, bench/README.md): for one
// kernel at each call size, Explicit, Mapped and a grid of Streams and Hybrid configurations run
// directly, K_tuned (overlap::dispatch with the sweep's results registered as overlap-bake would
// bake them), and the size-blind choice of a one-size tuning; every call's outputs checked against
// Explicit's, every time the median of repeats. Then K_tuned, the size-blind choice and the three
// fastest of that screening are timed again in seven interleaved rounds, and every ratio comes
// from those rounds. Also which argument values give a call of a given traffic, for choosing the
// sizes.
#pragma once

#include "overlap/Descriptor.h"

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace overlap::bench {

// Bytes a call moves over the link as Explicit moves them: every array read counted once in,
// every array written once out (in-out and reduction arrays both ways).
double trafficBytes(const KernelDescriptor& kernel, const std::map<std::string, long long>& args);

// The value of `parameter` (>= 1) whose call moves the traffic nearest `bytes` on a log scale,
// the other arguments as given; traffic must grow with the value.
long long valueForTraffic(const KernelDescriptor& kernel, std::map<std::string, long long> args,
                          const std::string& parameter, double bytes);

struct MeasureOptions {
  std::string kernel;
  std::string parameter;
  std::map<std::string, long long> arguments; // the others
  std::vector<long long> values;
  std::string results;    // the sweep's results file, registered for K_tuned
  std::string oldResults; // the one-size tuning's: the size-blind choice
  std::uint64_t seed = 1;
};

// The text of one JSON document: {kernel, parameter, arguments, device, rows: [{value, extent,
// traffic_bytes, explicit, candidates (the screening), final_round (each {name, s, rounds_s}),
// and of the final round best,
// tuned (with source, reason and its screening_s) and old}]}, each time {name, s} in seconds.
// Progress lines go to `log`. False with `error` set when the measurement cannot start.
bool measureSizes(const MeasureOptions& options, std::ostream& log, std::string* jsonText,
                  std::string* error);

} // namespace overlap::bench
