#include "model/modern_model.h"

#include "model/mapped_width_cost.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace overlap::model {

double registration_seconds(const HardwareProfile& profile, const Workload& workload) {
  if (workload.host_memory_pinned)
    return 0;
  const LinkDirection& link = profile.host_to_device;
  const double seconds_per_byte =
      link.pageable_seconds_per_byte > 0 ? link.pageable_seconds_per_byte : link.seconds_per_byte;
  const double pure_outputs = workload.d2h_bytes - workload.inout_d2h_bytes;
  // Reduction arrays are registered too (except by Mapped, which copies them synchronously; they
  // are small enough for that not to matter).
  return (workload.h2d_bytes + workload.broadcast_bytes + pure_outputs + workload.reduction_bytes) *
         seconds_per_byte;
}

double registration_seconds(const HardwareProfile& profile, const Workload& workload,
                            const Candidate& candidate) {
  if (workload.host_memory_pinned || candidate.variant == Variant::Explicit)
    return 0;
  const bool pipelined =
      candidate.variant == Variant::Streams || candidate.variant == Variant::Hybrid;
  const PageableMode mode = candidate.pageable == PageableMode::Stage && !pipelined
                                ? PageableMode::Default
                                : candidate.pageable;
  if (mode == PageableMode::CachedRegister)
    return 0; // registered by an earlier call of the loop
  if (mode != PageableMode::Stage)
    return registration_seconds(profile, workload);
  if (candidate.variant != Variant::Hybrid)
    return 0;
  // Staged, but for Hybrid's pure outputs, which its kernels write through mapped memory.
  Workload outputs = workload;
  outputs.h2d_bytes = outputs.broadcast_bytes = outputs.reduction_bytes = 0;
  return registration_seconds(profile, outputs);
}

StagingConfig model_staging(const Workload& workload, const Candidate& candidate) {
  // The bytes the ring moves: every copy of the pipeline, as pipelined_h2d_bytes counts them.
  const int chunks = chunk_count(workload, candidate.streams);
  const double copied_out =
      candidate.variant == Variant::Hybrid ? workload.inout_d2h_bytes : workload.d2h_bytes;
  const double staged = pipelined_h2d_bytes(workload, chunks, false) + workload.broadcast_bytes +
                        copied_out + 2 * workload.reduction_bytes;
  return resolved_staging(candidate.staging, static_cast<long long>(staged), kModelHardwareThreads);
}

std::vector<SimOp> staged_operations(const std::vector<SimOp>& ops, const StagingConfig& ring,
                                     double piece_issue_s) {
  std::vector<SimOp> out;
  std::vector<int> new_index(ops.size(), -1);
  std::vector<int> release; // per piece: the operation whose end frees its slot
  const auto remapped = [&](const std::vector<int>& waits) {
    std::vector<int> mapped;
    for (int wait : waits)
      mapped.push_back(new_index[static_cast<std::size_t>(wait)]);
    return mapped;
  };
  double shift = 0;           // host issue time the pieces added so far
  double previous_issued = 0; // issued_at of the operation before, as given
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const SimOp& op = ops[i];
    const double call_seconds = op.issued_at - previous_issued;
    previous_issued = op.issued_at;
    const bool copy = op.kind == OpKind::CopyToDevice || op.kind == OpKind::CopyToHost;
    if (!copy || op.bytes <= 0) {
      SimOp kept = op;
      kept.waits_for = remapped(op.waits_for);
      kept.issued_at = op.issued_at + shift;
      new_index[i] = static_cast<int>(out.size());
      out.push_back(kept);
      continue;
    }
    const double slot = static_cast<double>(std::max<std::size_t>(1, ring.slot_bytes));
    const int pieces =
        std::max(std::max(1, op.copies), static_cast<int>(std::ceil(op.bytes / slot)));
    double issued_at = op.issued_at - call_seconds + shift;
    shift += pieces * piece_issue_s - call_seconds;
    for (int p = 0; p < pieces; ++p) {
      const std::size_t k = release.size();
      const int previous = k >= static_cast<std::size_t>(ring.slots)
                               ? release[k - static_cast<std::size_t>(ring.slots)]
                               : -1;
      issued_at += piece_issue_s;
      SimOp piece = op;
      piece.bytes = op.bytes / pieces;
      piece.copies = 1;
      piece.pageable = false; // from and to pinned slots
      piece.issued_at = issued_at;
      piece.waits_for = p == 0 ? remapped(op.waits_for) : std::vector<int>{};
      SimOp host;
      host.kind = OpKind::HostCopy;
      host.bytes = piece.bytes;
      if (op.kind == OpKind::CopyToDevice) {
        if (previous >= 0)
          host.waits_for.push_back(previous);
        piece.waits_for.push_back(static_cast<int>(out.size()));
        out.push_back(host);
        release.push_back(static_cast<int>(out.size()));
        out.push_back(piece);
      } else {
        if (previous >= 0)
          piece.waits_for.push_back(previous);
        out.push_back(piece);
        host.waits_for.push_back(static_cast<int>(out.size()) - 1);
        release.push_back(static_cast<int>(out.size()));
        out.push_back(host);
      }
    }
    // What waited for the copy waits for its last piece to cross the link.
    new_index[i] = op.kind == OpKind::CopyToDevice ? static_cast<int>(out.size()) - 1
                                                   : static_cast<int>(out.size()) - 2;
  }
  return out;
}

double chunk_kernel_seconds(const HardwareProfile& profile, const Workload& workload, int chunks) {
  const double even_share = workload.kernel_seconds / chunks;
  if (workload.total_blocks <= 0 || profile.multiprocessors <= 0)
    return even_share;
  // A kernel's time scales with its blocks only down to one full wave: below that the idle
  // multiprocessors buy nothing, so a chunk of few blocks takes as long as a full wave.
  const double wave_blocks =
      static_cast<double>(profile.multiprocessors) * std::max(1, workload.resident_blocks_per_sm);
  const double total_blocks = static_cast<double>(workload.total_blocks);
  const double chunk_blocks = total_blocks / chunks;
  return workload.kernel_seconds * std::max(chunk_blocks, wave_blocks) /
         std::max(total_blocks, wave_blocks);
}

double chunk_gpu_share(const HardwareProfile& profile, const Workload& workload, int chunks) {
  if (workload.total_blocks <= 0 || profile.multiprocessors <= 0 || chunks < 1)
    return 1;
  const double wave_blocks =
      static_cast<double>(profile.multiprocessors) * std::max(1, workload.resident_blocks_per_sm);
  return std::min(1.0, static_cast<double>(workload.total_blocks) / chunks / wave_blocks);
}

HostIssueCosts host_issue_costs(const HardwareProfile& profile) {
  HostIssueCosts costs;
  costs.launch_s = profile.kernel_launch_s;
  if (profile.copy_call_s > 0) {
    costs.copy_s = profile.copy_call_s;
    costs.stream_sync_call_s =
        std::max(0.0, profile.stream_overhead_s - 2 * costs.copy_s - costs.launch_s);
    return costs;
  }
  // Profiles from before copy_call_s was measured: the calibration's streamed round issues a
  // copy in, an empty kernel and a copy out per stream, and its slope per stream (t_sc) bounds
  // what the host spends issuing them. It also synchronizes every stream, so this overcharges
  // (H100: 4.7 us per call from a t_sc of 12.6 us, where pipelines show about 3).
  costs.copy_s = std::max(0.0, (profile.stream_overhead_s - profile.kernel_launch_s) / 2);
  return costs;
}

namespace {

SimOp copy(OpKind kind, int stream, double bytes, int copies) {
  SimOp op;
  op.kind = kind;
  op.stream = stream;
  op.bytes = bytes;
  op.copies = copies;
  return op;
}

SimOp kernel(int stream, double compute_seconds) {
  SimOp op;
  op.kind = OpKind::Kernel;
  op.stream = stream;
  op.compute_seconds = compute_seconds;
  return op;
}

std::vector<SimOp> explicit_operations(const HardwareProfile& profile, const Workload& workload) {
  std::vector<SimOp> ops;
  const double input = workload.h2d_bytes + workload.broadcast_bytes + workload.reduction_bytes;
  if (input > 0) {
    ops.push_back(copy(OpKind::CopyToDevice, 0, input, workload.explicit_h2d_copies));
    ops.back().pageable = !workload.host_memory_pinned;
  }
  ops.push_back(kernel(0, workload.kernel_seconds + profile.kernel_launch_s));
  const double output = workload.d2h_bytes + workload.reduction_bytes;
  if (output > 0) {
    ops.push_back(copy(OpKind::CopyToHost, 0, output, workload.explicit_d2h_copies));
    ops.back().pageable = !workload.host_memory_pinned;
  }
  return ops;
}

// The copies of the reduction arrays, one each way, on stream 0: before the kernels (which wait
// for it) and after them.
SimOp reduction_copy(OpKind kind, const Workload& workload) {
  SimOp op = copy(kind, 0, workload.reduction_bytes, 1);
  op.pageable = !workload.host_memory_pinned;
  return op;
}

std::vector<SimOp> mapped_operations(const HardwareProfile& profile, const Workload& workload) {
  std::vector<SimOp> ops;
  if (workload.reduction_bytes > 0)
    ops.push_back(reduction_copy(OpKind::CopyToDevice, workload));
  SimOp op = kernel(0, workload.kernel_seconds + profile.kernel_launch_s);
  op.mapped_read_bytes = workload.h2d_bytes * workload.mapped_read_factor +
                         workload.broadcast_bytes * workload.mapped_broadcast_read_factor;
  op.mapped_write_bytes = workload.d2h_bytes;
  op.mapped_read_seconds_per_byte = mapped_seconds_per_byte(profile, workload, MappedAccess::Read);
  op.mapped_write_seconds_per_byte =
      mapped_seconds_per_byte(profile, workload, MappedAccess::Write, MappedOutputs::All);
  ops.push_back(op);
  if (workload.reduction_bytes > 0)
    ops.push_back(reduction_copy(OpKind::CopyToHost, workload));
  return ops;
}

// Streams, or Hybrid when `map_outputs`: chunk c on stream c, its input copied, its kernel run
// after that and after the broadcast copy, its outputs copied back (or, in Hybrid, written by
// the kernel through mapped memory, except in-out arrays, which are copied as in Streams).
std::vector<SimOp> pipelined_operations(const HardwareProfile& profile, const Workload& workload,
                                        const Candidate& candidate, bool map_outputs,
                                        bool halo_sent_twice) {
  const int chunks = chunk_count(workload, candidate.streams);
  const double input = pipelined_h2d_bytes(workload, chunks, halo_sent_twice) / chunks;
  const double copied_output =
      (map_outputs ? workload.inout_d2h_bytes : workload.d2h_bytes) / chunks;
  const double mapped_output =
      map_outputs ? (workload.d2h_bytes - workload.inout_d2h_bytes) / chunks : 0;
  // The launch is the host's time (host_issue_costs), not the kernel's.
  const double kernel_time = chunk_kernel_seconds(profile, workload, chunks);
  const HostIssueCosts host_costs = host_issue_costs(profile);
  const double kernel_share = chunk_gpu_share(profile, workload, chunks);
  const double mapped_output_seconds_per_byte =
      map_outputs
          ? mapped_seconds_per_byte(profile, workload, MappedAccess::Write, MappedOutputs::PureOnly)
          : 0.0;

  std::vector<SimOp> ops;
  double host_seconds = 0;
  auto issued = [&](double call_seconds) {
    host_seconds += call_seconds;
    ops.back().issued_at = host_seconds;
  };
  std::vector<int> before_kernels;
  // Reduction arrays go with the broadcast copies (their copies are among explicit_h2d_copies).
  const double broadcast = workload.broadcast_bytes + workload.reduction_bytes;
  if (broadcast > 0) {
    const int broadcast_copies =
        std::max(1, workload.explicit_h2d_copies - workload.h2d_copies_per_chunk);
    ops.push_back(copy(OpKind::CopyToDevice, 0, broadcast, broadcast_copies));
    issued(host_costs.copy_s * broadcast_copies);
    before_kernels.push_back(0);
  }
  std::vector<int> kernels;
  auto copy_in = [&](int c) {
    if (input > 0) {
      ops.push_back(copy(OpKind::CopyToDevice, c, input, workload.h2d_copies_per_chunk));
      issued(host_costs.copy_s * workload.h2d_copies_per_chunk);
    }
  };
  auto run = [&](int c) {
    SimOp op = kernel(c, kernel_time);
    op.gpu_share = kernel_share;
    op.mapped_write_bytes = mapped_output;
    op.mapped_write_seconds_per_byte = mapped_output_seconds_per_byte;
    op.waits_for = before_kernels;
    kernels.push_back(static_cast<int>(ops.size()));
    ops.push_back(op);
    issued(host_costs.launch_s);
  };
  auto copy_out = [&](int c) {
    if (copied_output > 0) {
      ops.push_back(copy(OpKind::CopyToHost, c, copied_output, workload.d2h_copies_per_chunk));
      issued(host_costs.copy_s * workload.d2h_copies_per_chunk);
    }
  };
  if (candidate.order == IssueOrder::DepthFirst) {
    for (int c = 0; c < chunks; ++c) {
      copy_in(c);
      run(c);
      copy_out(c);
    }
  } else {
    for (int c = 0; c < chunks; ++c)
      copy_in(c);
    for (int c = 0; c < chunks; ++c)
      run(c);
    for (int c = 0; c < chunks; ++c)
      copy_out(c);
  }
  if (workload.reduction_bytes > 0) {
    // Issued once every stream is done; its synchronization is charged like a stream's.
    ops.push_back(reduction_copy(OpKind::CopyToHost, workload));
    ops.back().waits_for = kernels;
    issued(host_costs.copy_s);
  }
  return ops;
}

// When the host is done with a pipeline: after its last issue call it synchronizes the streams in
// order, and each synchronization returns once its stream's work is done and costs its call.
double pipeline_synchronized_seconds(const std::vector<SimOp>& ops, const SimResult& result,
                                     double stream_sync_call_s) {
  std::map<int, double> stream_done;
  double host = 0;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    if (ops[i].kind == OpKind::HostCopy)
      continue; // on no stream: the ring is waited for after the streams (makespan below)
    double& done = stream_done[ops[i].stream];
    done = std::max(done, result.timings[i].end);
    host = std::max(host, ops[i].issued_at);
  }
  for (const auto& [stream, done] : stream_done)
    host = std::max(host, done) + stream_sync_call_s;
  return std::max(host, result.makespan);
}

} // namespace

std::string ModernModel::name() const {
  return "modern (pipeline simulation on the profile)";
}

namespace {

bool staged(const Workload& workload, const Candidate& candidate) {
  return !workload.host_memory_pinned && candidate.pageable == PageableMode::Stage &&
         (candidate.variant == Variant::Streams || candidate.variant == Variant::Hybrid);
}

} // namespace

std::vector<SimOp> ModernModel::operations(const HardwareProfile& profile, const Workload& workload,
                                           const Candidate& candidate) const {
  switch (candidate.variant) {
  case Variant::Explicit:
    return explicit_operations(profile, workload);
  case Variant::Mapped:
    return mapped_operations(profile, workload);
  case Variant::Streams:
  case Variant::Hybrid:
    break;
  }
  const std::vector<SimOp> ops = pipelined_operations(
      profile, workload, candidate, candidate.variant == Variant::Hybrid, options_.halo_sent_twice);
  if (!staged(workload, candidate))
    return ops;
  // A piece costs the host a copy call and an event record, which the calibration does not time
  // apart: two copy calls.
  return staged_operations(ops, model_staging(workload, candidate),
                           2 * host_issue_costs(profile).copy_s);
}

std::optional<double> ModernModel::predict_seconds(const HardwareProfile& profile,
                                                   const Workload& workload,
                                                   const Candidate& candidate) const {
  SimDevice device = sim_device_of(profile, options_.hardware_queues);
  if (staged(workload, candidate))
    device.host_copy_lanes = model_staging(workload, candidate).threads;
  const std::vector<SimOp> ops = operations(profile, workload, candidate);
  const SimResult result = simulate(ops, device);
  double seconds = result.makespan;
  // Explicit's one synchronization is in its t_E, which is inferred from its measured time.
  if (candidate.variant == Variant::Streams || candidate.variant == Variant::Hybrid)
    seconds =
        pipeline_synchronized_seconds(ops, result, host_issue_costs(profile).stream_sync_call_s);
  return seconds + registration_seconds(profile, workload, candidate);
}

bool ModernModel::distinguishes_issue_order(const HardwareProfile& profile, int streams) const {
  // With Hyper-Q each engine has its own hardware queues (pipeline_simulator.h). With a copy
  // engine per direction a queue then holds operations of one kind (copies in, kernels or copies
  // out), in chunk order under both issue orders, and they become ready in that order: every
  // engine is handed the same sequence. With one copy engine, copies both ways share its queues;
  // once streams outnumber them, a depth-first copy in waits behind an earlier chunk's copy out.
  const SimDevice device = sim_device_of(profile, options_.hardware_queues);
  return streams > 1 && (!device.hyper_q || device.implicit_synchronization ||
                         (device.copy_engines < 2 && streams > device.hardware_queues));
}

} // namespace overlap::model
