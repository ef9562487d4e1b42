// The default model, for today's GPUs (built for the H100 on PCIe Gen5: 3 copy engines, no
// implicit synchronization, a link whose directions slow each other down when used at once) and
// valid on the older device categories too. It writes down the copies and kernels each variant
// issues, exactly as the generated code issues them, and plays them on the simulated device of
// PipelineSimulator.h built from the calibrated profile:
// - per-chunk copies timed by LogGP (L+o after an idle engine, g back to back, k·G), with the
//   bidirectional G wherever the two directions overlap;
// - per-chunk kernels of t_E/n, slowed down when a chunk has too few
//   thread blocks to fill the GPU (paper 000 §2 and the anomaly of §4.1): a chunk never runs
//   faster than a chunk of one full wave would; such chunks hold only part of the GPU and run
//   side by side where the device has concurrent kernels (compute capability 2.0+), so the fill
//   penalty costs pipeline latency there, and throughput only on older devices. A grid-stride
//   launch (or any grid that does not grow with the chunk) has no penalty: its chunks' grids
//   are as large as the whole kernel's, each block doing less work; workloadFromDescriptor
//   leaves the geometry unknown for them;
// - pipeline fill and drain come out of the schedule itself; broadcast inputs are copied first
//   and every kernel waits for them; halo elements shared by neighbouring chunks are sent once,
//   as the runtime does (detail/Pipeline.cuh), or once per chunk that needs them (twice per
//   boundary, the issue's assumption) when the options say so;
// - C chunks on N streams (Candidate::chunks; one per stream unless it says otherwise), chunk c on
//   stream c % N: per-chunk kernel time, GPU share, copies and host issue calls by C, the streams'
//   synchronization by N. Out of core (Workload::DeviceMemory: the full-size buffers exceed the
//   budget) Explicit cannot run (no prediction), and Streams and Hybrid run the runtime's ring of
//   one slot per stream: every chunk copies its whole halo, breadth-first issue goes in waves of
//   N chunks, and a candidate whose ring does not fit has no prediction either;
// - Mapped: one kernel whose reads and writes cross the link while it computes, each input byte
//   once unless the workload says it is read several times; Hybrid: Streams for the inputs,
//   outputs written through mapped memory by the kernels (paper 001 §VII);
// - the device category (copy engines, implicit synchronization, Hyper-Q) from the profile, so
//   both issue orders are predicted where they differ (paper 003);
// - host issue time: the host issues the chunks' copies and launches one call after another
//   (hostIssueCosts), and an operation cannot start before its call has returned. Paper 000
//   §3.2 adds t_sc·nStreams to the pipeline instead; on the H100 and H200 that over-predicted
//   every pipeline of 16+ short chunks (Streams +7 … +66 %, Hybrid up to +103 %), because the
//   issue time overlaps with the device's work unless the host is the slower of the two. After
//   its last call the host synchronizes every stream in turn (detail/Pipeline.cuh), each call
//   returning once its stream is done: in a host-bound pipeline of short chunks these calls
//   follow one another, about 2 us per stream on the H100 and H200.
// - pageable user memory (Candidate::pageable): Explicit copies at the pageable G; the other
//   variants first register every array, which costs about one pageable copy of its bytes
//   (HostArrayPinning.h), except in a loop's later calls with the registration cache, which
//   find them registered; staged (Streams and Hybrid), each copy is cut into slot-sized pieces
//   around host copies into and out of the ring's slots (stagedOperations), played by the
//   simulator's host copy threads, and only Hybrid's mapped outputs are registered.
// Not modelled: wave quantization within a chunk, blocks of concurrent chunks slowing each other
// down on a shared multiprocessor, the calls that record and wait for events (host time only,
// and the host is far ahead of the device in the pipelines that issue them), the device's
// latency in releasing a copy that waits for another stream's event (a halo chain's copies in,
// detail/Pipeline.cuh: 6-8 us each on the H100, docs/model.md), the cost of unregistering.
#pragma once

#include "model/PerformanceModel.h"
#include "model/PipelineSimulator.h"

#include <vector>

namespace overlap::model {

struct ModernModelOptions {
  // Whether the Streams and Hybrid variants send the halo of every chunk (each boundary's halo
  // bytes twice, as issue 4 assumes) or each input element once, sharing halos between chunks
  // through events (what the runtime does); when false halos cost no extra bytes.
  bool haloSentTwice = false;
  // Hardware queues per engine that streams are spread over (CUDA_DEVICE_MAX_CONNECTIONS, 8 by
  // default).
  int hardwareQueues = 8;
};

class ModernModel final : public PerformanceModel {
public:
  explicit ModernModel(ModernModelOptions options = {}) : options_(options) {}

  std::string name() const override;
  std::optional<double> predictSeconds(const HardwareProfile& profile, const Workload& workload,
                                       const Candidate& candidate) const override;
  bool distinguishesIssueOrder(const HardwareProfile& profile, int streams) const override;

  // The operations the candidate issues, in issue order (exposed for tests and for explaining a
  // prediction).
  std::vector<SimOp> operations(const HardwareProfile& profile, const Workload& workload,
                                const Candidate& candidate) const;

private:
  ModernModelOptions options_;
};

// Kernel time of one of `chunks` equal chunks: t_E/chunks, but never less than a chunk holding
// one full wave of thread blocks (multiprocessors × resident blocks per SM) would take, when the
// launch geometry is known.
double chunkKernelSeconds(const HardwareProfile& profile, const Workload& workload, int chunks);

// The fraction of the GPU's resident block slots one of `chunks` equal chunks' kernels holds
// (SimOp::gpuShare): chunk blocks over a wave, at most 1; 1 when the geometry is unknown. Chunks
// below a wave run side by side on devices with concurrent kernels, so together they still use
// the whole GPU; the penalty of chunkKernelSeconds then lengthens each chunk, not the sum.
double chunkGpuShare(const HardwareProfile& profile, const Workload& workload, int chunks);

// What the host spends on each call that issues a pipeline's work: a kernel launch (the
// calibrated launch overhead, timed in short bursts of launches) and a cudaMemcpyAsync (the
// calibrated copy_call_s; in profiles without it, t_sc of the streamed round less its launch, over
// its two copies); and, after the pipeline, on synchronizing each of its streams.
struct HostIssueCosts {
  double launchS = 0;
  double copyS = 0;
  // Each copy beyond the first of those issued together on one stream (runtime/CopyBatch.h: a
  // chunk's sections of several arrays), where the profile knows it; 0: each costs copyS.
  double batchedCopyS = 0;
  // The host's time to issue `copies` copies together on one stream: batches of up to 16
  // (CopyBatch's capacity), each a call and its further copies.
  double copiesSeconds(int copies) const;
  // Per stream, after the last call: the calibration's streamed round issues a copy in, an empty
  // kernel and a copy out on each stream and then synchronizes every stream, as a pipeline does
  // (detail/Pipeline.cuh); what its slope per stream (t_sc) costs beyond the two copy calls and
  // the launch is the per-stream synchronization. 0 where copy_call_s is not measured: copyS
  // then holds the whole of t_sc already.
  double streamSyncCallS = 0;
};
HostIssueCosts hostIssueCosts(const HardwareProfile& profile);
// A graph form's (Candidate::graph) operations cost the graph launch's per node instead, where
// the profile knows it (pricedAsGraph); else the plain form's.
HostIssueCosts hostIssueCosts(const HardwareProfile& profile, const Candidate& candidate);
bool pricedAsGraph(const HardwareProfile& profile, const Candidate& candidate);

// The time to page-lock pageable user arrays for one call: about one pageable copy of every
// array's bytes (inputs and pure outputs); 0 when the arrays are pinned already.
double registrationSeconds(const HardwareProfile& profile, const Workload& workload);
// The same for one candidate: nothing for Explicit or a cached registration, only Hybrid's pure
// outputs when staged.
double registrationSeconds(const HardwareProfile& profile, const Workload& workload,
                           const Candidate& candidate);

// The model's host for the runtime's automatic staging ring: the runtime takes up to 16 threads
// from the host's hardware threads (resolvedStaging), which the GPU servers have plenty of.
constexpr int kModelHardwareThreads = 64;

// The staging ring a staged candidate runs with: its own, with the runtime's automatic choices
// for what it leaves 0, over the bytes its copies move.
StagingConfig modelStaging(const Workload& workload, const Candidate& candidate);

// Seconds per byte of the host's copies on `threads` of a ring's threads at once: the profile's
// rate per thread count (host_copy.by_threads), interpolated in rate between the counts measured
// and the widest's beyond it; `fallback` (the lower of `threads` times one thread's rate and the
// parallel rate, as the simulator takes it) when the profile has none.
double hostCopyRingSecondsPerByte(const HardwareProfile& profile, int threads, double fallback);

// The ring threads the model gives a staged candidate that leaves them to it: of the thread counts
// the profile measured (host_copy.by_threads), the one `model` predicts fastest, the fewest on a
// tie. 0 (the runtime's rule, resolvedStaging) where the profile measured none, or for a
// candidate that is not staged or asks for its own.
int modelStagingThreads(const PerformanceModel& model, const HardwareProfile& profile,
                        const Workload& workload, const Candidate& candidate);

// A pipeline's operations (pinned copies) with every copy staged through `ring`: cut into pieces
// of at most a slot (at least one per transfer it stood for), a host copy filling each input
// piece's slot before its copy and draining each output piece's slot after it; piece k uses
// slot k % slots and waits for the slot's previous piece (its copy to the device, or its drain).
// Each piece costs the host `pieceIssueS` to issue, instead of the copy's calls. Operations
// that waited for a copy wait for its last piece.
std::vector<SimOp> stagedOperations(const std::vector<SimOp>& ops, const StagingConfig& ring,
                                    double pieceIssueS);

} // namespace overlap::model
