#include "model/paper002_model.h"

#include <algorithm>
#include <cmath>

namespace overlap::model::paper002 {

double eq4_4_bidirectional_seconds(double send_seconds, double receive_seconds, double f) {
  return std::min(send_seconds, receive_seconds) * f + std::abs(send_seconds - receive_seconds);
}

double eq4_9_data_bound_seconds(double send_seconds, double receive_seconds, double f,
                                double subtasks, const Overheads& overheads) {
  const double n = subtasks;
  const double send_step = send_seconds / n;       // (4.8)
  const double receive_step = receive_seconds / n; // (4.8)
  const double both_step = eq4_4_bidirectional_seconds(send_step, receive_step, f);
  return send_step + (n - 1) * both_step + receive_step + (n + 2) * overheads.sync_s +
         n * overheads.kernel_launch_s + (n - 2) * overheads.bidirectional_s +
         2 * (overheads.send_s + overheads.receive_s);
}

double eq4_11_data_bound_optimal_subtasks(double send_seconds, double receive_seconds, double f,
                                          const Overheads& overheads) {
  const double gained = send_seconds + receive_seconds -
                        f * std::min(send_seconds, receive_seconds) -
                        std::abs(send_seconds - receive_seconds);
  return std::sqrt(gained /
                   (overheads.sync_s + overheads.bidirectional_s + overheads.kernel_launch_s));
}

double eq4_13_first_subtask_kernel_seconds(double kernel_seconds, double subtasks) {
  const double n = subtasks;
  return 4 * kernel_seconds / (n * (n + 2));
}

double eq4_14_compute_bound_seconds(double first_send_seconds, double kernel_seconds,
                                    double last_receive_seconds, double subtasks,
                                    const Overheads& overheads, double constant_seconds) {
  const double n = subtasks;
  return first_send_seconds + kernel_seconds + last_receive_seconds + (n + 2) * overheads.sync_s +
         n * (overheads.kernel_launch_s + overheads.bidirectional_s) + constant_seconds;
}

double eq4_15_compute_bound_optimal_subtasks(double send_seconds, double receive_seconds,
                                             const Overheads& overheads) {
  return std::sqrt(8 * (send_seconds + receive_seconds) /
                   (overheads.sync_s + overheads.bidirectional_s + overheads.kernel_launch_s));
}

bool is_data_bound(double send_seconds, double receive_seconds, double kernel_seconds, double f) {
  return eq4_4_bidirectional_seconds(send_seconds, receive_seconds, f) > kernel_seconds;
}

double bidirectional_factor(const HardwareProfile& profile) {
  return bidirectional_factor(profile, 0);
}

double bidirectional_factor(const HardwareProfile& profile, double piece_bytes) {
  const LinkDirection& link = profile.host_to_device;
  // A large-piece G is only measured beside the small-piece one; without that, no slowdown.
  if (link.seconds_per_byte <= 0 || link.bidirectional_seconds_per_byte <= 0)
    return 1;
  return link.bidirectional_seconds_per_byte_for(piece_bytes) / link.seconds_per_byte;
}

double input_piece_bytes(const Workload& workload, double subtasks) {
  return workload.h2d_bytes / subtasks / std::max(1, workload.h2d_copies_per_chunk);
}

Overheads overheads_of(const HardwareProfile& profile) {
  Overheads overheads;
  overheads.sync_s = profile.stream_sync_s;
  overheads.kernel_launch_s = profile.kernel_launch_s;
  overheads.send_s = profile.host_to_device.latency_s;
  overheads.receive_s = profile.device_to_host.latency_s;
  overheads.bidirectional_s = overheads.send_s + overheads.receive_s;
  return overheads;
}

std::string Model::name() const {
  return "paper 002 (Reddy, eqs. 4.4-4.15)";
}

std::optional<double> Model::predict_seconds(const HardwareProfile& profile,
                                             const Workload& workload,
                                             const Candidate& candidate) const {
  const double send =
      (workload.h2d_bytes + workload.broadcast_bytes) * profile.host_to_device.seconds_per_byte;
  const double receive = workload.d2h_bytes * profile.device_to_host.seconds_per_byte;
  const double kernel = workload.kernel_seconds;
  const Overheads overheads = overheads_of(profile);
  switch (candidate.variant) {
  case Variant::Explicit:
    return send + overheads.send_s + kernel + overheads.kernel_launch_s + receive +
           overheads.receive_s;
  case Variant::Streams: {
    const int n = chunk_count(workload, candidate.streams);
    // (4.4) takes one f for all simultaneous steps, each of which sends one chunk: the f of the
    // chunks' pieces.
    const double f = bidirectional_factor(profile, input_piece_bytes(workload, n));
    if (is_data_bound(send, receive, kernel, f))
      return eq4_9_data_bound_seconds(send, receive, f, n, overheads);
    return eq4_14_compute_bound_seconds(send / n, kernel, receive / n, n, overheads, 0);
  }
  case Variant::Mapped:
  case Variant::Hybrid:
    return std::nullopt;
  }
  return std::nullopt;
}

} // namespace overlap::model::paper002
