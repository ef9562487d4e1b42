// Expressions: evaluation (C++ semantics, overflow and division by zero caught), chunk
// dependence, affinity, and both printers. The C++ printer's helpers (overlap/ExprSupport.h)
// must compute what the generator computes.
#include "ir/Expr.h"
#include "annotation/Diagnostic.h"
#include "annotation/Parser.h"
#include "overlap/ExprSupport.h"

#include <gtest/gtest.h>

#include <climits>
#include <map>
#include <memory>
#include <random>

namespace overlap {
namespace {

using ir::Expr;
using ir::ExprKind;
using ir::ExprPtr;

// Parses `text` as a partition expression and binds the names a, b, n, m to parameters 0..3,
// without the annotation's placement rules, so any expression can be tested.
ExprPtr bindParams(const ExprPtr& e) {
  static const std::map<std::string, int> kParams = {{"a", 0}, {"b", 1}, {"n", 2}, {"m", 3}};
  auto bound = std::make_shared<Expr>(*e);
  if (bound->kind == ExprKind::Param)
    bound->param = kParams.at(bound->name);
  for (ExprPtr& operand : bound->operands)
    operand = bindParams(operand);
  return bound;
}

ExprPtr parse(const std::string& text) {
  annotation::Diagnostics diags;
  annotation::AnnotationSyntax syntax =
      annotation::parseAnnotation("partition(" + text + ")", diags);
  EXPECT_TRUE(diags.empty()) << text << ": " << (diags.empty() ? "" : diags[0].message);
  if (syntax.partitions.empty())
    return std::make_shared<Expr>();
  return bindParams(syntax.partitions[0].extent);
}

ir::Environment env(std::vector<long long> params, std::optional<long long> lo = std::nullopt,
                    std::optional<long long> hi = std::nullopt) {
  ir::Environment e;
  e.param = [params](int p) -> std::optional<long long> {
    if (p < 0 || static_cast<size_t>(p) >= params.size())
      return std::nullopt;
    return params[p];
  };
  e.lo = lo;
  e.hi = hi;
  return e;
}

std::optional<long long> eval(const std::string& text, const ir::Environment& e = env({})) {
  return ir::evaluate(*parse(text), e);
}

TEST(ExprEvaluate, ArithmeticFollowsCxxPrecedenceAndTruncation) {
  EXPECT_EQ(eval("1 + 2 * 3"), 7);
  EXPECT_EQ(eval("(1 + 2) * 3"), 9);
  EXPECT_EQ(eval("10 - 4 - 3"), 3);
  EXPECT_EQ(eval("100 / 10 / 5"), 2);
  EXPECT_EQ(eval("-7 / 2"), -3);
  EXPECT_EQ(eval("-7 % 2"), -1);
  EXPECT_EQ(eval("7 % -2"), 1);
  EXPECT_EQ(eval("-2 * -3"), 6);
  EXPECT_EQ(eval("- -4"), 4);
  EXPECT_EQ(eval("+5"), 5);
  EXPECT_EQ(eval("0x1F + 1"), 32);
  EXPECT_EQ(eval("10u + 10ll + 10ULL + 10lu"), 40);
  EXPECT_EQ(eval("min(3, -4)"), -4);
  EXPECT_EQ(eval("max(3, -4)"), 3);
  EXPECT_EQ(eval("ceil_div(10, 3) + ceil_div(9, 3)"), 7);
}

TEST(ExprEvaluate, ParametersAndChunkBounds) {
  ir::Environment e = env({5, 7, 1000, 3}, 40, 100);
  EXPECT_EQ(eval("a * b + n", e), 1035);
  EXPECT_EQ(eval("(lo - 1) * m", e), 117);
  EXPECT_EQ(eval("hi * m", e), 300);
  EXPECT_EQ(eval("len", e), 60);
  EXPECT_EQ(eval("ceil_div(len, 256)", e), 1);
}

TEST(ExprEvaluate, MissingValuesGiveNothing) {
  EXPECT_EQ(eval("n + 1", env({})), std::nullopt);
  EXPECT_EQ(eval("lo", env({1, 2, 3, 4})), std::nullopt);
  EXPECT_EQ(eval("len", env({}, 3, std::nullopt)), std::nullopt);
  EXPECT_EQ(eval("len", env({}, std::nullopt, 3)), std::nullopt);
  // An environment without a parameter function at all.
  EXPECT_EQ(ir::evaluate(*parse("a"), ir::Environment{}), std::nullopt);
}

TEST(ExprEvaluate, DivisionByZeroGivesNothing) {
  ir::Environment e = env({0, 1, 2, 3});
  EXPECT_EQ(eval("n / a", e), std::nullopt);
  EXPECT_EQ(eval("n % a", e), std::nullopt);
  EXPECT_EQ(eval("ceil_div(n, a)", e), std::nullopt);
}

TEST(ExprEvaluate, OverflowGivesNothing) {
  EXPECT_EQ(eval("9223372036854775807 + 1"), std::nullopt);
  EXPECT_EQ(eval("-9223372036854775807 - 2"), std::nullopt);
  EXPECT_EQ(eval("4294967296 * 4294967296"), std::nullopt);
  EXPECT_EQ(eval("-(-9223372036854775807 - 1)"), std::nullopt);
  EXPECT_EQ(eval("(-9223372036854775807 - 1) / -1"), std::nullopt);
  EXPECT_EQ(eval("(-9223372036854775807 - 1) % -1"), std::nullopt);
  EXPECT_EQ(eval("9223372036854775807 + 0"), LLONG_MAX);
  EXPECT_EQ(eval("-9223372036854775807 - 1"), LLONG_MIN);
  ir::Environment big = env({LLONG_MAX, 2});
  EXPECT_EQ(eval("a * b", big), std::nullopt);
  EXPECT_EQ(eval("len", env({}, LLONG_MIN, 1)), std::nullopt);
}

TEST(ExprEvaluate, ShiftsBindLooserThanSumsAndRefuseWhatCxx17LeavesUndefined) {
  EXPECT_EQ(eval("1 << 20"), 1048576);
  EXPECT_EQ(eval("1 << 2 + 1"), 8); // 1 << (2 + 1), as in C++
  EXPECT_EQ(eval("3 * 2 << 1"), 12);
  EXPECT_EQ(eval("1024 >> 3 >> 1"), 64);
  EXPECT_EQ(eval("-8 >> 1"), -4);
  EXPECT_EQ(eval("1 << 62"), 1LL << 62);
  EXPECT_EQ(eval("1 << 63"), std::nullopt);
  EXPECT_EQ(eval("3 << 62"), std::nullopt);
  EXPECT_EQ(eval("-1 << 1"), std::nullopt);
  EXPECT_EQ(eval("1 << -1"), std::nullopt);
  EXPECT_EQ(eval("8 >> 64"), std::nullopt);
  EXPECT_EQ(eval("a << b", env({3, 4})), 48);
}

TEST(ExprEvaluate, CeilDivIsTheExactCeilingForEverySign) {
  EXPECT_EQ(eval("ceil_div(7, 2)"), 4);
  EXPECT_EQ(eval("ceil_div(8, 2)"), 4);
  EXPECT_EQ(eval("ceil_div(0, 5)"), 0);
  EXPECT_EQ(eval("ceil_div(-7, 2)"), -3);
  EXPECT_EQ(eval("ceil_div(-8, 2)"), -4);
  EXPECT_EQ(eval("ceil_div(7, -2)"), -3);
  EXPECT_EQ(eval("ceil_div(-7, -2)"), 4);
  // (a + b - 1) / b would overflow here.
  EXPECT_EQ(eval("ceil_div(9223372036854775807, 2)"), 4611686018427387904LL);
}

TEST(ExprSupport, RuntimeHelpersAgreeWithTheGenerator) {
  static_assert(::overlap::ceil_div(7, 2) == 4, "usable in constant expressions");
  static_assert(::overlap::minLL(-1, 2) == -1 && ::overlap::maxLL(-1, 2) == 2, "");
  std::mt19937_64 random(12345);
  std::uniform_int_distribution<long long> value(-1000, 1000);
  ExprPtr ceilDiv = parse("ceil_div(a, b)");
  ExprPtr minimum = parse("min(a, b)");
  ExprPtr maximum = parse("max(a, b)");
  for (int i = 0; i < 20000; ++i) {
    long long a = value(random);
    long long b = value(random);
    ir::Environment e = env({a, b});
    EXPECT_EQ(ir::evaluate(*minimum, e), ::overlap::minLL(a, b));
    EXPECT_EQ(ir::evaluate(*maximum, e), ::overlap::maxLL(a, b));
    if (b == 0)
      continue;
    EXPECT_EQ(ir::evaluate(*ceilDiv, e), ::overlap::ceil_div(a, b)) << a << " / " << b;
    // The definition: the least integer q with q * b >= a (b > 0) or q * b <= a (b < 0).
    long long q = ::overlap::ceil_div(a, b);
    if (b > 0)
      EXPECT_TRUE(q * b >= a && (q - 1) * b < a) << a << " / " << b;
    else
      EXPECT_TRUE(q * b <= a && (q - 1) * b > a) << a << " / " << b;
  }
}

TEST(ExprQueries, DependsOnChunk) {
  EXPECT_FALSE(ir::dependsOnChunk(*parse("n * m + 3")));
  EXPECT_TRUE(ir::dependsOnChunk(*parse("n * lo")));
  EXPECT_TRUE(ir::dependsOnChunk(*parse("min(n, hi)")));
  EXPECT_TRUE(ir::dependsOnChunk(*parse("-len")));
}

TEST(ExprQueries, MentionsParam) {
  ExprPtr e = parse("ceil_div(n, 16) + -a");
  EXPECT_TRUE(ir::mentionsParam(*e, 0));
  EXPECT_FALSE(ir::mentionsParam(*e, 1));
  EXPECT_TRUE(ir::mentionsParam(*e, 2));
  EXPECT_FALSE(ir::mentionsParam(*e, 3));
}

TEST(ExprQueries, Affinity) {
  for (const char* affine :
       {"lo", "hi * n", "(lo - 1) * n * m", "n * (hi + 1) - len", "lo * (n / 2)", "lo * min(n, m)",
        "-(hi - lo)", "ceil_div(n, 3)", "hi + hi + 7", "(lo + hi) * 2", "lo << 2", "hi << n"}) {
    EXPECT_TRUE(ir::isAffineInChunk(*parse(affine))) << affine;
  }
  for (const char* notAffine : {"lo * hi", "len * len", "lo / 2", "hi % n", "min(lo, n)",
                                "max(n, hi)", "ceil_div(len, 256)", "n / lo", "(lo + 1) * (hi + 1)",
                                "2 * (lo * lo)", "lo >> 1", "n << lo"}) {
    EXPECT_FALSE(ir::isAffineInChunk(*parse(notAffine))) << notAffine;
  }
}

std::string spellCast(const Expr& e) {
  return "static_cast<long long>(" + e.name + ")";
}

TEST(ExprPrint, CxxIsFullyParenthesizedLongLong) {
  EXPECT_EQ(ir::toCxx(*parse("n"), spellCast), "static_cast<long long>(n)");
  EXPECT_EQ(ir::toCxx(*parse("7"), spellCast), "7LL");
  EXPECT_EQ(ir::toCxx(*parse("0x10"), spellCast), "16LL");
  EXPECT_EQ(ir::toCxx(*parse("(lo - 1) * n"), spellCast),
            "((lo - 1LL) * static_cast<long long>(n))");
  EXPECT_EQ(ir::toCxx(*parse("a - b - n"), spellCast),
            "((static_cast<long long>(a) - static_cast<long long>(b)) - "
            "static_cast<long long>(n))");
  EXPECT_EQ(ir::toCxx(*parse("-len % 3"), spellCast), "((-len) % 3LL)");
  EXPECT_EQ(ir::toCxx(*parse("min(hi, n) / max(1, m)"), [](const Expr& e) { return e.name; }),
            "((::overlap::minLL)(hi, n) / (::overlap::maxLL)(1LL, m))");
  EXPECT_EQ(ir::toCxx(*parse("ceil_div(len, 256)"), spellCast), "(::overlap::ceil_div)(len, 256LL)");
  EXPECT_EQ(ir::toCxx(*parse("1 << n + 1"), spellCast),
            "(1LL << (static_cast<long long>(n) + 1LL))");
}

TEST(ExprPrint, SourceUsesTheFewestParentheses) {
  EXPECT_EQ(ir::toSource(*parse("((n))")), "n");
  EXPECT_EQ(ir::toSource(*parse("(lo - 1) * n")), "(lo - 1) * n");
  EXPECT_EQ(ir::toSource(*parse("lo - (1 * n)")), "lo - 1 * n");
  EXPECT_EQ(ir::toSource(*parse("a - (b - n)")), "a - (b - n)");
  EXPECT_EQ(ir::toSource(*parse("(a - b) - n")), "a - b - n");
  EXPECT_EQ(ir::toSource(*parse("a / (b * n)")), "a / (b * n)");
  EXPECT_EQ(ir::toSource(*parse("-(a + b)")), "-(a + b)");
  EXPECT_EQ(ir::toSource(*parse("-(-a)")), "-(-a)");
  EXPECT_EQ(ir::toSource(*parse("0x20 * ceil_div(len,256)")), "32 * ceil_div(len, 256)");
  EXPECT_EQ(ir::toSource(*parse("(1 << n) + 1")), "(1 << n) + 1");
  EXPECT_EQ(ir::toSource(*parse("1 << (n + 1)")), "1 << n + 1");
  EXPECT_EQ(ir::toSource(*parse("a << (b << n)")), "a << (b << n)");
}

// Printing and re-parsing keeps the value, for random expressions over random values.
class RandomExpr {
public:
  explicit RandomExpr(unsigned seed) : random_(seed) {}

  std::string make(int depth) {
    int pick = std::uniform_int_distribution<int>(0, depth > 0 ? 13 : 3)(random_);
    switch (pick) {
    case 0:
      return std::to_string(std::uniform_int_distribution<int>(0, 50)(random_));
    case 1:
      return std::string(1, "abnm"[std::uniform_int_distribution<int>(0, 3)(random_)]);
    case 2:
      return "lo";
    case 3:
      return "len";
    case 4:
      return "-" + make(depth - 1);
    case 5:
      return "(" + make(depth - 1) + " + " + make(depth - 1) + ")";
    case 6:
      return make(depth - 1) + " - " + make(depth - 1);
    case 7:
      return make(depth - 1) + " * " + make(depth - 1);
    case 8:
      return "(" + make(depth - 1) + ") / (" + make(depth - 1) + ")";
    case 9:
      return make(depth - 1) + " % " + make(depth - 1);
    case 10:
      return "min(" + make(depth - 1) + ", " + make(depth - 1) + ")";
    case 11:
      return make(depth - 1) + " << " +
             std::to_string(std::uniform_int_distribution<int>(0, 5)(random_));
    case 12:
      return make(depth - 1) + " >> " + make(depth - 1);
    default:
      return "ceil_div(" + make(depth - 1) + ", " + make(depth - 1) + ")";
    }
  }

private:
  std::mt19937 random_;
};

TEST(ExprPrint, SourceRoundTripsThroughTheParser) {
  RandomExpr generator(2024);
  ir::Environment e = env({3, -5, 17, 2}, 4, 11);
  int compared = 0;
  for (int i = 0; i < 500; ++i) {
    std::string text = generator.make(4);
    ExprPtr original = parse(text);
    std::string printed = ir::toSource(*original);
    ExprPtr reparsed = parse(printed);
    EXPECT_EQ(ir::toSource(*reparsed), printed) << text;
    std::optional<long long> before = ir::evaluate(*original, e);
    EXPECT_EQ(ir::evaluate(*reparsed, e), before) << text << "  printed as  " << printed;
    compared += before.has_value();
  }
  EXPECT_GT(compared, 100) << "too few expressions had a value to compare";
}

TEST(ExprPrint, OffsetsCoverTheSpelledText) {
  std::string text = "partition((lo - 1) * plane + min(a, 3))";
  annotation::Diagnostics diags;
  annotation::AnnotationSyntax syntax = annotation::parseAnnotation(text, diags);
  ASSERT_TRUE(diags.empty());
  const Expr& sum = *syntax.partitions[0].extent;
  EXPECT_EQ(text.substr(sum.offset, sum.length), "(lo - 1) * plane + min(a, 3)");
  const Expr& product = *sum.operands[0];
  EXPECT_EQ(text.substr(product.offset, product.length), "(lo - 1) * plane");
  const Expr& parenthesized = *product.operands[0];
  EXPECT_EQ(text.substr(parenthesized.offset, parenthesized.length), "(lo - 1)");
  const Expr& call = *sum.operands[1];
  EXPECT_EQ(text.substr(call.offset, call.length), "min(a, 3)");
  EXPECT_EQ(text.substr(call.operands[1]->offset, call.operands[1]->length), "3");
}

} // namespace
} // namespace overlap
