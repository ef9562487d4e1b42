// Integer expressions of the annotation language: extents, sections, launch geometry and tuning
// defaults. Evaluated with 64-bit signed arithmetic, in the generator (checks), in generated code
// (printed as C++), and in the tuner (through the descriptor).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace overlap::ir {

enum class ExprKind {
  Literal,  // value
  Param,    // a scalar kernel parameter: name, param
  ChunkLo,  // lo: first partition index of the chunk
  ChunkHi,  // hi: one past the last partition index of the chunk
  ChunkLen, // len = hi - lo
  Negate,   // -operands[0]
  Add,
  Sub,
  Mul,
  Div, // truncating, as in C++
  Mod,
  Min,     // min(a, b)
  Max,     // max(a, b)
  CeilDiv, // ceil_div(a, b): the exact ceiling of a / b (= (a + b - 1) / b for a >= 0 < b)
  Shl,     // a << b: a >= 0, 0 <= b < 63, no overflow (1 << 20, as macros and tune values spell it)
  Shr,     // a >> b: 0 <= b < 63, arithmetic
  SizeOf,  // sizeof(TYPE): name is the type as written; the checker turns it into a Literal
  Call     // name(operands...), a function of the file: the checker expands it (FileFunction)
};

struct Expr;
using ExprPtr = std::shared_ptr<const Expr>;

struct Expr {
  ExprKind kind = ExprKind::Literal;
  long long value = 0; // Literal
  std::string name;    // Param
  int param = -1;      // Param: index into the kernel's parameters
  std::vector<ExprPtr> operands;
  // Where the expression is spelled, as a byte offset and length into the annotation text.
  unsigned offset = 0;
  unsigned length = 0;
};

// Values of the names an expression may use. Params are looked up by parameter index.
struct Environment {
  std::function<std::optional<long long>(int param)> param;
  std::optional<long long> lo;
  std::optional<long long> hi;
};

// Evaluates; nullopt when a name has no value, on division by zero, or on overflow.
std::optional<long long> evaluate(const Expr& e, const Environment& env);

// Why `a << b` (kind Shl) or `a >> b` (Shr) has no value ("overflows long long"), or "" when it
// has one.
std::string whyShiftHasNoValue(ExprKind kind, long long a, long long b);

// True when the expression mentions lo, hi or len.
bool dependsOnChunk(const Expr& e);
// True when the expression mentions the parameter.
bool mentionsParam(const Expr& e, int param);

// Prints the expression as a C++ expression of type long long. `spellParam` gives the C++ text of
// a parameter (e.g. "static_cast<long long>(n)"); lo, hi and len print as the names "lo", "hi"
// and "len", which the caller must have in scope as long long.
std::string toCxx(const Expr& e, const std::function<std::string(const Expr&)>& spellParam);

// Prints the expression as the user would write it (for reports and generated comments).
std::string toSource(const Expr& e);

// The expression is c0 + c_lo * lo + c_hi * hi where the c's are free of lo/hi (len counts as
// hi - lo). Division, modulo, min, max and ceil_div of a chunk-dependent operand, and products of
// two chunk-dependent operands, are not affine.
bool isAffineInChunk(const Expr& e);

} // namespace overlap::ir
