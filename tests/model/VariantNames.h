// Reading variant names back from committed tuner logs and reports: the inverse of the model's
// to_string(Variant), from the same table, so a renamed variant cannot drift between the two.
#pragma once

#include "model/PerformanceModel.h"

#include <string>

namespace overlap::model::testing {

// "Explicit", "Mapped", "Streams" or "Hybrid"; anything else reads as Explicit.
inline Variant variantNamed(const std::string& name) {
  for (Variant variant : {Variant::Mapped, Variant::Streams, Variant::Hybrid})
    if (name == to_string(variant))
      return variant;
  return Variant::Explicit;
}

} // namespace overlap::model::testing
