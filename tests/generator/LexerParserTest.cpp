// The lexer's tokens and the parser's clause structure, located by byte offsets.
#include "annotation/Instantiations.h"
#include "annotation/Lexer.h"
#include "annotation/Parser.h"
#include "annotation/Suggest.h"

#include <gtest/gtest.h>

#include <string>

namespace overlap::annotation {
namespace {

std::vector<Token> lexOk(const std::string& text) {
  Diagnostics diags;
  std::vector<Token> tokens = lex(text, diags);
  EXPECT_TRUE(diags.empty()) << (diags.empty() ? "" : diags[0].message);
  return tokens;
}

std::string spellings(const std::vector<Token>& tokens) {
  std::string joined;
  for (const Token& t : tokens)
    joined += (t.kind == TokenKind::End ? std::string("<end>") : std::string(t.text)) + " ";
  return joined;
}

TEST(Lexer, SkipsWhitespaceAndBothCommentKinds) {
  std::string text = "partition(n) // the rows\n  /* several\n lines */ offset(\\\nn)";
  std::vector<Token> tokens = lexOk(text);
  EXPECT_EQ(spellings(tokens), "partition ( n ) offset ( n ) <end> ");
  EXPECT_EQ(tokens[4].offset, text.find("offset"));
  EXPECT_EQ(tokens[4].length, 6u);
  EXPECT_EQ(tokens.back().offset, text.size());
}

TEST(Lexer, TokenKindsAndOffsets) {
  std::string text = "copyin(x[(lo-1)*k : hi<<2])";
  std::vector<Token> tokens = lexOk(text);
  EXPECT_EQ(spellings(tokens), "copyin ( x [ ( lo - 1 ) * k : hi << 2 ] ) <end> ");
  EXPECT_EQ(tokens[0].kind, TokenKind::Identifier);
  EXPECT_EQ(tokens[1].kind, TokenKind::Punct);
  EXPECT_EQ(tokens[7].kind, TokenKind::Integer);
  EXPECT_EQ(tokens[7].value, 1);
  const Token& shift = tokens[13];
  EXPECT_TRUE(shift.isPunct("<<"));
  EXPECT_EQ(shift.offset, text.find("<<"));
  EXPECT_EQ(shift.length, 2u);
}

TEST(Lexer, IntegerLiterals) {
  std::vector<Token> tokens =
      lexOk("0 42 0x2a 0XFF 10u 10UL 10ll 10ull 10LLU 9223372036854775807 0x7fffffffffffffff");
  std::vector<long long> values = {
      0, 42, 42, 255, 10, 10, 10, 10, 10, 9223372036854775807LL, 9223372036854775807LL};
  ASSERT_EQ(tokens.size(), values.size() + 1);
  for (size_t i = 0; i < values.size(); ++i) {
    EXPECT_EQ(tokens[i].kind, TokenKind::Integer) << tokens[i].text;
    EXPECT_EQ(tokens[i].value, values[i]) << tokens[i].text;
  }
}

TEST(Lexer, MalformedLiteralsBecomeInvalidTokensWithAMessage) {
  Diagnostics diags;
  std::vector<Token> tokens = lex("1.0 0x 08 12abc 0x8000000000000000 @", diags);
  EXPECT_TRUE(diags.empty()) << "the parser reports them in context";
  ASSERT_EQ(tokens.size(), 7u);
  for (size_t i = 0; i < 6; ++i)
    EXPECT_EQ(tokens[i].kind, TokenKind::Invalid) << tokens[i].text;
  EXPECT_NE(tokens[0].message.find("floating-point literal '1.0'"), std::string::npos);
  EXPECT_NE(tokens[1].message.find("hexadecimal literal '0x' has no digits"), std::string::npos);
  EXPECT_NE(tokens[2].message.find("octal literal '08'"), std::string::npos);
  EXPECT_NE(tokens[3].message.find("invalid suffix 'abc'"), std::string::npos);
  EXPECT_NE(tokens[4].message.find("too large"), std::string::npos);
  EXPECT_NE(tokens[5].message.find("unexpected character '@'"), std::string::npos);
}

TEST(Lexer, NonAsciiCharacterIsOneToken) {
  Diagnostics diags;
  std::string text = "n \xc3\xa9 m"; // é
  std::vector<Token> tokens = lex(text, diags);
  ASSERT_EQ(tokens.size(), 4u);
  EXPECT_EQ(tokens[1].kind, TokenKind::Invalid);
  EXPECT_EQ(tokens[1].offset, 2u);
  EXPECT_EQ(tokens[1].length, 2u);
  EXPECT_EQ(tokens[2].text, "m");
}

TEST(Lexer, UnterminatedBlockComment) {
  Diagnostics diags;
  std::vector<Token> tokens = lex("partition(n) /* oops", diags);
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags[0].offset, 13u);
  EXPECT_EQ(diags[0].length, 2u);
  EXPECT_EQ(spellings(tokens), "partition ( n ) <end> ");
}

AnnotationSyntax parseOk(const std::string& text) {
  Diagnostics diags;
  AnnotationSyntax syntax = parseAnnotation(text, diags);
  EXPECT_TRUE(diags.empty()) << text << ": " << (diags.empty() ? "" : diags[0].message);
  EXPECT_FALSE(syntax.hasSyntaxErrors);
  return syntax;
}

std::string spelled(const std::string& text, const ir::ExprPtr& e) {
  return text.substr(e->offset, e->length);
}

TEST(Parser, EveryClauseKind) {
  std::string text = "partition(rows) range(first, last) extent(a, b: rows * cols) "
                     "copyin(a[lo:hi], w) copyout(b[lo * cols : hi * cols]) copy(c[0:1]) "
                     "launch(gridstride, block: (32, 8), shared: 1024) tune(rows = 7, cols = 9)";
  AnnotationSyntax s = parseOk(text);
  ASSERT_EQ(s.partitions.size(), 1u);
  EXPECT_EQ(spelled(text, s.partitions[0].extent), "rows");
  EXPECT_EQ(s.partitions[0].keyword.offset, 0u);
  ASSERT_EQ(s.ranges.size(), 1u);
  EXPECT_EQ(s.ranges[0].beginParam->text, "first");
  EXPECT_EQ(s.ranges[0].endParam->text, "last");
  EXPECT_EQ(s.ranges[0].endParam->offset, text.find("last"));
  EXPECT_TRUE(s.offsets.empty());

  ASSERT_EQ(s.extents.size(), 1u);
  ASSERT_EQ(s.extents[0].arrays.size(), 2u);
  EXPECT_EQ(s.extents[0].arrays[1].text, "b");
  EXPECT_EQ(spelled(text, s.extents[0].elements), "rows * cols");

  ASSERT_EQ(s.dataClauses.size(), 3u);
  const DataClause& in = s.dataClauses[0];
  EXPECT_EQ(in.direction, ir::Direction::In);
  ASSERT_EQ(in.items.size(), 2u);
  ASSERT_TRUE(in.items[0].section.has_value());
  EXPECT_EQ(text.substr(in.items[0].section->offset, in.items[0].section->length), "[lo:hi]");
  EXPECT_EQ(in.items[0].section->begin->kind, ir::ExprKind::ChunkLo);
  EXPECT_FALSE(in.items[1].section.has_value());
  EXPECT_EQ(in.items[1].array.offset, text.find("w)"));
  EXPECT_EQ(s.dataClauses[1].direction, ir::Direction::Out);
  EXPECT_EQ(spelled(text, s.dataClauses[1].items[0].section->end), "hi * cols");
  EXPECT_EQ(s.dataClauses[2].direction, ir::Direction::InOut);
  EXPECT_EQ(s.dataClauses[2].keyword.text, "copy");

  ASSERT_EQ(s.launches.size(), 1u);
  const std::vector<LaunchEntry>& entries = s.launches[0].entries;
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[0].key.text, "gridstride");
  EXPECT_FALSE(entries[0].value.has_value());
  EXPECT_EQ(entries[1].key.text, "block");
  ASSERT_TRUE(entries[1].value.has_value());
  EXPECT_TRUE(entries[1].value->parenthesizedList);
  EXPECT_EQ(entries[1].value->components.size(), 2u);
  EXPECT_EQ(text.substr(entries[1].value->offset, entries[1].value->length), "(32, 8)");
  EXPECT_EQ(entries[2].value->components.size(), 1u);

  ASSERT_EQ(s.tunes.size(), 1u);
  ASSERT_EQ(s.tunes[0].entries.size(), 2u);
  EXPECT_EQ(s.tunes[0].entries[1].param.text, "cols");
  EXPECT_EQ(s.tunes[0].entries[1].value->value, 9);

  EXPECT_EQ(s.written.size(), 8u);
  EXPECT_TRUE(s.wasWritten(ClauseKind::Copy));
  EXPECT_FALSE(s.wasWritten(ClauseKind::Offset));
}

TEST(Parser, NameClauseAndItsErrors) {
  const std::string text = "partition(n) name(swish_half)";
  const AnnotationSyntax s = parseOk(text);
  ASSERT_EQ(s.names.size(), 1u);
  EXPECT_EQ(s.names[0].name.text, "swish_half");
  EXPECT_EQ(s.names[0].name.offset, text.find("swish_half"));
  EXPECT_TRUE(s.wasWritten(ClauseKind::Name));
  EXPECT_EQ(annotation::entryNameOf(text), "swish_half");
  EXPECT_EQ(annotation::entryNameOf("partition(n)"), "");
  for (const char* bad : {"name()", "name(1)", "name(a, b)"}) {
    Diagnostics diags;
    parseAnnotation(bad, diags);
    EXPECT_FALSE(diags.empty()) << bad;
  }
}

TEST(Parser, ParenthesizedLaunchValueIsAnExpressionUnlessItHasAComma) {
  std::string text = "launch(grid: (n + 1) / 2, block: (ceil_div(n, 2), 4, 1))";
  AnnotationSyntax s = parseOk(text);
  const std::vector<LaunchEntry>& entries = s.launches[0].entries;
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_FALSE(entries[0].value->parenthesizedList);
  ASSERT_EQ(entries[0].value->components.size(), 1u);
  EXPECT_EQ(entries[0].value->components[0]->kind, ir::ExprKind::Div);
  EXPECT_EQ(spelled(text, entries[0].value->components[0]), "(n + 1) / 2");
  EXPECT_TRUE(entries[1].value->parenthesizedList);
  ASSERT_EQ(entries[1].value->components.size(), 3u);
  EXPECT_EQ(entries[1].value->components[0]->kind, ir::ExprKind::CeilDiv);
}

TEST(Parser, CommasBetweenClausesAreAccepted) {
  AnnotationSyntax s = parseOk("partition(n), offset(n),\n extent(x: n) copyin(x)");
  EXPECT_EQ(s.partitions.size(), 1u);
  EXPECT_EQ(s.offsets.size(), 1u);
  EXPECT_EQ(s.extents.size(), 1u);
  EXPECT_EQ(s.dataClauses.size(), 1u);
}

TEST(Parser, SeveralSectionsOfOneArrayInOneClause) {
  std::string text = "copyin(t[0:plane], t[(lo-1)*plane : hi*plane])";
  AnnotationSyntax s = parseOk(text);
  ASSERT_EQ(s.dataClauses[0].items.size(), 2u);
  EXPECT_EQ(s.dataClauses[0].items[1].array.text, "t");
  EXPECT_EQ(spelled(text, s.dataClauses[0].items[1].section->begin), "(lo-1)*plane");
}

TEST(Parser, ChunkNamesAndCalls) {
  std::string text = "partition(len + hi - lo + max(min(a, b), ceil_div(c, 2)))";
  AnnotationSyntax s = parseOk(text);
  const ir::Expr& e = *s.partitions[0].extent;
  ASSERT_EQ(e.kind, ir::ExprKind::Add);
  const ir::Expr& call = *e.operands[1];
  EXPECT_EQ(call.kind, ir::ExprKind::Max);
  EXPECT_EQ(call.operands[0]->kind, ir::ExprKind::Min);
  EXPECT_EQ(call.operands[1]->kind, ir::ExprKind::CeilDiv);
  const ir::Expr& left = *e.operands[0]; // (len + hi) - lo
  EXPECT_EQ(left.kind, ir::ExprKind::Sub);
  EXPECT_EQ(left.operands[1]->kind, ir::ExprKind::ChunkLo);
  EXPECT_EQ(left.operands[0]->operands[0]->kind, ir::ExprKind::ChunkLen);
  EXPECT_EQ(left.operands[0]->operands[1]->kind, ir::ExprKind::ChunkHi);
  EXPECT_EQ(call.operands[0]->operands[0]->kind, ir::ExprKind::Param);
  EXPECT_EQ(call.operands[0]->operands[0]->name, "a");
  EXPECT_EQ(call.operands[0]->operands[0]->param, -1) << "names are bound by the checker";
}

TEST(Parser, RecoversAfterABrokenClauseAndParsesTheRest) {
  Diagnostics diags;
  AnnotationSyntax s =
      parseAnnotation("partition(n +) copyin(x) extent(: 3) launch(block: 1)", diags);
  EXPECT_TRUE(s.hasSyntaxErrors);
  ASSERT_EQ(diags.size(), 2u);
  EXPECT_NE(diags[0].message.find("expected an expression, found ')'"), std::string::npos);
  EXPECT_NE(diags[1].message.find("expected an array name, found ':'"), std::string::npos);
  EXPECT_TRUE(s.partitions.empty());
  EXPECT_TRUE(s.wasWritten(ClauseKind::Partition)) << "written, so not also reported missing";
  EXPECT_EQ(s.dataClauses.size(), 1u);
  EXPECT_EQ(s.launches.size(), 1u);
}

TEST(Parser, UnterminatedClauseStopsParsing) {
  Diagnostics diags;
  std::string text = "partition(n offset(n) copyin(x)";
  AnnotationSyntax s = parseAnnotation(text, diags);
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags[0].offset, 0u);
  EXPECT_EQ(diags[0].length, 10u) << "covers 'partition('";
  EXPECT_TRUE(s.dataClauses.empty());
}

TEST(Suggest, EditDistanceAndClosestMatch) {
  EXPECT_EQ(editDistance("copyin", "copyin"), 0u);
  EXPECT_EQ(editDistance("copyni", "copyin"), 2u);
  EXPECT_EQ(editDistance("", "abc"), 3u);
  EXPECT_EQ(editDistance("kitten", "sitting"), 3u);
  std::vector<std::string> keywords = {"copyin", "copyout", "copy"};
  EXPECT_EQ(closestMatch("copyout_", keywords), "copyout");
  EXPECT_EQ(closestMatch("cpy", keywords), "copy");
  EXPECT_EQ(closestMatch("transfer", keywords), "");
  EXPECT_EQ(closestMatch("x", {"n"}), "") << "replacing the whole word is no typo";
  EXPECT_EQ(didYouMean("blok", {"grid", "block"}), "; did you mean 'block'?");
}

} // namespace
} // namespace overlap::annotation
