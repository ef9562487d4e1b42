// Paper 000: Gómez-Luna, González-Linares, Benavides, Guil, "Performance models for asynchronous
// data transfers on consumer GPUs" (JPDC 2012), §3.2: the streamed time and the optimal number
// of streams on devices without implicit synchronization (compute capability 1.x, eqs. 1–4) and
// with it (2.x, eqs. 5–8). Both kinds have one DMA engine. Times in seconds; stream counts are
// real numbers so the equations can be studied between integers, as the paper's optima are.
#pragma once

#include "model/performance_model.h"

namespace overlap::model::paper000 {

// The quantities of §3.2, measured on the non-streamed run.
struct Call {
  double h2d_seconds = 0;             // t_Thd
  double d2h_seconds = 0;             // t_Tdh
  double kernel_seconds = 0;          // t_E
  double stream_creation_seconds = 0; // t_sc: t_oh = t_sc · nStreams
  double transfer_seconds() const { return h2d_seconds + d2h_seconds; } // t_T
};

double stream_overhead_seconds(const Call& call, double streams); // t_oh = t_sc · nStreams

// Without implicit synchronization (compute capability 1.x):
// (1) dominant transfers, t_T > t_E + t_T/nStreams:  t_streamed = t_T + t_oh.
double eq1_dominant_transfers(const Call& call, double streams);
// (2) its optimum, where (1) meets (3):  nStreams_op = t_T / (t_T − t_E).
double eq2_optimal_streams_dominant_transfers(const Call& call);
// (3) dominant kernel, t_T < t_E + t_T/nStreams:  t_streamed = t_E + t_T/nStreams + t_oh.
double eq3_dominant_kernel(const Call& call, double streams);
// (4) the stationary point of (3):  nStreams_op = sqrt(t_T / t_sc).
double eq4_optimal_streams_dominant_kernel(const Call& call);

// With implicit synchronization (compute capability 2.x), only the host-to-device transfer
// overlaps the kernels:
// (5) dominant transfers, t_Thd > t_E:  t_Thd + t_E/nStreams + t_Tdh + t_oh.
double eq5_implicit_sync_dominant_transfers(const Call& call, double streams);
// (6) nStreams_op = sqrt(t_E / t_sc).
double eq6_optimal_streams_implicit_sync_dominant_transfers(const Call& call);
// (7) dominant kernel, t_Thd < t_E:  t_Thd/nStreams + t_E + t_Tdh + t_oh.
double eq7_implicit_sync_dominant_kernel(const Call& call, double streams);
// (8) nStreams_op = sqrt(t_Thd / t_sc).
double eq8_optimal_streams_implicit_sync_dominant_kernel(const Call& call);

// The streamed time with each equation's condition applied.
double streamed_seconds(const Call& call, double streams, bool implicit_synchronization);

// The optimal stream count of the model (not rounded). With implicit synchronization: (6) when
// t_Thd > t_E, else (8). Without: (4) when the kernel dominates (t_T ≤ t_E); when transfers
// dominate the time falls along (3) until (2)'s crossing point and rises along (1) after it, so
// the optimum is (2), or (4) if (3)'s stationary point comes first.
double optimal_streams(const Call& call, bool implicit_synchronization);

// The model applied to the variants: Explicit = t_E + t_T (the non-streamed run), Streams =
// streamed_seconds with t_Thd, t_Tdh from the profile's single-transfer LogGP time and t_sc from
// the profile. The paper models neither mapped memory nor issue orders (its code issues
// breadth-first), so Mapped and Hybrid are not predicted.
class Model final : public PerformanceModel {
public:
  std::string name() const override;
  std::optional<double> predict_seconds(const HardwareProfile& profile, const Workload& workload,
                                        const Candidate& candidate) const override;
};

// The §3.2 quantities of a workload on a profile.
Call call_of(const HardwareProfile& profile, const Workload& workload);

} // namespace overlap::model::paper000
