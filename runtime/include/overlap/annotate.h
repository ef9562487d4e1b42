// OVERLAP_KERNEL(...) marks a kernel for the generator and says how its data moves (the language
// is in docs/annotations.md). For nvcc and every other compiler it expands to nothing, so the
// annotated file compiles unchanged and silently; only the generator, which defines
// __OVERLAP_GENERATOR__, sees an attribute it can find in the AST.
#pragma once

#ifndef OVERLAP_KERNEL
#ifdef __OVERLAP_GENERATOR__
#define OVERLAP_KERNEL(...) __attribute__((annotate("overlap.kernel")))
#else
#define OVERLAP_KERNEL(...)
#endif
#endif
