#include "model/profile_completion.h"

namespace overlap::model {

namespace {

void complete_direction(const char* name, LinkDirection& link, bool two_copy_engines,
                        std::vector<std::string>& assumptions) {
  const std::string prefix = std::string(name) + ": ";
  // The busy link's large-piece G is never filled in: nothing else measures pieces of that size
  // against copies the other way. Every fill-in below takes the small pieces' G, which is still
  // the nearest measured (and, for the one-way G, the tighter of the two upper bounds).
  if (link.seconds_per_byte <= 0) {
    if (link.bidirectional_seconds_per_byte > 0) {
      link.seconds_per_byte = link.bidirectional_seconds_per_byte;
      assumptions.push_back(prefix +
                            "one-way G unknown; the bidirectional G is used (an upper bound)");
    } else {
      assumptions.push_back(prefix + "no G known; its transfers are predicted as free");
    }
  }
  if (link.bidirectional_seconds_per_byte <= 0 && two_copy_engines)
    assumptions.push_back(prefix + "bidirectional G unknown; copies in the other direction are "
                                   "assumed not to slow it down");
  if (link.with_mapped_seconds_per_byte <= 0) {
    const bool bidirectional_known = link.bidirectional_seconds_per_byte > 0;
    link.with_mapped_seconds_per_byte =
        bidirectional_known ? link.bidirectional_seconds_per_byte : link.seconds_per_byte;
    assumptions.push_back(prefix + "G against mapped traffic the other way (Hybrid) unknown; " +
                          (bidirectional_known ? "the bidirectional G is used" : "no slowdown"));
  }
  if (link.latency_s <= 0)
    assumptions.push_back(prefix + "L+o unknown; taken as 0");
  if (link.gap_s <= 0)
    assumptions.push_back(prefix + "g unknown; taken as 0");
}

} // namespace

CompletedProfile complete_profile(const HardwareProfile& profile) {
  CompletedProfile completed{profile, {}};
  HardwareProfile& p = completed.profile;
  std::vector<std::string>& assumptions = completed.assumptions;
  const bool two_copy_engines = p.copy_engines >= 2;
  complete_direction("host to device", p.host_to_device, two_copy_engines, assumptions);
  complete_direction("device to host", p.device_to_host, two_copy_engines, assumptions);
  // The both-ways cost is used as a ratio to the one-way mapped costs it was measured beside; a
  // copy G filled in for one of them below would make that ratio compare different traffic.
  if (p.mapped_both_ways_seconds_per_byte > 0 &&
      (p.mapped_read_seconds_per_byte <= 0 || p.mapped_write_seconds_per_byte <= 0)) {
    p.mapped_both_ways_seconds_per_byte = 0;
    assumptions.push_back("mapped traffic both ways: its cost is known but a one-way mapped G is "
                          "not, so it is not used; mapped traffic against mapped traffic is "
                          "slowed by the copies' bidirectional ratio");
  }
  if (p.mapped_read_seconds_per_byte <= 0) {
    p.mapped_read_seconds_per_byte = p.host_to_device.seconds_per_byte;
    assumptions.push_back("mapped reads: G unknown; the host-to-device copy G is used");
  }
  if (p.mapped_write_seconds_per_byte <= 0) {
    p.mapped_write_seconds_per_byte = p.device_to_host.seconds_per_byte;
    assumptions.push_back("mapped writes: G unknown; the device-to-host copy G is used");
  }
  if (p.kernel_launch_s <= 0)
    assumptions.push_back("kernel launch overhead unknown; taken as 0");
  if (p.stream_overhead_s <= 0)
    assumptions.push_back("per-stream overhead t_sc unknown; taken as 0");
  if (p.stream_sync_s <= 0)
    assumptions.push_back("stream synchronization overhead unknown; taken as 0 (paper 002 only)");
  if (p.multiprocessors <= 0)
    assumptions.push_back("multiprocessor count unknown; small chunks are not penalised");
  return completed;
}

} // namespace overlap::model
