// Regression tests for the fuzzer's stack overflows: deeply nested expressions overflowed the
// stack in the parser (parentheses, unary minus) or later, when the tree was walked or destroyed
// (a long 1+1+...+1 chain). They now get one located error; ordinary nesting is still accepted.
#include "SignatureBuilder.h"
#include "annotation/AnnotationSema.h"

#include <gtest/gtest.h>

#include <string>

namespace overlap {
namespace {

using annotation::buildKernel;
using annotation::Diagnostic;

const std::string kPrefix = "partition(n) offset(n) extent(x, y: n) copyin(x[lo:hi]) copy(y[lo:hi])"
                            " launch(grid: 1, block: 1) tune(n = ";

std::string repeat(const std::string& piece, int times) {
  std::string text;
  for (int i = 0; i < times; ++i)
    text += piece;
  return text;
}

std::string chain(int terms) {
  return kPrefix + repeat("1+", terms) + "1)";
}
std::string parentheses(int depth) {
  return kPrefix + repeat("(", depth) + "1" + repeat(")", depth) + ")";
}
std::string negations(int depth) {
  return kPrefix + repeat("-", depth) + "1)";
}

void expectTooDeep(const std::string& text) {
  annotation::SemaResult result = buildKernel(text, testing::saxpySignature());
  EXPECT_FALSE(result.kernel.has_value());
  bool reported = false;
  for (const Diagnostic& d : result.diagnostics) {
    EXPECT_LE(d.offset + static_cast<size_t>(d.length), text.size()) << d.message;
    if (d.severity == Diagnostic::Severity::Error &&
        d.message.find("nested more than 100 levels deep") != std::string::npos) {
      reported = true;
      // The error points into the expression of tune(), not at the start of the annotation.
      EXPECT_GE(d.offset, kPrefix.size()) << d.message;
    }
  }
  EXPECT_TRUE(reported) << "no nesting error among " << result.diagnostics.size() << " diagnostics";
}

void expectAccepted(const std::string& text) {
  annotation::SemaResult result = buildKernel(text, testing::saxpySignature());
  EXPECT_TRUE(result.kernel.has_value());
  for (const Diagnostic& d : result.diagnostics)
    ADD_FAILURE() << d.offset << ": " << d.message;
}

TEST(NestingLimit, LongOperatorChainIsAnErrorNotAStackOverflow) {
  expectTooDeep(chain(100000));
  expectTooDeep(chain(101));
}

TEST(NestingLimit, DeepParenthesesAreAnErrorNotAStackOverflow) {
  expectTooDeep(parentheses(100000));
  expectTooDeep(parentheses(101));
}

TEST(NestingLimit, RepeatedUnaryMinusIsAnErrorNotAStackOverflow) {
  expectTooDeep(negations(100000));
  expectTooDeep(negations(101));
}

TEST(NestingLimit, NestingBelowTheLimitIsAccepted) {
  expectAccepted(chain(50));
  expectAccepted(parentheses(50));
  expectAccepted(negations(50));
}

} // namespace
} // namespace overlap
