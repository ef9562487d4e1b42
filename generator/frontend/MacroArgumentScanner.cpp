#include "frontend/MacroArgumentScanner.h"

#include <cctype>

namespace overlap::frontend {
namespace {

bool isIdentifierChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

class Cursor {
public:
  Cursor(std::string_view text, std::size_t at) : text_(text), at_(at) {}

  bool atEnd() const { return at_ >= text_.size(); }
  char peek(std::size_t ahead = 0) const {
    return at_ + ahead < text_.size() ? text_[at_ + ahead] : '\0';
  }
  std::size_t position() const { return at_; }
  void advance(std::size_t count = 1) { at_ += count; }

  // Skips a comment or a line continuation at the cursor; false when there is none. Sets
  // `unterminated` for a block comment without its end.
  bool skipCommentOrContinuation(bool& unterminated) {
    if (peek() == '\\' && (peek(1) == '\n' || (peek(1) == '\r' && peek(2) == '\n'))) {
      advance(peek(1) == '\n' ? 2 : 3);
      return true;
    }
    if (peek() == '/' && peek(1) == '/') {
      while (!atEnd() && peek() != '\n')
        advance();
      return true;
    }
    if (peek() == '/' && peek(1) == '*') {
      advance(2);
      while (!atEnd() && !(peek() == '*' && peek(1) == '/'))
        advance();
      if (atEnd()) {
        unterminated = true;
        return true;
      }
      advance(2);
      return true;
    }
    return false;
  }

  // Skips a string or character literal starting at the cursor (on its quote).
  bool skipQuoted() {
    const char quote = peek();
    advance();
    while (!atEnd() && peek() != quote && peek() != '\n') {
      if (peek() == '\\')
        advance();
      advance();
    }
    if (peek() != quote)
      return false;
    advance();
    return true;
  }

private:
  std::string_view text_;
  std::size_t at_;
};

} // namespace

MacroArgumentSpan findMacroArguments(std::string_view buffer, std::size_t nameOffset,
                                     std::string_view macroName) {
  MacroArgumentSpan span;
  const bool nameMatches = buffer.substr(nameOffset, macroName.size()) == macroName &&
                           (nameOffset + macroName.size() >= buffer.size() ||
                            !isIdentifierChar(buffer[nameOffset + macroName.size()]));
  if (!nameMatches) {
    span.error = "expected '" + std::string(macroName) + "' here";
    return span;
  }
  Cursor cursor(buffer, nameOffset + macroName.size());
  bool unterminated = false;
  while (!cursor.atEnd()) {
    if (std::isspace(static_cast<unsigned char>(cursor.peek())) != 0)
      cursor.advance();
    else if (!cursor.skipCommentOrContinuation(unterminated))
      break;
  }
  if (cursor.peek() != '(') {
    span.error = "expected '(' after '" + std::string(macroName) + "'";
    return span;
  }
  cursor.advance();
  span.begin = cursor.position();

  int depth = 1;
  while (!cursor.atEnd()) {
    const char c = cursor.peek();
    if (cursor.skipCommentOrContinuation(unterminated)) {
      if (unterminated)
        break;
      continue;
    }
    const bool digitSeparator =
        c == '\'' && cursor.position() > 0 && isIdentifierChar(buffer[cursor.position() - 1]);
    if ((c == '"' || c == '\'') && !digitSeparator) {
      if (!cursor.skipQuoted()) {
        span.error = std::string("unterminated ") + (c == '"' ? "string" : "character") +
                     " literal in the arguments of '" + std::string(macroName) + "'";
        return span;
      }
      continue;
    }
    if (c == '(') {
      ++depth;
    } else if (c == ')' && --depth == 0) {
      span.end = cursor.position();
      return span;
    }
    cursor.advance();
  }
  span.error = "missing ')' to close '" + std::string(macroName) + "('";
  return span;
}

} // namespace overlap::frontend
