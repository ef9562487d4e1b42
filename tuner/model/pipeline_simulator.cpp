#include "model/pipeline_simulator.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>

namespace overlap::model {

bool has_hyper_q(const HardwareProfile& profile) {
  if (profile.compute_capability_major == 0)
    return !profile.implicit_synchronization;
  return profile.compute_capability_major * 10 + profile.compute_capability_minor >= 35;
}

bool has_concurrent_kernels(const HardwareProfile& profile) {
  return profile.compute_capability_major == 0 || profile.compute_capability_major >= 2;
}

SimDevice sim_device_of(const HardwareProfile& profile, int hardware_queues) {
  SimDevice device;
  device.concurrent_kernels = has_concurrent_kernels(profile);
  device.copy_engines = std::max(1, profile.copy_engines);
  device.implicit_synchronization = profile.implicit_synchronization;
  device.hyper_q = has_hyper_q(profile);
  device.hardware_queues = std::max(1, hardware_queues);
  device.host_to_device = profile.host_to_device;
  device.device_to_host = profile.device_to_host;
  for (LinkDirection* link : {&device.host_to_device, &device.device_to_host}) {
    // The slowdowns are ratios to G; unknown ones are no slowdown. A large-piece G is only ever
    // measured beside the small-piece one (profile_io refuses it alone); one without it would
    // make large pieces slower than the small ones' assumed no slowdown, so it is not used.
    if (link->bidirectional_seconds_per_byte <= 0) {
      link->bidirectional_seconds_per_byte = link->seconds_per_byte;
      link->bidirectional_large_piece_seconds_per_byte = 0;
      link->bidirectional_large_piece_min_bytes = 0;
    }
    if (link->with_mapped_seconds_per_byte <= 0)
      link->with_mapped_seconds_per_byte = link->bidirectional_seconds_per_byte;
  }
  device.mapped_read_seconds_per_byte = profile.mapped_read_seconds_per_byte > 0
                                            ? profile.mapped_read_seconds_per_byte
                                            : profile.host_to_device.seconds_per_byte;
  device.mapped_write_seconds_per_byte = profile.mapped_write_seconds_per_byte > 0
                                             ? profile.mapped_write_seconds_per_byte
                                             : profile.device_to_host.seconds_per_byte;
  if (profile.mapped_read_seconds_per_byte > 0 && profile.mapped_write_seconds_per_byte > 0)
    device.mapped_both_ways_seconds_per_byte = profile.mapped_both_ways_seconds_per_byte;
  device.host_copy_seconds_per_byte = profile.host_copy_seconds_per_byte > 0
                                          ? profile.host_copy_seconds_per_byte
                                          : kDefaultHostCopySecondsPerByte;
  device.host_copy_parallel_seconds_per_byte =
      profile.host_copy_parallel_seconds_per_byte > 0
          ? profile.host_copy_parallel_seconds_per_byte
          : std::min(device.host_copy_seconds_per_byte, kDefaultHostCopyParallelSecondsPerByte);
  return device;
}

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr int kToDevice = 0;
constexpr int kToHost = 1;
constexpr int kHostMemory = 2; // host copies: the memory system, not the link

enum class Phase { Waiting, Latency, Running, Done };

enum class FlowKind { Copy, PageableCopy, Mapped, HostCopy };

struct Flow {
  int op = -1;
  int direction = kToDevice;
  FlowKind kind = FlowKind::Copy;
  double remaining = 0;
  double start = 0; // bytes begin to flow at this time
  bool done = false;
  // Mapped traffic: the most bytes per second the kernel's threads produce (writes) or consume
  // (reads) while they compute, its bytes over its compute time; infinite for copies and for
  // kernels without a compute time.
  double pace = std::numeric_limits<double>::infinity();
};

struct OpState {
  Phase phase = Phase::Waiting;
  bool handed_over = false; // Hyper-Q: left its hardware queue for its engine
  double handed_over_at = 0;
  double latency_end = 0;
  double compute_left = 0; // kernels: compute seconds still to run at full speed
  OpTiming timing;
};

struct EngineState {
  int busy_op = -1;         // a copy, or the kernel (host copy) that started last while any run
  int running_kernels = 0;  // kernels on the compute engine, host copies on the host's
  double kernel_shares = 0; // sum of the running kernels' gpu_share
  bool has_run = false;
  int last_direction = -1; // of the last copy; -1 for kernels
  double last_end = 0;
};

int direction_of(OpKind kind) {
  return kind == OpKind::CopyToHost ? kToHost : kToDevice;
}

class Simulation {
public:
  // Engines: 0 computes, 1 copies (to the device, or both ways with one copy engine), 2 copies
  // to the host (with two or more), and the last runs the host copies.
  Simulation(const std::vector<SimOp>& ops, const SimDevice& device)
      : ops_(ops), device_(device), states_(ops.size()), engines_(device.copy_engines >= 2 ? 4 : 3),
        host_engine_(static_cast<int>(engines_.size()) - 1) {
    link_[kToDevice] = &device.host_to_device;
    link_[kToHost] = &device.device_to_host;
    mapped_seconds_per_byte_[kToDevice] = device.mapped_read_seconds_per_byte;
    mapped_seconds_per_byte_[kToHost] = device.mapped_write_seconds_per_byte;
    link_predecessors();
    waiting_.resize(engines_.size());
    for (std::size_t i = 0; i < ops_.size(); ++i) {
      waiting_[static_cast<std::size_t>(engine_of(ops_[i]))].push_back(static_cast<int>(i));
      if (ops_[i].kind != OpKind::HostCopy)
        not_handed_over_.push_back(static_cast<int>(i));
    }
    advance_unfinished_kernel();
  }

  SimResult run() {
    while (true) {
      dispatch();
      if (done_ == ops_.size())
        break;
      advance_to_next_event();
      complete_phases();
    }
    SimResult result;
    for (const OpState& state : states_) {
      result.timings.push_back(state.timing);
      result.makespan = std::max(result.makespan, state.timing.end);
    }
    return result;
  }

private:
  // The operation issued before each one in its stream and in its hardware queue.
  void link_predecessors() {
    stream_predecessor_.assign(ops_.size(), -1);
    queue_predecessor_.assign(ops_.size(), -1);
    std::map<int, int> last_in_stream;
    std::vector<int> last_in_queue(
        engines_.size() * static_cast<std::size_t>(device_.hardware_queues), -1);
    for (std::size_t i = 0; i < ops_.size(); ++i) {
      for (int wait : ops_[i].waits_for)
        if (wait < 0 || static_cast<std::size_t>(wait) >= i)
          throw std::invalid_argument("operation " + std::to_string(i) + " waits for operation " +
                                      std::to_string(wait) + ", which is not issued before it");
      if (ops_[i].kind == OpKind::HostCopy)
        continue; // on no stream and in no hardware queue
      const auto previous = last_in_stream.find(ops_[i].stream);
      if (previous != last_in_stream.end())
        stream_predecessor_[i] = previous->second;
      last_in_stream[ops_[i].stream] = static_cast<int>(i);
      int& queue_last = last_in_queue[static_cast<std::size_t>(hardware_queue(i))];
      queue_predecessor_[i] = queue_last;
      queue_last = static_cast<int>(i);
    }
  }

  // Implicit synchronization asks whether every kernel issued before an operation is done: the
  // first kernel (in issue order) that is not done answers it.
  void advance_unfinished_kernel() {
    while (first_unfinished_kernel_ < ops_.size() &&
           (ops_[first_unfinished_kernel_].kind != OpKind::Kernel ||
            states_[first_unfinished_kernel_].phase == Phase::Done))
      ++first_unfinished_kernel_;
  }

  // Queues are per engine: a GPU channel feeds one engine's runlist, so a stream's copies and its
  // kernels travel in different queues, and streams share a queue only with the operations of the
  // same engine. Among those, readiness follows issue order in a chunked pipeline, which is why
  // breadth-first issue over more streams than queues costs nothing measurable on an H200.
  int hardware_queue(std::size_t op) const {
    const int queues = device_.hardware_queues;
    const int stream = ops_[op].stream;
    return engine_of(ops_[op]) * queues + (stream % queues + queues) % queues;
  }

  int engine_of(const SimOp& op) const {
    if (op.kind == OpKind::HostCopy)
      return host_engine_;
    if (op.kind == OpKind::Kernel)
      return 0;
    if (op.kind == OpKind::CopyToHost && device_.copy_engines >= 2)
      return 2;
    return 1;
  }

  bool is_done(int op) const { return op < 0 || states_[op].phase == Phase::Done; }

  bool is_issued(std::size_t i) const {
    return ops_[i].issued_at <= now_ || same_time(ops_[i].issued_at, now_);
  }

  // Everything the operation depends on has completed: the operations before it in its stream,
  // the events it waits for, and under implicit synchronization every kernel issued before a
  // device-to-host copy.
  bool dependencies_done(std::size_t i) const {
    if (!is_issued(i))
      return false;
    if (!is_done(stream_predecessor_[i]))
      return false;
    for (int wait : ops_[i].waits_for)
      if (!is_done(wait))
        return false;
    if (device_.implicit_synchronization && ops_[i].kind == OpKind::CopyToHost &&
        first_unfinished_kernel_ < i)
      return false;
    return true;
  }

  // Hyper-Q: a hardware queue hands its head operation to its engine once the operation's
  // dependencies are done; the operations behind it wait until it has been handed over.
  void hand_over_ready_operations() {
    std::size_t kept = 0;
    for (const int i : not_handed_over_) {
      const int previous = queue_predecessor_[static_cast<std::size_t>(i)];
      const bool queue_head = previous < 0 || states_[previous].handed_over;
      if (queue_head && dependencies_done(static_cast<std::size_t>(i))) {
        states_[i].handed_over = true;
        states_[i].handed_over_at = now_;
      } else {
        not_handed_over_[kept++] = i;
      }
    }
    not_handed_over_.resize(kept);
  }

  // The operation engine `e` takes next, or -1. Hyper-Q: the one handed over first (issue order
  // among equals). Otherwise one queue per engine in issue order, whose head blocks the rest.
  int next_for_engine(int e) const {
    const std::vector<int>& waiting = waiting_[static_cast<std::size_t>(e)];
    // The staging threads take the lowest host copy whose events are done.
    if (e == host_engine_) {
      for (const int i : waiting)
        if (dependencies_done(static_cast<std::size_t>(i)))
          return i;
      return -1;
    }
    if (!device_.hyper_q)
      return !waiting.empty() && dependencies_done(static_cast<std::size_t>(waiting.front()))
                 ? waiting.front()
                 : -1;
    int chosen = -1;
    for (const int i : waiting) {
      if (!states_[i].handed_over)
        continue;
      if (chosen < 0 || states_[i].handed_over_at < states_[chosen].handed_over_at)
        chosen = i;
    }
    return chosen;
  }

  void dispatch() {
    bool started = true;
    while (started) {
      started = false;
      if (device_.hyper_q)
        hand_over_ready_operations();
      for (int e = 0; e < static_cast<int>(engines_.size()); ++e) {
        const int op = next_for_engine(e);
        if (op < 0 || !engine_accepts(e, op))
          continue;
        start(op, e);
        started = true;
      }
      // A start can finish a zero-length operation at once and free its engine.
      complete_phases();
    }
  }

  double share_of(int op) const {
    const double share = ops_[static_cast<std::size_t>(op)].gpu_share;
    return share > 0 && share <= 1 ? share : 1.0;
  }

  // An idle engine takes any operation. On devices with concurrent kernels the compute engine
  // also takes a kernel that does not fill the GPU while the running ones leave some block slots
  // free: its blocks fill them and the rest wait, which compute_slowdown() spreads over all the
  // running kernels. A kernel that fills the GPU waits for an idle engine, and holds back the
  // kernels behind it (the engine takes operations in order).
  bool engine_accepts(int e, int op) const {
    const EngineState& engine = engines_[static_cast<std::size_t>(e)];
    if (e == host_engine_)
      return engine.running_kernels < std::max(1, device_.host_copy_lanes);
    if (engine.busy_op < 0)
      return true;
    return ops_[static_cast<std::size_t>(op)].kind == OpKind::Kernel &&
           device_.concurrent_kernels && share_of(op) < 1 && engine.kernel_shares < 1 - 1e-9;
  }

  // Kernels whose shares add up to more than the GPU's block slots progress at 1/sum of the speed
  // each has alone: the device does the same work per second, shared among them.
  double compute_slowdown() const { return std::max(1.0, engines_[0].kernel_shares); }

  bool same_time(double a, double b) const {
    return std::abs(a - b) <= 1e-12 * std::max({1.0, std::abs(a), std::abs(b)});
  }

  void start(int i, int e) {
    const SimOp& op = ops_[i];
    OpState& state = states_[i];
    EngineState& engine = engines_[e];
    engine.busy_op = i;
    std::vector<int>& waiting = waiting_[static_cast<std::size_t>(e)];
    waiting.erase(std::find(waiting.begin(), waiting.end(), i));
    state.timing.start = now_;
    if (op.kind == OpKind::HostCopy) {
      ++engine.running_kernels;
      state.phase = Phase::Running;
      add_flow(i, kHostMemory, FlowKind::HostCopy, op.bytes, now_);
      return;
    }
    if (op.kind == OpKind::Kernel) {
      ++engine.running_kernels;
      engine.kernel_shares += share_of(i);
      state.phase = Phase::Running;
      state.compute_left = op.compute_seconds;
      add_flow(i, kToDevice, FlowKind::Mapped, op.mapped_read_bytes,
               now_ + link_[kToDevice]->latency_s);
      add_flow(i, kToHost, FlowKind::Mapped, op.mapped_write_bytes,
               now_ + link_[kToHost]->latency_s);
      return;
    }
    const int direction = direction_of(op.kind);
    const LinkDirection& link = *link_[direction];
    const bool back_to_back =
        engine.has_run && engine.last_direction == direction && same_time(engine.last_end, now_);
    const int copies = std::max(1, op.copies);
    const double gap = other_direction_copying(e) && link.bidirectional_gap_s > 0
                           ? link.bidirectional_gap_s
                           : link.gap_s;
    const double latency = (back_to_back ? gap : link.latency_s) + (copies - 1) * gap;
    state.phase = Phase::Latency;
    state.latency_end = now_ + latency;
  }

  // Whether the copy engine of the other direction is busy with a copy: the gap between pieces
  // then is the bidirectional g, measured while the other direction copies throughout (on the
  // H100 the device-to-host g more than doubles). With one copy engine the directions take turns.
  bool other_direction_copying(int copy_engine) const {
    if (device_.copy_engines < 2)
      return false;
    const int other = copy_engine == 1 ? 2 : 1;
    return engines_[static_cast<std::size_t>(other)].busy_op >= 0;
  }

  void add_flow(int op, int direction, FlowKind kind, double bytes, double start) {
    if (bytes <= 0)
      return;
    Flow flow{op, direction, kind, bytes, start, false};
    // A host copy runs at one thread's speed at most; the threads share the memory system.
    if (kind == FlowKind::HostCopy && device_.host_copy_seconds_per_byte > 0)
      flow.pace = 1 / device_.host_copy_seconds_per_byte;
    // A kernel's threads read and write as they compute: a kernel that computes longer than its
    // mapped bytes take on the link spreads them over its compute time (from the first byte's
    // latency on) instead of flooding the link at the start.
    const double window =
        ops_[static_cast<std::size_t>(op)].compute_seconds - std::max(0.0, start - now_);
    if (kind == FlowKind::Mapped && window > 0)
      flow.pace = bytes / window;
    flows_.push_back(flow);
  }

  // The bytes of one of the transfers a copy flow stands for: what one cudaMemcpyAsync moves.
  // An operation of several copies (one per chunked section) is taken as equal pieces.
  double piece_bytes(const Flow& flow) const {
    const SimOp& op = ops_[static_cast<std::size_t>(flow.op)];
    return op.bytes / std::max(1, op.copies);
  }

  bool is_active(const Flow& flow) const {
    return !flow.done && (flow.start <= now_ || same_time(flow.start, now_));
  }

  // Flows moving bytes now, per direction: all of them, and the copies among them.
  struct ActiveFlows {
    int all[3] = {0, 0, 0}; // per direction, host memory last
    int copies[3] = {0, 0, 0};
  };

  // How much slower mapped traffic of `direction` runs while the other direction is busy. Against
  // copies: as the small copies of its direction are slowed by the other direction's copies
  // (mapped traffic comes in requests of a line, nothing like a large piece's long stream, and
  // the calibration measured no piece-size dependence for it). Against
  // only mapped traffic: as the calibration's kernel reading and writing as many bytes was slowed
  // relative to one way alone (on the H200 ~1.23x, where the copies' ratio is 1.06-1.10), applied
  // to the flow's own (per-width) cost, in proportion to the share of the other direction that
  // traffic asks for (the calibration's kernel asks for all of it; a frame histogram's few bins
  // for next to nothing). Which kernel moves the other direction's bytes does not matter: the
  // link sees read requests and posted writes, not kernels. Traffic the other way never speeds a
  // direction up, so a measured both-ways cost below the one-way cost (noise) counts as no
  // slowdown.
  double mapped_slowdown(int direction, const ActiveFlows& active) const {
    const LinkDirection& link = *link_[direction];
    const double copies_ratio = link.bidirectional_seconds_per_byte / link.seconds_per_byte;
    const bool only_mapped_opposite = active.copies[1 - direction] == 0;
    if (!only_mapped_opposite)
      return copies_ratio;
    const double both_ways_ratio =
        device_.mapped_both_ways_seconds_per_byte > 0 && mapped_seconds_per_byte_[direction] > 0
            ? std::max(1.0, device_.mapped_both_ways_seconds_per_byte /
                                mapped_seconds_per_byte_[direction])
            : copies_ratio;
    const double opposite_share = std::min(1.0, mapped_link_demand(1 - direction, active, false));
    return 1 + opposite_share * (both_ways_ratio - 1);
  }

  // Link seconds per byte of mapped `flow`: its own (per-width) cost, slowed by mapped_slowdown()
  // while anything moves the other way when `slowed`.
  double mapped_seconds_per_byte(const Flow& flow, const ActiveFlows& active,
                                 bool slowed = true) const {
    const int direction = flow.direction;
    const SimOp& op = ops_[static_cast<std::size_t>(flow.op)];
    const double own =
        direction == kToDevice ? op.mapped_read_seconds_per_byte : op.mapped_write_seconds_per_byte;
    double seconds_per_byte = own > 0 ? own : mapped_seconds_per_byte_[direction];
    if (slowed && active.all[1 - direction] > 0)
      seconds_per_byte *= mapped_slowdown(direction, active);
    return seconds_per_byte;
  }

  // The share of a direction's link time its mapped flows ask for: each flow's pace times its
  // cost per byte, summed; 1 or more when the kernels move bytes faster than the link takes
  // them, as the calibration's traffic kernel (which does nothing else) does.
  // `slowed`: at the costs the traffic the other way leaves it, or at its costs alone (what
  // the other direction's slowdown is weighted by, which must not depend on that slowdown).
  double mapped_link_demand(int direction, const ActiveFlows& active, bool slowed) const {
    double demand = 0;
    for (const Flow& flow : flows_)
      if (is_active(flow) && flow.direction == direction && flow.kind == FlowKind::Mapped)
        demand += flow.pace * mapped_seconds_per_byte(flow, active, slowed);
    return demand;
  }

  // Link seconds per byte of copy `flow` given what else moves bytes. With copies the other way
  // it runs at the bidirectional G of its pieces' size (on the H100 host-to-device pieces of
  // 128 MiB and more ran at 44-47 GB/s against a busy device-to-host link, pieces of 64 MiB and
  // less at 48-51). With only mapped traffic the other way:
  // - at the G measured for that (Table II's "explicit-mapped") while that traffic asks for all
  //   of its direction's link time, as the calibration's traffic kernel does: on the H100 and
  //   H200 a copy in then crawls at 1/13-1/15 of its G (pop state's Hybrid measures its copies
  //   in and its link-bound mapped writes nearly one after the other);
  // - otherwise slowed in proportion to the share of the other direction the mapped traffic
  //   uses, up to the bidirectional G's slowdown at a full share. Mapped traffic paced by its
  //   kernels' compute leaves link time to spare: gray histogram's Hybrid, whose chunks write
  //   their gray frames over a kernel as long as the whole call's, measured 1.23-1.38 ms at 1-32
  //   streams on the H100 where the explicit-mapped G throughout predicted 1.34-1.92 ms, and
  //   frame histogram's chunks write their few bins without slowing the copies in measurably.
  //   That slowdown stays the small pieces' ratio whatever the copy's pieces: the calibration
  //   measured the large pieces' G against copies only, not against mapped traffic.
  double copy_seconds_per_byte(const Flow& flow, const ActiveFlows& active) const {
    const int direction = flow.direction;
    const LinkDirection& link = *link_[direction];
    double seconds_per_byte = link.seconds_per_byte;
    if (flow.kind == FlowKind::PageableCopy && link.pageable_seconds_per_byte > 0)
      seconds_per_byte = link.pageable_seconds_per_byte;
    if (active.all[1 - direction] == 0)
      return seconds_per_byte;
    if (active.copies[1 - direction] > 0)
      return seconds_per_byte *
             (link.bidirectional_seconds_per_byte_for(piece_bytes(flow)) / link.seconds_per_byte);
    const double bidirectional_ratio = link.bidirectional_seconds_per_byte / link.seconds_per_byte;
    const double demand = mapped_link_demand(1 - direction, active, true);
    if (!(demand < 1))
      return seconds_per_byte * link.with_mapped_seconds_per_byte / link.seconds_per_byte;
    return seconds_per_byte * (1 + demand * (bidirectional_ratio - 1));
  }

  // Bytes per second of every active flow (0 for the others). Flows of one direction share its
  // link time equally, except that a mapped flow never takes more than its pace needs; what it
  // leaves goes to the others (max-min fair shares).
  std::vector<double> flow_rates(const ActiveFlows& active) const {
    std::vector<double> rates(flows_.size(), 0);
    for (int direction : {kToDevice, kToHost, kHostMemory}) {
      std::vector<std::size_t> members;
      std::vector<double> seconds_per_byte;
      for (std::size_t f = 0; f < flows_.size(); ++f)
        if (is_active(flows_[f]) && flows_[f].direction == direction) {
          members.push_back(f);
          const Flow& flow = flows_[f];
          seconds_per_byte.push_back(
              flow.kind == FlowKind::HostCopy ? device_.host_copy_parallel_seconds_per_byte
              : flow.kind == FlowKind::Mapped ? mapped_seconds_per_byte(flow, active)
                                              : copy_seconds_per_byte(flow, active));
        }
      std::vector<bool> settled(members.size(), false);
      double link_left = 1;
      std::size_t unsettled = members.size();
      // Flows whose pace needs less than an equal share of what is left take what they need;
      // repeat until every remaining flow can use its share.
      for (bool changed = true; changed && unsettled > 0;) {
        changed = false;
        const double share = link_left / static_cast<double>(unsettled);
        for (std::size_t m = 0; m < members.size(); ++m) {
          if (settled[m])
            continue;
          const double needed = flows_[members[m]].pace * seconds_per_byte[m];
          if (needed < share) {
            rates[members[m]] = flows_[members[m]].pace;
            link_left -= needed;
            settled[m] = true;
            --unsettled;
            changed = true;
          }
        }
      }
      const double share = unsettled > 0 ? link_left / static_cast<double>(unsettled) : 0;
      for (std::size_t m = 0; m < members.size(); ++m)
        if (!settled[m])
          rates[members[m]] = seconds_per_byte[m] > 0 ? share / seconds_per_byte[m] : kInfinity;
    }
    return rates;
  }

  void advance_to_next_event() {
    double next = kInfinity;
    for (std::size_t i = 0; i < ops_.size(); ++i) {
      const OpState& state = states_[i];
      if (state.phase == Phase::Waiting && !is_issued(i))
        next = std::min(next, ops_[i].issued_at);
      if (state.phase == Phase::Latency)
        next = std::min(next, state.latency_end);
      else if (state.phase == Phase::Running && ops_[i].kind == OpKind::Kernel &&
               state.compute_left > 0)
        next = std::min(next, now_ + state.compute_left * compute_slowdown());
    }
    ActiveFlows active;
    for (const Flow& flow : flows_)
      if (is_active(flow)) {
        ++active.all[flow.direction];
        active.copies[flow.direction] += flow.kind != FlowKind::Mapped;
      }
    const std::vector<double> rates = flow_rates(active);
    for (std::size_t f = 0; f < flows_.size(); ++f) {
      const Flow& flow = flows_[f];
      if (flow.done)
        continue;
      if (!is_active(flow)) {
        next = std::min(next, flow.start);
        continue;
      }
      if (rates[f] > 0)
        next = std::min(next, rates[f] == kInfinity ? now_ : now_ + flow.remaining / rates[f]);
    }
    if (next == kInfinity)
      throw std::logic_error("pipeline simulation stalled: no operation can make progress");
    for (std::size_t f = 0; f < flows_.size(); ++f) {
      Flow& flow = flows_[f];
      if (flow.done || rates[f] == 0)
        continue;
      const double finish = rates[f] == kInfinity ? now_ : now_ + flow.remaining / rates[f];
      if (finish <= next || same_time(finish, next)) {
        flow.remaining = 0;
        flow.done = true;
      } else {
        flow.remaining -= rates[f] * (next - now_);
      }
    }
    const double slowdown = compute_slowdown();
    for (std::size_t i = 0; i < ops_.size(); ++i) {
      OpState& state = states_[i];
      if (state.phase != Phase::Running || ops_[i].kind != OpKind::Kernel)
        continue;
      // A kernel whose end is this event is done, whatever the rounding of the subtraction.
      const double end = now_ + state.compute_left * slowdown;
      state.compute_left = end <= next || same_time(end, next)
                               ? 0
                               : std::max(0.0, state.compute_left - (next - now_) / slowdown);
    }
    now_ = next;
    flows_.erase(
        std::remove_if(flows_.begin(), flows_.end(), [](const Flow& flow) { return flow.done; }),
        flows_.end());
  }

  bool flows_done(int op) const {
    for (const Flow& flow : flows_)
      if (flow.op == op && !flow.done)
        return false;
    return true;
  }

  void finish(int i) {
    OpState& state = states_[i];
    state.phase = Phase::Done;
    state.timing.end = now_;
    EngineState& engine = engines_[engine_of(ops_[i])];
    const bool copy = ops_[i].kind == OpKind::CopyToDevice || ops_[i].kind == OpKind::CopyToHost;
    if (ops_[i].kind == OpKind::Kernel) {
      --engine.running_kernels;
      engine.kernel_shares -= share_of(i);
    }
    if (ops_[i].kind == OpKind::HostCopy)
      --engine.running_kernels;
    if (copy || engine.running_kernels == 0) {
      engine.busy_op = -1;
      engine.kernel_shares = 0; // no rounding residue left behind
    }
    engine.has_run = true;
    engine.last_end = now_;
    engine.last_direction = copy ? direction_of(ops_[i].kind) : -1;
    ++done_;
    advance_unfinished_kernel();
  }

  void complete_phases() {
    for (std::size_t k = 0; k < ops_.size(); ++k) {
      const int i = static_cast<int>(k);
      OpState& state = states_[k];
      if (state.phase == Phase::Latency &&
          (state.latency_end <= now_ || same_time(state.latency_end, now_))) {
        state.phase = Phase::Running;
        add_flow(i, direction_of(ops_[k].kind),
                 ops_[k].pageable ? FlowKind::PageableCopy : FlowKind::Copy, ops_[k].bytes, now_);
      }
      if (state.phase != Phase::Running || !flows_done(i))
        continue;
      if (ops_[k].kind == OpKind::Kernel && state.compute_left > 0)
        continue;
      finish(i);
    }
  }

  const std::vector<SimOp>& ops_;
  const SimDevice& device_;
  const LinkDirection* link_[2] = {nullptr, nullptr};
  double mapped_seconds_per_byte_[2] = {0, 0};
  std::vector<OpState> states_;
  std::vector<EngineState> engines_;
  const int host_engine_;
  std::vector<Flow> flows_;
  std::vector<int> stream_predecessor_;
  std::vector<int> queue_predecessor_;
  std::vector<std::vector<int>> waiting_; // per engine, not yet started, in issue order
  std::vector<int> not_handed_over_;      // Hyper-Q: still in their hardware queue, in issue order
  std::size_t first_unfinished_kernel_ = 0;
  std::size_t done_ = 0;
  double now_ = 0;
};

} // namespace

SimResult simulate(const std::vector<SimOp>& ops, const SimDevice& device) {
  return Simulation(ops, device).run();
}

} // namespace overlap::model
