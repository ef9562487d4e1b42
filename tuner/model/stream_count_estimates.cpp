#include "model/stream_count_estimates.h"

#include "model/paper000_model.h"
#include "model/paper001_model.h"
#include "model/paper002_model.h"

namespace overlap::model {

std::vector<StreamCountEstimate> stream_count_estimates(const HardwareProfile& profile,
                                                        const Workload& workload) {
  std::vector<StreamCountEstimate> estimates;

  const paper000::Call call000 = paper000::call_of(profile, workload);
  const bool implicit_sync = profile.implicit_synchronization;
  const char* eq000 = implicit_sync ? (call000.h2d_seconds > call000.kernel_seconds ? "(6)" : "(8)")
                      : call000.transfer_seconds() > call000.kernel_seconds ? "(2)/(4)"
                                                                            : "(4)";
  estimates.push_back({std::string("paper 000 eq. ") + eq000 + ": optimal nStreams",
                       paper000::optimal_streams(call000, implicit_sync)});

  paper001::StreamedCall call001;
  call001.host_to_device = profile.host_to_device;
  call001.device_to_host = profile.device_to_host;
  call001.h2d_bytes = workload.h2d_bytes + workload.broadcast_bytes;
  call001.d2h_bytes = workload.d2h_bytes;
  call001.kernel_seconds = workload.kernel_seconds;
  if (implicit_sync) {
    estimates.push_back({"paper 001 §VI: largest useful nStreams, dominant kernel",
                         paper001::max_streams_implicit_sync_dominant_kernel(call001)});
    estimates.push_back({"paper 001 §VI: largest useful nStreams, dominant transfers",
                         paper001::max_streams_implicit_sync_dominant_transfers(call001)});
  } else if (profile.copy_engines >= 2) {
    estimates.push_back({"paper 001 §VI: largest useful nStreams, 2 copy engines",
                         paper001::max_streams_two_engines(call001)});
  } else {
    estimates.push_back({"paper 001 §VI: smallest nStreams that still helps, 1 copy engine",
                         paper001::min_streams_one_engine(call001)});
  }

  const double send = call001.h2d_bytes * profile.host_to_device.seconds_per_byte;
  const double receive = call001.d2h_bytes * profile.device_to_host.seconds_per_byte;
  const paper002::Overheads overheads = paper002::overheads_of(profile);
  const auto paper002_estimate = [&](double f) -> StreamCountEstimate {
    if (paper002::is_data_bound(send, receive, workload.kernel_seconds, f))
      return {"paper 002 eq. 4.11: optimal subtasks, data bound",
              paper002::eq4_11_data_bound_optimal_subtasks(send, receive, f, overheads)};
    return {"paper 002 eq. 4.15: optimal subtasks, compute bound",
            paper002::eq4_15_compute_bound_optimal_subtasks(send, receive, overheads)};
  };
  // The f of the pieces depends on the subtask count the estimate picks. Where the small pieces'
  // f gives pieces of the large size, the estimate is taken again with their f. A data-bound
  // call stays data bound at the larger f, and (4.11)'s count falls, so its pieces stay large:
  // the count and its f agree. (A compute-bound call may turn data bound at the larger f; its
  // count is then (4.11)'s at that f, whatever size the pieces come out.)
  const double small_piece_f = paper002::bidirectional_factor(profile);
  const StreamCountEstimate small_pieces = paper002_estimate(small_piece_f);
  const double piece_f =
      small_pieces.streams > 0
          ? paper002::bidirectional_factor(
                profile, paper002::input_piece_bytes(workload, small_pieces.streams))
          : small_piece_f;
  estimates.push_back(piece_f == small_piece_f ? small_pieces : paper002_estimate(piece_f));
  return estimates;
}

} // namespace overlap::model
