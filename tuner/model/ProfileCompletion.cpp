#include "model/ProfileCompletion.h"

namespace overlap::model {

namespace {

void completeDirection(const char* name, LinkDirection& link, bool twoCopyEngines,
                       std::vector<std::string>& assumptions) {
  const std::string prefix = std::string(name) + ": ";
  // The busy link's large-piece G is never filled in: nothing else measures pieces of that size
  // against copies the other way. Every fill-in below takes the small pieces' G, which is still
  // the nearest measured (and, for the one-way G, the tighter of the two upper bounds).
  if (link.secondsPerByte <= 0) {
    if (link.bidirectionalSecondsPerByte > 0) {
      link.secondsPerByte = link.bidirectionalSecondsPerByte;
      assumptions.push_back(prefix +
                            "one-way G unknown; the bidirectional G is used (an upper bound)");
    } else {
      assumptions.push_back(prefix + "no G known; its transfers are predicted as free");
    }
  }
  if (link.bidirectionalSecondsPerByte <= 0 && twoCopyEngines)
    assumptions.push_back(prefix + "bidirectional G unknown; copies in the other direction are "
                                   "assumed not to slow it down");
  if (link.withMappedSecondsPerByte <= 0) {
    const bool bidirectionalKnown = link.bidirectionalSecondsPerByte > 0;
    link.withMappedSecondsPerByte =
        bidirectionalKnown ? link.bidirectionalSecondsPerByte : link.secondsPerByte;
    assumptions.push_back(prefix + "G against mapped traffic the other way (Hybrid) unknown; " +
                          (bidirectionalKnown ? "the bidirectional G is used" : "no slowdown"));
  }
  if (link.latencyS <= 0)
    assumptions.push_back(prefix + "L+o unknown; taken as 0");
  if (link.gapS <= 0)
    assumptions.push_back(prefix + "g unknown; taken as 0");
}

} // namespace

CompletedProfile completeProfile(const HardwareProfile& profile) {
  CompletedProfile completed{profile, {}};
  HardwareProfile& p = completed.profile;
  std::vector<std::string>& assumptions = completed.assumptions;
  const bool twoCopyEngines = p.copyEngines >= 2;
  completeDirection("host to device", p.hostToDevice, twoCopyEngines, assumptions);
  completeDirection("device to host", p.deviceToHost, twoCopyEngines, assumptions);
  // The both-ways cost is used as a ratio to the one-way mapped costs it was measured beside; a
  // copy G filled in for one of them below would make that ratio compare different traffic.
  if (p.mappedBothWaysSecondsPerByte > 0 &&
      (p.mappedReadSecondsPerByte <= 0 || p.mappedWriteSecondsPerByte <= 0)) {
    p.mappedBothWaysSecondsPerByte = 0;
    assumptions.push_back("mapped traffic both ways: its cost is known but a one-way mapped G is "
                          "not, so it is not used; mapped traffic against mapped traffic is "
                          "slowed by the copies' bidirectional ratio");
  }
  if (p.mappedReadSecondsPerByte <= 0) {
    p.mappedReadSecondsPerByte = p.hostToDevice.secondsPerByte;
    assumptions.push_back("mapped reads: G unknown; the host-to-device copy G is used");
  }
  if (p.mappedWriteSecondsPerByte <= 0) {
    p.mappedWriteSecondsPerByte = p.deviceToHost.secondsPerByte;
    assumptions.push_back("mapped writes: G unknown; the device-to-host copy G is used");
  }
  if (p.kernelLaunchS <= 0)
    assumptions.push_back("kernel launch overhead unknown; taken as 0");
  if (p.streamOverheadS <= 0)
    assumptions.push_back("per-stream overhead t_sc unknown; taken as 0");
  if (p.streamSyncS <= 0)
    assumptions.push_back("stream synchronization overhead unknown; taken as 0 (paper 002 only)");
  if (p.multiprocessors <= 0)
    assumptions.push_back("multiprocessor count unknown; small chunks are not penalised");
  return completed;
}

} // namespace overlap::model
