#include "annotation/NameResolver.h"

#include "annotation/Suggest.h"

#include <memory>
#include <string>

namespace overlap::annotation {
namespace {

// Why arithmetic on constants has no value: a shift C++ leaves undefined, or an overflow.
std::string whyNoValue(const ir::Expr& expr) {
  const std::string text = "'" + ir::toSource(expr) + "'";
  if (expr.kind == ir::ExprKind::Shl || expr.kind == ir::ExprKind::Shr) {
    const long long value = *ir::evaluate(*expr.operands[0], ir::Environment{});
    const long long count = *ir::evaluate(*expr.operands[1], ir::Environment{});
    if (count < 0 || count >= 64)
      return text + " shifts by " + std::to_string(count) + "; a shift count is 0 to 63";
    if (expr.kind == ir::ExprKind::Shl && value < 0)
      return text + " shifts a negative value left, which C++ leaves undefined";
  }
  return text + " overflows long long";
}

const char* describeContext(ExprContext context) {
  switch (context) {
  case ExprContext::Partition:
    return "the partition extent";
  case ExprContext::Extent:
    return "an extent";
  case ExprContext::Section:
    return "a section";
  case ExprContext::Launch:
    return "the launch geometry";
  case ExprContext::Tune:
    return "a tuning default";
  case ExprContext::Granule:
    return "the granule";
  case ExprContext::Halo:
    return "a halo";
  case ExprContext::Length:
    return "the chunk length value";
  case ExprContext::Bind:
    return "a bound value";
  }
  return "";
}

bool isPerChunk(ExprContext context) {
  return context == ExprContext::Section || context == ExprContext::Launch ||
         context == ExprContext::Bind;
}

bool dividesByKind(ir::ExprKind kind) {
  return kind == ir::ExprKind::Div || kind == ir::ExprKind::Mod || kind == ir::ExprKind::CeilDiv;
}

} // namespace

bool isIntegerScalar(const ir::Parameter& param) {
  return !param.isPointer && (param.scalarKind == ir::ScalarKind::SignedInteger ||
                              param.scalarKind == ir::ScalarKind::UnsignedInteger ||
                              param.scalarKind == ir::ScalarKind::Boolean);
}

NameResolver::NameResolver(const ir::KernelSignature& signature, Diagnostics& diags)
    : signature_(signature), diags_(diags) {}

void NameResolver::setChunkParams(int beginParam, int endParam) {
  beginParam_ = beginParam;
  endParam_ = endParam;
}

void NameResolver::error(unsigned offset, unsigned length, std::string message) {
  diags_.push_back({Diagnostic::Severity::Error, offset, length, std::move(message)});
}

bool NameResolver::hasParam(const std::string& name) const {
  for (const ir::Parameter& p : signature_.params)
    if (p.name == name)
      return true;
  return false;
}

std::optional<int> NameResolver::findParam(const Name& name) {
  std::vector<std::string> names;
  for (size_t i = 0; i < signature_.params.size(); ++i) {
    if (!signature_.params[i].name.empty() && signature_.params[i].name == name.text)
      return static_cast<int>(i);
    names.push_back(signature_.params[i].name);
  }
  error(name.offset, name.length,
        "'" + name.text + "' is not a parameter of kernel '" + signature_.name + "'" +
            didYouMean(name.text, names));
  return std::nullopt;
}

ir::ExprPtr NameResolver::resolve(const ir::ExprPtr& expr, ExprContext context) {
  switch (expr->kind) {
  case ir::ExprKind::Literal:
    return expr;
  case ir::ExprKind::SizeOf:
    return resolveSizeOf(*expr);
  case ir::ExprKind::Param:
    return resolveName(*expr, context);
  case ir::ExprKind::ChunkLo:
  case ir::ExprKind::ChunkHi:
  case ir::ExprKind::ChunkLen:
    // Outside sections and launch there is no chunk, so a parameter called len (or lo, hi)
    // keeps its own meaning there: partition(len) offset(len) reads naturally.
    if (!isPerChunk(context) && hasParam(expr->name) &&
        !(context == ExprContext::Length && expr->kind == ir::ExprKind::ChunkLen)) {
      ir::Expr asParam = *expr;
      asParam.kind = ir::ExprKind::Param;
      return resolveName(asParam, context);
    }
    return checkChunkName(*expr, context) ? expr : nullptr;
  default:
    break;
  }
  // Resolve every operand before giving up, so each wrong name is reported.
  auto resolved = std::make_shared<ir::Expr>(*expr);
  bool ok = true;
  for (ir::ExprPtr& operand : resolved->operands) {
    operand = resolve(operand, context);
    ok = ok && operand;
  }
  if (!ok)
    return nullptr;
  if (dividesByKind(expr->kind)) {
    const ir::Expr& divisor = *resolved->operands[1];
    std::optional<long long> constant = ir::evaluate(divisor, ir::Environment{});
    if (constant && *constant == 0) {
      error(divisor.offset, divisor.length, "division by zero");
      return nullptr;
    }
  }
  // Literal-only arithmetic can be judged now; everything else is checked where it is evaluated.
  bool operandsConstant = true;
  for (const ir::ExprPtr& operand : resolved->operands)
    operandsConstant = operandsConstant && ir::evaluate(*operand, ir::Environment{}).has_value();
  if (operandsConstant && !ir::evaluate(*resolved, ir::Environment{})) {
    error(expr->offset, expr->length, whyNoValue(*resolved));
    return nullptr;
  }
  return resolved;
}

ir::ExprPtr NameResolver::resolveName(const ir::Expr& expr, ExprContext context) {
  // An integral template argument of the instantiation: a constant.
  if (!hasParam(expr.name))
    for (const ir::TemplateConstant& constant : signature_.constants)
      if (constant.name == expr.name) {
        auto literal = std::make_shared<ir::Expr>(expr);
        literal->kind = ir::ExprKind::Literal;
        literal->value = constant.value;
        return literal;
      }
  std::optional<int> index = findParam(Name{expr.name, expr.offset, expr.length});
  if (!index)
    return nullptr;
  const ir::Parameter& p = param(*index);
  if (p.isPointer) {
    error(expr.offset, expr.length,
          "'" + expr.name + "' is a pointer; expressions need integer parameters");
    return nullptr;
  }
  if (!isIntegerScalar(p)) {
    error(expr.offset, expr.length,
          "parameter '" + expr.name + "' has type '" + p.type +
              "'; expressions need integer parameters");
    return nullptr;
  }
  if (*index == beginParam_ || *index == endParam_) {
    const char* replacement = *index == beginParam_ ? "lo" : "hi";
    error(
        expr.offset, expr.length,
        "'" + expr.name + "' is set per chunk by the generator (range mode), so it has no value " +
            (isPerChunk(context) ? std::string("of its own here; write ") + replacement + " instead"
                                 : std::string("in ") + describeContext(context)));
    return nullptr;
  }
  auto resolved = std::make_shared<ir::Expr>(expr);
  resolved->param = *index;
  return resolved;
}

// The sizes of the builtin types, and those the frontend knows (template type parameters, the
// kernel's element types, the file's types sizeof names).
ir::ExprPtr NameResolver::resolveSizeOf(const ir::Expr& expr) {
  static const std::pair<const char*, unsigned> kBuiltins[] = {
      {"char", 1},          {"signed char", 1},
      {"unsigned char", 1}, {"bool", 1},
      {"short", 2},         {"unsigned short", 2},
      {"int", 4},           {"unsigned", 4},
      {"unsigned int", 4},  {"float", 4},
      {"long", 8},          {"unsigned long", 8},
      {"long long", 8},     {"unsigned long long", 8},
      {"double", 8},        {"size_t", 8},
      {"int8_t", 1},        {"uint8_t", 1},
      {"int16_t", 2},       {"uint16_t", 2},
      {"int32_t", 4},       {"uint32_t", 4},
      {"int64_t", 8},       {"uint64_t", 8},
  };
  std::optional<unsigned> bytes;
  for (const ir::TypeSize& known : signature_.typeSizes)
    if (known.name == expr.name)
      bytes = known.bytes;
  for (const auto& [name, size] : kBuiltins)
    if (!bytes && expr.name == name)
      bytes = size;
  if (!bytes) {
    error(expr.offset, expr.length,
          "sizeof(" + expr.name +
              "): not a type the annotation knows; use a builtin type, a template type "
              "parameter, an element type of the kernel's arrays or a complete type the kernel's "
              "scope declares");
    return nullptr;
  }
  auto literal = std::make_shared<ir::Expr>(expr);
  literal->kind = ir::ExprKind::Literal;
  literal->value = *bytes;
  return literal;
}

bool NameResolver::checkChunkName(const ir::Expr& expr, ExprContext context) {
  if (isPerChunk(context))
    return true;
  if (context == ExprContext::Length) {
    if (expr.kind == ir::ExprKind::ChunkLen)
      return true;
    error(expr.offset, expr.length,
          "'" + expr.name +
              "' cannot be used in the chunk length value: it is an expression of len, the "
              "chunk's length");
    return false;
  }
  error(expr.offset, expr.length,
        "'" + expr.name + "' cannot be used in " + describeContext(context) +
            ": lo, hi and len exist only per chunk, in sections and launch");
  return false;
}

} // namespace overlap::annotation
