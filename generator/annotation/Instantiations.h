// What the frontend must ask Clang for before it can check an annotation: the instantiations of
// a kernel template that its instantiate(...) clauses list, checked against the template's
// parameters, and the names of the file's constants the annotation uses. Clang-free.
#pragma once

#include "annotation/Diagnostic.h"
#include "annotation/Syntax.h"
#include "ir/KernelIR.h"

#include <string>
#include <string_view>
#include <vector>

namespace overlap::annotation {

struct Instantiation {
  std::string name; // the entry points' base name the clause gives; empty: derive one
  // One per template parameter, in the template's order: the argument's C++ text, or empty for
  // a trailing parameter left to its default.
  std::vector<std::string> arguments;
  unsigned offset = 0; // of the clause's keyword in the annotation text
  unsigned length = 0;
};

struct InstantiationsResult {
  std::vector<Instantiation> instantiations;
  Diagnostics diagnostics; // the annotation's syntax errors too
};

// `signature` is the template's (isTemplate, templateParams).
InstantiationsResult instantiationsOf(std::string_view text, const ir::KernelSignature& signature);

// The entry points' base name the annotation's name(...) clause gives a kernel that is not a
// template (two overloads of one name); empty where it has none. The checker judges the clause.
std::string entryNameOf(std::string_view text);

// The names the annotation's expressions use, each once with its first position, in the order
// of the text: the frontend looks for the file's constants (macros, const variables,
// enumerators) among those that name no parameter.
std::vector<Name> expressionNames(std::string_view text);

// The types the annotation's sizeof(...) names, each once with its first position: the frontend
// gives the sizes of the file's types (float4, a struct) that the checker does not know.
std::vector<Name> sizeofTypes(std::string_view text);

// The calls of functions the language does not have (CEIL_DIV(n, 256)), each once with its first
// position: the frontend looks for the file's function-like macros and functions among them.
std::vector<Name> calledFunctions(std::string_view text);

// What a function of the file uses in its body (or in `text`, one of its default arguments): the
// functions it calls, for the frontend to look up in turn, the names that are none of its
// parameters, for the file's constants, and sizeof's types; offsets are in the text read.
struct BodyNames {
  std::vector<Name> calls;
  std::vector<Name> names;
  std::vector<Name> types;
};
BodyNames bodyNames(const ir::FileFunction& function);
BodyNames bodyNames(const ir::FileFunction& function, std::string_view text);

// "sum_float_256" for sum<float, 256>: the kernel's plain name and each argument with what is not
// a letter or a digit turned into single underscores.
std::string derivedEntryName(const std::string& kernel, const std::vector<std::string>& arguments);

} // namespace overlap::annotation
