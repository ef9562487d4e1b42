// Finds the text between the parentheses of a function-like macro invocation in raw source text,
// without a preprocessor: the annotation checker needs the text exactly as written, and its
// offsets must map back to file positions one to one.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace overlap::frontend {

struct MacroArgumentSpan {
  std::size_t begin = 0; // first character after '('
  std::size_t end = 0;   // the matching ')'
  std::string error;     // why there is no span; empty on success
  bool ok() const { return error.empty(); }
};

// `nameOffset` is where the invocation `macroName ( ... )` starts in `buffer`. Between the name
// and '(' may stand whitespace, comments and line continuations. Parentheses inside string and
// character literals and comments do not count; a ' between digits is a digit separator.
MacroArgumentSpan findMacroArguments(std::string_view buffer, std::size_t nameOffset,
                                     std::string_view macroName);

} // namespace overlap::frontend
