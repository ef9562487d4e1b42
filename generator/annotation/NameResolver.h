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
#include <string_view>
#include <vector>

namespace overlap::annotation {

// Where an expression stands decides which names it may use.
enum class ExprContext { Partition, Extent, Section, Launch, Tune, Granule, Halo, Length, Bind };

// Integer or bool: the scalar kinds expressions can read.
bool isIntegerScalar(const ir::Parameter& param);

class NameResolver {
public:
  // `text`: the annotation, whose text a macro's arguments are.
  NameResolver(const ir::KernelSignature& signature, std::string_view text, Diagnostics& diags);

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

  // Calls of the file's functions (FileFunction), expanded; `text` is what the offsets of `expr`
  // index, `report` where errors are shown: the annotation's call that led here.
  struct Span {
    unsigned offset = 0;
    unsigned length = 0;
  };
  ir::ExprPtr expandCalls(const ir::ExprPtr& expr, std::string_view text, unsigned depth,
                          const std::optional<Span>& report);
  ir::ExprPtr expandCall(const ir::Expr& call, std::string_view text, unsigned depth, Span report);
  ir::ExprPtr substituteArguments(const ir::ExprPtr& body, const ir::FileFunction& function,
                                  const std::vector<ir::ExprPtr>& arguments, Span report);
  void error(unsigned offset, unsigned length, std::string message);

  const ir::KernelSignature& signature_;
  std::string_view text_;
  Diagnostics& diags_;
  unsigned expansions_ = 0; // calls of the file's functions expanded so far
  int beginParam_ = -1;
  int endParam_ = -1;
};

} // namespace overlap::annotation
