// Splits annotation text into tokens located by byte offset, skipping whitespace and C/C++
// comments. Malformed literals and stray characters become Invalid tokens that carry their
// message, so the parser reports them in context and recovers like from any syntax error.
#pragma once

#include "annotation/Diagnostic.h"

#include <string>
#include <string_view>
#include <vector>

namespace overlap::annotation {

enum class TokenKind {
  Identifier,
  Integer,
  Punct,   // ( ) [ ] , : = + - * / % and the unsupported operators & | ^ ~ ! < > ? << >>
  Invalid, // message says why
  End      // one past the last token, at the end of the text
};

struct Token {
  TokenKind kind = TokenKind::End;
  std::string_view text;
  unsigned offset = 0;
  unsigned length = 0;
  long long value = 0; // Integer
  std::string message; // Invalid

  bool is(TokenKind k, std::string_view spelling) const { return kind == k && text == spelling; }
  bool isPunct(std::string_view spelling) const { return is(TokenKind::Punct, spelling); }
};

// The tokens of `text`, always ending with an End token. An unterminated block comment is
// reported in `diags` and ends the token stream.
std::vector<Token> lex(std::string_view text, Diagnostics& diags);

// How a token is quoted in messages: "'foo'", or "the end of the annotation".
std::string describe(const Token& token);

} // namespace overlap::annotation
