// Parses annotation text into clauses (Syntax.h). Syntax errors are reported in `diags`; the
// parser then skips to the end of the broken clause and goes on, so every clause is checked once
// and no error is reported twice.
#pragma once

#include "annotation/Diagnostic.h"
#include "annotation/Syntax.h"

#include <string_view>

namespace overlap::annotation {

AnnotationSyntax parseAnnotation(std::string_view text, Diagnostics& diags);

} // namespace overlap::annotation
