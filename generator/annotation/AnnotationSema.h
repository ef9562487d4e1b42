// Turns the text of an OVERLAP_KERNEL(...) annotation plus the kernel's signature into the IR, or
// into located diagnostics. The whole language is checked here, with no Clang dependency.
#pragma once

#include "annotation/Diagnostic.h"
#include "ir/KernelIR.h"

#include <optional>
#include <string_view>

namespace overlap::annotation {

struct SemaResult {
  std::optional<ir::Kernel> kernel; // set when there are no errors
  Diagnostics diagnostics;
};

// `text` is what stands between the parentheses of OVERLAP_KERNEL(...); diagnostic offsets are
// relative to its first character.
SemaResult buildKernel(std::string_view text, const ir::KernelSignature& signature);

} // namespace overlap::annotation
