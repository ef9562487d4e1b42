// Parses annotation text into clauses (Syntax.h). Syntax errors are reported in `diags`; the
// parser then skips to the end of the broken clause and goes on, so every clause is checked once
// and no error is reported twice.
#pragma once

#include "annotation/Diagnostic.h"
#include "annotation/Syntax.h"

#include <string_view>

namespace overlap::annotation {

AnnotationSyntax parseAnnotation(std::string_view text, Diagnostics& diags);

// Expression trees are walked recursively everywhere after parsing (evaluation, printing, the
// emitter, even their destruction), so their depth is bounded where the error can still point at
// the text. Real annotations stay far below this.
constexpr unsigned kMaxExpressionDepth = 100;
unsigned expressionDepth(const ir::Expr& expr);

// `text` as one expression of the language; null after an error.
ir::ExprPtr parseExpression(std::string_view text, Diagnostics& diags);

} // namespace overlap::annotation
