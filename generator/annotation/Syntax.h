// The clauses of an annotation as written, before names are resolved against the kernel's
// signature. Expressions are already ir::Expr trees; their Param nodes carry only a name
// (param == -1) until AnnotationSema resolves them.
#pragma once

#include "ir/Expr.h"
#include "ir/KernelIR.h"

#include <optional>
#include <string>
#include <vector>

namespace overlap::annotation {

// An identifier and where it is spelled.
struct Name {
  std::string text;
  unsigned offset = 0;
  unsigned length = 0;
};

// partition(EXTENT), or partition(BEGIN : END) with `begin` set and `extent` holding END.
struct PartitionClause {
  Name keyword;
  ir::ExprPtr extent;
  ir::ExprPtr begin;
};

// offset(PARAM), offset(PARAM = VALUE), or a bare `offset` (no chunk-length parameter).
struct OffsetClause {
  Name keyword;
  std::optional<Name> lengthParam;
  ir::ExprPtr lengthValue;
};

// range(BEGIN, END), range(BEGIN), or a bare `range` (no bound parameters).
struct RangeClause {
  Name keyword;
  std::optional<Name> beginParam;
  std::optional<Name> endParam;
};

// bind(PARAM = VALUE, ...): VALUE, an expression of the chunk, is what PARAM receives per chunk.
struct Binding {
  Name param;
  ir::ExprPtr value;
};

struct BindClause {
  Name keyword;
  std::vector<Binding> bindings;
};

// [begin:end]; offset/length span the brackets.
struct SectionSyntax {
  ir::ExprPtr begin;
  ir::ExprPtr end;
  unsigned offset = 0;
  unsigned length = 0;
};

struct DataItem {
  Name array;
  std::optional<SectionSyntax> section; // none: the whole array
};

struct DataClause {
  Name keyword; // copyin, copyout or copy
  ir::Direction direction = ir::Direction::In;
  std::vector<DataItem> items;
};

struct ExtentClause {
  Name keyword;
  std::vector<Name> arrays;
  ir::ExprPtr elements;
};

// A launch value: one expression, or a parenthesized list of them (dim3 x, y, z).
struct DimSyntax {
  std::vector<ir::ExprPtr> components;
  bool parenthesizedList = false;
  unsigned offset = 0;
  unsigned length = 0;
};

// `key: value`, or a bare key such as gridstride.
struct LaunchEntry {
  Name key;
  std::optional<DimSyntax> value;
};

struct LaunchClause {
  Name keyword;
  std::vector<LaunchEntry> entries;
};

struct TuneEntry {
  Name param;
  ir::ExprPtr value;
};

struct TuneClause {
  Name keyword;
  std::vector<TuneEntry> entries;
};

struct GranuleClause {
  Name keyword;
  ir::ExprPtr granule;
};

// reduce(OP: a, b): OP is + * min max & | ^.
struct ReduceClause {
  Name keyword;
  Name op;
  ir::ReduceOp kind = ir::ReduceOp::None;
  std::vector<Name> arrays;
};

// halo(a, b: BEFORE [, AFTER]).
struct HaloClause {
  Name keyword;
  std::vector<Name> arrays;
  ir::ExprPtr before;
  ir::ExprPtr after; // null: as before
};

// param(TYPE NAME, ...): `type` is the words before the name ("unsigned long long").
struct HostParamSyntax {
  std::string type;
  unsigned typeOffset = 0;
  unsigned typeLength = 0;
  Name name;
};

struct ParamClause {
  Name keyword;
  std::vector<HostParamSyntax> params;
};

struct OptionalClause {
  Name keyword;
  std::vector<Name> arrays;
};

// One TEMPLATE_PARAM = ARGUMENT of instantiate(...); the argument is C++ text, taken verbatim.
struct TemplateArgumentSyntax {
  Name param;
  std::string text;
  unsigned offset = 0;
  unsigned length = 0;
};

// instantiate([NAME:] T = float, BLOCK = 256).
struct InstantiateClause {
  Name keyword;
  std::optional<Name> name;
  std::vector<TemplateArgumentSyntax> arguments;
};

// name(NAME): the entry points' base name of a kernel that is not a template.
struct NameClause {
  Name keyword;
  Name name;
};

enum class ClauseKind {
  Partition,
  Offset,
  Range,
  CopyIn,
  CopyOut,
  Copy,
  Extent,
  Launch,
  Tune,
  Granule,
  Reduce,
  Halo,
  Param,
  Optional,
  Instantiate,
  Bind,
  Name
};

struct AnnotationSyntax {
  std::vector<PartitionClause> partitions;
  std::vector<OffsetClause> offsets;
  std::vector<RangeClause> ranges;
  std::vector<DataClause> dataClauses; // in the order written
  std::vector<ExtentClause> extents;
  std::vector<LaunchClause> launches;
  std::vector<TuneClause> tunes;
  std::vector<GranuleClause> granules;
  std::vector<ReduceClause> reduces;
  std::vector<HaloClause> halos;
  std::vector<ParamClause> hostParams;
  std::vector<OptionalClause> optionals;
  std::vector<InstantiateClause> instantiations;
  std::vector<BindClause> binds;
  std::vector<NameClause> names;
  // Clauses that were written, including those dropped for syntax errors: the checker must not
  // also call them missing.
  std::vector<ClauseKind> written;
  bool hasSyntaxErrors = false;

  bool wasWritten(ClauseKind kind) const {
    for (ClauseKind k : written)
      if (k == kind)
        return true;
    return false;
  }
};

} // namespace overlap::annotation
