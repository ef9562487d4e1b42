// Finds where a kernel indexes an array parameter at a multiple of one of its integer parameters:
// y[k * n + i], a pointer `y + b * n`, planes n apart. Offset mode gives its length parameter the
// chunk's length, so such an index addresses planes of the chunk's length where the whole call's
// kernel addressed them n apart: the annotation checker refuses it.
//
// Indexes are read as polynomials through sums, differences, products, shifts, casts and integer
// locals (their initializers and assignments: `int idx = k * n + i;`), and through helpers with a
// body that index an array argument by an integer argument. A term n alone (y[n - 1], haxpy's odd
// last element, which a granule leaves to the last chunk) is as often right as wrong and is not
// reported; a clamp (min, ?:), a division and a remainder are no terms. Pointer locals derived
// from a parameter count as the parameter (DerivedPointers).
#pragma once

#include <clang/Basic/SourceLocation.h>

#include <vector>

namespace clang {
class FunctionDecl;
} // namespace clang

namespace overlap::frontend {

// Where a function first indexes an array parameter at a multiple of one integer parameter;
// `where` is invalid when it does not.
struct IndexTerm {
  clang::SourceLocation where;
  unsigned array = 0; // the indexed pointer parameter
};

// One entry per parameter of `kernel`, which must have a body (an instantiation's, for templates).
std::vector<IndexTerm> indexTerms(const clang::FunctionDecl& kernel);

} // namespace overlap::frontend
