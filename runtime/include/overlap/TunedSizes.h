// A kernel's tuned winners across sizes (a sweep, docs/tuner.md) and the rule that picks one for
// a call of any size. Pure: the dispatch (Dispatch.h) gives it the call's partition extent and,
// when a model is linked, a predictor of the call; the tests give it fakes.
#pragma once

#include "overlap/Descriptor.h"

#include <optional>
#include <string>
#include <vector>

namespace overlap {

// The winner at one size of one kernel on one device, as overlap-bake writes it from the results
// file.
struct TunedSize {
  long long extent; // the partition extent P it was tuned at
  Variant variant;
  int streams; // 1 for Explicit and Mapped
  IssueOrder order;
  double measuredSeconds;  // the winner's median there
  double predictedSeconds; // the model's prediction of the winner there; 0: none
  double kernelSeconds;    // t_E the tuning used there (inferred from Explicit)
  // What the winner does with pageable arrays (a tuning on pageable memory measures the modes).
  PageableMode pageable = PageableMode::Default;
  // Streams and Hybrid: the chunks the winner cut the call into (StreamsConfig::chunks); 0: one
  // per stream. Last, as every member added, so that older initialisers keep their meaning.
  int chunks = 0;
  // GPUs the winner split the call across (StreamsConfig::devices).
  int devices = 1;
  // Streams and Hybrid: the winner is the graph form (StreamsConfig::graph).
  bool graph = false;
  // Streams and Hybrid staged: the host threads of the winner's staging ring
  // (StagingConfig::threads); 0: automatic.
  int stagingThreads = 0;
};

// The model's predicted time of each configuration for the call being dispatched, with kernel
// time `kernel_seconds`; nullopt where it cannot say.
class SizePredictor {
public:
  virtual ~SizePredictor() = default;
  virtual std::vector<std::optional<double>> predict(const std::vector<RunConfig>& configs,
                                                     double kernelSeconds) = 0;
};

struct SizeChoice {
  RunConfig config;
  std::string reason; // for logs: which tuned sizes decided and how
};

// Stream counts the model is asked about beyond the tuned sizes: powers of two up to this.
inline constexpr int kMaxModelStreams = 64;
// Beyond the tuned sizes, predictions this close to the fastest count as ties (fewer streams win).
inline constexpr double kModelTie = 0.03;

// `sizes`: `count` >= 1 entries, extents ascending and distinct. For a call of partition extent
// `extent` (`granules` = ceil(P / G) of it):
//  - at a tuned size, its winner;
//  - between two tuned sizes with the same winner, that winner;
//  - between two whose winners are one variant and issue order at two stream counts (with as
//    many chunks per stream and the same staging threads), the fewest streams the model predicts
//    within kModelTie of the fastest among the two counts and the powers of two between them (t_E
//    interpolated linearly in P);
//  - between two whose winners differ, the one the model predicts faster at the call's size, each
//    prediction scaled by its winner's measured/predicted ratio at its own size (t_E interpolated
//    linearly in P between the two); without a model or a prediction, the nearer on a log scale
//    (the smaller at equal distance);
//  - beyond the tuned sizes, the nearest size's variant and issue order, with the fewest streams
//    the model predicts within kModelTie of the fastest for the call (the nearest winner's count
//    and the powers of two above it -- below the smallest size: under it -- up to
//    kMaxModelStreams and granules; t_E scaled with P); without a model, the nearest size's
//    winner as it is.
// A winner with chunks of its own keeps its chunks per stream, and one with staging threads of its
// own those threads, at every other stream count the rule tries. `model` may be null. The stream
// count may still exceed `granules`: the caller clamps it (the chunks the runtime clamps).
SizeChoice chooseBySize(const TunedSize* sizes, int count, long long extent, long long granules,
                        SizePredictor* model);

} // namespace overlap
