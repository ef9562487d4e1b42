// Binds the names an annotation uses to the kernel's parameters and checks, per expression, that
// every name may be used where it stands: integer scalars only, lo/hi/len only in sections and
// launch geometry, never the parameters the generator sets per chunk. Errors are reported once,
// at the offending name, and make the whole expression unusable (null) without further reports.
#pragma once

#include "annotation/Diagnostic.h"
#include "annotation/Syntax.h"
#include "ir/Expr.h"
#include "ir/KernelIR.h"

#include <optional>
#include <string>

namespace overlap::annotation {

// Where an expression stands decides which names it may use.
enum class ExprContext { Partition, Extent, Section, Launch, Tune, Granule, Halo, Length, Bind };

// Integer or bool: the scalar kinds expressions can read.
bool isIntegerScalar(const ir::Parameter& param);

class NameResolver {
public:
  NameResolver(const ir::KernelSignature& signature, Diagnostics& diags);

  // Range mode: these parameters get lo and hi from the generator, so they have no caller value.
  void setChunkParams(int beginParam, int endParam);

  // The parameter called `name`, or an error ("not a parameter", with a suggestion).
  std::optional<int> findParam(const Name& name);

  // The expression with every Param node bound to its parameter index; null after an error.
  ir::ExprPtr resolve(const ir::ExprPtr& expr, ExprContext context);

  const ir::Parameter& param(int index) const { return signature_.params[index]; }

private:
  bool hasParam(const std::string& name) const;
  ir::ExprPtr resolveName(const ir::Expr& expr, ExprContext context);
  bool checkChunkName(const ir::Expr& expr, ExprContext context);
  ir::ExprPtr resolveSizeOf(const ir::Expr& expr);
  void error(unsigned offset, unsigned length, std::string message);

  const ir::KernelSignature& signature_;
  Diagnostics& diags_;
  int beginParam_ = -1;
  int endParam_ = -1;
};

} // namespace overlap::annotation
