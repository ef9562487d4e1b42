#include "annotation/Lexer.h"

#include <cctype>
#include <climits>

namespace overlap::annotation {
namespace {

bool isIdentifierStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_';
}
bool isIdentifierChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

// Bytes of the UTF-8 sequence that starts with `lead`, so a stray non-ASCII character is
// reported as one character rather than as several broken ones.
unsigned utf8Length(unsigned char lead) {
  if (lead >= 0xF0)
    return 4;
  if (lead >= 0xE0)
    return 3;
  if (lead >= 0xC0)
    return 2;
  return 1;
}

bool isIntegerSuffix(std::string_view suffix) {
  std::string lower;
  for (char c : suffix)
    lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const char* accepted : {"", "u", "l", "ll", "ul", "lu", "ull", "llu"})
    if (lower == accepted)
      return true;
  return false;
}

int digitValue(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return 99;
}

class Lexer {
public:
  Lexer(std::string_view text, Diagnostics& diags) : text_(text), diags_(diags) {}

  std::vector<Token> run() {
    std::vector<Token> tokens;
    while (skipSpaceAndComments()) {
      if (isIdentifierStart(text_[pos_]))
        tokens.push_back(identifier());
      else if (std::isdigit(static_cast<unsigned char>(text_[pos_])))
        tokens.push_back(number());
      else
        tokens.push_back(punctuation());
    }
    Token end;
    end.kind = TokenKind::End;
    end.offset = static_cast<unsigned>(text_.size());
    tokens.push_back(end);
    return tokens;
  }

private:
  // Advances to the next token; false at the end of the text (or of a broken comment).
  bool skipSpaceAndComments() {
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++pos_;
      } else if (c == '\\' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '\n') {
        pos_ += 2; // a line continuation, as in a multi-line #define
      } else if (text_.compare(pos_, 2, "//") == 0) {
        size_t newline = text_.find('\n', pos_);
        pos_ = newline == std::string_view::npos ? text_.size() : newline + 1;
      } else if (text_.compare(pos_, 2, "/*") == 0) {
        size_t close = text_.find("*/", pos_ + 2);
        if (close == std::string_view::npos) {
          diags_.push_back({Diagnostic::Severity::Error, static_cast<unsigned>(pos_), 2,
                            "unterminated comment; close it with '*/'"});
          pos_ = text_.size();
          return false;
        }
        pos_ = close + 2;
      } else {
        return true;
      }
    }
    return false;
  }

  Token make(TokenKind kind, size_t begin) const {
    Token token;
    token.kind = kind;
    token.text = text_.substr(begin, pos_ - begin);
    token.offset = static_cast<unsigned>(begin);
    token.length = static_cast<unsigned>(pos_ - begin);
    return token;
  }

  Token identifier() {
    size_t begin = pos_;
    while (pos_ < text_.size() && isIdentifierChar(text_[pos_]))
      ++pos_;
    return make(TokenKind::Identifier, begin);
  }

  Token invalid(size_t begin, std::string message) const {
    Token token = make(TokenKind::Invalid, begin);
    token.message = std::move(message);
    return token;
  }

  // Consumes a whole preprocessing number, as a C++ compiler would, then judges it: the language
  // has decimal and hex integers only.
  Token number() {
    size_t begin = pos_;
    while (pos_ < text_.size() && (isIdentifierChar(text_[pos_]) || text_[pos_] == '.'))
      ++pos_;
    std::string_view spelling = text_.substr(begin, pos_ - begin);
    std::string quoted = "'" + std::string(spelling) + "'";

    bool hex =
        spelling.size() > 1 && spelling[0] == '0' && (spelling[1] == 'x' || spelling[1] == 'X');
    size_t digitsBegin = hex ? 2 : 0;
    int base = hex ? 16 : 10;
    size_t digitsEnd = digitsBegin;
    while (digitsEnd < spelling.size() && digitValue(spelling[digitsEnd]) < base)
      ++digitsEnd;
    std::string_view suffix = spelling.substr(digitsEnd);

    if (spelling.find('.') != std::string_view::npos ||
        (!hex && !suffix.empty() && (suffix[0] == 'e' || suffix[0] == 'E')))
      return invalid(begin, "floating-point literal " + quoted +
                                " in an integer expression; annotation expressions are integer");
    if (hex && digitsEnd == digitsBegin)
      return invalid(begin, "hexadecimal literal " + quoted + " has no digits");
    if (!hex && digitsEnd > 1 && spelling[0] == '0')
      return invalid(begin, "octal literal " + quoted +
                                " is not supported; write the number in decimal or hex");
    if (!isIntegerSuffix(suffix))
      return invalid(begin, "invalid suffix '" + std::string(suffix) + "' on integer literal " +
                                quoted + "; only u, l, ll and their combinations are accepted");

    long long value = 0;
    for (size_t i = digitsBegin; i < digitsEnd; ++i) {
      if (__builtin_mul_overflow(value, base, &value) ||
          __builtin_add_overflow(value, digitValue(spelling[i]), &value))
        return invalid(begin, "integer literal " + quoted +
                                  " is too large; expressions are long long, at most " +
                                  std::to_string(LLONG_MAX));
    }
    Token token = make(TokenKind::Integer, begin);
    token.value = value;
    return token;
  }

  Token punctuation() {
    size_t begin = pos_;
    if (text_.compare(pos_, 2, "<<") == 0 || text_.compare(pos_, 2, ">>") == 0) {
      pos_ += 2;
      return make(TokenKind::Punct, begin);
    }
    char c = text_[pos_];
    static constexpr std::string_view kPunctuation = "()[],:=+-*/%&|^~!<>?";
    if (kPunctuation.find(c) != std::string_view::npos) {
      ++pos_;
      return make(TokenKind::Punct, begin);
    }
    pos_ += utf8Length(static_cast<unsigned char>(c));
    if (pos_ > text_.size())
      pos_ = text_.size();
    return invalid(begin,
                   "unexpected character '" + std::string(text_.substr(begin, pos_ - begin)) + "'");
  }

  std::string_view text_;
  Diagnostics& diags_;
  size_t pos_ = 0;
};

} // namespace

std::vector<Token> lex(std::string_view text, Diagnostics& diags) {
  return Lexer(text, diags).run();
}

std::string describe(const Token& token) {
  if (token.kind == TokenKind::End)
    return "the end of the annotation";
  return "'" + std::string(token.text) + "'";
}

} // namespace overlap::annotation
