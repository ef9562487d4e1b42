// A call split across several GPUs (Candidate::devices), as the modern model prices it: each
// device runs its share of the partition as a one-GPU call would (the runtime's split,
// templates/overlap/detail/MultiDevice.cuh), so the call takes as long as its largest share, plus
// one host thread and synchronization per device.
//
// What this leaves out is the host side the links share (its memory, a root complex above both
// GPUs): on two H100s the two links together moved a call's bytes only 1.47-1.77x faster than
// one (bench/results/h100x2-2026-11-27-multigpu.md). The profile has no parameter for it yet, so a
// split's prediction is a lower bound: pruning keeps a split that could win, but never measures
// the others against it (CandidateSet.cpp).
#pragma once

#include "model/PerformanceModel.h"
#include "model/Workload.h"

#include <optional>

namespace overlap::model {

// The largest share of `workload` among `devices` equal GPUs: its granules as the runtime's
// splitPartition gives them (ceil(granules / devices)), chunked bytes, kernel time and blocks in
// proportion; broadcast bytes, halos per chunk boundary and device memory as in the whole call
// (each device takes full buffers). The workload itself when devices <= 1 or P is unknown.
Workload deviceShare(const Workload& workload, int devices);

// The split candidate's time: `model`'s prediction of its one-GPU form on the largest share,
// plus a host synchronization per device for its thread; nullopt where that prediction is, or for
// devices = 0 (the count must be known).
std::optional<double> splitSeconds(const PerformanceModel& model, const HardwareProfile& profile,
                                   const Workload& workload, const Candidate& candidate);

} // namespace overlap::model
