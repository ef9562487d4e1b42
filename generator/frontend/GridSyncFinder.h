// Finds where a kernel waits for its whole grid: cooperative groups' grid_group::sync() (and
// barrier_wait, the split form), cooperative_groups::sync(g) on a grid group, or a multi-grid
// group's sync, in the kernel or the helpers it calls (functions with a body, a few calls deep).
// Such a barrier holds only under a cooperative launch of the whole grid at once, while every
// variant Overlap generates launches with <<<...>>> and most launch a grid per chunk: the
// generator refuses the kernel at that call.
#pragma once

#include <clang/Basic/SourceLocation.h>

#include <optional>

namespace clang {
class FunctionDecl;
} // namespace clang

namespace overlap::frontend {

// The first grid-wide barrier `kernel` reaches, if any. `kernel` must have a body (an
// instantiation's, for templates).
std::optional<clang::SourceLocation> gridWideBarrier(const clang::FunctionDecl& kernel);

} // namespace overlap::frontend
