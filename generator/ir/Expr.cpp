#include "ir/Expr.h"
#include "overlap/ExprSupport.h" // CUDA-free

#include <cassert>
#include <climits>

namespace overlap::ir {
namespace {

[[maybe_unused]] bool isBinary(ExprKind kind) { // read by an assert only
  switch (kind) {
  case ExprKind::Add:
  case ExprKind::Sub:
  case ExprKind::Mul:
  case ExprKind::Div:
  case ExprKind::Mod:
  case ExprKind::Min:
  case ExprKind::Max:
  case ExprKind::CeilDiv:
  case ExprKind::Shl:
  case ExprKind::Shr:
    return true;
  default:
    return false;
  }
}

// overlap::ceil_div, the function generated code calls, where it is defined: so a bound checked at
// generation time is the bound used at run time.
std::optional<long long> ceilDivide(long long a, long long b) {
  if (b == 0 || (a == LLONG_MIN && b == -1))
    return std::nullopt;
  return ::overlap::ceil_div(a, b);
}

} // namespace

std::string whyShiftHasNoValue(ExprKind kind, long long a, long long b) {
  if (b < 0 || b >= 64)
    return "shifts by " + std::to_string(b) + "; a shift count is 0 to 63";
  if (kind == ExprKind::Shl && a < 0)
    return "shifts a negative value left, which C++ leaves undefined";
  if (kind == ExprKind::Shl && a > (LLONG_MAX >> b))
    return "overflows long long";
  return "";
}

namespace {

std::optional<long long> apply(ExprKind kind, long long a, long long b) {
  long long result = 0;
  switch (kind) {
  case ExprKind::Add:
    if (__builtin_add_overflow(a, b, &result))
      return std::nullopt;
    return result;
  case ExprKind::Sub:
    if (__builtin_sub_overflow(a, b, &result))
      return std::nullopt;
    return result;
  case ExprKind::Mul:
    if (__builtin_mul_overflow(a, b, &result))
      return std::nullopt;
    return result;
  case ExprKind::Div:
    if (b == 0 || (a == LLONG_MIN && b == -1))
      return std::nullopt;
    return a / b;
  case ExprKind::Mod:
    if (b == 0 || (a == LLONG_MIN && b == -1))
      return std::nullopt;
    return a % b;
  case ExprKind::Min:
    return a < b ? a : b;
  case ExprKind::Max:
    return a > b ? a : b;
  case ExprKind::CeilDiv:
    return ceilDivide(a, b);
  case ExprKind::Shl:
  case ExprKind::Shr:
    if (!whyShiftHasNoValue(kind, a, b).empty())
      return std::nullopt;
    return kind == ExprKind::Shl ? a << b : a >> b;
  default:
    assert(false && "not a binary expression kind");
    return std::nullopt;
  }
}

const char* infixOperator(ExprKind kind) {
  switch (kind) {
  case ExprKind::Add:
    return "+";
  case ExprKind::Sub:
    return "-";
  case ExprKind::Mul:
    return "*";
  case ExprKind::Div:
    return "/";
  case ExprKind::Mod:
    return "%";
  case ExprKind::Shl:
    return "<<";
  case ExprKind::Shr:
    return ">>";
  default:
    return nullptr;
  }
}

const char* sourceFunctionName(ExprKind kind) {
  switch (kind) {
  case ExprKind::Min:
    return "min";
  case ExprKind::Max:
    return "max";
  case ExprKind::CeilDiv:
    return "ceil_div";
  default:
    return nullptr;
  }
}

// Parenthesized: generated code includes the kernel's file first, and a function-like macro it
// defines (`#define ceil_div(a, b) ...` is common) would expand in a call of the bare name.
const char* cxxFunctionName(ExprKind kind) {
  switch (kind) {
  case ExprKind::Min:
    return "(::overlap::minLL)";
  case ExprKind::Max:
    return "(::overlap::maxLL)";
  case ExprKind::CeilDiv:
    return "(::overlap::ceil_div)";
  default:
    return nullptr;
  }
}

const char* chunkName(ExprKind kind) {
  switch (kind) {
  case ExprKind::ChunkLo:
    return "lo";
  case ExprKind::ChunkHi:
    return "hi";
  case ExprKind::ChunkLen:
    return "len";
  default:
    return nullptr;
  }
}

// C++ binding strength, used to print the fewest parentheses that keep the meaning.
int precedence(ExprKind kind) {
  switch (kind) {
  case ExprKind::Shl:
  case ExprKind::Shr:
    return 1;
  case ExprKind::Add:
  case ExprKind::Sub:
    return 2;
  case ExprKind::Mul:
  case ExprKind::Div:
  case ExprKind::Mod:
    return 3;
  case ExprKind::Negate:
    return 4;
  default:
    return 5; // literals, names, calls
  }
}

// How an expression depends on the chunk bounds.
enum class ChunkDegree { Free, Affine, NonAffine };

ChunkDegree chunkDegree(const Expr& e) {
  switch (e.kind) {
  case ExprKind::Literal:
  case ExprKind::Param:
  case ExprKind::SizeOf:
    return ChunkDegree::Free;
  case ExprKind::Call: // expanded by the checker: never asked about
    return ChunkDegree::NonAffine;
  case ExprKind::ChunkLo:
  case ExprKind::ChunkHi:
  case ExprKind::ChunkLen:
    return ChunkDegree::Affine;
  case ExprKind::Negate:
    return chunkDegree(*e.operands[0]);
  default:
    break;
  }
  ChunkDegree lhs = chunkDegree(*e.operands[0]);
  ChunkDegree rhs = chunkDegree(*e.operands[1]);
  if (lhs == ChunkDegree::NonAffine || rhs == ChunkDegree::NonAffine)
    return ChunkDegree::NonAffine;
  bool anyAffine = lhs == ChunkDegree::Affine || rhs == ChunkDegree::Affine;
  switch (e.kind) {
  case ExprKind::Add:
  case ExprKind::Sub:
    return anyAffine ? ChunkDegree::Affine : ChunkDegree::Free;
  case ExprKind::Mul:
    if (lhs == ChunkDegree::Affine && rhs == ChunkDegree::Affine)
      return ChunkDegree::NonAffine;
    return anyAffine ? ChunkDegree::Affine : ChunkDegree::Free;
  case ExprKind::Shl: // a product by 2^b while b is free of the chunk
    if (rhs == ChunkDegree::Affine)
      return ChunkDegree::NonAffine;
    return anyAffine ? ChunkDegree::Affine : ChunkDegree::Free;
  default: // division, modulo, min, max, ceil_div, >>: piecewise, never affine in the chunk
    return anyAffine ? ChunkDegree::NonAffine : ChunkDegree::Free;
  }
}

} // namespace

std::optional<long long> evaluate(const Expr& e, const Environment& env) {
  switch (e.kind) {
  case ExprKind::Literal:
    return e.value;
  case ExprKind::Param:
    if (!env.param)
      return std::nullopt;
    return env.param(e.param);
  case ExprKind::SizeOf: // resolved to a literal by the checker
  case ExprKind::Call:   // expanded by the checker
    return std::nullopt;
  case ExprKind::ChunkLo:
    return env.lo;
  case ExprKind::ChunkHi:
    return env.hi;
  case ExprKind::ChunkLen:
    if (!env.lo || !env.hi)
      return std::nullopt;
    return apply(ExprKind::Sub, *env.hi, *env.lo);
  case ExprKind::Negate: {
    std::optional<long long> operand = evaluate(*e.operands[0], env);
    if (!operand)
      return std::nullopt;
    return apply(ExprKind::Sub, 0, *operand);
  }
  default:
    break;
  }
  assert(isBinary(e.kind) && e.operands.size() == 2);
  std::optional<long long> lhs = evaluate(*e.operands[0], env);
  if (!lhs)
    return std::nullopt;
  std::optional<long long> rhs = evaluate(*e.operands[1], env);
  if (!rhs)
    return std::nullopt;
  return apply(e.kind, *lhs, *rhs);
}

bool dependsOnChunk(const Expr& e) {
  if (chunkName(e.kind))
    return true;
  for (const ExprPtr& operand : e.operands)
    if (dependsOnChunk(*operand))
      return true;
  return false;
}

bool mentionsParam(const Expr& e, int param) {
  if (e.kind == ExprKind::Param && e.param == param)
    return true;
  for (const ExprPtr& operand : e.operands)
    if (mentionsParam(*operand, param))
      return true;
  return false;
}

std::string toCxx(const Expr& e, const std::function<std::string(const Expr&)>& spellParam) {
  switch (e.kind) {
  case ExprKind::Literal:
    return std::to_string(e.value) + "LL";
  case ExprKind::Param:
    return spellParam(e);
  case ExprKind::SizeOf:
    return "static_cast<long long>(sizeof(" + e.name + "))";
  case ExprKind::Call:
    assert(false && "a call of the file's function reaches the emitter unexpanded");
    return "";
  case ExprKind::ChunkLo:
  case ExprKind::ChunkHi:
  case ExprKind::ChunkLen:
    return chunkName(e.kind);
  case ExprKind::Negate:
    return "(-" + toCxx(*e.operands[0], spellParam) + ")";
  default:
    break;
  }
  std::string lhs = toCxx(*e.operands[0], spellParam);
  std::string rhs = toCxx(*e.operands[1], spellParam);
  if (const char* op = infixOperator(e.kind))
    return "(" + lhs + " " + op + " " + rhs + ")";
  return std::string(cxxFunctionName(e.kind)) + "(" + lhs + ", " + rhs + ")";
}

std::string toSource(const Expr& e) {
  switch (e.kind) {
  case ExprKind::Literal:
    return std::to_string(e.value);
  case ExprKind::Param:
    return e.name;
  case ExprKind::SizeOf:
    return "sizeof(" + e.name + ")";
  case ExprKind::Call: {
    std::string text = e.name + "(";
    for (std::size_t i = 0; i < e.operands.size(); ++i)
      text += (i == 0 ? "" : ", ") + toSource(*e.operands[i]);
    return text + ")";
  }
  case ExprKind::ChunkLo:
  case ExprKind::ChunkHi:
  case ExprKind::ChunkLen:
    return chunkName(e.kind);
  case ExprKind::Negate: {
    const Expr& operand = *e.operands[0];
    std::string text = toSource(operand);
    // "- -x" would read as a decrement if the space were lost; "-(-x)" cannot be misread.
    if (precedence(operand.kind) < precedence(ExprKind::Negate) || operand.kind == ExprKind::Negate)
      text = "(" + text + ")";
    return "-" + text;
  }
  default:
    break;
  }
  const Expr& lhs = *e.operands[0];
  const Expr& rhs = *e.operands[1];
  if (const char* name = sourceFunctionName(e.kind))
    return std::string(name) + "(" + toSource(lhs) + ", " + toSource(rhs) + ")";
  int own = precedence(e.kind);
  std::string left = toSource(lhs);
  if (precedence(lhs.kind) < own)
    left = "(" + left + ")";
  // The operators are left-associative, so an equally strong right operand needs parentheses.
  std::string right = toSource(rhs);
  if (precedence(rhs.kind) <= own)
    right = "(" + right + ")";
  return left + " " + infixOperator(e.kind) + " " + right;
}

bool isAffineInChunk(const Expr& e) {
  return chunkDegree(e) != ChunkDegree::NonAffine;
}

} // namespace overlap::ir
