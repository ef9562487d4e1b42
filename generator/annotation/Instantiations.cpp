#include "annotation/Instantiations.h"

#include "annotation/Parser.h"
#include "annotation/Suggest.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace overlap::annotation {
namespace {

void error(Diagnostics& diags, unsigned offset, unsigned length, std::string message) {
  diags.push_back({Diagnostic::Severity::Error, offset, length, std::move(message)});
}

// Letters and digits of `text`, every other run of characters one underscore, none at the ends;
// a minus sign of a number reads 'm' and a '*' 'ptr', so that SHIFT = -1 and SHIFT = 1, or
// T = float* and T = float, get different names.
std::string identifierPart(const std::string& text) {
  std::string out;
  const auto separate = [&] {
    if (!out.empty() && out.back() != '_')
      out += '_';
  };
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    const bool numberSign = c == '-' && i + 1 < text.size() &&
                            std::isdigit(static_cast<unsigned char>(text[i + 1])) &&
                            (i == 0 || !std::isalnum(static_cast<unsigned char>(text[i - 1])));
    if (std::isalnum(c)) {
      out += text[i];
    } else if (numberSign) {
      separate();
      out += 'm';
    } else if (c == '*') {
      separate();
      out += "ptr_";
    } else {
      separate();
    }
  }
  while (!out.empty() && out.back() == '_')
    out.pop_back();
  return out;
}

} // namespace

InstantiationsResult instantiationsOf(std::string_view text, const ir::KernelSignature& signature) {
  InstantiationsResult result;
  const AnnotationSyntax syntax = parseAnnotation(text, result.diagnostics);
  std::vector<std::string> names;
  for (const ir::TemplateParam& param : signature.templateParams)
    names.push_back(param.name);
  std::set<std::string> entryNames;
  for (const InstantiateClause& clause : syntax.instantiations) {
    Instantiation instantiation;
    instantiation.offset = clause.keyword.offset;
    instantiation.length = clause.keyword.length;
    instantiation.arguments.assign(names.size(), "");
    std::vector<bool> given(names.size(), false);
    bool ok = true;
    bool misspelled = false;
    for (const TemplateArgumentSyntax& argument : clause.arguments) {
      size_t index = 0;
      while (index < names.size() && names[index] != argument.param.text)
        ++index;
      if (index == names.size()) {
        error(result.diagnostics, argument.param.offset, argument.param.length,
              "'" + argument.param.text + "' is not a template parameter of kernel '" +
                  signature.name + "'" + didYouMean(argument.param.text, names));
        ok = false;
        misspelled = true;
        continue;
      }
      if (given[index]) {
        error(result.diagnostics, argument.param.offset, argument.param.length,
              "template parameter '" + argument.param.text + "' given twice in one instantiate");
        ok = false;
        continue;
      }
      given[index] = true;
      instantiation.arguments[index] = argument.text;
    }
    // Template arguments are positional: a parameter may be left to its default only when every
    // later one is too. (After a misspelled parameter, the one it meant is not also missing.)
    bool laterGiven = false;
    for (size_t i = names.size(); !misspelled && i-- > 0;) {
      if (given[i]) {
        laterGiven = true;
        continue;
      }
      if (!signature.templateParams[i].hasDefault)
        error(result.diagnostics, clause.keyword.offset, clause.keyword.length,
              "instantiate gives no value for template parameter '" + names[i] + "'; add " +
                  names[i] + " = ...");
      else if (laterGiven)
        error(result.diagnostics, clause.keyword.offset, clause.keyword.length,
              "instantiate leaves '" + names[i] +
                  "' to its default but gives a later template parameter; give '" + names[i] +
                  "' too");
      else
        continue;
      ok = false;
    }
    if (clause.name) {
      instantiation.name = clause.name->text;
      if (!entryNames.insert(instantiation.name).second) {
        error(result.diagnostics, clause.name->offset, clause.name->length,
              "another instantiate is already named '" + instantiation.name + "'");
        ok = false;
      }
    }
    if (ok)
      result.instantiations.push_back(std::move(instantiation));
  }
  return result;
}

namespace {

// The names of `kind` (parameters and constants, or sizeof's types) in an expression.
void collectNames(const ir::ExprPtr& expr, ir::ExprKind kind, std::vector<Name>& names) {
  if (!expr)
    return;
  if (expr->kind == kind)
    names.push_back({expr->name, expr->offset, expr->length});
  for (const ir::ExprPtr& operand : expr->operands)
    collectNames(operand, kind, names);
}

// The names of `kind` in every expression of the annotation, each once, in the order of the text.
std::vector<Name> namesOfKind(std::string_view text, ir::ExprKind kind) {
  Diagnostics ignored;
  const AnnotationSyntax syntax = parseAnnotation(text, ignored);
  std::vector<Name> names;
  auto collect = [&](const ir::ExprPtr& expr) { collectNames(expr, kind, names); };
  for (const PartitionClause& clause : syntax.partitions) {
    collect(clause.begin);
    collect(clause.extent);
  }
  for (const OffsetClause& clause : syntax.offsets)
    collect(clause.lengthValue);
  for (const GranuleClause& clause : syntax.granules)
    collect(clause.granule);
  for (const ExtentClause& clause : syntax.extents)
    collect(clause.elements);
  for (const DataClause& clause : syntax.dataClauses)
    for (const DataItem& item : clause.items)
      if (item.section) {
        collect(item.section->begin);
        collect(item.section->end);
      }
  for (const HaloClause& clause : syntax.halos) {
    collect(clause.before);
    collect(clause.after);
  }
  for (const LaunchClause& clause : syntax.launches)
    for (const LaunchEntry& entry : clause.entries)
      if (entry.value)
        for (const ir::ExprPtr& component : entry.value->components)
          collect(component);
  for (const TuneClause& clause : syntax.tunes)
    for (const TuneEntry& entry : clause.entries)
      collect(entry.value);
  for (const BindClause& clause : syntax.binds)
    for (const Binding& binding : clause.bindings)
      collect(binding.value);
  std::sort(names.begin(), names.end(),
            [](const Name& a, const Name& b) { return a.offset < b.offset; });
  std::vector<Name> unique;
  for (const Name& name : names)
    if (std::none_of(unique.begin(), unique.end(),
                     [&](const Name& known) { return known.text == name.text; }))
      unique.push_back(name);
  return unique;
}

} // namespace

std::string entryNameOf(std::string_view text) {
  Diagnostics ignored;
  const AnnotationSyntax syntax = parseAnnotation(text, ignored);
  return syntax.names.empty() ? std::string() : syntax.names.front().name.text;
}

std::vector<Name> expressionNames(std::string_view text) {
  return namesOfKind(text, ir::ExprKind::Param);
}

std::vector<Name> sizeofTypes(std::string_view text) {
  return namesOfKind(text, ir::ExprKind::SizeOf);
}

std::vector<Name> calledFunctions(std::string_view text) {
  return namesOfKind(text, ir::ExprKind::Call);
}

BodyNames bodyNames(const ir::FileFunction& function) {
  BodyNames result = bodyNames(function, function.body);
  for (const std::string& value : function.defaults) {
    BodyNames used = bodyNames(function, value);
    result.calls.insert(result.calls.end(), used.calls.begin(), used.calls.end());
    result.names.insert(result.names.end(), used.names.begin(), used.names.end());
    result.types.insert(result.types.end(), used.types.begin(), used.types.end());
  }
  return result;
}

BodyNames bodyNames(const ir::FileFunction& function, std::string_view text) {
  BodyNames result;
  Diagnostics ignored;
  const ir::ExprPtr body = text.empty() ? nullptr : parseExpression(text, ignored);
  if (!body)
    return result; // the call reports it
  collectNames(body, ir::ExprKind::Call, result.calls);
  collectNames(body, ir::ExprKind::SizeOf, result.types);
  std::vector<Name> found;
  collectNames(body, ir::ExprKind::Param, found);
  if (!function.macro) // a macro's lo, hi and len are the chunk's; a function's are its file's
    for (ir::ExprKind chunk :
         {ir::ExprKind::ChunkLo, ir::ExprKind::ChunkHi, ir::ExprKind::ChunkLen})
      collectNames(body, chunk, found);
  for (const Name& name : found)
    if (std::find(function.params.begin(), function.params.end(), name.text) ==
        function.params.end())
      result.names.push_back(name);
  return result;
}

std::string derivedEntryName(const std::string& kernel, const std::vector<std::string>& arguments) {
  std::string name = kernel;
  for (const std::string& argument : arguments) {
    const std::string part = identifierPart(argument);
    if (!part.empty())
      name += "_" + part;
  }
  return name;
}

} // namespace overlap::annotation
