// OVERLAP_KERNEL(...) marks a kernel for the generator and says how its data moves (the language
// is in docs/annotations.md). It expands to nothing, for nvcc, every other compiler and the
// generator alike, so the annotated file compiles unchanged and silently, and the annotation may
// stand above `template <...>`; the generator (which defines __OVERLAP_GENERATOR__) reads the
// macro's uses from the preprocessor and pairs each with the kernel declared after it.
#pragma once

#ifndef OVERLAP_KERNEL
#define OVERLAP_KERNEL(...)
#endif
