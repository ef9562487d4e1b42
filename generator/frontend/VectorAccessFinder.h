// Finds where a kernel reads or writes a pointer parameter through a cast to a more aligned type:
// reinterpret_cast<const float4*>(x), (half2*)&in[2 * i], and the same through a local pointer
// initialised from the parameter (const float* row = x + offset), and in the helpers the kernel
// passes them to (functions with a body, a few calls deep). Such an access faults on a
// misaligned address unless every chunk's first element keeps that alignment, so the generated
// code makes chunk bounds fall on the granule that does.
#pragma once

#include <vector>

namespace clang {
class FunctionDecl;
} // namespace clang

namespace overlap::frontend {

// One entry per parameter of `kernel`: the widest such alignment in bytes, 0 where there is none.
// `kernel` must have a body (an instantiation's, for templates).
std::vector<unsigned> vectorAccessAlignments(const clang::FunctionDecl& kernel);

} // namespace overlap::frontend
