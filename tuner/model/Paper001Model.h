// Paper 001: van Werkhoven, Maassen, Seinstra, Bal, "Performance models for CPU-GPU data
// transfers" (CCGrid 2014). The LogGP model of PCIe transfers (§V), the streamed and mapped
// models of Fig. 7 for the three device categories of §IV, the stream-count estimates of §VI and
// the roofline bounds of §III. All times in seconds, sizes in bytes, rates per second. Stream
// counts are real numbers so the equations can be studied between integers (§VI's estimates).
#pragma once

#include "model/PerformanceModel.h"

namespace overlap::model::paper001 {

// §V: a message of `bytes` cut into `pieces` transfers issued back to back over as many streams:
// L+o + k·G + g·(nStreams − 1).
double transferSeconds(const LinkDirection& link, double bytes, double pieces);

// The inputs of Fig. 7: bytes per direction (Bhd, Bdh), the kernel time t_E of all streams
// together, and the LogGP parameters of both directions.
struct StreamedCall {
  LinkDirection hostToDevice;
  LinkDirection deviceToHost;
  double h2dBytes = 0;      // Bhd
  double d2hBytes = 0;      // Bdh
  double kernelSeconds = 0; // tE
};

// Fig. 7 (1): implicit synchronization, 1 copy engine, dominant kernel. The paper's single g
// belongs to the device-to-host transfer, which is sent as nStreams pieces after the kernels.
double eq1ImplicitSyncDominantKernel(const StreamedCall& call, double streams);
// Fig. 7 (2): implicit synchronization, 1 copy engine, dominant transfers.
double eq2ImplicitSyncDominantTransfers(const StreamedCall& call, double streams);
// Fig. 7 (3): no implicit synchronization, 1 copy engine, dominant kernel.
double eq3OneEngineDominantKernel(const StreamedCall& call, double streams);
// Fig. 7 (4): no implicit synchronization, 1 copy engine, dominant transfers (max of three).
double eq4OneEngineDominantTransfers(const StreamedCall& call, double streams);
// Fig. 7 (5): no implicit synchronization, 2 copy engines (both scenarios in one max).
double eq5TwoEngines(const StreamedCall& call, double streams);
// Fig. 7 (6): device-mapped host memory: the longest of the three overlapped components plus
// the latencies of the other two.
double eq6Mapped(const StreamedCall& call);

// §VI, implicit synchronization: the stream count beyond which an extra stream costs more than
// it gains, from the first derivative of (1): sqrt(Bhd·Ghd / g) (dominant kernel) ...
double maxStreamsImplicitSyncDominantKernel(const StreamedCall& call);
// ... and of (2): sqrt(tE / 2g) (dominant transfers). Both directions pay a gap per piece, so the
// 2g of the paper is written g_hd + g_dh here; they agree when the gaps are equal.
double maxStreamsImplicitSyncDominantTransfers(const StreamedCall& call);
// §VI, no implicit synchronization and 1 copy engine: the smallest stream count that still
// improves performance under (4), the positive root of
//   Bhd > Bdh:  Bdh·Gdh + g·(n − 1) = tE/n + Bdh/n·Gdh
//   otherwise:  Bhd·Ghd + g·(n − 1) = Bhd/n·Ghd + tE/n
double minStreamsOneEngine(const StreamedCall& call);
// §VI, no implicit synchronization and 2 copy engines, dominant transfers, from the derivative
// of (5): sqrt((Bdh·Gdh + tE) / g) if Bhd > Bdh, else sqrt((Bhd·Ghd + tE) / g).
double maxStreamsTwoEngines(const StreamedCall& call);

// §III-A: roofline bounds on the attainable performance (flop/s) of a kernel including its
// host-device transfers.
struct Roofline {
  double peakFlops = 0;            // flop/s
  double memoryBandwidth = 0;      // device memory, bytes/s
  double pcieBandwidth = 0;        // bytes/s
  double operationalIntensity = 0; // flops per byte of device-memory traffic
  double dataIntensity = 0;        // flops per byte transferred between host and device
};
// RM: the roofline bound min(peak, memory bandwidth × operational intensity).
double rooflineBound(const Roofline& roofline);
// full overlap = min(peak, memory bandwidth × OI, PCIe bandwidth × data intensity).
double fullOverlapBound(const Roofline& roofline);
// zero overlap = total flops / (bytes transferred / PCIe bandwidth + total flops / RM).
double zeroOverlapBound(const Roofline& roofline, double totalFlops, double bytesTransferred);
// mapped memory = min(peak, PCIe bandwidth × operational intensity).
double mappedMemoryBound(const Roofline& roofline);

// The model as §VII applies it to the four implementations:
//   Explicit = no overlap (any streamed equation at nStreams = 1);
//   Mapped   = (6), with the profile's mapped-memory G when calibrated;
//   Streams  = the device category's equations; where the paper gives a dominant-kernel and a
//              dominant-transfers estimate, each is a lower bound of the schedule in the other
//              scenario, so the larger one applies. Implicit synchronization with 2 copy engines
//              (not a category of the paper) uses the implicit-synchronization equations;
//   Hybrid   = (5) with the G's of Table II's "explicit-mapped" rows (copies one way, mapped
//              traffic the other), or the bidirectional G's where the profile lacks them.
// Broadcast inputs count as ordinary input bytes; the paper has no separate notion of them.
class Model final : public PerformanceModel {
public:
  std::string name() const override;
  std::optional<double> predictSeconds(const HardwareProfile& profile, const Workload& workload,
                                       const Candidate& candidate) const override;
};

} // namespace overlap::model::paper001
