// Paper 002: Reddy, "Optimization of CUDA programs using streams" (M.Tech thesis, IIT Madras
// 2014), ch. 4: the overheads of §4.1 (synchronization, the bidirectional transfer factor f,
// kernel launch, per-transfer overhead) and the task partition models of §4.2 for data-bound
// (4.8–4.11) and compute-bound (4.12–4.15) applications on a device with two copy engines.
// Times in seconds; subtask counts are real numbers so the models can be studied between integers.
#pragma once

#include "model/PerformanceModel.h"

namespace overlap::model::paper002 {

// The overheads of §4.1 (Table 4.2 for the per-transfer ones).
struct Overheads {
  double syncS = 0;          // t_sync (t_syn in 4.10, 4.11, 4.15): one stream synchronization
  double kernelLaunchS = 0;  // t_koh
  double bidirectionalS = 0; // t_boh: a step that sends and receives at once
  double sendS = 0;          // t_soh: a host-to-device transfer
  double receiveS = 0;       // t_roh: a device-to-host transfer
};

// (4.4) sending for `sendSeconds` and receiving for `receiveSeconds` at the same time:
// T = min{Ts, Tr} · f + |Ts − Tr|.
double eq44BidirectionalSeconds(double sendSeconds, double receiveSeconds, double f);

// (4.9) the data-bound schedule of n equal subtasks (4.8: t_s = Ts/n, t_r = Tr/n), with the
// simultaneous step t_p of (4.4):
//   T = t_s + (n−1)·t_p + t_r + (n+2)·t_sync + n·t_koh + (n−2)·t_boh + 2·(t_soh + t_roh).
// (4.10 as printed in the thesis is garbled; it is (4.9) with (4.4) substituted, which is what
// this function computes, and the form whose derivative gives (4.11).)
double eq49DataBoundSeconds(double sendSeconds, double receiveSeconds, double f, double subtasks,
                            const Overheads& overheads);
// (4.11) n = sqrt((Ts + Tr − f·min{Ts, Tr} − |Ts − Tr|) / (t_sync + t_boh + t_koh)).
double eq411DataBoundOptimalSubtasks(double sendSeconds, double receiveSeconds, double f,
                                     const Overheads& overheads);

// (4.12)–(4.13) the compute-bound schedule grows subtasks linearly to the middle and shrinks them
// after (n even): the first subtask's kernel time is t = 4·Tk / (n·(n+2)).
double eq413FirstSubtaskKernelSeconds(double kernelSeconds, double subtasks);
// (4.14) T = t_s1 + Tk + t_rn + (n+2)·t_sync + n·(t_koh + t_boh) + c, where t_s1 is the send time
// of the first subtask and t_rn the receive time of the last one.
double eq414ComputeBoundSeconds(double firstSendSeconds, double kernelSeconds,
                                double lastReceiveSeconds, double subtasks,
                                const Overheads& overheads, double constantSeconds);
// (4.15) n = sqrt(8·(Ts + Tr) / (t_sync + t_boh + t_koh)), as the thesis approximates it. (The
// exact stationary point of (4.14) with the growing schedule, where t_s1 = 4·Ts/(n·(n+2)), lies
// near the cube root of the same ratio; the thesis' value is kept as published.)
double eq415ComputeBoundOptimalSubtasks(double sendSeconds, double receiveSeconds,
                                        const Overheads& overheads);

// §3.1.2: data bound when the bidirectional transfer of all data (4.4) takes longer than the
// kernel.
bool isDataBound(double sendSeconds, double receiveSeconds, double kernelSeconds, double f);

// f of (4.4) from a profile: the host-to-device G while the other direction is busy over the G
// alone; 1 when the profile has no bidirectional measurement. The thesis has one f; a link whose
// busy G depends on the piece size (LinkDirection::bidirectional_large_piece_seconds_per_byte)
// has one per piece size, and this is the f of the small pieces ...
double bidirectionalFactor(const HardwareProfile& profile);
// ... and this the f of pieces of `pieceBytes`.
double bidirectionalFactor(const HardwareProfile& profile, double pieceBytes);
// The bytes one copy in of `subtasks` equal subtasks moves: the chunked input's share, cut into
// the chunk's sections (Workload::Transfers::h2dCopiesPerChunk). Broadcast inputs go once, whole.
double inputPieceBytes(const Workload& workload, double subtasks);
// The §4.1 overheads from a profile: t_sync, t_koh as measured, t_soh and t_roh the one-way
// latencies L+o, t_boh their sum (Table 4.2 shows the both-ways overhead at about that).
Overheads overheadsOf(const HardwareProfile& profile);

// The models applied to the variants with equal chunks, as the generated Streams variant makes
// them: data bound → (4.9); compute bound → (4.14) with the first and last subtask of equal size
// (t_s1 = Ts/n, t_rn = Tr/n) and c = 0. Both, and the choice between them, use the f of the
// chunks' pieces (inputPieceBytes). Explicit = Ts + Tk + Tr plus one send, launch and
// receive overhead. The thesis does not model mapped memory: Mapped and Hybrid are not predicted.
class Model final : public PerformanceModel {
public:
  std::string name() const override;
  std::optional<double> predictSeconds(const HardwareProfile& profile, const Workload& workload,
                                       const Candidate& candidate) const override;
};

} // namespace overlap::model::paper002
