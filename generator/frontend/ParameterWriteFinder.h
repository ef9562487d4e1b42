// Finds where a kernel writes through a pointer parameter in its own body: an assignment, a
// compound assignment or an increment of p[i], *p, *(p + i), p->f or p[i].f, or an atomic
// function (atomicAdd, atomicExch, ...) given &p[i] or p + i. The annotation checker refuses
// copyin on an array written so: Explicit and Streams would drop what the kernel writes while
// Mapped writes the caller's array, so the variants would differ. Writes through local pointers
// or in helpers are not looked for: a check of the common case, not a proof.
#pragma once

#include <clang/Basic/SourceLocation.h>

#include <vector>

namespace clang {
class FunctionDecl;
} // namespace clang

namespace overlap::frontend {

// One entry per parameter of `kernel`: where its first write is, invalid where none was found.
// `kernel` must have a body (an instantiation's, for templates).
std::vector<clang::SourceLocation> parameterWrites(const clang::FunctionDecl& kernel);

} // namespace overlap::frontend
