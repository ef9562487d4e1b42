// The pointer parameters each pointer local of a function derives from: `const float* row = x +
// offset;`, `p = q;`. An analysis that looks for accesses of an array parameter sees row[i] as an
// access of x through it. Locals are read in source order, so a chain of them resolves in one pass.
#pragma once

#include <map>
#include <set>

namespace clang {
class Decl;
class FunctionDecl;
class ParmVarDecl;
class Stmt;
} // namespace clang

namespace overlap::frontend {

class DerivedPointers {
public:
  // `function` must have a body.
  explicit DerivedPointers(const clang::FunctionDecl& function);

  // The pointer parameters (by index) `stmt` mentions, directly or through derived locals.
  std::set<unsigned> reached(const clang::Stmt* stmt) const;

private:
  friend class DerivedPointerCollector;
  std::map<const clang::ParmVarDecl*, unsigned> params_;
  std::map<const clang::Decl*, std::set<unsigned>> derived_;
};

} // namespace overlap::frontend
