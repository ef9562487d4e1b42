// Finds where a kernel writes through a pointer parameter, and whether it reads an array before
// writing it. The annotation checker refuses copyin on an array the kernel writes (Explicit and
// Streams would drop the writes while Mapped wrote the caller's array), a store to a reduce(...)
// array (a later chunk's store would overwrite what earlier chunks added) and copyout on an array
// the kernel reads before it writes (Explicit and Streams would read a device buffer nobody filled
// while Mapped read the caller's data).
//
// Accesses are seen through p[i], *p, *(p + i), p->f, locals derived from a parameter, atomics,
// cache-hinted loads and stores, memcpy/memset, inline PTX and helpers with a body (followed as
// VectorAccessFinder follows them), structs holding pointers member by member (a helper's struct
// parameter has a slot per pointer member), an object's member functions (a slot for `this`) and
// structured bindings; docs/annotations.md lists the forms. Reads and writes are
// ordered as they run (a read on the right of an assignment comes before it; a lambda called by
// name runs where it is called). A write on one side of an if/else or ?: does not count for the
// other side, nor one in another case of a switch, nor one on a side that returns for what follows;
// an if without else and a loop count as running their body. The check is per array, not per
// element: a check of the common forms, not a proof. A pointer stored in memory and read back, or a
// callee without a body, is not seen.
#pragma once

#include <clang/Basic/SourceLocation.h>

#include <vector>

namespace clang {
class FunctionDecl;
} // namespace clang

namespace overlap::frontend {

// Where a function first accesses one parameter's array; invalid where no such access was found.
struct ParameterAccess {
  clang::SourceLocation write;
  // The first write that is no atomic update (an assignment, a store, atomicExch: what
  // reduce(...) cannot combine).
  clang::SourceLocation plainWrite;
  // The first read met before the array is written on every path to it (y[i] += v,
  // y[i] = beta * y[i], atomicAdd(&y[i], v), a read after `if (first) y[i] = 0;`).
  clang::SourceLocation readBeforeWrite;
  bool writtenOnEveryPath = false; // by the end of the function's body
};

// One entry per parameter of `kernel`, which must have a body (an instantiation's, for templates).
std::vector<ParameterAccess> parameterAccesses(const clang::FunctionDecl& kernel);

} // namespace overlap::frontend
