// Finds where a kernel writes through a pointer parameter: an assignment, a compound assignment
// or an increment of p[i], *p, *(p + i), p->f or p[i].f, through a local derived from it
// (`float* row = out + r * n`, `float& cell = out[i]`), an atomic function, a cache-hinted
// store or memcpy/memset (atomicAdd, __stcs) given &p[i] or p + i, or a helper with a body that
// writes through what it is given (followed as VectorAccessFinder follows them). The annotation
// checker refuses copyin on an array written so: Explicit and Streams would drop what the kernel
// writes while Mapped writes the caller's array, so the variants would differ. A check of the
// common forms, not a proof: a pointer stored in memory and read back, or a callee without a body,
// is not seen.
#pragma once

#include <clang/Basic/SourceLocation.h>

#include <vector>

namespace clang {
class FunctionDecl;
} // namespace clang

namespace overlap::frontend {

// One entry per parameter of `kernel` in each: where its first write is, and its first write that
// is no atomic update (an assignment, a store, atomicExch: what reduce(...) cannot combine);
// invalid where none was found. `kernel` must have a body (an instantiation's, for templates).
struct ParameterWrites {
  std::vector<clang::SourceLocation> any;
  std::vector<clang::SourceLocation> plain;
};
ParameterWrites parameterWrites(const clang::FunctionDecl& kernel);

} // namespace overlap::frontend
