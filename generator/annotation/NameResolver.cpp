#include "annotation/NameResolver.h"

#include "annotation/Lexer.h"
#include "annotation/Parser.h"
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
    if (const std::string why = ir::whyShiftHasNoValue(expr.kind, value, count); !why.empty())
      return text + " " + why;
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

// How deep calls of the file's functions may nest (deeper is a macro that expands to itself), and
// how many one annotation may expand: a macro that doubles its argument, nested, doubles the work.
constexpr unsigned kMaxCallDepth = 16;
constexpr unsigned kMaxExpansions = 1000;

// Every node of `expr` shown at `offset`/`length`: an expansion is shown at its call.
ir::ExprPtr relocated(const ir::ExprPtr& expr, unsigned offset, unsigned length) {
  auto copy = std::make_shared<ir::Expr>(*expr);
  copy->offset = offset;
  copy->length = length;
  for (ir::ExprPtr& operand : copy->operands)
    operand = relocated(operand, offset, length);
  return copy;
}

bool isName(ir::ExprKind kind) {
  return kind == ir::ExprKind::Param || kind == ir::ExprKind::ChunkLo ||
         kind == ir::ExprKind::ChunkHi || kind == ir::ExprKind::ChunkLen;
}

} // namespace

bool isIntegerScalar(const ir::Parameter& param) {
  return !param.isPointer && (param.scalarKind == ir::ScalarKind::SignedInteger ||
                              param.scalarKind == ir::ScalarKind::UnsignedInteger ||
                              param.scalarKind == ir::ScalarKind::Boolean);
}

NameResolver::NameResolver(const ir::KernelSignature& signature, std::string_view text,
                           Diagnostics& diags)
    : signature_(signature), text_(text), diags_(diags) {}

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
  if (name.text.find("::") != std::string::npos) // no parameter's name
    error(name.offset, name.length,
          "'" + name.text +
              "' is not an integer constant the kernel's scope sees (a const or constexpr "
              "integer, an enumerator)");
  else
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
  case ir::ExprKind::Call: {
    const ir::ExprPtr expanded = expandCalls(expr, text_, 0, std::nullopt);
    return expanded ? resolve(expanded, context) : nullptr;
  }
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

namespace overlap::annotation {

ir::ExprPtr NameResolver::expandCalls(const ir::ExprPtr& expr, std::string_view text,
                                      unsigned depth, const std::optional<Span>& report) {
  if (expr->kind == ir::ExprKind::Call)
    return expandCall(*expr, text, depth, report.value_or(Span{expr->offset, expr->length}));
  if (expr->operands.empty())
    return expr;
  auto copy = std::make_shared<ir::Expr>(*expr);
  for (ir::ExprPtr& operand : copy->operands)
    if (!(operand = expandCalls(operand, text, depth, report)))
      return nullptr;
  return copy;
}

ir::ExprPtr NameResolver::expandCall(const ir::Expr& call, std::string_view text, unsigned depth,
                                     Span report) {
  const ir::FileFunction* function = nullptr;
  for (const ir::FileFunction& candidate : signature_.functions)
    if (candidate.name == call.name)
      function = &candidate;
  if (!function) {
    std::vector<std::string> known{"min", "max", "ceil_div"};
    for (const ir::FileFunction& candidate : signature_.functions)
      known.push_back(candidate.name);
    const std::string suggestion = didYouMean(call.name, known);
    // In the annotation, at the name; in a body, at the annotation's call.
    error(report.offset, depth == 0 ? static_cast<unsigned>(call.name.size()) : report.length,
          "unknown function '" + call.name + "'" +
              (suggestion.empty() ? "; expressions may call min, max, ceil_div and the file's "
                                    "function-like macros and functions of one return statement"
                                  : suggestion));
    return nullptr;
  }
  const std::string described = "'" + function->name + "' (" + function->where + ")";
  if (!function->unusable.empty()) {
    error(report.offset, report.length,
          described + " cannot be called in an annotation: " + function->unusable);
    return nullptr;
  }
  std::size_t required = function->params.size(); // those before the first default argument
  while (required > 0 && required <= function->defaults.size() &&
         !function->defaults[required - 1].empty())
    --required;
  if (call.operands.size() < required || call.operands.size() > function->params.size()) {
    const std::size_t most = function->params.size();
    error(report.offset, report.length,
          "'" + function->name + "' takes " +
              (required == most ? std::to_string(most)
                                : std::to_string(required) + " to " + std::to_string(most)) +
              " argument" + (most == 1 ? "" : "s") + ", found " +
              std::to_string(call.operands.size()));
    return nullptr;
  }
  if (++expansions_ > kMaxExpansions) {
    error(report.offset, report.length,
          "the annotation expands more than " + std::to_string(kMaxExpansions) +
              " calls of the file's functions; write the expression out");
    return nullptr;
  }
  if (depth >= kMaxCallDepth) {
    error(report.offset, report.length,
          "calls of the file's functions nest more than " + std::to_string(kMaxCallDepth) +
              " deep at " + described + "; does a macro expand to itself?");
    return nullptr;
  }
  std::string body = function->body;
  if (function->macro) {
    // As the preprocessor does: each parameter replaced by the argument as it is written.
    Diagnostics ignored;
    std::string expansion;
    for (const Token& token : lex(body, ignored)) {
      if (token.kind == TokenKind::End)
        break;
      std::string piece(token.text);
      for (std::size_t i = 0; i < function->params.size(); ++i)
        if (token.kind == TokenKind::Identifier && token.text == function->params[i])
          piece = std::string(text.substr(call.operands[i]->offset, call.operands[i]->length));
      expansion += (expansion.empty() ? "" : " ") + piece;
    }
    body = expansion;
  }
  // The body, or a default argument, as an expression of the language, or an error at the call.
  const auto parse = [&](const std::string& source, const std::string& what) -> ir::ExprPtr {
    Diagnostics inner;
    ir::ExprPtr parsed = parseExpression(source, inner);
    if (parsed && !hasErrors(inner))
      return parsed;
    std::string why = "not an expression of the annotation language";
    for (const Diagnostic& finding : inner)
      if (finding.severity == Diagnostic::Severity::Error) {
        why = finding.message;
        break;
      }
    error(report.offset, report.length, "in " + described + ", " + what + ": " + why);
    return nullptr;
  };
  const ir::ExprPtr parsed =
      parse(body, (function->macro ? "which expands to '" : "which returns '") + body + "'");
  if (!parsed)
    return nullptr;
  ir::ExprPtr expanded = expandCalls(parsed, body, depth + 1, report);
  if (!expanded)
    return nullptr;
  if (function->macro) {
    expanded = relocated(expanded, report.offset, report.length);
  } else {
    std::vector<ir::ExprPtr> arguments;
    for (const ir::ExprPtr& argument : call.operands) {
      // In the annotation an argument keeps its place; in a body it is shown at the call.
      ir::ExprPtr value =
          expandCalls(argument, text, depth, depth == 0 ? std::nullopt : std::optional(report));
      if (!value)
        return nullptr;
      arguments.push_back(depth == 0 ? value : relocated(value, report.offset, report.length));
    }
    for (std::size_t i = arguments.size(); i < function->params.size(); ++i) {
      // A default argument is read as the body is: its names are the file's constants.
      const ir::ExprPtr value =
          parse(function->defaults[i],
                "whose '" + function->params[i] + "' defaults to '" + function->defaults[i] + "'");
      ir::ExprPtr defaulted =
          value ? expandCalls(value, function->defaults[i], depth + 1, report) : nullptr;
      if (defaulted)
        defaulted = substituteArguments(defaulted, *function, {}, report);
      if (!defaulted)
        return nullptr;
      arguments.push_back(defaulted);
    }
    expanded = substituteArguments(expanded, *function, arguments, report);
    if (!expanded)
      return nullptr;
  }
  if (expressionDepth(*expanded) > kMaxExpressionDepth) {
    error(report.offset, report.length,
          described + " expands to an expression nested more than " +
              std::to_string(kMaxExpressionDepth) + " levels deep");
    return nullptr;
  }
  return expanded;
}

// A function's expression with its parameters' values: the names of its body that are no
// parameter of it are the file's constants, never the kernel's parameters.
ir::ExprPtr NameResolver::substituteArguments(const ir::ExprPtr& body,
                                              const ir::FileFunction& function,
                                              const std::vector<ir::ExprPtr>& arguments,
                                              Span report) {
  if (isName(body->kind)) {
    for (std::size_t i = 0; i < arguments.size(); ++i) // none for a default argument
      if (body->name == function.params[i])
        return arguments[i];
    for (const ir::TemplateConstant& constant : signature_.constants)
      if (constant.name == body->name) {
        auto literal = std::make_shared<ir::Expr>();
        literal->kind = ir::ExprKind::Literal;
        literal->value = constant.value;
        literal->offset = report.offset;
        literal->length = report.length;
        return literal;
      }
    error(report.offset, report.length,
          "'" + body->name + "', which '" + function.name + "' (" + function.where +
              ") reads, is not an integer constant of the file (a macro, a const or constexpr "
              "integer, an enumerator)");
    return nullptr;
  }
  auto copy = std::make_shared<ir::Expr>(*body);
  copy->offset = report.offset;
  copy->length = report.length;
  for (ir::ExprPtr& operand : copy->operands)
    if (!(operand = substituteArguments(operand, function, arguments, report)))
      return nullptr;
  return copy;
}

} // namespace overlap::annotation
