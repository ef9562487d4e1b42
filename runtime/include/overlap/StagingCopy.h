// How a staging thread copies one piece between a user's pageable array and a pinned slot
// (StagingRing.h; calibrate/HostCopyBench.h times the same copies). A fill (the user's bytes into
// a slot) is a memcpy: a device's slots are few and stay in the host's cache, where the copy
// engine reads them. A drain (a slot into the user's array) writes with non-temporal stores: the
// array is larger than the cache, and ordinary stores read every line before they write it. On an
// H200 host, 15 threads drained 4 MiB pieces at 90 GB/s this way against memcpy's 54, 67 against
// 38 beside the link's copies both ways, while fills ran 74 GB/s with memcpy against 60 with
// non-temporal stores (bench/README.md, "Drains past the cache").
#pragma once

#include <cstddef>

namespace overlap {

void fillSlot(void* slot, const void* user, std::size_t bytes);
void drainSlot(void* user, const void* slot, std::size_t bytes);

} // namespace overlap
