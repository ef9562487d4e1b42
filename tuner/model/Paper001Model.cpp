#include "model/Paper001Model.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace overlap::model::paper001 {

double transferSeconds(const LinkDirection& link, double bytes, double pieces) {
  return link.latencyS + bytes * link.secondsPerByte + link.gapS * (pieces - 1);
}

namespace {

// The terms Fig. 7 combines: a direction's transfer sent whole, cut into n back-to-back pieces
// (paying g per extra piece), or only one chunk's share of it (the non-hidden part).
struct Terms {
  double hdWholePieces; // L+o + Bhd·Ghd + g·(n−1)
  double hdChunk;       // L+o + Bhd/n·Ghd
  double dhWholePieces; // L+o + Bdh·Gdh + g·(n−1)
  double dhChunk;       // L+o + Bdh/n·Gdh
  double kernel;        // tE
  double kernelChunk;   // tE/n
};

Terms terms(const StreamedCall& call, double streams) {
  const double n = streams;
  const LinkDirection& hd = call.hostToDevice;
  const LinkDirection& dh = call.deviceToHost;
  return Terms{transferSeconds(hd, call.h2dBytes, streams),
               hd.latencyS + call.h2dBytes / n * hd.secondsPerByte,
               transferSeconds(dh, call.d2hBytes, streams),
               dh.latencyS + call.d2hBytes / n * dh.secondsPerByte,
               call.kernelSeconds,
               call.kernelSeconds / n};
}

double positiveRoot(double a, double b, double c) {
  // a·n² + b·n + c = 0 with a ≥ 0 and c ≤ 0: the positive root, stable for small a.
  if (a == 0)
    return b > 0 ? -c / b : std::numeric_limits<double>::infinity();
  const double discriminant = b * b - 4 * a * c;
  return (-b + std::sqrt(discriminant)) / (2 * a);
}

} // namespace

double eq1ImplicitSyncDominantKernel(const StreamedCall& call, double streams) {
  const Terms t = terms(call, streams);
  return t.hdChunk + t.kernel + t.dhWholePieces;
}

double eq2ImplicitSyncDominantTransfers(const StreamedCall& call, double streams) {
  const Terms t = terms(call, streams);
  return t.hdWholePieces + t.kernelChunk + t.dhWholePieces;
}

double eq3OneEngineDominantKernel(const StreamedCall& call, double streams) {
  const Terms t = terms(call, streams);
  return t.hdChunk + t.kernel + t.dhChunk;
}

double eq4OneEngineDominantTransfers(const StreamedCall& call, double streams) {
  const Terms t = terms(call, streams);
  return std::max({t.hdWholePieces + t.dhWholePieces, t.hdWholePieces + t.kernelChunk + t.dhChunk,
                   t.hdChunk + t.kernelChunk + t.dhWholePieces});
}

double eq5TwoEngines(const StreamedCall& call, double streams) {
  const Terms t = terms(call, streams);
  return std::max({t.hdWholePieces + t.kernelChunk + t.dhChunk, t.hdChunk + t.kernel + t.dhChunk,
                   t.hdChunk + t.kernelChunk + t.dhWholePieces});
}

double eq6Mapped(const StreamedCall& call) {
  const double hdLatency = call.hostToDevice.latencyS;
  const double dhLatency = call.deviceToHost.latencyS;
  return std::max({hdLatency + call.h2dBytes * call.hostToDevice.secondsPerByte + dhLatency,
                   hdLatency + call.kernelSeconds + dhLatency,
                   hdLatency + dhLatency + call.d2hBytes * call.deviceToHost.secondsPerByte});
}

double maxStreamsImplicitSyncDominantKernel(const StreamedCall& call) {
  return std::sqrt(call.h2dBytes * call.hostToDevice.secondsPerByte / call.deviceToHost.gapS);
}

double maxStreamsImplicitSyncDominantTransfers(const StreamedCall& call) {
  return std::sqrt(call.kernelSeconds / (call.hostToDevice.gapS + call.deviceToHost.gapS));
}

double minStreamsOneEngine(const StreamedCall& call) {
  // The direction that is not the larger one is sent whole, as n pieces; the equation balances
  // it against what is left of the pipeline per stream. Multiplied by n it is the quadratic
  // g·n² + (X − g)·n − (tE + X) = 0 with X = B·G of that direction.
  const bool h2dLarger = call.h2dBytes > call.d2hBytes;
  const LinkDirection& link = h2dLarger ? call.deviceToHost : call.hostToDevice;
  const double x = (h2dLarger ? call.d2hBytes : call.h2dBytes) * link.secondsPerByte;
  const double g = link.gapS;
  return positiveRoot(g, x - g, -(call.kernelSeconds + x));
}

double maxStreamsTwoEngines(const StreamedCall& call) {
  if (call.h2dBytes > call.d2hBytes)
    return std::sqrt((call.d2hBytes * call.deviceToHost.secondsPerByte + call.kernelSeconds) /
                     call.hostToDevice.gapS);
  return std::sqrt((call.h2dBytes * call.hostToDevice.secondsPerByte + call.kernelSeconds) /
                   call.deviceToHost.gapS);
}

double rooflineBound(const Roofline& roofline) {
  return std::min(roofline.peakFlops, roofline.memoryBandwidth * roofline.operationalIntensity);
}

double fullOverlapBound(const Roofline& roofline) {
  return std::min(rooflineBound(roofline), roofline.pcieBandwidth * roofline.dataIntensity);
}

double zeroOverlapBound(const Roofline& roofline, double totalFlops, double bytesTransferred) {
  return totalFlops /
         (bytesTransferred / roofline.pcieBandwidth + totalFlops / rooflineBound(roofline));
}

double mappedMemoryBound(const Roofline& roofline) {
  return std::min(roofline.peakFlops, roofline.pcieBandwidth * roofline.operationalIntensity);
}

namespace {

double firstPositive(double a, double b) {
  return a > 0 ? a : b;
}

StreamedCall callOf(const HardwareProfile& profile, const Workload& workload) {
  StreamedCall call;
  call.hostToDevice = profile.hostToDevice;
  call.deviceToHost = profile.deviceToHost;
  call.h2dBytes = workload.transfers.h2dBytes + workload.transfers.broadcastBytes;
  call.d2hBytes = workload.transfers.d2hBytes;
  call.kernelSeconds = workload.launch.kernelSeconds;
  return call;
}

} // namespace

std::string Model::name() const {
  return "paper 001 (van Werkhoven et al., Fig. 7)";
}

std::optional<double> Model::predictSeconds(const HardwareProfile& profile,
                                            const Workload& workload,
                                            const Candidate& candidate) const {
  // The paper knows one chunk per stream on full-size buffers only.
  if (!oneChunkPerStreamInCore(workload, candidate))
    return std::nullopt;
  StreamedCall call = callOf(profile, workload);
  switch (candidate.variant) {
  case Variant::Explicit:
    return eq3OneEngineDominantKernel(call, 1);
  case Variant::Mapped:
    call.h2dBytes = workload.transfers.h2dBytes * workload.mapped.readFactor +
                    workload.transfers.broadcastBytes * workload.mapped.broadcastReadFactor;
    call.hostToDevice.secondsPerByte =
        firstPositive(profile.mappedReadSecondsPerByte, call.hostToDevice.secondsPerByte);
    call.deviceToHost.secondsPerByte =
        firstPositive(profile.mappedWriteSecondsPerByte, call.deviceToHost.secondsPerByte);
    return eq6Mapped(call);
  case Variant::Streams: {
    const int n = chunkCount(workload, candidate.streams);
    if (profile.implicitSynchronization)
      return std::max(eq1ImplicitSyncDominantKernel(call, n),
                      eq2ImplicitSyncDominantTransfers(call, n));
    if (profile.copyEngines >= 2)
      return eq5TwoEngines(call, n);
    return std::max(eq3OneEngineDominantKernel(call, n), eq4OneEngineDominantTransfers(call, n));
  }
  case Variant::Hybrid: {
    const int n = chunkCount(workload, candidate.streams);
    // Table II's "explicit-mapped" G's where the profile has them, else the nearest measured.
    // The bidirectional G stands in for copies against mapped traffic, for which no piece-size
    // dependence was measured: the small pieces' G, whatever the chunk size (as the simulator).
    const LinkDirection& hd = profile.hostToDevice;
    const LinkDirection& dh = profile.deviceToHost;
    call.hostToDevice.secondsPerByte =
        firstPositive(hd.withMappedSecondsPerByte,
                      firstPositive(hd.bidirectionalSecondsPerByte, hd.secondsPerByte));
    call.deviceToHost.secondsPerByte = firstPositive(
        dh.withMappedSecondsPerByte,
        firstPositive(dh.bidirectionalSecondsPerByte,
                      firstPositive(profile.mappedWriteSecondsPerByte, dh.secondsPerByte)));
    return eq5TwoEngines(call, n);
  }
  }
  return std::nullopt;
}

} // namespace overlap::model::paper001
