// Derives the model's workload of one call from the generator's descriptor of the kernel and the
// call's concrete arguments. It only calls the descriptor's function pointers (extents and
// sections); nothing here needs a GPU or the CUDA runtime library, but descriptor.h includes the
// CUDA runtime API header, so this file is built only where CUDA is present.
#pragma once

#include "model/workload.h"
#include "overlap/descriptor.h"

namespace overlap::model {

// Bytes per direction as the runtime moves them: every clipped section once for the whole range
// (Explicit), chunked sections split over the chunks, broadcast sections (and arrays without
// sections) sent once first. The halo per chunk boundary is measured from the sections of a
// 16-chunk split; the Mapped read factor of chunked inputs is how many partition indices need
// each input element on average (a halo of h elements per boundary read by every index makes it
// about 1 + h·(P−1)/elements). The descriptor carries no launch geometry and no re-read count of
// broadcast arrays: total_blocks stays 0 (unknown) and the broadcast read factor 1 unless the
// caller sets them.
Workload workload_from_descriptor(const KernelDescriptor& descriptor, ArgPointers args,
                                  double kernel_seconds);

} // namespace overlap::model
