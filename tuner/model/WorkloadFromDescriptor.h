// Derives the model's workload of one call from the generator's descriptor of the kernel and the
// call's concrete arguments. It only calls the descriptor's function pointers (extents and
// sections); nothing here needs a GPU or the CUDA runtime library, but Descriptor.h includes the
// CUDA runtime API header, so this file is built only where CUDA is present.
#pragma once

#include "model/Workload.h"
#include "overlap/Descriptor.h"

#include <string>

namespace overlap::model {

// Whether an optional array passed null counts. Dispatch (model_choice) passes the caller's
// pointers, where a null one moves nothing; the tuner allocates every array (and derives the
// workload before it does).
enum class OptionalArrays : unsigned char { AsPassed, AllPresent };

// Bytes per direction as the runtime moves them: every clipped section once for the whole range
// [B, B + P) (Explicit), chunked sections split over the chunks, broadcast sections (and arrays
// without sections) sent once first. The halo per chunk boundary is measured from the sections
// of a split into up to 16 chunks (the strategies' chunkBounds, with the partition's origin and
// granule). Reduction arrays count as transfers.reductionBytes, copied once each way; absent
// optional arrays (see OptionalArrays) not at all. The Mapped read factors stay 1: a halo is what
// neighbouring chunks (separate kernels) share, while Mapped's one kernel re-reads a neighbour's
// elements from the cache; and nothing says how often a kernel re-reads a broadcast array. The
// launch geometry (launch.totalBlocks, launch.residentBlocksPerSm) comes from the descriptor's
// launchGeometry over [B, B + P) when it has one, the call succeeds (it needs a CUDA device for
// the occupancy) and the grid grows with the chunk; otherwise it stays 0 (unknown: no fill
// penalty), as for a grid-stride launch, whose chunks always have a full grid. The caller sets
// any of these it knows better. mapped.bytesByWidth: each array's bytes under its element size.
// deviceMemory: every array's full extent (padded as the runtime pads it), the pure outputs' part
// and what stays resident out of core; its budget stays 0 (unlimited) for the caller to set.
Workload workloadFromDescriptor(const KernelDescriptor& descriptor, ArgPointers args,
                                double kernelSeconds,
                                OptionalArrays optional = OptionalArrays::AsPassed);

// The budget OVERLAP_DEVICE_MEMORY_BUDGET gives every call of the process that names none of its
// own (DeviceMemoryBudget.h), for Workload::DeviceMemory::budgetBytes; 0 when it is unset or
// malformed, with `error` (if given) saying why a set value was ignored. The automatic budget
// (the device's free memory) is left out: the model does not know what the process holds.
double deviceMemoryBudgetFromEnvironment(std::string* error = nullptr);

// For a tuner whose calls run under the automatic budget (`automaticBytes`: the device's free
// memory less the runtime's margin, as the tuner sees it): that budget, rounded down to 256 MiB,
// where the call's full buffers exceed it (the call runs out of core and the model must say so),
// else 0 (the call fits: no prediction changes, and the tuning's key does not follow free memory).
double automaticDeviceMemoryBudget(const Workload& workload, double automaticBytes);

} // namespace overlap::model
