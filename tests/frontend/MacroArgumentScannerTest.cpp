// The raw-text scan that finds OVERLAP_KERNEL's argument text: the span must be exactly what
// stands between the macro's parentheses, whatever the text contains.
#include "frontend/MacroArgumentScanner.h"

#include <gtest/gtest.h>

#include <string>

namespace overlap::frontend {
namespace {

std::string argumentsOf(const std::string& buffer, std::size_t at = 0) {
  const MacroArgumentSpan span = findMacroArguments(buffer, at, "OVERLAP_KERNEL");
  EXPECT_TRUE(span.ok()) << span.error;
  if (!span.ok())
    return "<error>";
  EXPECT_EQ(buffer[span.begin - 1], '(');
  EXPECT_EQ(buffer[span.end], ')');
  return buffer.substr(span.begin, span.end - span.begin);
}

TEST(MacroArgumentScanner, NestedParentheses) {
  EXPECT_EQ(argumentsOf("OVERLAP_KERNEL(partition(n) launch(grid: (a, b), block: 1)) rest"),
            "partition(n) launch(grid: (a, b), block: 1)");
}

TEST(MacroArgumentScanner, StartsWhereTheInvocationIs) {
  const std::string buffer = "int x;\n  OVERLAP_KERNEL(partition(n))\n";
  EXPECT_EQ(argumentsOf(buffer, buffer.find("OVERLAP")), "partition(n)");
}

TEST(MacroArgumentScanner, BlanksCommentsAndContinuationsBeforeTheParenthesis) {
  EXPECT_EQ(argumentsOf("OVERLAP_KERNEL /* ( */ \\\n // (\n (a)"), "a");
}

TEST(MacroArgumentScanner, ParenthesesInCommentsAndLiteralsDoNotCount) {
  EXPECT_EQ(argumentsOf("OVERLAP_KERNEL(a /* ) */ b // )\n c \")\" ')' d)"),
            "a /* ) */ b // )\n c \")\" ')' d");
}

TEST(MacroArgumentScanner, EscapedQuotesStayInsideLiterals) {
  EXPECT_EQ(argumentsOf(R"x(OVERLAP_KERNEL(a "\")" '\'' b))x"), R"x(a "\")" '\'' b)x");
}

TEST(MacroArgumentScanner, DigitSeparatorIsNotACharacterLiteral) {
  EXPECT_EQ(argumentsOf("OVERLAP_KERNEL(tune(n = 1'000'000)) x"), "tune(n = 1'000'000)");
}

TEST(MacroArgumentScanner, EmptyArguments) {
  EXPECT_EQ(argumentsOf("OVERLAP_KERNEL()"), "");
}

TEST(MacroArgumentScanner, ReportsAnotherMacroName) {
  const MacroArgumentSpan span = findMacroArguments("MY_KERNEL(a)", 0, "OVERLAP_KERNEL");
  EXPECT_FALSE(span.ok());
  EXPECT_EQ(span.error, "expected 'OVERLAP_KERNEL' here");
}

TEST(MacroArgumentScanner, ReportsALongerIdentifier) {
  EXPECT_FALSE(findMacroArguments("OVERLAP_KERNEL2(a)", 0, "OVERLAP_KERNEL").ok());
}

TEST(MacroArgumentScanner, ReportsAMissingParenthesis) {
  const MacroArgumentSpan span = findMacroArguments("OVERLAP_KERNEL int", 0, "OVERLAP_KERNEL");
  EXPECT_EQ(span.error, "expected '(' after 'OVERLAP_KERNEL'");
}

TEST(MacroArgumentScanner, ReportsUnbalancedText) {
  EXPECT_EQ(findMacroArguments("OVERLAP_KERNEL(a (b)", 0, "OVERLAP_KERNEL").error,
            "missing ')' to close 'OVERLAP_KERNEL('");
  EXPECT_EQ(findMacroArguments("OVERLAP_KERNEL(a /* ) ", 0, "OVERLAP_KERNEL").error,
            "missing ')' to close 'OVERLAP_KERNEL('");
  EXPECT_EQ(findMacroArguments("OVERLAP_KERNEL(a \")\n)", 0, "OVERLAP_KERNEL").error,
            "unterminated string literal in the arguments of 'OVERLAP_KERNEL'");
}

} // namespace
} // namespace overlap::frontend
