// Paper 000: Gómez-Luna, González-Linares, Benavides, Guil, "Performance models for asynchronous
// data transfers on consumer GPUs" (JPDC 2012), §3.2: the streamed time and the optimal number
// of streams on devices without implicit synchronization (compute capability 1.x, eqs. 1–4) and
// with it (2.x, eqs. 5–8). Both kinds have one DMA engine. Times in seconds; stream counts are
// real numbers so the equations can be studied between integers, as the paper's optima are.
#pragma once

#include "model/PerformanceModel.h"

namespace overlap::model::paper000 {

// The quantities of §3.2, measured on the non-streamed run.
struct Call {
  double h2dSeconds = 0;                                             // t_Thd
  double d2hSeconds = 0;                                             // t_Tdh
  double kernelSeconds = 0;                                          // t_E
  double streamCreationSeconds = 0;                                  // t_sc: t_oh = t_sc · nStreams
  double transferSeconds() const { return h2dSeconds + d2hSeconds; } // t_T
};

double streamOverheadSeconds(const Call& call, double streams); // t_oh = t_sc · nStreams

// Without implicit synchronization (compute capability 1.x):
// (1) dominant transfers, t_T > t_E + t_T/nStreams:  t_streamed = t_T + t_oh.
double eq1DominantTransfers(const Call& call, double streams);
// (2) its optimum, where (1) meets (3):  nStreams_op = t_T / (t_T − t_E).
double eq2OptimalStreamsDominantTransfers(const Call& call);
// (3) dominant kernel, t_T < t_E + t_T/nStreams:  t_streamed = t_E + t_T/nStreams + t_oh.
double eq3DominantKernel(const Call& call, double streams);
// (4) the stationary point of (3):  nStreams_op = sqrt(t_T / t_sc).
double eq4OptimalStreamsDominantKernel(const Call& call);

// With implicit synchronization (compute capability 2.x), only the host-to-device transfer
// overlaps the kernels:
// (5) dominant transfers, t_Thd > t_E:  t_Thd + t_E/nStreams + t_Tdh + t_oh.
double eq5ImplicitSyncDominantTransfers(const Call& call, double streams);
// (6) nStreams_op = sqrt(t_E / t_sc).
double eq6OptimalStreamsImplicitSyncDominantTransfers(const Call& call);
// (7) dominant kernel, t_Thd < t_E:  t_Thd/nStreams + t_E + t_Tdh + t_oh.
double eq7ImplicitSyncDominantKernel(const Call& call, double streams);
// (8) nStreams_op = sqrt(t_Thd / t_sc).
double eq8OptimalStreamsImplicitSyncDominantKernel(const Call& call);

// The streamed time with each equation's condition applied.
double streamedSeconds(const Call& call, double streams, bool implicitSynchronization);

// The optimal stream count of the model (not rounded). With implicit synchronization: (6) when
// t_Thd > t_E, else (8). Without: (4) when the kernel dominates (t_T ≤ t_E); when transfers
// dominate the time falls along (3) until (2)'s crossing point and rises along (1) after it, so
// the optimum is (2), or (4) if (3)'s stationary point comes first.
double optimalStreams(const Call& call, bool implicitSynchronization);

// The model applied to the variants: Explicit = t_E + t_T (the non-streamed run), Streams =
// streamedSeconds with t_Thd, t_Tdh from the profile's single-transfer LogGP time and t_sc from
// the profile. The paper models neither mapped memory nor issue orders (its code issues
// breadth-first), so Mapped and Hybrid are not predicted.
class Model final : public PerformanceModel {
public:
  std::string name() const override;
  std::optional<double> predictSeconds(const HardwareProfile& profile, const Workload& workload,
                                       const Candidate& candidate) const override;
};

// The §3.2 quantities of a workload on a profile.
Call callOf(const HardwareProfile& profile, const Workload& workload);

} // namespace overlap::model::paper000
