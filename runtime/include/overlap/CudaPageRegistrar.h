// The PageRegistrar (RegistrationCache.h) of a real process: cudaHostRegister and friends, and
// msync(2) and mincore(2) for whether pages are still mapped and resident.
#pragma once

#include "overlap/RegistrationCache.h"

namespace overlap {

class CudaPageRegistrar final : public PageRegistrar {
public:
  HostMemoryKind classify(const void* pointer) override;
  // Mapped and portable: kernels of every device can address it (Mapped, Hybrid's outputs).
  Status registerPages(void* begin, std::size_t bytes, bool readOnly) override;
  Status unregisterPages(void* begin) override;
  // cudaHostGetFlags succeeds only on registered memory.
  bool stillRegistered(void* begin) override;
  // Pinned pages are always mapped and resident. Every page is checked for being mapped (an
  // unmapped one: the buffer was freed), a sample of 16 pages of a range over 32 MiB for being
  // resident (a page mapped again since and not yet written is not).
  bool pagesResident(void* begin, std::size_t bytes) override;
};

} // namespace overlap
