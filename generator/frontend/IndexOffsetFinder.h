// Reads a kernel's subscripts of its array parameters as base + offset, so that the annotation
// checker can compare where a thread reads an input with where it writes an output: a stencil's
// x[i - 1] and x[i + 1] beside y[i] need the chunk's section of x one element wider on each
// side than y's, or the chunk reads elements no copy of its own brought.
//
// An index is read as a polynomial through sums, differences, products, constant shifts, integer
// casts and integer locals the body never assigns after their initializer (`int i = blockIdx.x *
// blockDim.x + threadIdx.x;`) or, declared without one, assigns once before the use. Its terms
// made only of integer parameters and constants are the offset; the rest, over builtins
// (threadIdx.x ...) and a for loop's variable that only its increment changes (declared in the
// loop, or before it and set in the loop's init), is the base. An index it cannot read (a division, a clamp, a value loaded
// from memory) gives nothing: the checker then has nothing to compare. An access is x[i],
// *(x + i) or a cache-hinted load or store (__ldg(x + i)) through the parameter or a pointer the
// body never changes (`row = x + r * w`); a view of a wider type (float4* of a float*) reads
// and writes the parameter's elements 4 * i to 4 * i + 3; a row A[i] of a 2D array parameter
// (`float (*A)[N]`) is its element i. A helper with a body that an argument points into an array
// for (or a lambda) is read with its parameters standing for the call's arguments.
#pragma once

#include "ir/KernelIR.h"

#include <vector>

namespace clang {
class FunctionDecl;
} // namespace clang

namespace overlap::frontend {

// One list per parameter of `kernel`, which must have a body (an instantiation's, for templates).
std::vector<std::vector<ir::IndexUse>> indexUses(const clang::FunctionDecl& kernel);

} // namespace overlap::frontend
