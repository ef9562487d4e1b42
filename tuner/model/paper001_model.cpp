#include "model/paper001_model.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace overlap::model::paper001 {

double transfer_seconds(const LinkDirection& link, double bytes, double pieces) {
  return link.latency_s + bytes * link.seconds_per_byte + link.gap_s * (pieces - 1);
}

namespace {

// The terms Fig. 7 combines: a direction's transfer sent whole, cut into n back-to-back pieces
// (paying g per extra piece), or only one chunk's share of it (the non-hidden part).
struct Terms {
  double hd_whole_pieces; // L+o + Bhd·Ghd + g·(n−1)
  double hd_chunk;        // L+o + Bhd/n·Ghd
  double dh_whole_pieces; // L+o + Bdh·Gdh + g·(n−1)
  double dh_chunk;        // L+o + Bdh/n·Gdh
  double kernel;          // tE
  double kernel_chunk;    // tE/n
};

Terms terms(const StreamedCall& call, double streams) {
  const double n = streams;
  const LinkDirection& hd = call.host_to_device;
  const LinkDirection& dh = call.device_to_host;
  return Terms{transfer_seconds(hd, call.h2d_bytes, streams),
               hd.latency_s + call.h2d_bytes / n * hd.seconds_per_byte,
               transfer_seconds(dh, call.d2h_bytes, streams),
               dh.latency_s + call.d2h_bytes / n * dh.seconds_per_byte,
               call.kernel_seconds,
               call.kernel_seconds / n};
}

double positive_root(double a, double b, double c) {
  // a·n² + b·n + c = 0 with a ≥ 0 and c ≤ 0: the positive root, stable for small a.
  if (a == 0)
    return b > 0 ? -c / b : std::numeric_limits<double>::infinity();
  const double discriminant = b * b - 4 * a * c;
  return (-b + std::sqrt(discriminant)) / (2 * a);
}

} // namespace

double eq1_implicit_sync_dominant_kernel(const StreamedCall& call, double streams) {
  const Terms t = terms(call, streams);
  return t.hd_chunk + t.kernel + t.dh_whole_pieces;
}

double eq2_implicit_sync_dominant_transfers(const StreamedCall& call, double streams) {
  const Terms t = terms(call, streams);
  return t.hd_whole_pieces + t.kernel_chunk + t.dh_whole_pieces;
}

double eq3_one_engine_dominant_kernel(const StreamedCall& call, double streams) {
  const Terms t = terms(call, streams);
  return t.hd_chunk + t.kernel + t.dh_chunk;
}

double eq4_one_engine_dominant_transfers(const StreamedCall& call, double streams) {
  const Terms t = terms(call, streams);
  return std::max({t.hd_whole_pieces + t.dh_whole_pieces,
                   t.hd_whole_pieces + t.kernel_chunk + t.dh_chunk,
                   t.hd_chunk + t.kernel_chunk + t.dh_whole_pieces});
}

double eq5_two_engines(const StreamedCall& call, double streams) {
  const Terms t = terms(call, streams);
  return std::max({t.hd_whole_pieces + t.kernel_chunk + t.dh_chunk,
                   t.hd_chunk + t.kernel + t.dh_chunk,
                   t.hd_chunk + t.kernel_chunk + t.dh_whole_pieces});
}

double eq6_mapped(const StreamedCall& call) {
  const double hd_latency = call.host_to_device.latency_s;
  const double dh_latency = call.device_to_host.latency_s;
  return std::max(
      {hd_latency + call.h2d_bytes * call.host_to_device.seconds_per_byte + dh_latency,
       hd_latency + call.kernel_seconds + dh_latency,
       hd_latency + dh_latency + call.d2h_bytes * call.device_to_host.seconds_per_byte});
}

double max_streams_implicit_sync_dominant_kernel(const StreamedCall& call) {
  return std::sqrt(call.h2d_bytes * call.host_to_device.seconds_per_byte /
                   call.device_to_host.gap_s);
}

double max_streams_implicit_sync_dominant_transfers(const StreamedCall& call) {
  return std::sqrt(call.kernel_seconds / (call.host_to_device.gap_s + call.device_to_host.gap_s));
}

double min_streams_one_engine(const StreamedCall& call) {
  // The direction that is not the larger one is sent whole, as n pieces; the equation balances
  // it against what is left of the pipeline per stream. Multiplied by n it is the quadratic
  // g·n² + (X − g)·n − (tE + X) = 0 with X = B·G of that direction.
  const bool h2d_larger = call.h2d_bytes > call.d2h_bytes;
  const LinkDirection& link = h2d_larger ? call.device_to_host : call.host_to_device;
  const double x = (h2d_larger ? call.d2h_bytes : call.h2d_bytes) * link.seconds_per_byte;
  const double g = link.gap_s;
  return positive_root(g, x - g, -(call.kernel_seconds + x));
}

double max_streams_two_engines(const StreamedCall& call) {
  if (call.h2d_bytes > call.d2h_bytes)
    return std::sqrt((call.d2h_bytes * call.device_to_host.seconds_per_byte + call.kernel_seconds) /
                     call.host_to_device.gap_s);
  return std::sqrt((call.h2d_bytes * call.host_to_device.seconds_per_byte + call.kernel_seconds) /
                   call.device_to_host.gap_s);
}

double roofline_bound(const Roofline& roofline) {
  return std::min(roofline.peak_flops, roofline.memory_bandwidth * roofline.operational_intensity);
}

double full_overlap_bound(const Roofline& roofline) {
  return std::min(roofline_bound(roofline), roofline.pcie_bandwidth * roofline.data_intensity);
}

double zero_overlap_bound(const Roofline& roofline, double total_flops, double bytes_transferred) {
  return total_flops /
         (bytes_transferred / roofline.pcie_bandwidth + total_flops / roofline_bound(roofline));
}

double mapped_memory_bound(const Roofline& roofline) {
  return std::min(roofline.peak_flops, roofline.pcie_bandwidth * roofline.operational_intensity);
}

namespace {

double first_positive(double a, double b) {
  return a > 0 ? a : b;
}

StreamedCall call_of(const HardwareProfile& profile, const Workload& workload) {
  StreamedCall call;
  call.host_to_device = profile.host_to_device;
  call.device_to_host = profile.device_to_host;
  call.h2d_bytes = workload.h2d_bytes + workload.broadcast_bytes;
  call.d2h_bytes = workload.d2h_bytes;
  call.kernel_seconds = workload.kernel_seconds;
  return call;
}

} // namespace

std::string Model::name() const {
  return "paper 001 (van Werkhoven et al., Fig. 7)";
}

std::optional<double> Model::predict_seconds(const HardwareProfile& profile,
                                             const Workload& workload,
                                             const Candidate& candidate) const {
  StreamedCall call = call_of(profile, workload);
  switch (candidate.variant) {
  case Variant::Explicit:
    return eq3_one_engine_dominant_kernel(call, 1);
  case Variant::Mapped:
    call.h2d_bytes = workload.h2d_bytes * workload.mapped_read_factor +
                     workload.broadcast_bytes * workload.mapped_broadcast_read_factor;
    call.host_to_device.seconds_per_byte =
        first_positive(profile.mapped_read_seconds_per_byte, call.host_to_device.seconds_per_byte);
    call.device_to_host.seconds_per_byte =
        first_positive(profile.mapped_write_seconds_per_byte, call.device_to_host.seconds_per_byte);
    return eq6_mapped(call);
  case Variant::Streams: {
    const int n = chunk_count(workload, candidate.streams);
    if (profile.implicit_synchronization)
      return std::max(eq1_implicit_sync_dominant_kernel(call, n),
                      eq2_implicit_sync_dominant_transfers(call, n));
    if (profile.copy_engines >= 2)
      return eq5_two_engines(call, n);
    return std::max(eq3_one_engine_dominant_kernel(call, n),
                    eq4_one_engine_dominant_transfers(call, n));
  }
  case Variant::Hybrid: {
    const int n = chunk_count(workload, candidate.streams);
    // Table II's "explicit-mapped" G's where the profile has them, else the nearest measured.
    // The bidirectional G stands in for copies against mapped traffic, for which no piece-size
    // dependence was measured: the small pieces' G, whatever the chunk size (as the simulator).
    const LinkDirection& hd = profile.host_to_device;
    const LinkDirection& dh = profile.device_to_host;
    call.host_to_device.seconds_per_byte =
        first_positive(hd.with_mapped_seconds_per_byte,
                       first_positive(hd.bidirectional_seconds_per_byte, hd.seconds_per_byte));
    call.device_to_host.seconds_per_byte = first_positive(
        dh.with_mapped_seconds_per_byte,
        first_positive(dh.bidirectional_seconds_per_byte,
                       first_positive(profile.mapped_write_seconds_per_byte, dh.seconds_per_byte)));
    return eq5_two_engines(call, n);
  }
  }
  return std::nullopt;
}

} // namespace overlap::model::paper001
