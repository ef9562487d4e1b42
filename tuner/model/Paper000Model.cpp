#include "model/Paper000Model.h"

#include "model/Paper001Model.h"

#include <algorithm>
#include <cmath>

namespace overlap::model::paper000 {

double streamOverheadSeconds(const Call& call, double streams) {
  return call.streamCreationSeconds * streams;
}

double eq1DominantTransfers(const Call& call, double streams) {
  return call.transferSeconds() + streamOverheadSeconds(call, streams);
}

double eq2OptimalStreamsDominantTransfers(const Call& call) {
  return call.transferSeconds() / (call.transferSeconds() - call.kernelSeconds);
}

double eq3DominantKernel(const Call& call, double streams) {
  return call.kernelSeconds + call.transferSeconds() / streams +
         streamOverheadSeconds(call, streams);
}

double eq4OptimalStreamsDominantKernel(const Call& call) {
  return std::sqrt(call.transferSeconds() / call.streamCreationSeconds);
}

double eq5ImplicitSyncDominantTransfers(const Call& call, double streams) {
  return call.h2dSeconds + call.kernelSeconds / streams + call.d2hSeconds +
         streamOverheadSeconds(call, streams);
}

double eq6OptimalStreamsImplicitSyncDominantTransfers(const Call& call) {
  return std::sqrt(call.kernelSeconds / call.streamCreationSeconds);
}

double eq7ImplicitSyncDominantKernel(const Call& call, double streams) {
  return call.h2dSeconds / streams + call.kernelSeconds + call.d2hSeconds +
         streamOverheadSeconds(call, streams);
}

double eq8OptimalStreamsImplicitSyncDominantKernel(const Call& call) {
  return std::sqrt(call.h2dSeconds / call.streamCreationSeconds);
}

double streamedSeconds(const Call& call, double streams, bool implicitSynchronization) {
  if (implicitSynchronization)
    return call.h2dSeconds > call.kernelSeconds ? eq5ImplicitSyncDominantTransfers(call, streams)
                                                : eq7ImplicitSyncDominantKernel(call, streams);
  const bool transfersDominate =
      call.transferSeconds() > call.kernelSeconds + call.transferSeconds() / streams;
  return transfersDominate ? eq1DominantTransfers(call, streams) : eq3DominantKernel(call, streams);
}

double optimalStreams(const Call& call, bool implicitSynchronization) {
  if (implicitSynchronization)
    return call.h2dSeconds > call.kernelSeconds
               ? eq6OptimalStreamsImplicitSyncDominantTransfers(call)
               : eq8OptimalStreamsImplicitSyncDominantKernel(call);
  if (call.transferSeconds() <= call.kernelSeconds)
    return eq4OptimalStreamsDominantKernel(call);
  return std::min(eq2OptimalStreamsDominantTransfers(call), eq4OptimalStreamsDominantKernel(call));
}

Call callOf(const HardwareProfile& profile, const Workload& workload) {
  Call call;
  call.h2dSeconds = paper001::transferSeconds(
      profile.hostToDevice, workload.transfers.h2dBytes + workload.transfers.broadcastBytes, 1);
  call.d2hSeconds = paper001::transferSeconds(profile.deviceToHost, workload.transfers.d2hBytes, 1);
  call.kernelSeconds = workload.launch.kernelSeconds;
  call.streamCreationSeconds = profile.streamOverheadS;
  return call;
}

std::string Model::name() const {
  return "paper 000 (Gomez-Luna et al., eqs. 1-8)";
}

std::optional<double> Model::predictSeconds(const HardwareProfile& profile,
                                            const Workload& workload,
                                            const Candidate& candidate) const {
  // The paper knows one chunk per stream on full-size buffers only.
  if (!oneChunkPerStreamInCore(workload, candidate))
    return std::nullopt;
  const Call call = callOf(profile, workload);
  switch (candidate.variant) {
  case Variant::Explicit:
    return call.kernelSeconds + call.transferSeconds();
  case Variant::Streams:
    return streamedSeconds(call, chunkCount(workload, candidate.streams),
                           profile.implicitSynchronization);
  case Variant::Mapped:
  case Variant::Hybrid:
    return std::nullopt;
  }
  return std::nullopt;
}

} // namespace overlap::model::paper000
