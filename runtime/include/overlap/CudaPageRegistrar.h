// The PageRegistrar (RegistrationCache.h) of a real process: cudaHostRegister and friends, and
// mincore(2) for whether pages are still mapped and resident.
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
  // mincore(2): unmapped pages make it fail, pages mapped since and never touched are not
  // resident; pinned pages are always both.
  bool pagesResident(void* begin, std::size_t bytes) override;
};

} // namespace overlap
