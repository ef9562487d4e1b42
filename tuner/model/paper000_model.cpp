#include "model/paper000_model.h"

#include "model/paper001_model.h"

#include <algorithm>
#include <cmath>

namespace overlap::model::paper000 {

double stream_overhead_seconds(const Call& call, double streams) {
  return call.stream_creation_seconds * streams;
}

double eq1_dominant_transfers(const Call& call, double streams) {
  return call.transfer_seconds() + stream_overhead_seconds(call, streams);
}

double eq2_optimal_streams_dominant_transfers(const Call& call) {
  return call.transfer_seconds() / (call.transfer_seconds() - call.kernel_seconds);
}

double eq3_dominant_kernel(const Call& call, double streams) {
  return call.kernel_seconds + call.transfer_seconds() / streams +
         stream_overhead_seconds(call, streams);
}

double eq4_optimal_streams_dominant_kernel(const Call& call) {
  return std::sqrt(call.transfer_seconds() / call.stream_creation_seconds);
}

double eq5_implicit_sync_dominant_transfers(const Call& call, double streams) {
  return call.h2d_seconds + call.kernel_seconds / streams + call.d2h_seconds +
         stream_overhead_seconds(call, streams);
}

double eq6_optimal_streams_implicit_sync_dominant_transfers(const Call& call) {
  return std::sqrt(call.kernel_seconds / call.stream_creation_seconds);
}

double eq7_implicit_sync_dominant_kernel(const Call& call, double streams) {
  return call.h2d_seconds / streams + call.kernel_seconds + call.d2h_seconds +
         stream_overhead_seconds(call, streams);
}

double eq8_optimal_streams_implicit_sync_dominant_kernel(const Call& call) {
  return std::sqrt(call.h2d_seconds / call.stream_creation_seconds);
}

double streamed_seconds(const Call& call, double streams, bool implicit_synchronization) {
  if (implicit_synchronization)
    return call.h2d_seconds > call.kernel_seconds
               ? eq5_implicit_sync_dominant_transfers(call, streams)
               : eq7_implicit_sync_dominant_kernel(call, streams);
  const bool transfers_dominate =
      call.transfer_seconds() > call.kernel_seconds + call.transfer_seconds() / streams;
  return transfers_dominate ? eq1_dominant_transfers(call, streams)
                            : eq3_dominant_kernel(call, streams);
}

double optimal_streams(const Call& call, bool implicit_synchronization) {
  if (implicit_synchronization)
    return call.h2d_seconds > call.kernel_seconds
               ? eq6_optimal_streams_implicit_sync_dominant_transfers(call)
               : eq8_optimal_streams_implicit_sync_dominant_kernel(call);
  if (call.transfer_seconds() <= call.kernel_seconds)
    return eq4_optimal_streams_dominant_kernel(call);
  return std::min(eq2_optimal_streams_dominant_transfers(call),
                  eq4_optimal_streams_dominant_kernel(call));
}

Call call_of(const HardwareProfile& profile, const Workload& workload) {
  Call call;
  call.h2d_seconds = paper001::transfer_seconds(profile.host_to_device,
                                                workload.h2d_bytes + workload.broadcast_bytes, 1);
  call.d2h_seconds = paper001::transfer_seconds(profile.device_to_host, workload.d2h_bytes, 1);
  call.kernel_seconds = workload.kernel_seconds;
  call.stream_creation_seconds = profile.stream_overhead_s;
  return call;
}

std::string Model::name() const {
  return "paper 000 (Gomez-Luna et al., eqs. 1-8)";
}

std::optional<double> Model::predict_seconds(const HardwareProfile& profile,
                                             const Workload& workload,
                                             const Candidate& candidate) const {
  const Call call = call_of(profile, workload);
  switch (candidate.variant) {
  case Variant::Explicit:
    return call.kernel_seconds + call.transfer_seconds();
  case Variant::Streams:
    return streamed_seconds(call, chunk_count(workload, candidate.streams),
                            profile.implicit_synchronization);
  case Variant::Mapped:
  case Variant::Hybrid:
    return std::nullopt;
  }
  return std::nullopt;
}

} // namespace overlap::model::paper000
