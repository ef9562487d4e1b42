// The interface every performance model implements: the predicted time of one candidate
// (variant, stream count, issue order) of one call on one machine, before anything runs.
#pragma once

#include "model/Workload.h"
#include "overlap/HardwareProfile.h"
#include "overlap/KernelTypes.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace overlap::model {

// One way of running a call that the tuner can measure. Explicit and Mapped use no streams; their
// `streams` is 1 and their order is irrelevant (DepthFirst). Members are only ever appended, so
// that aggregate initialisers such as {variant, streams, order} keep their meaning.
struct Candidate {
  Variant variant = Variant::Explicit;
  int streams = 1;
  IssueOrder order = IssueOrder::DepthFirst;
  // What the call does with pageable arrays (Workload::Transfers::hostMemoryPinned false; ignored
  // for pinned ones). Default is priced as Register, the runtime's default without
  // OVERLAP_PIN_CACHE; CachedRegister as a loop's later calls, which find the arrays registered;
  // Stage (Streams and Hybrid; Mapped registers) through the staging ring sized by `staging`.
  PageableMode pageable = PageableMode::Default;
  StagingConfig staging = {}; // 0: the runtime's automatic choice (resolvedStaging)
  // Streams and Hybrid: the chunks the partition is cut into, chunk c on stream c % streams
  // (StreamsConfig::chunks); 0: one per stream (out of core: as many as the ring needs), so that
  // the candidates that always were keep their names and results.
  int chunks = 0;
  // GPUs the call is split across (StreamsConfig::devices, templates/overlap/detail/
  // MultiDevice.cuh); the modern model prices a split as its largest share on one device
  // (MultiDeviceEstimate.h), the papers' models not at all.
  int devices = 1;
  // Streams and Hybrid: the graph form (StreamsConfig::graph), a call of a loop replaying the
  // pipeline its shape's earlier call captured. Priced with the graph launch's cost per operation
  // for the host's issue (ModernModel.h, hostIssueCosts).
  bool graph = false;
};

bool operator==(const Candidate& a, const Candidate& b);
inline bool operator!=(const Candidate& a, const Candidate& b) {
  return !(a == b);
}

// The chunks the candidate asks for: its `chunks`, or one per stream when that is 0 (before
// ceil(P / G) or the ring limits them: chunkCount(Workload, Candidate) says what it gets). The
// measure of simplicity among candidates of one stream count: fewer chunks are simpler.
int askedChunks(const Candidate& candidate);

// True when `a` is simpler than `b`, the order in which ties between candidates are broken (by
// the pruning's ranking and by the tuner's choice among medians within the noise), so that
// repeated tunings keep the same code: fewer GPUs, no graph, Explicit < Mapped < Streams <
// Hybrid, fewer streams, fewer chunks, depth-first, then the pageable mode in its declaration
// order (registering per call keeps no state; the cache keeps it across calls; staging adds host
// threads) and fewer staging threads, slots and slot bytes.
bool simpler(const Candidate& a, const Candidate& b);

// The StreamsConfig the runtime runs the candidate with (its variant is RunConfig's): every
// candidate field, so that what is measured is what was predicted.
StreamsConfig streamsConfig(const Candidate& candidate);

// The candidate a call runs as: streamsConfig's inverse for what a candidate can say. Explicit
// and Mapped are candidates of one stream, as the tuner enumerates them (their stream count,
// order, chunks, ring and graph mean nothing); Explicit has no pageable mode (it copies through
// the driver's own staging).
Candidate candidateOf(Variant variant, const StreamsConfig& config);

// The names of variants, issue orders and pageable modes are the runtime's (KernelTypes.h).
using overlap::to_string;
// overlap::describe of the candidate's variant and StreamsConfig: "Streams(16, depth-first)",
// "Explicit", "Streams(16, depth-first, staged)", "Streams(4, 32 chunks, depth-first)", ...
std::string describe(const Candidate& candidate);

class PerformanceModel {
public:
  virtual ~PerformanceModel() = default;

  // Short name for tables, e.g. "paper 001 (van Werkhoven et al.)".
  virtual std::string name() const = 0;

  // Predicted wall time of the whole call in seconds, transfers included; nullopt when this model
  // does not describe the candidate (a paper that never modelled Mapped, for instance).
  virtual std::optional<double> predictSeconds(const HardwareProfile& profile,
                                               const Workload& workload,
                                               const Candidate& candidate) const = 0;

  // Whether the two issue orders can differ on this device with this many streams and one chunk
  // per stream: when they cannot, the candidate set holds only one of them. (With more chunks
  // than streams they always differ: CandidateSet.cpp.)
  virtual bool distinguishesIssueOrder(const HardwareProfile& profile, int streams) const {
    (void)profile;
    (void)streams;
    return false;
  }
};

enum class ModelKind {
  Modern,   // the default: pipeline simulation over the calibrated profile (ModernModel.h)
  Paper000, // Gómez-Luna et al. 2012, §3.2
  Paper001, // van Werkhoven et al. 2014, Fig. 7
  Paper002  // Reddy 2014, ch. 4
};

const char* to_string(ModelKind kind);
// Accepts "modern", "paper000", "paper001", "paper002" (also "000", "001", "002").
std::optional<ModelKind> parseModelKind(std::string_view text);

std::unique_ptr<PerformanceModel> makeModel(ModelKind kind);

} // namespace overlap::model
