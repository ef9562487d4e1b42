#include "annotation/Parser.h"

#include "annotation/Lexer.h"
#include "annotation/Suggest.h"

#include <algorithm>
#include <memory>
#include <utility>

namespace overlap::annotation {
namespace {

using ir::Expr;
using ir::ExprKind;
using ir::ExprPtr;

struct ClauseKeyword {
  const char* spelling;
  ClauseKind kind;
};

constexpr ClauseKeyword kClauseKeywords[] = {
    {"partition", ClauseKind::Partition},
    {"offset", ClauseKind::Offset},
    {"range", ClauseKind::Range},
    {"copyin", ClauseKind::CopyIn},
    {"copyout", ClauseKind::CopyOut},
    {"copy", ClauseKind::Copy},
    {"extent", ClauseKind::Extent},
    {"launch", ClauseKind::Launch},
    {"tune", ClauseKind::Tune},
    {"granule", ClauseKind::Granule},
    {"reduce", ClauseKind::Reduce},
    {"halo", ClauseKind::Halo},
    {"param", ClauseKind::Param},
    {"optional", ClauseKind::Optional},
    {"instantiate", ClauseKind::Instantiate},
    {"bind", ClauseKind::Bind},
    {"name", ClauseKind::Name},
};

// reduce(OP: ...): the operators, as written and as the IR names them.
struct ReduceOperator {
  const char* spelling;
  ir::ReduceOp kind;
};

constexpr ReduceOperator kReduceOperators[] = {
    {"+", ir::ReduceOp::Sum},    {"*", ir::ReduceOp::Product}, {"min", ir::ReduceOp::Min},
    {"max", ir::ReduceOp::Max},  {"&", ir::ReduceOp::BitAnd},  {"|", ir::ReduceOp::BitOr},
    {"^", ir::ReduceOp::BitXor},
};

const ClauseKeyword* findClauseKeyword(std::string_view spelling) {
  for (const ClauseKeyword& keyword : kClauseKeywords)
    if (spelling == keyword.spelling)
      return &keyword;
  return nullptr;
}

std::vector<std::string> clauseKeywordSpellings() {
  std::vector<std::string> spellings;
  for (const ClauseKeyword& keyword : kClauseKeywords)
    spellings.emplace_back(keyword.spelling);
  return spellings;
}

struct Function {
  const char* spelling;
  ExprKind kind;
  bool inStd; // std::min(a, b) computes what min(a, b) does
};

constexpr Function kFunctions[] = {{"min", ExprKind::Min, true},
                                   {"max", ExprKind::Max, true},
                                   {"ceil_div", ExprKind::CeilDiv, false}};

int binaryPrecedence(const Token& token) {
  if (token.isPunct("<<") || token.isPunct(">>"))
    return 1;
  if (token.isPunct("+") || token.isPunct("-"))
    return 2;
  if (token.isPunct("*") || token.isPunct("/") || token.isPunct("%"))
    return 3;
  return 0;
}

ExprKind binaryKind(const Token& token) {
  switch (token.text[0]) {
  case '<':
    return ExprKind::Shl;
  case '>':
    return ExprKind::Shr;
  case '+':
    return ExprKind::Add;
  case '-':
    return ExprKind::Sub;
  case '*':
    return ExprKind::Mul;
  case '/':
    return ExprKind::Div;
  default:
    return ExprKind::Mod;
  }
}

// C++ operators the language leaves out; seeing one deserves a clearer message than "expected ')'".
bool isUnsupportedOperator(const Token& token) {
  if (token.kind != TokenKind::Punct)
    return false;
  for (const char* op : {"&", "|", "^", "~", "!", "<", ">", "?"})
    if (token.text == op)
      return true;
  return false;
}

std::string unsupportedOperatorMessage(const Token& token) {
  return "operator '" + std::string(token.text) +
         "' is not supported in annotation expressions; use + - * / % << >> min max ceil_div";
}

const std::string kTooDeepMessage = "expression is nested more than " +
                                    std::to_string(kMaxExpressionDepth) +
                                    " levels deep; simplify it or use fewer parentheses";

class Parser {
public:
  Parser(std::string_view text, Diagnostics& diags) : text_(text), diags_(diags) {
    size_t before = diags.size();
    tokens_ = lex(text, diags);
    if (diags.size() != before)
      syntax_.hasSyntaxErrors = true;
    limit_ = tokens_.size() - 1; // the End token
  }

  // The whole text as one expression (a file function's body).
  ExprPtr runExpression() {
    ExprPtr expr = parseExpr();
    if (expr && !atLimit()) {
      errorAt(peek(), "expected the end of the expression, found " + describe(peek()));
      return nullptr;
    }
    return expr;
  }

  AnnotationSyntax run() {
    bool afterClause = false;
    while (!atLimit()) {
      const Token& token = peek();
      if (token.isPunct(",") && afterClause) {
        advance();
        afterClause = false;
        continue;
      }
      if (token.kind != TokenKind::Identifier) {
        reportJunk();
        afterClause = false;
        continue;
      }
      if (!parseClause())
        break; // unterminated: the rest of the text is inside the broken clause
      afterClause = true;
    }
    return std::move(syntax_);
  }

private:
  enum class ListStep { Next, Done, Error };

  const Token& peek(size_t ahead = 0) const {
    size_t index = pos_ + ahead;
    return tokens_[index < limit_ ? index : limit_];
  }
  bool atLimit() const { return pos_ >= limit_; }
  const Token& advance() {
    const Token& token = tokens_[pos_];
    if (pos_ < limit_)
      ++pos_;
    return token;
  }
  // Consumes the punctuation if it is next.
  bool accept(std::string_view spelling) {
    if (!peek().isPunct(spelling))
      return false;
    advance();
    return true;
  }
  unsigned endOfPrevious() const {
    const Token& last = tokens_[pos_ - 1];
    return last.offset + last.length;
  }

  void error(unsigned offset, unsigned length, std::string message) {
    diags_.push_back({Diagnostic::Severity::Error, offset, length, std::move(message)});
    syntax_.hasSyntaxErrors = true;
  }
  // Reports the token as unexpected: its own message for a malformed literal or character.
  void errorAt(const Token& token, const std::string& message) {
    if (token.kind == TokenKind::Invalid)
      error(token.offset, token.length, token.message);
    else if (isUnsupportedOperator(token))
      error(token.offset, token.length, unsupportedOperatorMessage(token));
    else
      error(token.offset, token.length, message);
  }
  bool expectPunct(std::string_view spelling, const std::string& where) {
    if (peek().isPunct(spelling)) {
      advance();
      return true;
    }
    errorAt(peek(),
            "expected '" + std::string(spelling) + "' " + where + ", found " + describe(peek()));
    return false;
  }
  std::optional<Name> expectIdentifier(const std::string& what) {
    const Token& token = peek();
    if (token.kind != TokenKind::Identifier) {
      errorAt(token, "expected " + what + ", found " + describe(token));
      return std::nullopt;
    }
    advance();
    return Name{std::string(token.text), token.offset, token.length};
  }

  size_t matchingClose(size_t open) const {
    int depth = 0;
    for (size_t i = open; i + 1 < tokens_.size(); ++i) {
      if (tokens_[i].isPunct("("))
        ++depth;
      else if (tokens_[i].isPunct(")") && --depth == 0)
        return i;
    }
    return std::string_view::npos;
  }

  void reportJunk() {
    const Token& token = advance();
    skipToNextClause();
    if (token.kind == TokenKind::Invalid)
      errorAt(token, "");
    else if (!atLimit())
      error(token.offset, token.length,
            "expected a clause name such as copyin, found " + describe(token));
    else
      error(token.offset, token.length,
            "unexpected " + describe(token) + " after the last clause; remove it");
  }

  // After a broken clause start: one report is enough, so skip to what looks like the next
  // clause, a name followed by '('.
  void skipToNextClause() {
    while (!atLimit() && !(peek().kind == TokenKind::Identifier && peek(1).isPunct("(")))
      advance();
  }

  // Parses one clause starting at its keyword; false when it is unterminated.
  bool parseClause() {
    const Token& keywordToken = advance();
    Name keyword{std::string(keywordToken.text), keywordToken.offset, keywordToken.length};
    const ClauseKeyword* known = findClauseKeyword(keyword.text);
    if (known)
      syntax_.written.push_back(known->kind);
    if (!peek().isPunct("(")) {
      // A bare `offset` or `range`: the mode, for a kernel that takes no chunk length or bounds.
      if (known && known->kind == ClauseKind::Offset) {
        syntax_.offsets.push_back({keyword, std::nullopt, nullptr});
        return true;
      }
      if (known && known->kind == ClauseKind::Range) {
        syntax_.ranges.push_back({keyword, std::nullopt, std::nullopt});
        return true;
      }
      if (known)
        errorAt(peek(), "expected '(' after '" + keyword.text + "', found " + describe(peek()));
      else
        reportUnknownClause(keyword);
      skipToNextClause();
      return true;
    }
    size_t open = pos_;
    size_t close = matchingClose(open);
    if (close == std::string_view::npos) {
      if (known)
        error(keyword.offset, tokens_[open].offset + 1 - keyword.offset,
              "unterminated '" + keyword.text + "' clause; add the missing ')'");
      else
        reportUnknownClause(keyword);
      return false;
    }
    if (!known) {
      reportUnknownClause(keyword);
      pos_ = close + 1;
      return true;
    }
    advance(); // (
    size_t outerLimit = limit_;
    limit_ = close;
    bool parsed = parseClauseBody(known->kind, keyword);
    if (parsed && !atLimit())
      errorAt(peek(),
              "expected ')' to end the '" + keyword.text + "' clause, found " + describe(peek()));
    limit_ = outerLimit;
    pos_ = close + 1;
    return true;
  }

  void reportUnknownClause(const Name& keyword) {
    const std::vector<std::string> spellings = clauseKeywordSpellings();
    std::string meant = closestMatch(keyword.text, spellings);
    if (meant.empty()) {
      std::string list;
      for (size_t i = 0; i < spellings.size(); ++i)
        list += (i == 0 ? "" : i + 1 == spellings.size() ? " and " : ", ") + spellings[i];
      error(keyword.offset, keyword.length,
            "unknown clause '" + keyword.text + "'; the clauses are " + list);
      return;
    }
    error(keyword.offset, keyword.length,
          "unknown clause '" + keyword.text + "'; did you mean '" + meant + "'?");
    // Count it as the clause the user meant, so that it is not also reported missing.
    syntax_.written.push_back(findClauseKeyword(meant)->kind);
  }

  bool parseClauseBody(ClauseKind kind, const Name& keyword) {
    switch (kind) {
    case ClauseKind::Partition:
      return parsePartition(keyword);
    case ClauseKind::Offset:
      return parseOffset(keyword);
    case ClauseKind::Range:
      return parseRange(keyword);
    case ClauseKind::CopyIn:
      return parseData(keyword, ir::Direction::In);
    case ClauseKind::CopyOut:
      return parseData(keyword, ir::Direction::Out);
    case ClauseKind::Copy:
      return parseData(keyword, ir::Direction::InOut);
    case ClauseKind::Extent:
      return parseExtent(keyword);
    case ClauseKind::Launch:
      return parseLaunch(keyword);
    case ClauseKind::Tune:
      return parseTune(keyword);
    case ClauseKind::Granule:
      return parseGranule(keyword);
    case ClauseKind::Reduce:
      return parseReduce(keyword);
    case ClauseKind::Halo:
      return parseHalo(keyword);
    case ClauseKind::Param:
      return parseParam(keyword);
    case ClauseKind::Optional:
      return parseOptional(keyword);
    case ClauseKind::Instantiate:
      return parseInstantiate(keyword);
    case ClauseKind::Bind:
      return parseBind(keyword);
    case ClauseKind::Name:
      return parseName(keyword);
    }
    return false;
  }

  // partition(EXTENT) or partition(BEGIN : END).
  bool parsePartition(const Name& keyword) {
    ExprPtr first = parseExpr();
    if (!first)
      return false;
    if (!accept(":")) {
      syntax_.partitions.push_back({keyword, first, nullptr});
      return true;
    }
    ExprPtr end = parseExpr();
    if (!end)
      return false;
    syntax_.partitions.push_back({keyword, end, first});
    return true;
  }

  // offset(PARAM) or offset(PARAM = VALUE).
  bool parseOffset(const Name& keyword) {
    std::optional<Name> param = expectIdentifier("the name of the parameter that receives the "
                                                 "chunk length");
    if (!param)
      return false;
    ExprPtr value;
    if (accept("=")) {
      value = parseExpr();
      if (!value)
        return false;
    }
    syntax_.offsets.push_back({keyword, *param, value});
    return true;
  }

  bool parseGranule(const Name& keyword) {
    ExprPtr granule = parseExpr();
    if (!granule)
      return false;
    syntax_.granules.push_back({keyword, granule});
    return true;
  }

  // NAME { ',' NAME } up to the clause's end, or up to `stop` when it is given.
  bool parseNameList(const Name& keyword, const std::string& what, std::vector<Name>* names,
                     std::string_view stop = {}) {
    while (true) {
      std::optional<Name> name = expectIdentifier(what);
      if (!name)
        return false;
      names->push_back(*name);
      if (accept(","))
        continue;
      if (!stop.empty() && accept(stop))
        return true;
      if (stop.empty() && atLimit())
        return true;
      errorAt(peek(),
              "expected ','" +
                  (stop.empty() ? std::string(" or ')'") : " or '" + std::string(stop) + "'") +
                  " in '" + keyword.text + "', found " + describe(peek()));
      return false;
    }
  }

  bool parseReduce(const Name& keyword) {
    const Token& opToken = peek();
    const ReduceOperator* op = nullptr;
    for (const ReduceOperator& candidate : kReduceOperators)
      if (opToken.text == candidate.spelling &&
          (opToken.kind == TokenKind::Punct || opToken.kind == TokenKind::Identifier))
        op = &candidate;
    if (!op) {
      errorAt(opToken, "expected a reduction operator (+ * min max & | ^) in 'reduce(OP: "
                       "ARRAY)', found " +
                           describe(opToken));
      return false;
    }
    advance();
    if (!expectPunct(":", "after the reduction operator (reduce(+: ARRAY))"))
      return false;
    ReduceClause clause{keyword, Name{op->spelling, opToken.offset, opToken.length}, op->kind, {}};
    if (!parseNameList(keyword, "an array name", &clause.arrays))
      return false;
    syntax_.reduces.push_back(std::move(clause));
    return true;
  }

  bool parseHalo(const Name& keyword) {
    HaloClause clause{keyword, {}, nullptr, nullptr};
    if (!parseNameList(keyword, "an array name", &clause.arrays, ":"))
      return false;
    clause.before = parseExpr();
    if (!clause.before)
      return false;
    if (accept(",")) {
      clause.after = parseExpr();
      if (!clause.after)
        return false;
    }
    syntax_.halos.push_back(std::move(clause));
    return true;
  }

  // TYPE-WORD... NAME { ',' TYPE-WORD... NAME }: the words before the last are the type.
  bool parseParam(const Name& keyword) {
    ParamClause clause{keyword, {}};
    ListStep step = ListStep::Next;
    do {
      std::vector<Name> words; // a qualified word (std::size_t) is one word
      while (peek().kind == TokenKind::Identifier || atScopeSeparator())
        words.push_back(parseQualifiedName());
      if (words.size() < 2) {
        errorAt(peek(), words.empty() ? "expected a type and a name (param(int rows)), found " +
                                            describe(peek())
                                      : "expected a type before the name '" + words[0].text +
                                            "' (param(int " + words[0].text + "))");
        return false;
      }
      HostParamSyntax param;
      param.name = words.back();
      for (size_t i = 0; i + 1 < words.size(); ++i)
        param.type += (i ? " " : "") + words[i].text;
      param.typeOffset = words.front().offset;
      param.typeLength =
          words[words.size() - 2].offset + words[words.size() - 2].length - words.front().offset;
      clause.params.push_back(param);
      step = listSeparator(keyword);
    } while (step == ListStep::Next);
    if (step == ListStep::Error)
      return false;
    syntax_.hostParams.push_back(std::move(clause));
    return true;
  }

  bool parseOptional(const Name& keyword) {
    OptionalClause clause{keyword, {}};
    if (!parseNameList(keyword, "an array name", &clause.arrays))
      return false;
    syntax_.optionals.push_back(std::move(clause));
    return true;
  }

  bool parseName(const Name& keyword) {
    std::optional<Name> name = expectIdentifier("the entry points' name");
    if (!name)
      return false;
    syntax_.names.push_back({keyword, *name});
    return true;
  }

  // instantiate([NAME:] PARAM = ARGUMENT, ...): arguments are C++ text up to the next ',' or the
  // clause's end outside parentheses and angle brackets.
  bool parseInstantiate(const Name& keyword) {
    InstantiateClause clause{keyword, std::nullopt, {}};
    if (peek().kind == TokenKind::Identifier && peek(1).isPunct(":") && !peek(2).isPunct(":")) {
      const Token& name = advance();
      clause.name = Name{std::string(name.text), name.offset, name.length};
      advance(); // :
    }
    ListStep step = ListStep::Next;
    do {
      std::optional<Name> param = expectIdentifier("a template parameter name");
      if (!param || !expectPunct("=", "after the template parameter (instantiate(T = float))"))
        return false;
      TemplateArgumentSyntax argument{*param, "", peek().offset, 0};
      int depth = 0;
      size_t first = pos_;
      while (!atLimit() && !(depth == 0 && peek().isPunct(","))) {
        const Token& token = advance();
        if (token.isPunct("(") || token.isPunct("<"))
          ++depth;
        else if (token.isPunct(")") || token.isPunct(">"))
          --depth;
        else if (token.isPunct(">>"))
          depth -= 2;
      }
      if (pos_ == first) {
        errorAt(peek(), "expected a template argument after '" + param->text + " =', found " +
                            describe(peek()));
        return false;
      }
      argument.length = endOfPrevious() - argument.offset;
      argument.text = std::string(text_.substr(argument.offset, argument.length));
      clause.arguments.push_back(std::move(argument));
      step = listSeparator(keyword);
    } while (step == ListStep::Next);
    if (step == ListStep::Error)
      return false;
    syntax_.instantiations.push_back(std::move(clause));
    return true;
  }

  // range(BEGIN [, END]).
  bool parseRange(const Name& keyword) {
    std::optional<Name> begin = expectIdentifier("the name of the parameter that receives lo");
    if (!begin)
      return false;
    if (atLimit()) {
      syntax_.ranges.push_back({keyword, *begin, std::nullopt});
      return true;
    }
    if (!expectPunct(",", "between the begin and end parameters of range"))
      return false;
    std::optional<Name> end = expectIdentifier("the name of the parameter that receives hi");
    if (!end)
      return false;
    syntax_.ranges.push_back({keyword, *begin, *end});
    return true;
  }

  // bind(PARAM = VALUE, ...).
  bool parseBind(const Name& keyword) {
    BindClause clause{keyword, {}};
    ListStep step = ListStep::Next;
    do {
      std::optional<Name> param = expectIdentifier("a parameter name");
      if (!param || !expectPunct("=", "after the parameter name (bind(offset = offset + lo))"))
        return false;
      ExprPtr value = parseExpr();
      if (!value)
        return false;
      clause.bindings.push_back({*param, value});
      step = listSeparator(keyword);
    } while (step == ListStep::Next);
    if (step == ListStep::Error)
      return false;
    syntax_.binds.push_back(std::move(clause));
    return true;
  }

  bool parseData(const Name& keyword, ir::Direction direction) {
    DataClause clause{keyword, direction, {}};
    ListStep step = ListStep::Next;
    do {
      std::optional<Name> array = expectIdentifier("an array name");
      if (!array)
        return false;
      DataItem item{*array, std::nullopt};
      if (peek().isPunct("[")) {
        unsigned open = advance().offset;
        SectionSyntax section;
        section.begin = parseExpr();
        if (!section.begin || !expectPunct(":", "between the begin and end of the section"))
          return false;
        section.end = parseExpr();
        if (!section.end || !expectPunct("]", "to close the section"))
          return false;
        section.offset = open;
        section.length = endOfPrevious() - open;
        item.section = section;
      }
      clause.items.push_back(std::move(item));
      step = listSeparator(keyword);
    } while (step == ListStep::Next);
    if (step == ListStep::Error)
      return false;
    syntax_.dataClauses.push_back(std::move(clause));
    return true;
  }

  // After a list element: ',' continues the list, the clause's end finishes it, and anything
  // else is reported.
  ListStep listSeparator(const Name& keyword) {
    if (peek().isPunct(",")) {
      advance();
      return ListStep::Next;
    }
    if (atLimit())
      return ListStep::Done;
    errorAt(peek(), "expected ',' or ')' in '" + keyword.text + "', found " + describe(peek()));
    return ListStep::Error;
  }

  // extent(x, y: N) or several groups, extent(x: N, y: M).
  bool parseExtent(const Name& keyword) {
    while (true) {
      if (!parseExtentGroup(keyword))
        return false;
      if (!peek().isPunct(","))
        return true;
      advance();
    }
  }

  bool parseExtentGroup(const Name& keyword) {
    ExtentClause clause{keyword, {}, nullptr};
    while (true) {
      std::optional<Name> array = expectIdentifier("an array name");
      if (!array)
        return false;
      clause.arrays.push_back(*array);
      if (peek().isPunct(",")) {
        advance();
        continue;
      }
      if (peek().isPunct(":")) {
        advance();
        break;
      }
      errorAt(peek(), "expected ',' or ':' in 'extent' (extent(x, y: ELEMENTS)), found " +
                          describe(peek()));
      return false;
    }
    clause.elements = parseExpr();
    if (!clause.elements)
      return false;
    syntax_.extents.push_back(std::move(clause));
    return true;
  }

  bool parseLaunch(const Name& keyword) {
    LaunchClause clause{keyword, {}};
    ListStep step = ListStep::Next;
    do {
      std::optional<Name> key = expectIdentifier("a launch key (grid, gridstride, block, shared)");
      if (!key)
        return false;
      LaunchEntry entry{*key, std::nullopt};
      if (peek().isPunct(":")) {
        advance();
        entry.value = parseDim();
        if (!entry.value)
          return false;
      } else if (!peek().isPunct(",") && !atLimit()) {
        errorAt(peek(), "expected ':' after '" + key->text + "', found " + describe(peek()));
        return false;
      }
      clause.entries.push_back(std::move(entry));
      step = listSeparator(keyword);
    } while (step == ListStep::Next);
    if (step == ListStep::Error)
      return false;
    syntax_.launches.push_back(std::move(clause));
    return true;
  }

  // DIM := EXPR | '(' EXPR ',' EXPR [',' EXPR] ')'. A parenthesized group is a list only when it
  // has a comma at its own level, so "(n + 1) / 2" stays an expression.
  std::optional<DimSyntax> parseDim() {
    DimSyntax dim;
    dim.offset = peek().offset;
    if (peek().isPunct("(") && groupHasTopLevelComma(pos_)) {
      advance();
      dim.parenthesizedList = true;
      do {
        ExprPtr component = parseExpr();
        if (!component)
          return std::nullopt;
        dim.components.push_back(component);
      } while (accept(","));
      if (!expectPunct(")", "to close the dimensions"))
        return std::nullopt;
    } else {
      ExprPtr component = parseExpr();
      if (!component)
        return std::nullopt;
      dim.components.push_back(component);
    }
    dim.length = endOfPrevious() - dim.offset;
    return dim;
  }

  bool groupHasTopLevelComma(size_t open) const {
    int depth = 0;
    for (size_t i = open; i < limit_; ++i) {
      if (tokens_[i].isPunct("("))
        ++depth;
      else if (tokens_[i].isPunct(")") && --depth == 0)
        return false;
      else if (depth == 1 && tokens_[i].isPunct(","))
        return true;
    }
    return false;
  }

  bool parseTune(const Name& keyword) {
    TuneClause clause{keyword, {}};
    ListStep step = ListStep::Next;
    do {
      std::optional<Name> param = expectIdentifier("a parameter name");
      if (!param || !expectPunct("=", "after the parameter name (tune(n = VALUE))"))
        return false;
      ExprPtr value = parseExpr();
      if (!value)
        return false;
      clause.entries.push_back({*param, value});
      step = listSeparator(keyword);
    } while (step == ListStep::Next);
    if (step == ListStep::Error)
      return false;
    syntax_.tunes.push_back(std::move(clause));
    return true;
  }

  // Expressions: precedence climbing over << >> (1), + - (2) and * / % (3), then unary minus.
  ExprPtr parseExpr() { return parseBinary(1); }

  ExprPtr parseBinary(int minPrecedence) {
    ExprPtr lhs = parseUnary();
    while (lhs) {
      const Token& op = peek();
      if (isUnsupportedOperator(op)) {
        errorAt(op, "");
        return nullptr;
      }
      int precedence = binaryPrecedence(op);
      if (precedence < minPrecedence || precedence == 0)
        break;
      advance();
      ExprPtr rhs = parseBinary(precedence + 1);
      if (!rhs)
        return nullptr;
      lhs = makeNode(binaryKind(op), lhs->offset, {lhs, rhs});
    }
    return lhs;
  }

  // Every nested expression (parentheses, call arguments, operands of unary minus and of the right
  // side of a binary operator) comes through here, so this bounds the parser's recursion.
  ExprPtr parseUnary() {
    if (nesting_ >= kMaxExpressionDepth) {
      const Token& token = peek();
      error(token.offset, token.length, kTooDeepMessage);
      return nullptr;
    }
    ++nesting_;
    ExprPtr result = parseUnaryOperand();
    --nesting_;
    return result;
  }

  ExprPtr parseUnaryOperand() {
    const Token& token = peek();
    if (token.isPunct("-") || token.isPunct("+")) {
      advance();
      ExprPtr operand = parseUnary();
      if (!operand || token.isPunct("+"))
        return operand;
      return makeNode(ExprKind::Negate, token.offset, {operand});
    }
    return parsePrimary();
  }

  ExprPtr parsePrimary() {
    const Token& token = peek();
    switch (token.kind) {
    case TokenKind::Integer: {
      advance();
      auto literal = std::make_shared<Expr>();
      literal->kind = ExprKind::Literal;
      literal->value = token.value;
      literal->offset = token.offset;
      literal->length = token.length;
      return literal;
    }
    default:
      break;
    }
    if (token.kind == TokenKind::Identifier || atScopeSeparator()) {
      if (token.text == "sizeof" && peek(1).isPunct("("))
        return parseSizeOf();
      const Name name = parseQualifiedName();
      return peek().isPunct("(") ? parseCall(name) : makeName(name);
    }
    if (token.isPunct("(")) {
      advance();
      ExprPtr inner = parseExpr();
      if (!inner || !expectPunct(")", "to close the parenthesized expression"))
        return nullptr;
      // The parentheses belong to the spelled text, so diagnostics underline them too.
      auto widened = std::make_shared<Expr>(*inner);
      widened->offset = token.offset;
      widened->length = endOfPrevious() - token.offset;
      return widened;
    }
    errorAt(token, "expected an expression, found " + describe(token));
    return nullptr;
  }

  // At '::' followed by a word: '::' lexes as two adjacent ':'.
  bool atScopeSeparator(size_t ahead = 0) const {
    return peek(ahead).isPunct(":") && peek(ahead + 1).isPunct(":") &&
           peek(ahead + 1).offset == peek(ahead).offset + 1 &&
           peek(ahead + 2).kind == TokenKind::Identifier;
  }

  // A word, or a qualified name (cfg::kThreads, ::ns::f) spelled without its spaces.
  Name parseQualifiedName() {
    Name name{"", peek().offset, 0};
    if (atScopeSeparator()) {
      advance();
      advance();
      name.text = "::";
    }
    name.text += advance().text;
    while (atScopeSeparator()) {
      advance();
      advance();
      name.text += "::" + std::string(advance().text);
    }
    name.length = endOfPrevious() - name.offset;
    return name;
  }

  ExprPtr makeName(const Name& spelled) {
    auto name = std::make_shared<Expr>();
    if (spelled.text == "lo")
      name->kind = ExprKind::ChunkLo;
    else if (spelled.text == "hi")
      name->kind = ExprKind::ChunkHi;
    else if (spelled.text == "len")
      name->kind = ExprKind::ChunkLen;
    else
      name->kind = ExprKind::Param;
    name->name = spelled.text;
    name->offset = spelled.offset;
    name->length = spelled.length;
    return name;
  }

  // sizeof(TYPE): the type's words, for the checker to look up.
  ExprPtr parseSizeOf() {
    const Token& keyword = advance();
    advance();        // (
    std::string type; // "unsigned int", "ns::Point"
    for (;;) {
      if (peek().kind == TokenKind::Identifier) {
        if (!type.empty() && type.back() != ':')
          type += ' ';
        type += advance().text;
      } else if (peek().isPunct(":")) {
        type += advance().text;
      } else {
        break;
      }
    }
    if (type.empty()) {
      errorAt(peek(), "expected a type in sizeof(TYPE), found " + describe(peek()));
      return nullptr;
    }
    if (!expectPunct(")", "to close sizeof(" + type + ")"))
      return nullptr;
    auto node = std::make_shared<Expr>();
    node->kind = ExprKind::SizeOf;
    node->name = type;
    node->offset = keyword.offset;
    node->length = endOfPrevious() - keyword.offset;
    return node;
  }

  // The language's function `name` spells (min, std::max, ceil_div), or null.
  static const Function* builtinFunction(const std::string& name) {
    for (const Function& f : kFunctions)
      if (name == f.spelling || (f.inStd && (name == "std::" + std::string(f.spelling) ||
                                             name == "::std::" + std::string(f.spelling))))
        return &f;
    return nullptr;
  }

  ExprPtr parseCall(const Name& callee) {
    const Function* function = builtinFunction(callee.text);
    advance(); // (
    std::vector<ExprPtr> arguments;
    if (!peek().isPunct(")")) {
      do {
        ExprPtr argument = parseExpr();
        if (!argument)
          return nullptr;
        arguments.push_back(argument);
      } while (accept(","));
    }
    if (!expectPunct(")", "to close the call of '" + callee.text + "'"))
      return nullptr;
    if (!function) // a function of the file, or none: the checker knows
      return makeNode(ExprKind::Call, callee.offset, std::move(arguments), callee.text);
    if (arguments.size() != 2) {
      error(callee.offset, endOfPrevious() - callee.offset,
            "'" + callee.text + "' takes 2 arguments, found " + std::to_string(arguments.size()));
      return nullptr;
    }
    return makeNode(function->kind, callee.offset, std::move(arguments));
  }

  ExprPtr makeNode(ExprKind kind, unsigned offset, std::vector<ExprPtr> operands,
                   std::string name = {}) {
    auto node = std::make_shared<Expr>();
    node->kind = kind;
    node->name = std::move(name);
    node->operands = std::move(operands);
    node->offset = offset;
    node->length = endOfPrevious() - offset;
    // A long chain such as 1+1+...+1 is built by a loop, not by recursion, yet nests as deep.
    if (expressionDepth(*node) > kMaxExpressionDepth) {
      error(node->offset, node->length, kTooDeepMessage);
      return nullptr;
    }
    return node;
  }

  std::string_view text_;
  Diagnostics& diags_;
  std::vector<Token> tokens_;
  size_t pos_ = 0;
  unsigned nesting_ = 0; // parseUnary calls under way
  size_t limit_ = 0;     // index of the token that ends the current clause (or the End token)
  AnnotationSyntax syntax_;
};

} // namespace

AnnotationSyntax parseAnnotation(std::string_view text, Diagnostics& diags) {
  return Parser(text, diags).run();
}

// Recursive, but only over subtrees that were bounded when they were built.
unsigned expressionDepth(const ir::Expr& expr) {
  unsigned deepest = 0;
  for (const ExprPtr& operand : expr.operands)
    deepest = std::max(deepest, expressionDepth(*operand));
  return deepest + 1;
}

ir::ExprPtr parseExpression(std::string_view text, Diagnostics& diags) {
  return Parser(text, diags).runExpression();
}

} // namespace overlap::annotation
