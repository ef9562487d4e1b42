// A call split across several GPUs (Candidate::devices), as the modern model prices it: each
// device runs its share of the partition as a one-GPU call would (the runtime's split,
// templates/overlap/detail/MultiDevice.cuh), so the call takes as long as its largest share, plus
// one host thread and synchronization per device; and no less than the host side the links
// share (its memory, a root complex above the GPUs) takes to move every device's bytes at once
// (HardwareProfile::allLinksSecondsPerByte): two H100s' links together moved a call's bytes
// 1.47-1.98x faster than one, four H100s' 2.3x (bench/results/h100x{2,4}-2026-11-27-multigpu.md).
// A profile that has not measured it (one GPU, or an older profile) makes a split's prediction a
// lower bound: pruning keeps a split that could win, but never measures the others against it
// (CandidateSet.cpp).
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

// Whether `profile` leaves the prediction of a split across `devices` GPUs a lower bound: the host
// side of that many links not measured (a profile of one GPU, or of another count of them).
bool splitIsLowerBound(const HardwareProfile& profile, int devices);

// The host side of `devices` links moving the split call's bytes (the profile's all_links): both
// directions at once at all_links.seconds_per_byte (both directions' bytes counted together)
// until the lighter one is done, the rest of the other at one_way_seconds_per_byte; where the
// one-way rate is not known, every byte at the rate both ways. Requires !splitIsLowerBound.
double allLinksSeconds(const HardwareProfile& profile, const Workload& workload, int devices);

// The split candidate's time: `model`'s prediction of its one-GPU form on the largest share, or
// the call's bytes over all links at once where the profile knows that and it takes longer; plus
// a host synchronization per device for its thread. nullopt where the share's prediction is, or
// for devices = 0 (the count must be known).
std::optional<double> splitSeconds(const PerformanceModel& model, const HardwareProfile& profile,
                                   const Workload& workload, const Candidate& candidate);

} // namespace overlap::model
