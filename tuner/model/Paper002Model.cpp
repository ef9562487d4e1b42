#include "model/Paper002Model.h"

#include <algorithm>
#include <cmath>

namespace overlap::model::paper002 {

double eq44BidirectionalSeconds(double sendSeconds, double receiveSeconds, double f) {
  return std::min(sendSeconds, receiveSeconds) * f + std::abs(sendSeconds - receiveSeconds);
}

double eq49DataBoundSeconds(double sendSeconds, double receiveSeconds, double f, double subtasks,
                            const Overheads& overheads) {
  const double n = subtasks;
  const double sendStep = sendSeconds / n;       // (4.8)
  const double receiveStep = receiveSeconds / n; // (4.8)
  const double bothStep = eq44BidirectionalSeconds(sendStep, receiveStep, f);
  return sendStep + (n - 1) * bothStep + receiveStep + (n + 2) * overheads.syncS +
         n * overheads.kernelLaunchS + (n - 2) * overheads.bidirectionalS +
         2 * (overheads.sendS + overheads.receiveS);
}

double eq411DataBoundOptimalSubtasks(double sendSeconds, double receiveSeconds, double f,
                                     const Overheads& overheads) {
  const double gained = sendSeconds + receiveSeconds - f * std::min(sendSeconds, receiveSeconds) -
                        std::abs(sendSeconds - receiveSeconds);
  return std::sqrt(gained / (overheads.syncS + overheads.bidirectionalS + overheads.kernelLaunchS));
}

double eq413FirstSubtaskKernelSeconds(double kernelSeconds, double subtasks) {
  const double n = subtasks;
  return 4 * kernelSeconds / (n * (n + 2));
}

double eq414ComputeBoundSeconds(double firstSendSeconds, double kernelSeconds,
                                double lastReceiveSeconds, double subtasks,
                                const Overheads& overheads, double constantSeconds) {
  const double n = subtasks;
  return firstSendSeconds + kernelSeconds + lastReceiveSeconds + (n + 2) * overheads.syncS +
         n * (overheads.kernelLaunchS + overheads.bidirectionalS) + constantSeconds;
}

double eq415ComputeBoundOptimalSubtasks(double sendSeconds, double receiveSeconds,
                                        const Overheads& overheads) {
  return std::sqrt(8 * (sendSeconds + receiveSeconds) /
                   (overheads.syncS + overheads.bidirectionalS + overheads.kernelLaunchS));
}

bool isDataBound(double sendSeconds, double receiveSeconds, double kernelSeconds, double f) {
  return eq44BidirectionalSeconds(sendSeconds, receiveSeconds, f) > kernelSeconds;
}

double bidirectionalFactor(const HardwareProfile& profile) {
  return bidirectionalFactor(profile, 0);
}

double bidirectionalFactor(const HardwareProfile& profile, double pieceBytes) {
  const LinkDirection& link = profile.hostToDevice;
  // A large-piece G is only measured beside the small-piece one; without that, no slowdown.
  if (link.secondsPerByte <= 0 || link.bidirectionalSecondsPerByte <= 0)
    return 1;
  return link.bidirectionalSecondsPerByteFor(pieceBytes) / link.secondsPerByte;
}

double inputPieceBytes(const Workload& workload, double subtasks) {
  return workload.transfers.h2dBytes / subtasks / std::max(1, workload.transfers.h2dCopiesPerChunk);
}

Overheads overheadsOf(const HardwareProfile& profile) {
  Overheads overheads;
  overheads.syncS = profile.streamSyncS;
  overheads.kernelLaunchS = profile.kernelLaunchS;
  overheads.sendS = profile.hostToDevice.latencyS;
  overheads.receiveS = profile.deviceToHost.latencyS;
  overheads.bidirectionalS = overheads.sendS + overheads.receiveS;
  return overheads;
}

std::string Model::name() const {
  return "paper 002 (Reddy, eqs. 4.4-4.15)";
}

std::optional<double> Model::predictSeconds(const HardwareProfile& profile,
                                            const Workload& workload,
                                            const Candidate& candidate) const {
  // The paper knows one chunk per stream on full-size buffers only.
  if (!oneChunkPerStreamInCore(workload, candidate))
    return std::nullopt;
  const double send = (workload.transfers.h2dBytes + workload.transfers.broadcastBytes) *
                      profile.hostToDevice.secondsPerByte;
  const double receive = workload.transfers.d2hBytes * profile.deviceToHost.secondsPerByte;
  const double kernel = workload.launch.kernelSeconds;
  const Overheads overheads = overheadsOf(profile);
  switch (candidate.variant) {
  case Variant::Explicit:
    return send + overheads.sendS + kernel + overheads.kernelLaunchS + receive + overheads.receiveS;
  case Variant::Streams: {
    const int n = chunkCount(workload, candidate.streams);
    // (4.4) takes one f for all simultaneous steps, each of which sends one chunk: the f of the
    // chunks' pieces.
    const double f = bidirectionalFactor(profile, inputPieceBytes(workload, n));
    if (isDataBound(send, receive, kernel, f))
      return eq49DataBoundSeconds(send, receive, f, n, overheads);
    return eq414ComputeBoundSeconds(send / n, kernel, receive / n, n, overheads, 0);
  }
  case Variant::Mapped:
  case Variant::Hybrid:
    return std::nullopt;
  }
  return std::nullopt;
}

} // namespace overlap::model::paper002
