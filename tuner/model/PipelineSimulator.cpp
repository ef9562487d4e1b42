#include "model/PipelineSimulator.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>

namespace overlap::model {

bool hasHyperQ(const HardwareProfile& profile) {
  if (profile.computeCapabilityMajor == 0)
    return !profile.implicitSynchronization;
  return profile.computeCapabilityMajor * 10 + profile.computeCapabilityMinor >= 35;
}

bool hasConcurrentKernels(const HardwareProfile& profile) {
  return profile.computeCapabilityMajor == 0 || profile.computeCapabilityMajor >= 2;
}

SimDevice simDeviceOf(const HardwareProfile& profile, int hardwareQueues) {
  SimDevice device;
  device.concurrentKernels = hasConcurrentKernels(profile);
  device.copyEngines = std::max(1, profile.copyEngines);
  device.implicitSynchronization = profile.implicitSynchronization;
  device.hyperQ = hasHyperQ(profile);
  device.hardwareQueues = std::max(1, hardwareQueues);
  device.hostToDevice = profile.hostToDevice;
  device.deviceToHost = profile.deviceToHost;
  for (LinkDirection* link : {&device.hostToDevice, &device.deviceToHost}) {
    // The slowdowns are ratios to G; unknown ones are no slowdown. A large-piece G is only ever
    // measured beside the small-piece one (profile_io refuses it alone); one without it would
    // make large pieces slower than the small ones' assumed no slowdown, so it is not used.
    if (link->bidirectionalSecondsPerByte <= 0) {
      link->bidirectionalSecondsPerByte = link->secondsPerByte;
      link->bidirectionalLargePieceSecondsPerByte = 0;
      link->bidirectionalLargePieceMinBytes = 0;
    }
    if (link->withMappedSecondsPerByte <= 0)
      link->withMappedSecondsPerByte = link->bidirectionalSecondsPerByte;
  }
  device.mappedReadSecondsPerByte = profile.mappedReadSecondsPerByte > 0
                                        ? profile.mappedReadSecondsPerByte
                                        : profile.hostToDevice.secondsPerByte;
  device.mappedWriteSecondsPerByte = profile.mappedWriteSecondsPerByte > 0
                                         ? profile.mappedWriteSecondsPerByte
                                         : profile.deviceToHost.secondsPerByte;
  if (profile.mappedReadSecondsPerByte > 0 && profile.mappedWriteSecondsPerByte > 0)
    device.mappedBothWaysSecondsPerByte = profile.mappedBothWaysSecondsPerByte;
  device.hostCopySecondsPerByte = profile.hostCopySecondsPerByte > 0
                                      ? profile.hostCopySecondsPerByte
                                      : kDefaultHostCopySecondsPerByte;
  device.hostCopyParallelSecondsPerByte =
      profile.hostCopyParallelSecondsPerByte > 0
          ? profile.hostCopyParallelSecondsPerByte
          : std::min(device.hostCopySecondsPerByte, kDefaultHostCopyParallelSecondsPerByte);
  return device;
}

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr int kToDevice = 0;
constexpr int kToHost = 1;
constexpr int kHostMemory = 2; // host copies: the memory system, not the link

// Blocked: a host copy holding its staging thread until the copies it waits for complete.
enum class Phase { Waiting, Latency, Blocked, Running, Done };

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
  bool handedOver = false; // Hyper-Q: left its hardware queue for its engine
  double handedOverAt = 0;
  double latencyEnd = 0;
  double computeLeft = 0; // kernels: compute seconds still to run at full speed
  OpTiming timing;
};

struct EngineState {
  int busyOp = -1;         // a copy, or the kernel (host copy) that started last while any run
  int runningKernels = 0;  // kernels on the compute engine, host copies on the host's
  double kernelShares = 0; // sum of the running kernels' gpuShare
  bool hasRun = false;
  int lastDirection = -1; // of the last copy; -1 for kernels
  double lastEnd = 0;
};

int directionOf(OpKind kind) {
  return kind == OpKind::CopyToHost ? kToHost : kToDevice;
}

class Simulation {
public:
  // Engines: 0 computes, 1 copies (to the device, or both ways with one copy engine), 2 copies
  // to the host (with two or more), and the last runs the host copies.
  Simulation(const std::vector<SimOp>& ops, const SimDevice& device)
      : ops_(ops), device_(device), states_(ops.size()), engines_(device.copyEngines >= 2 ? 4 : 3),
        hostEngine_(static_cast<int>(engines_.size()) - 1) {
    link_[kToDevice] = &device.hostToDevice;
    link_[kToHost] = &device.deviceToHost;
    mappedSecondsPerByte_[kToDevice] = device.mappedReadSecondsPerByte;
    mappedSecondsPerByte_[kToHost] = device.mappedWriteSecondsPerByte;
    linkPredecessors();
    waiting_.resize(engines_.size());
    for (std::size_t i = 0; i < ops_.size(); ++i) {
      waiting_[static_cast<std::size_t>(engineOf(ops_[i]))].push_back(static_cast<int>(i));
      if (ops_[i].kind != OpKind::HostCopy)
        notHandedOver_.push_back(static_cast<int>(i));
    }
    advanceUnfinishedKernel();
  }

  SimResult run() {
    while (true) {
      dispatch();
      if (done_ == ops_.size())
        break;
      advanceToNextEvent();
      completePhases();
    }
    SimResult result;
    result.handOverSeconds = handOverSeconds_;
    for (const OpState& state : states_) {
      result.timings.push_back(state.timing);
      result.makespan = std::max(result.makespan, state.timing.end);
    }
    return result;
  }

private:
  // The operation issued before each one in its stream and in its hardware queue.
  void linkPredecessors() {
    streamPredecessor_.assign(ops_.size(), -1);
    queuePredecessor_.assign(ops_.size(), -1);
    std::map<int, int> lastInStream;
    std::vector<int> lastInQueue(engines_.size() * static_cast<std::size_t>(device_.hardwareQueues),
                                 -1);
    for (std::size_t i = 0; i < ops_.size(); ++i) {
      for (int wait : ops_[i].waitsFor)
        if (wait < 0 || static_cast<std::size_t>(wait) >= i)
          throw std::invalid_argument("operation " + std::to_string(i) + " waits for operation " +
                                      std::to_string(wait) + ", which is not issued before it");
      if (ops_[i].kind == OpKind::HostCopy)
        continue; // on no stream and in no hardware queue
      const auto previous = lastInStream.find(ops_[i].stream);
      if (previous != lastInStream.end())
        streamPredecessor_[i] = previous->second;
      lastInStream[ops_[i].stream] = static_cast<int>(i);
      int& queueLast = lastInQueue[static_cast<std::size_t>(hardwareQueue(i))];
      queuePredecessor_[i] = queueLast;
      queueLast = static_cast<int>(i);
    }
  }

  // Implicit synchronization asks whether every kernel issued before an operation is done: the
  // first kernel (in issue order) that is not done answers it.
  void advanceUnfinishedKernel() {
    while (firstUnfinishedKernel_ < ops_.size() &&
           (ops_[firstUnfinishedKernel_].kind != OpKind::Kernel ||
            states_[firstUnfinishedKernel_].phase == Phase::Done))
      ++firstUnfinishedKernel_;
  }

  // Queues are per engine: a GPU channel feeds one engine's runlist, so a stream's copies and its
  // kernels travel in different queues, and streams share a queue only with the operations of the
  // same engine. Among those, readiness follows issue order in a chunked pipeline, which is why
  // breadth-first issue over more streams than queues costs nothing measurable on an H200.
  int hardwareQueue(std::size_t op) const {
    const int queues = device_.hardwareQueues;
    const int stream = ops_[op].stream;
    return engineOf(ops_[op]) * queues + (stream % queues + queues) % queues;
  }

  int engineOf(const SimOp& op) const {
    if (op.kind == OpKind::HostCopy)
      return hostEngine_;
    if (op.kind == OpKind::Kernel)
      return 0;
    if (op.kind == OpKind::CopyToHost && device_.copyEngines >= 2)
      return 2;
    return 1;
  }

  bool isDone(int op) const { return op < 0 || states_[op].phase == Phase::Done; }

  bool isIssued(std::size_t i) const {
    return ops_[i].issuedAt <= now_ || sameTime(ops_[i].issuedAt, now_);
  }

  // Everything the operation depends on has completed: the operations before it in its stream,
  // the events it waits for, and under implicit synchronization every kernel issued before a
  // device-to-host copy.
  bool dependenciesDone(std::size_t i) const {
    if (!isIssued(i))
      return false;
    if (!isDone(streamPredecessor_[i]))
      return false;
    for (int wait : ops_[i].waitsFor)
      if (!isDone(wait))
        return false;
    if (device_.implicitSynchronization && ops_[i].kind == OpKind::CopyToHost &&
        firstUnfinishedKernel_ < i)
      return false;
    return true;
  }

  // A staging thread takes a job once the copies it waits for were issued, then waits for their
  // events on the host (cudaEventSynchronize), holding the thread: a drain taken early keeps a
  // thread from the fills behind it. The ring's issuer issues a piece only once every host copy
  // the pieces up to it wait for is done (a fill before its copy in, a drain before its slot is
  // copied into again), so a taken job waits only for copies that will complete.
  bool takeable(std::size_t i) const {
    if (!isIssued(i))
      return false;
    for (int wait : ops_[i].waitsFor)
      if (!isIssued(static_cast<std::size_t>(wait)) ||
          static_cast<std::size_t>(wait) >= ringIssuedBefore_)
        return false;
    return true;
  }

  // Past every device operation whose host copies (the operations it waits for) are done.
  void advanceRingIssued() {
    while (ringIssuedBefore_ < ops_.size()) {
      const SimOp& op = ops_[ringIssuedBefore_];
      if (op.kind != OpKind::HostCopy)
        for (int wait : op.waitsFor)
          if (ops_[static_cast<std::size_t>(wait)].kind == OpKind::HostCopy && !isDone(wait))
            return;
      ++ringIssuedBefore_;
    }
  }

  // Hyper-Q: a hardware queue hands its head operation to its engine once the operation's
  // dependencies are done; the operations behind it wait until it has been handed over.
  void handOverReadyOperations() {
    std::size_t kept = 0;
    for (const int i : notHandedOver_) {
      const int previous = queuePredecessor_[static_cast<std::size_t>(i)];
      const bool queueHead = previous < 0 || states_[previous].handedOver;
      if (queueHead && dependenciesDone(static_cast<std::size_t>(i))) {
        states_[i].handedOver = true;
        states_[i].handedOverAt = now_;
      } else {
        notHandedOver_[kept++] = i;
      }
    }
    notHandedOver_.resize(kept);
  }

  // The operation engine `e` takes next, or -1. Hyper-Q: the one handed over first (issue order
  // among equals). Otherwise one queue per engine in issue order, whose head blocks the rest.
  int nextForEngine(int e) const {
    const std::vector<int>& waiting = waiting_[static_cast<std::size_t>(e)];
    // The staging threads take the lowest host copy whose copies were issued (StagingRing).
    if (e == hostEngine_) {
      for (const int i : waiting)
        if (takeable(static_cast<std::size_t>(i)))
          return i;
      return -1;
    }
    if (!device_.hyperQ)
      return !waiting.empty() && dependenciesDone(static_cast<std::size_t>(waiting.front()))
                 ? waiting.front()
                 : -1;
    int chosen = -1;
    for (const int i : waiting) {
      if (!states_[i].handedOver)
        continue;
      if (chosen < 0 || states_[i].handedOverAt < states_[chosen].handedOverAt)
        chosen = i;
    }
    return chosen;
  }

  void dispatch() {
    bool started = true;
    while (started) {
      started = false;
      advanceRingIssued();
      if (device_.hyperQ)
        handOverReadyOperations();
      for (int e = 0; e < static_cast<int>(engines_.size()); ++e) {
        const int op = nextForEngine(e);
        if (op < 0 || !engineAccepts(e, op))
          continue;
        start(op, e);
        started = true;
      }
      // A start can finish a zero-length operation at once and free its engine.
      completePhases();
    }
  }

  double shareOf(int op) const {
    const double share = ops_[static_cast<std::size_t>(op)].gpuShare;
    return share > 0 && share <= 1 ? share : 1.0;
  }

  // An idle engine takes any operation. On devices with concurrent kernels the compute engine
  // also takes a kernel that does not fill the GPU while the running ones leave some block slots
  // free: its blocks fill them and the rest wait, which computeSlowdown() spreads over all the
  // running kernels. A kernel that fills the GPU waits for an idle engine, and holds back the
  // kernels behind it (the engine takes operations in order).
  bool engineAccepts(int e, int op) const {
    const EngineState& engine = engines_[static_cast<std::size_t>(e)];
    if (e == hostEngine_)
      return engine.runningKernels < std::max(1, device_.hostCopyLanes);
    if (engine.busyOp < 0)
      return true;
    return ops_[static_cast<std::size_t>(op)].kind == OpKind::Kernel && device_.concurrentKernels &&
           shareOf(op) < 1 && engine.kernelShares < 1 - 1e-9;
  }

  // Kernels whose shares add up to more than the GPU's block slots progress at 1/sum of the speed
  // each has alone: the device does the same work per second, shared among them.
  double computeSlowdown() const { return std::max(1.0, engines_[0].kernelShares); }

  bool sameTime(double a, double b) const {
    return std::abs(a - b) <= 1e-12 * std::max({1.0, std::abs(a), std::abs(b)});
  }

  void start(int i, int e) {
    const SimOp& op = ops_[i];
    OpState& state = states_[i];
    EngineState& engine = engines_[e];
    engine.busyOp = i;
    std::vector<int>& waiting = waiting_[static_cast<std::size_t>(e)];
    waiting.erase(std::find(waiting.begin(), waiting.end(), i));
    state.timing.start = now_;
    if (op.kind == OpKind::HostCopy) {
      ++engine.runningKernels;
      // The hand-over wakes the ring's idle threads: many for a small call, few when they copy.
      handOverSeconds_ +=
          std::max(0, device_.hostCopyLanes - engine.runningKernels) * device_.hostCopyHandOverS;
      state.phase = Phase::Blocked;
      unblock(i);
      return;
    }
    if (op.kind == OpKind::Kernel) {
      ++engine.runningKernels;
      engine.kernelShares += shareOf(i);
      state.phase = Phase::Running;
      state.computeLeft = op.computeSeconds;
      addFlow(i, kToDevice, FlowKind::Mapped, op.mappedReadBytes,
              now_ + link_[kToDevice]->latencyS);
      addFlow(i, kToHost, FlowKind::Mapped, op.mappedWriteBytes, now_ + link_[kToHost]->latencyS);
      return;
    }
    const int direction = directionOf(op.kind);
    const LinkDirection& link = *link_[direction];
    const bool backToBack =
        engine.hasRun && engine.lastDirection == direction && sameTime(engine.lastEnd, now_);
    const int copies = std::max(1, op.copies);
    const double gap =
        otherDirectionCopying(e) && link.bidirectionalGapS > 0 ? link.bidirectionalGapS : link.gapS;
    const double latency = (backToBack ? gap : link.latencyS) + (copies - 1) * gap;
    state.phase = Phase::Latency;
    state.latencyEnd = now_ + latency;
  }

  // Whether the copy engine of the other direction is busy with a copy: the gap between pieces
  // then is the bidirectional g, measured while the other direction copies throughout (on the
  // H100 the device-to-host g more than doubles). With one copy engine the directions take turns.
  bool otherDirectionCopying(int copyEngine) const {
    if (device_.copyEngines < 2)
      return false;
    const int other = copyEngine == 1 ? 2 : 1;
    return engines_[static_cast<std::size_t>(other)].busyOp >= 0;
  }

  void addFlow(int op, int direction, FlowKind kind, double bytes, double start) {
    if (bytes <= 0)
      return;
    Flow flow{op, direction, kind, bytes, start, false};
    // A host copy runs at one thread's speed at most; the threads share the memory system.
    if (kind == FlowKind::HostCopy && device_.hostCopySecondsPerByte > 0)
      flow.pace = 1 / device_.hostCopySecondsPerByte;
    // A kernel's threads read and write as they compute: a kernel that computes longer than its
    // mapped bytes take on the link spreads them over its compute time (from the first byte's
    // latency on) instead of flooding the link at the start.
    const double window =
        ops_[static_cast<std::size_t>(op)].computeSeconds - std::max(0.0, start - now_);
    if (kind == FlowKind::Mapped && window > 0)
      flow.pace = bytes / window;
    flows_.push_back(flow);
  }

  // The bytes of one of the transfers a copy flow stands for: what one cudaMemcpyAsync moves.
  // An operation of several copies (one per chunked section) is taken as equal pieces.
  double pieceBytes(const Flow& flow) const {
    const SimOp& op = ops_[static_cast<std::size_t>(flow.op)];
    return op.bytes / std::max(1, op.copies);
  }

  bool isActive(const Flow& flow) const {
    return !flow.done && (flow.start <= now_ || sameTime(flow.start, now_));
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
  double mappedSlowdown(int direction, const ActiveFlows& active) const {
    const LinkDirection& link = *link_[direction];
    const double copiesRatio = link.bidirectionalSecondsPerByte / link.secondsPerByte;
    const bool onlyMappedOpposite = active.copies[1 - direction] == 0;
    if (!onlyMappedOpposite)
      return copiesRatio;
    const double bothWaysRatio =
        device_.mappedBothWaysSecondsPerByte > 0 && mappedSecondsPerByte_[direction] > 0
            ? std::max(1.0, device_.mappedBothWaysSecondsPerByte / mappedSecondsPerByte_[direction])
            : copiesRatio;
    const double oppositeShare = std::min(1.0, mappedLinkDemand(1 - direction, active, false));
    return 1 + oppositeShare * (bothWaysRatio - 1);
  }

  // Link seconds per byte of mapped `flow`: its own (per-width) cost, slowed by mappedSlowdown()
  // while anything moves the other way when `slowed`.
  double mappedSecondsPerByte(const Flow& flow, const ActiveFlows& active,
                              bool slowed = true) const {
    const int direction = flow.direction;
    const SimOp& op = ops_[static_cast<std::size_t>(flow.op)];
    const double own =
        direction == kToDevice ? op.mappedReadSecondsPerByte : op.mappedWriteSecondsPerByte;
    double secondsPerByte = own > 0 ? own : mappedSecondsPerByte_[direction];
    if (slowed && active.all[1 - direction] > 0)
      secondsPerByte *= mappedSlowdown(direction, active);
    return secondsPerByte;
  }

  // The share of a direction's link time its mapped flows ask for: each flow's pace times its
  // cost per byte, summed; 1 or more when the kernels move bytes faster than the link takes
  // them, as the calibration's traffic kernel (which does nothing else) does.
  // `slowed`: at the costs the traffic the other way leaves it, or at its costs alone (what
  // the other direction's slowdown is weighted by, which must not depend on that slowdown).
  double mappedLinkDemand(int direction, const ActiveFlows& active, bool slowed) const {
    double demand = 0;
    for (const Flow& flow : flows_)
      if (isActive(flow) && flow.direction == direction && flow.kind == FlowKind::Mapped)
        demand += flow.pace * mappedSecondsPerByte(flow, active, slowed);
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
  double copySecondsPerByte(const Flow& flow, const ActiveFlows& active) const {
    const int direction = flow.direction;
    const LinkDirection& link = *link_[direction];
    double secondsPerByte = link.secondsPerByte;
    if (flow.kind == FlowKind::PageableCopy && link.pageableSecondsPerByte > 0)
      secondsPerByte = link.pageableSecondsPerByte;
    if (active.all[1 - direction] == 0)
      return secondsPerByte;
    if (active.copies[1 - direction] > 0)
      return secondsPerByte *
             (link.bidirectionalSecondsPerByteFor(pieceBytes(flow)) / link.secondsPerByte);
    const double bidirectionalRatio = link.bidirectionalSecondsPerByte / link.secondsPerByte;
    const double demand = mappedLinkDemand(1 - direction, active, true);
    if (!(demand < 1))
      return secondsPerByte * link.withMappedSecondsPerByte / link.secondsPerByte;
    return secondsPerByte * (1 + demand * (bidirectionalRatio - 1));
  }

  // Bytes per second of every active flow (0 for the others). Flows of one direction share its
  // link time equally, except that a mapped flow never takes more than its pace needs; what it
  // leaves goes to the others (max-min fair shares).
  std::vector<double> flowRates(const ActiveFlows& active) const {
    std::vector<double> rates(flows_.size(), 0);
    for (int direction : {kToDevice, kToHost, kHostMemory}) {
      std::vector<std::size_t> members;
      std::vector<double> secondsPerByte;
      for (std::size_t f = 0; f < flows_.size(); ++f)
        if (isActive(flows_[f]) && flows_[f].direction == direction) {
          members.push_back(f);
          const Flow& flow = flows_[f];
          secondsPerByte.push_back(
              flow.kind == FlowKind::HostCopy ? device_.hostCopyParallelSecondsPerByte
              : flow.kind == FlowKind::Mapped ? mappedSecondsPerByte(flow, active)
                                              : copySecondsPerByte(flow, active));
        }
      std::vector<bool> settled(members.size(), false);
      double linkLeft = 1;
      std::size_t unsettled = members.size();
      // Flows whose pace needs less than an equal share of what is left take what they need;
      // repeat until every remaining flow can use its share.
      for (bool changed = true; changed && unsettled > 0;) {
        changed = false;
        const double share = linkLeft / static_cast<double>(unsettled);
        for (std::size_t m = 0; m < members.size(); ++m) {
          if (settled[m])
            continue;
          const double needed = flows_[members[m]].pace * secondsPerByte[m];
          if (needed < share) {
            rates[members[m]] = flows_[members[m]].pace;
            linkLeft -= needed;
            settled[m] = true;
            --unsettled;
            changed = true;
          }
        }
      }
      const double share = unsettled > 0 ? linkLeft / static_cast<double>(unsettled) : 0;
      for (std::size_t m = 0; m < members.size(); ++m)
        if (!settled[m])
          rates[members[m]] = secondsPerByte[m] > 0 ? share / secondsPerByte[m] : kInfinity;
    }
    return rates;
  }

  void advanceToNextEvent() {
    double next = kInfinity;
    for (std::size_t i = 0; i < ops_.size(); ++i) {
      const OpState& state = states_[i];
      if (state.phase == Phase::Waiting && !isIssued(i))
        next = std::min(next, ops_[i].issuedAt);
      if (state.phase == Phase::Latency)
        next = std::min(next, state.latencyEnd);
      else if (state.phase == Phase::Running && ops_[i].kind == OpKind::Kernel &&
               state.computeLeft > 0)
        next = std::min(next, now_ + state.computeLeft * computeSlowdown());
    }
    ActiveFlows active;
    for (const Flow& flow : flows_)
      if (isActive(flow)) {
        ++active.all[flow.direction];
        active.copies[flow.direction] += flow.kind != FlowKind::Mapped;
      }
    const std::vector<double> rates = flowRates(active);
    for (std::size_t f = 0; f < flows_.size(); ++f) {
      const Flow& flow = flows_[f];
      if (flow.done)
        continue;
      if (!isActive(flow)) {
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
      if (finish <= next || sameTime(finish, next)) {
        flow.remaining = 0;
        flow.done = true;
      } else {
        flow.remaining -= rates[f] * (next - now_);
      }
    }
    const double slowdown = computeSlowdown();
    for (std::size_t i = 0; i < ops_.size(); ++i) {
      OpState& state = states_[i];
      if (state.phase != Phase::Running || ops_[i].kind != OpKind::Kernel)
        continue;
      // A kernel whose end is this event is done, whatever the rounding of the subtraction.
      const double end = now_ + state.computeLeft * slowdown;
      state.computeLeft = end <= next || sameTime(end, next)
                              ? 0
                              : std::max(0.0, state.computeLeft - (next - now_) / slowdown);
    }
    now_ = next;
    flows_.erase(
        std::remove_if(flows_.begin(), flows_.end(), [](const Flow& flow) { return flow.done; }),
        flows_.end());
  }

  bool flowsDone(int op) const {
    for (const Flow& flow : flows_)
      if (flow.op == op && !flow.done)
        return false;
    return true;
  }

  void finish(int i) {
    OpState& state = states_[i];
    state.phase = Phase::Done;
    state.timing.end = now_;
    EngineState& engine = engines_[engineOf(ops_[i])];
    const bool copy = ops_[i].kind == OpKind::CopyToDevice || ops_[i].kind == OpKind::CopyToHost;
    if (ops_[i].kind == OpKind::Kernel) {
      --engine.runningKernels;
      engine.kernelShares -= shareOf(i);
    }
    if (ops_[i].kind == OpKind::HostCopy)
      --engine.runningKernels;
    if (copy || engine.runningKernels == 0) {
      engine.busyOp = -1;
      engine.kernelShares = 0; // no rounding residue left behind
    }
    engine.hasRun = true;
    engine.lastEnd = now_;
    engine.lastDirection = copy ? directionOf(ops_[i].kind) : -1;
    ++done_;
    advanceUnfinishedKernel();
  }

  // A blocked host copy whose copies completed starts copying.
  void unblock(int i) {
    OpState& state = states_[static_cast<std::size_t>(i)];
    if (state.phase != Phase::Blocked || !dependenciesDone(static_cast<std::size_t>(i)))
      return;
    state.phase = Phase::Running;
    addFlow(i, kHostMemory, FlowKind::HostCopy, ops_[static_cast<std::size_t>(i)].bytes, now_);
  }

  void completePhases() {
    for (std::size_t k = 0; k < ops_.size(); ++k) {
      const int i = static_cast<int>(k);
      OpState& state = states_[k];
      unblock(i);
      if (state.phase == Phase::Latency &&
          (state.latencyEnd <= now_ || sameTime(state.latencyEnd, now_))) {
        state.phase = Phase::Running;
        addFlow(i, directionOf(ops_[k].kind),
                ops_[k].pageable ? FlowKind::PageableCopy : FlowKind::Copy, ops_[k].bytes, now_);
      }
      if (state.phase != Phase::Running || !flowsDone(i))
        continue;
      if (ops_[k].kind == OpKind::Kernel && state.computeLeft > 0)
        continue;
      finish(i);
    }
  }

  const std::vector<SimOp>& ops_;
  const SimDevice& device_;
  const LinkDirection* link_[2] = {nullptr, nullptr};
  double mappedSecondsPerByte_[2] = {0, 0};
  std::vector<OpState> states_;
  std::vector<EngineState> engines_;
  const int hostEngine_;
  std::vector<Flow> flows_;
  std::vector<int> streamPredecessor_;
  std::vector<int> queuePredecessor_;
  std::vector<std::vector<int>> waiting_; // per engine, not yet started, in issue order
  std::vector<int> notHandedOver_;        // Hyper-Q: still in their hardware queue, in issue order
  std::size_t firstUnfinishedKernel_ = 0;
  std::size_t ringIssuedBefore_ = 0; // takeable(): the staging ring's issuer got this far
  double handOverSeconds_ = 0;
  std::size_t done_ = 0;
  double now_ = 0;
};

} // namespace

SimResult simulate(const std::vector<SimOp>& ops, const SimDevice& device) {
  return Simulation(ops, device).run();
}

} // namespace overlap::model
