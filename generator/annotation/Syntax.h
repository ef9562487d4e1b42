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

struct PartitionClause {
  Name keyword;
  ir::ExprPtr extent;
};

struct OffsetClause {
  Name keyword;
  Name lengthParam;
};

struct RangeClause {
  Name keyword;
  Name beginParam;
  Name endParam;
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

enum class ClauseKind { Partition, Offset, Range, CopyIn, CopyOut, Copy, Extent, Launch, Tune };

struct AnnotationSyntax {
  std::vector<PartitionClause> partitions;
  std::vector<OffsetClause> offsets;
  std::vector<RangeClause> ranges;
  std::vector<DataClause> dataClauses; // in the order written
  std::vector<ExtentClause> extents;
  std::vector<LaunchClause> launches;
  std::vector<TuneClause> tunes;
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
