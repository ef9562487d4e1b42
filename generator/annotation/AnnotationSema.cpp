#include "annotation/AnnotationSema.h"

#include "annotation/NameResolver.h"
#include "annotation/NeighbourReads.h"
#include "annotation/Parser.h"
#include "annotation/SectionAnalysis.h"
#include "annotation/StrayWrites.h"
#include "annotation/Suggest.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <numeric>
#include <set>

namespace overlap::annotation {
namespace {

using ir::Direction;

const char* clauseName(Direction direction) {
  switch (direction) {
  case Direction::In:
    return "copyin";
  case Direction::Out:
    return "copyout";
  case Direction::InOut:
    return "copy";
  }
  return "";
}

bool isDataClause(ClauseKind kind) {
  return kind == ClauseKind::CopyIn || kind == ClauseKind::CopyOut || kind == ClauseKind::Copy ||
         kind == ClauseKind::Reduce;
}

size_t countWritten(const AnnotationSyntax& syntax, bool (*matches)(ClauseKind)) {
  size_t count = 0;
  for (ClauseKind kind : syntax.written)
    count += matches(kind) ? 1 : 0;
  return count;
}

// An array while its clauses are checked: the IR array plus what later checks need to know.
struct ArrayDraft {
  ir::Array array;
  unsigned nameLength = 0;
  bool whole = false;                 // named without a section
  std::vector<SectionSyntax> spelled; // parallel to array.sections
  const DataClause* clause = nullptr; // the clause that gave the direction
  bool brokenSection = false;         // a section was rejected: skip the checks of the rest
  bool extentGiven = false;
  bool haloGiven = false;
  bool namedTwice = false; // in another data clause too (reported there)
};

// The C++ spellings param(...) accepts, with what expressions need to know of them, and the
// spelling the generated code declares it with (the same where null).
struct HostParamType {
  const char* spelling;
  ir::ScalarKind kind;
  ir::ElementKind element;
  unsigned size;
  const char* declared = nullptr;
};

constexpr HostParamType kHostParamTypes[] = {
    {"bool", ir::ScalarKind::Boolean, ir::ElementKind::Other, 1},
    {"char", ir::ScalarKind::SignedInteger, ir::ElementKind::I8, 1},
    {"signed char", ir::ScalarKind::SignedInteger, ir::ElementKind::I8, 1},
    {"unsigned char", ir::ScalarKind::UnsignedInteger, ir::ElementKind::U8, 1},
    {"short", ir::ScalarKind::SignedInteger, ir::ElementKind::I16, 2},
    {"unsigned short", ir::ScalarKind::UnsignedInteger, ir::ElementKind::U16, 2},
    {"int", ir::ScalarKind::SignedInteger, ir::ElementKind::I32, 4},
    {"signed", ir::ScalarKind::SignedInteger, ir::ElementKind::I32, 4},
    {"unsigned", ir::ScalarKind::UnsignedInteger, ir::ElementKind::U32, 4},
    {"unsigned int", ir::ScalarKind::UnsignedInteger, ir::ElementKind::U32, 4},
    {"long", ir::ScalarKind::SignedInteger, ir::ElementKind::I64, 8},
    {"unsigned long", ir::ScalarKind::UnsignedInteger, ir::ElementKind::U64, 8},
    {"long long", ir::ScalarKind::SignedInteger, ir::ElementKind::I64, 8},
    {"unsigned long long", ir::ScalarKind::UnsignedInteger, ir::ElementKind::U64, 8},
    {"int32_t", ir::ScalarKind::SignedInteger, ir::ElementKind::I32, 4},
    {"uint32_t", ir::ScalarKind::UnsignedInteger, ir::ElementKind::U32, 4},
    {"int64_t", ir::ScalarKind::SignedInteger, ir::ElementKind::I64, 8},
    {"uint64_t", ir::ScalarKind::UnsignedInteger, ir::ElementKind::U64, 8},
    {"size_t", ir::ScalarKind::UnsignedInteger, ir::ElementKind::U64, 8},
    {"ptrdiff_t", ir::ScalarKind::SignedInteger, ir::ElementKind::I64, 8},
    // The other spellings of the same types.
    {"short int", ir::ScalarKind::SignedInteger, ir::ElementKind::I16, 2, "short"},
    {"signed short", ir::ScalarKind::SignedInteger, ir::ElementKind::I16, 2, "short"},
    {"unsigned short int", ir::ScalarKind::UnsignedInteger, ir::ElementKind::U16, 2,
     "unsigned short"},
    {"signed int", ir::ScalarKind::SignedInteger, ir::ElementKind::I32, 4, "int"},
    {"uint", ir::ScalarKind::UnsignedInteger, ir::ElementKind::U32, 4, "unsigned int"},
    {"long int", ir::ScalarKind::SignedInteger, ir::ElementKind::I64, 8, "long"},
    {"signed long", ir::ScalarKind::SignedInteger, ir::ElementKind::I64, 8, "long"},
    {"unsigned long int", ir::ScalarKind::UnsignedInteger, ir::ElementKind::U64, 8,
     "unsigned long"},
    {"long long int", ir::ScalarKind::SignedInteger, ir::ElementKind::I64, 8, "long long"},
    {"signed long long", ir::ScalarKind::SignedInteger, ir::ElementKind::I64, 8, "long long"},
    {"unsigned long long int", ir::ScalarKind::UnsignedInteger, ir::ElementKind::U64, 8,
     "unsigned long long"},
    {"std::int32_t", ir::ScalarKind::SignedInteger, ir::ElementKind::I32, 4, "int32_t"},
    {"std::uint32_t", ir::ScalarKind::UnsignedInteger, ir::ElementKind::U32, 4, "uint32_t"},
    {"std::int64_t", ir::ScalarKind::SignedInteger, ir::ElementKind::I64, 8, "int64_t"},
    {"std::uint64_t", ir::ScalarKind::UnsignedInteger, ir::ElementKind::U64, 8, "uint64_t"},
    {"std::size_t", ir::ScalarKind::UnsignedInteger, ir::ElementKind::U64, 8, "size_t"},
    {"std::ptrdiff_t", ir::ScalarKind::SignedInteger, ir::ElementKind::I64, 8, "ptrdiff_t"},
};

// Does the expression, before names are resolved, mention a parameter called `name`?
// (`lo`, `hi` and `len` parse as the chunk's, but name a parameter so called where the partition,
// an extent or tune reads them.)
bool spellsName(const ir::Expr& expr, const std::string& name) {
  if ((expr.kind == ir::ExprKind::Param || expr.kind == ir::ExprKind::ChunkLo ||
       expr.kind == ir::ExprKind::ChunkHi || expr.kind == ir::ExprKind::ChunkLen) &&
      expr.name == name)
    return true;
  for (const ir::ExprPtr& operand : expr.operands)
    if (spellsName(*operand, name))
      return true;
  return false;
}

class KernelChecker {
public:
  KernelChecker(std::string_view text, const ir::KernelSignature& signature, Diagnostics& diags)
      : text_(text), signature_(signature), diags_(diags) {}

  std::optional<ir::Kernel> run() {
    if (signature_.isTemplate) {
      error(0, 0,
            "kernel '" + signature_.name +
                "' is a template; list the instantiations to generate for with instantiate(T = "
                "..., ...) clauses, or instantiate it explicitly in this file");
      return std::nullopt;
    }
    syntax_ = parseAnnotation(text_, diags_);
    checkInstantiateClauses();
    // Host-only parameters first: every expression may use them.
    addHostParams();
    names_.emplace(signature_, text_, diags_);
    kernel_.signature = signature_;
    samples_ = sampleParameters(signature_);

    // The mode first: range parameters have no value in the expressions checked after it.
    checkMode();
    checkPartition();
    checkDataClauses();
    checkExtents();
    checkCompleteness();
    checkSections();
    checkHalos();
    checkOptionals();
    checkGranule();
    checkLength();
    checkLengthIndexesNothing();
    warnStrideOfTheWholeCall();
    warnBroadcastFromElsewhere();
    checkBindings();
    checkLaunch();
    // After the launch: a dimension it leaves at 1 has no steps.
    checkStrayWrites();
    checkNeighbourReads();
    checkTune();

    if (hasErrors(diags_))
      return std::nullopt;
    for (ArrayDraft& draft : drafts_)
      kernel_.arrays.push_back(std::move(draft.array));
    return std::move(kernel_);
  }

private:
  void error(unsigned offset, unsigned length, std::string message) {
    diags_.push_back({Diagnostic::Severity::Error, offset, length, std::move(message)});
  }
  void error(const Name& at, std::string message) {
    error(at.offset, at.length, std::move(message));
  }
  void errorAt(const ir::Expr& at, std::string message) {
    error(at.offset, at.length, std::move(message));
  }
  void warningAt(const ir::Expr& at, std::string message) {
    diags_.push_back({Diagnostic::Severity::Warning, at.offset, at.length, std::move(message)});
  }
  const ir::Parameter& param(int index) const { return signature_.params[index]; }

  // --- instantiations and host-only parameters ------------------------------------------------

  // An instantiation's clauses were read by the frontend (instantiationsOf) when it chose the
  // instantiations; a kernel that is not a template has none.
  void checkInstantiateClauses() {
    if (!signature_.templateArguments.empty()) {
      for (const NameClause& clause : syntax_.names)
        error(clause.keyword, "kernel '" + signature_.name +
                                  "' is a template; name each instantiation's entry points with "
                                  "instantiate(NAME: ...)");
      return;
    }
    for (size_t i = 1; i < syntax_.names.size(); ++i)
      error(syntax_.names[i].keyword, "the entry points are already named '" +
                                          syntax_.names.front().name.text +
                                          "'; keep one name(...)");
    for (const InstantiateClause& clause : syntax_.instantiations)
      error(clause.keyword, "kernel '" + signature_.name +
                                "' is not a template; instantiate(...) lists the instantiations "
                                "of a kernel template");
  }

  static const HostParamType* hostParamType(const std::string& spelling) {
    for (const HostParamType& candidate : kHostParamTypes)
      if (spelling == candidate.spelling)
        return &candidate;
    return nullptr;
  }

  void addHostParams() {
    std::set<std::string> names;
    for (const ir::Parameter& p : signature_.params)
      names.insert(p.name);
    for (const ParamClause& clause : syntax_.hostParams) {
      for (const HostParamSyntax& declared : clause.params) {
        // A builtin spelling first, then a type of the file, which is declared as what it is.
        std::string spelling = declared.type;
        const HostParamType* type = hostParamType(spelling);
        for (const ir::TypeAlias& alias : signature_.typeAliases)
          if (!type && alias.name == declared.type)
            type = hostParamType(spelling = alias.builtin);
        if (!type) {
          error(declared.typeOffset, declared.typeLength,
                "'" + declared.type + (spelling != declared.type ? "' ('" + spelling + "')" : "'") +
                    " is not an integer type param(...) takes; use int, unsigned, long, long "
                    "long, size_t, int64_t, a typedef of one or the like");
          type = &kHostParamTypes[6]; // declared as int, so that its uses are not errors too
        }
        if (!names.insert(declared.name.text).second) {
          error(declared.name, "'" + declared.name.text +
                                   "' is already a parameter; a param(...) name must be new");
          continue;
        }
        ir::Parameter p;
        p.name = declared.name.text;
        p.type = type->declared ? type->declared : type->spelling;
        p.valueType = p.type;
        p.scalarKind = type->kind;
        p.elementKind = type->element;
        p.elementSize = type->size;
        p.hostOnly = true;
        signature_.params.push_back(p);
      }
    }
  }

  // --- partition and mode ---------------------------------------------------------------------

  void checkPartition() {
    if (syntax_.partitions.empty()) {
      if (!syntax_.wasWritten(ClauseKind::Partition))
        error(0, 0,
              "missing partition(EXPR) clause: say how many indices the chunks split, e.g. "
              "partition(n)");
      return;
    }
    for (size_t i = 1; i < syntax_.partitions.size(); ++i)
      error(syntax_.partitions[i].keyword, "duplicate 'partition' clause; give it once");
    const PartitionClause& clause = syntax_.partitions[0];
    ir::ExprPtr end = names_->resolve(clause.extent, ExprContext::Partition);
    if (!clause.begin) {
      kernel_.partition = end;
      return;
    }
    ir::ExprPtr begin = names_->resolve(clause.begin, ExprContext::Partition);
    if (!begin || !end)
      return;
    // P = END - BEGIN, printed and evaluated like any other expression.
    auto extent = std::make_shared<ir::Expr>();
    extent->kind = ir::ExprKind::Sub;
    extent->operands = {end, begin};
    extent->offset = clause.begin->offset;
    extent->length = clause.extent->offset + clause.extent->length - clause.begin->offset;
    kernel_.partition = extent;
    kernel_.partitionBegin = begin;
  }

  void checkGranule() {
    for (size_t i = 1; i < syntax_.granules.size(); ++i)
      error(syntax_.granules[i].keyword, "duplicate 'granule' clause; give it once");
    if (syntax_.granules.empty())
      return;
    kernel_.granule = names_->resolve(syntax_.granules[0].granule, ExprContext::Granule);
    if (!kernel_.granule)
      return;
    const std::optional<long long> constant = ir::evaluate(*kernel_.granule, ir::Environment{});
    if (constant && *constant < 1)
      errorAt(*kernel_.granule, "granule " + std::to_string(*constant) +
                                    " is not positive; chunk bounds fall on multiples of it");
  }

  // offset(n = VALUE) and the plain offset(n): one launch over the whole partition must pass the
  // caller's n, or no variant computes what a direct call would. Never true: an error here; true
  // only for some values: checked at run time (the emitter's checkCall).
  void checkLength() {
    if (!offsetMode_ || kernel_.lengthParam < 0 || !kernel_.partition)
      return;
    const OffsetClause& clause = syntax_.offsets[0];
    if (clause.lengthValue && !kernel_.lengthValue)
      return; // reported where it was resolved
    std::vector<ParamSample> samples = samples_;
    for (ParamSample& sample : divisibleSamples(kernel_.signature))
      samples.push_back(std::move(sample));
    if (!lengthNeverMatches(kernel_.lengthParam, kernel_.lengthValue, kernel_.partition, samples))
      return;
    const std::string& name = param(kernel_.lengthParam).name;
    const std::string passed =
        kernel_.lengthValue ? ir::toSource(*kernel_.lengthValue) + " at len = P" : "P";
    error(clause.lengthValue ? static_cast<const ir::Expr&>(*clause.lengthValue).offset
                             : clause.lengthParam->offset,
          clause.lengthValue ? clause.lengthValue->length : clause.lengthParam->length,
          "one launch over the whole partition P = " + ir::toSource(*kernel_.partition) +
              " passes '" + name + "' " + passed + ", never the caller's " + name + "; say what '" +
              name + "' receives per chunk with offset(" + name + " = EXPR of len), e.g. offset(" +
              name + " = 2 * len) when " + name + " counts halves of the partition's elements");
  }

  // Offset mode gives PARAM the chunk's length: an index at a multiple of it (y[k * n + i])
  // addresses planes of the chunk's length, not the whole call's.
  void checkLengthIndexesNothing() {
    if (!offsetMode_ || kernel_.lengthParam < 0)
      return;
    const ir::Parameter& length = param(kernel_.lengthParam);
    if (length.indexLine == 0 || length.indexedArray < 0)
      return;
    const std::string& array = param(length.indexedArray).name;
    error(*syntax_.offsets[0].lengthParam,
          "the kernel indexes '" + array + "' at a multiple of '" + length.name + "' (line " +
              std::to_string(length.indexLine) + ", column " + std::to_string(length.indexColumn) +
              "), planes '" + length.name + "' apart, but offset(" + length.name +
              ") gives it each chunk's length: the chunk's kernel would address planes of the "
              "chunk's length, not the whole array's; use range mode, or a bare 'offset' that "
              "leaves '" +
              length.name +
              "' the caller's (docs/annotations.md, \"A length that is also a "
              "stride\")");
  }

  void checkMode() {
    for (size_t i = 1; i < syntax_.offsets.size(); ++i)
      error(syntax_.offsets[i].keyword, "duplicate 'offset' clause; give it once");
    for (size_t i = 1; i < syntax_.ranges.size(); ++i)
      error(syntax_.ranges[i].keyword, "duplicate 'range' clause; give it once");
    if (!syntax_.offsets.empty() && !syntax_.ranges.empty()) {
      const Name& later = syntax_.offsets[0].keyword.offset > syntax_.ranges[0].keyword.offset
                              ? syntax_.offsets[0].keyword
                              : syntax_.ranges[0].keyword;
      error(later, "both offset and range given; choose one mode: offset(PARAM) passes each "
                   "array from its chunk's section, range(BEGIN, END) passes lo and hi");
      return;
    }
    if (!syntax_.offsets.empty()) {
      kernel_.mode = ir::ChunkMode::Offset;
      offsetMode_ = true;
      const OffsetClause& clause = syntax_.offsets[0];
      if (!clause.lengthParam)
        return; // a bare offset: the kernel takes no chunk length
      kernel_.lengthParam = checkModeParam(*clause.lengthParam, "offset", "the chunk length");
      if (clause.lengthValue) {
        kernel_.lengthValue = names_->resolve(clause.lengthValue, ExprContext::Length);
        if (kernel_.lengthValue && !ir::isAffineInChunk(*kernel_.lengthValue))
          errorAt(*kernel_.lengthValue,
                  "chunk length value '" + ir::toSource(*kernel_.lengthValue) +
                      "' is not affine in len; use len times a factor plus a term that do not "
                      "depend on the chunk");
      }
      return;
    }
    if (!syntax_.ranges.empty()) {
      kernel_.mode = ir::ChunkMode::Range;
      const RangeClause& clause = syntax_.ranges[0];
      if (clause.beginParam)
        kernel_.beginParam = checkModeParam(*clause.beginParam, "range", "lo");
      if (kernel_.beginParam >= 0 && !param(kernel_.beginParam).named)
        error(*clause.beginParam,
              "kernel '" + signature_.name + "' never reads '" + clause.beginParam->text +
                  "', so every chunk's kernel would work as if its chunk began where the first "
                  "does; index from it (i = " +
                  clause.beginParam->text + " + ...), or use offset mode");
      if (clause.endParam)
        kernel_.endParam = checkModeParam(*clause.endParam, "range", "hi");
      if (clause.beginParam && clause.endParam &&
          clause.beginParam->text == clause.endParam->text) {
        error(*clause.endParam, "range begin and end are the same parameter '" +
                                    clause.endParam->text +
                                    "'; the kernel needs one parameter for lo and another for hi");
        kernel_.endParam = -1;
      }
      // partition(iy_start : iy_end) reads the bounds the caller passes: they stay arguments of
      // the generated functions, with the caller's values in every expression.
      const auto partitionSpells = [&](const std::optional<Name>& name) {
        if (!name || syntax_.partitions.empty())
          return false;
        const PartitionClause& partition = syntax_.partitions[0];
        return spellsName(*partition.extent, name->text) ||
               (partition.begin && spellsName(*partition.begin, name->text));
      };
      const bool partitionReadsBounds =
          partitionSpells(clause.beginParam) || partitionSpells(clause.endParam);
      // Reported once: the bounds are then the caller's in every other clause.
      if (partitionReadsBounds)
        checkBoundsInPlace(clause);
      kernel_.boundsFromCaller = partitionReadsBounds;
      if (!partitionReadsBounds)
        names_->setChunkParams(kernel_.beginParam, kernel_.endParam);
      return;
    }
    if (!syntax_.wasWritten(ClauseKind::Offset) && !syntax_.wasWritten(ClauseKind::Range))
      error(0, 0,
            "missing chunk mode: add offset(PARAM) for kernels that index from 0 to a "
            "length, or range(BEGIN, END) for kernels that take the bounds of their work");
  }

  // A partition that reads the range bounds takes the caller's: partition(BEGIN : END), BEGIN
  // reading the begin parameter and END the end one, or a call over [b, e) would run chunks over
  // another range than a direct launch covers (partition(e) alone starts at 0, whatever b is).
  void checkBoundsInPlace(const RangeClause& range) {
    const PartitionClause& partition = syntax_.partitions[0];
    const auto reads = [](const ir::ExprPtr& expr, const std::optional<Name>& name) {
      return expr && name && spellsName(*expr, name->text);
    };
    const bool inPlace =
        partition.begin && (!range.beginParam || reads(partition.begin, range.beginParam)) &&
        (!range.endParam || reads(partition.extent, range.endParam)) &&
        !reads(partition.begin, range.endParam) && !reads(partition.extent, range.beginParam);
    if (inPlace)
      return;
    const std::string begin = range.beginParam ? range.beginParam->text : "BEGIN";
    const std::string end = range.endParam ? range.endParam->text : "END";
    const ir::Expr& at = partition.begin ? *partition.begin : *partition.extent;
    error(at.offset, partition.extent->offset + partition.extent->length - at.offset,
          "the partition reads the range bounds the generator sets per chunk; to give every "
          "call the caller's bounds, write partition(" +
              begin + " : " + end + "), else give the extent without '" + begin + "' and '" + end +
              "'");
  }

  int checkModeParam(const Name& name, const char* clause, const char* receives) {
    std::optional<int> index = names_->findParam(name);
    if (!index)
      return -1;
    const ir::Parameter& p = param(*index);
    std::string need =
        std::string("; ") + clause + " needs an integer scalar parameter that receives " + receives;
    if (p.isPointer) {
      error(name, "'" + name.text + "' is a pointer" + need);
      return -1;
    }
    if (p.scalarKind != ir::ScalarKind::SignedInteger &&
        p.scalarKind != ir::ScalarKind::UnsignedInteger) {
      error(name, "parameter '" + name.text + "' has type '" + p.type + "'" + need);
      return -1;
    }
    return *index;
  }

  // --- data clauses ---------------------------------------------------------------------------

  ArrayDraft* draftFor(int param) {
    for (ArrayDraft& draft : drafts_)
      if (draft.array.param == param)
        return &draft;
    return nullptr;
  }

  void checkDataClauses() {
    // A reduced array is read and written as a whole by every chunk: a copy with no section.
    reduceClauses_.reserve(syntax_.reduces.size());
    std::vector<std::pair<const DataClause*, ir::ReduceOp>> clauses;
    for (const DataClause& clause : syntax_.dataClauses)
      clauses.emplace_back(&clause, ir::ReduceOp::None);
    for (const ReduceClause& reduce : syntax_.reduces) {
      reduceClauses_.push_back({reduce.keyword, Direction::InOut, {}});
      for (const Name& array : reduce.arrays)
        reduceClauses_.back().items.push_back({array, std::nullopt});
      clauses.emplace_back(&reduceClauses_.back(), reduce.kind);
    }
    // In the order written: an array named twice is reported where it is named the second time.
    std::stable_sort(clauses.begin(), clauses.end(), [](const auto& a, const auto& b) {
      return a.first->keyword.offset < b.first->keyword.offset;
    });
    for (const auto& [clause, reduce] : clauses)
      for (const DataItem& item : clause->items)
        if (ArrayDraft* draft = checkDataItem(*clause, item);
            draft && reduce != ir::ReduceOp::None) {
          checkReduceType(*clause, item, param(draft->array.param), reduce);
          checkUpdatedAtomically(item, param(draft->array.param));
          draft->array.reduce = reduce;
        }
    for (const ArrayDraft& draft : drafts_) {
      checkNotWritten(draft);
      checkNotReadFirst(draft);
    }
    // Arrays in parameter order, as the IR promises.
    std::sort(drafts_.begin(), drafts_.end(), [](const ArrayDraft& a, const ArrayDraft& b) {
      return a.array.param < b.array.param;
    });
  }

  // An array copied in only that the kernel writes (the frontend found where): Explicit and
  // Streams would drop the writes while Mapped made them in the caller's array.
  void checkNotWritten(const ArrayDraft& draft) {
    const ir::Parameter& p = param(draft.array.param);
    if (draft.namedTwice || draft.array.direction != Direction::In || p.writeLine == 0)
      return;
    error(draft.array.offset, draft.nameLength,
          "the kernel writes '" + p.name + "' (line " + std::to_string(p.writeLine) + ", column " +
              std::to_string(p.writeColumn) + "), but " + draft.clause->keyword.text +
              " only copies it in: Explicit and Streams would drop what it writes while Mapped "
              "writes the caller's array; use copy");
  }

  // An array copied out only that the kernel reads before it writes (y[i] += v): Explicit and
  // Streams would read a device buffer nothing filled while Mapped read the caller's array.
  void checkNotReadFirst(const ArrayDraft& draft) {
    const ir::Parameter& p = param(draft.array.param);
    if (draft.namedTwice || draft.array.direction != Direction::Out || p.readLine == 0)
      return;
    error(draft.array.offset, draft.nameLength,
          "the kernel reads '" + p.name + "' before it writes it (line " +
              std::to_string(p.readLine) + ", column " + std::to_string(p.readColumn) + "), but " +
              draft.clause->keyword.text +
              " does not copy it in: Explicit and Streams would read a device buffer nothing "
              "filled while Mapped read the caller's array; use copy");
  }

  // Every chunk's kernel updates a reduced array in place: a plain store (out[0] = sum, an
  // atomicExch) overwrites what earlier chunks added, where one launch over the whole would not.
  void checkUpdatedAtomically(const DataItem& item, const ir::Parameter& p) {
    if (p.plainWriteLine == 0)
      return;
    error(item.array,
          "the kernel stores to '" + p.name + "' other than by an atomic update (line " +
              std::to_string(p.plainWriteLine) + ", column " + std::to_string(p.plainWriteColumn) +
              "): every chunk updates a reduced array in place, so a store would "
              "overwrite what the chunks before it added; update it atomically "
              "(atomicAdd, atomicMax, ...) or use copy");
  }

  // Bitwise operators combine integers: on floating-point elements no atomic does them, and the
  // partials of a split call could not be combined.
  void checkReduceType(const DataClause& clause, const DataItem& item, const ir::Parameter& p,
                       ir::ReduceOp reduce) {
    const bool bitwise = reduce == ir::ReduceOp::BitAnd || reduce == ir::ReduceOp::BitOr ||
                         reduce == ir::ReduceOp::BitXor;
    const ir::ElementKind kind = p.elementKind;
    const bool floating = kind == ir::ElementKind::F32 || kind == ir::ElementKind::F64 ||
                          kind == ir::ElementKind::F16 || kind == ir::ElementKind::BF16;
    if (bitwise && floating)
      error(item.array, "'" + item.array.text + "' holds '" + p.valueType + "'; the bitwise " +
                            clause.keyword.text + " operators (&, |, ^) combine integers");
  }

  // The array's draft, or null when the item was rejected.
  ArrayDraft* checkDataItem(const DataClause& clause, const DataItem& item) {
    const std::string& keyword = clause.keyword.text;
    std::optional<int> index = names_->findParam(item.array);
    if (!index) {
      unknownArrayNamed_ = true;
      return nullptr;
    }
    const ir::Parameter& p = param(*index);
    if (!p.isPointer) {
      error(item.array, "'" + item.array.text + "' is not a pointer; " + keyword +
                            " takes pointer parameters (the kernel's arrays)");
      return nullptr;
    }
    namedPointers_.insert(*index);
    if (p.pointeePointer) {
      error(item.array, "'" + p.type +
                            "' holds pointers: the host's addresses mean nothing on the device, "
                            "and " +
                            keyword +
                            " moves arrays of values; pass the pointed-to data as arrays of "
                            "their own");
      return nullptr;
    }
    if (p.valueType == "void" || p.elementSize == 0) {
      std::string type = "'" + p.type + "'";
      error(item.array, p.valueType == "void"
                            ? type + " has no element type; use a typed pointer"
                            : type + " points to a type of unknown size; use a pointer to a "
                                     "complete type");
      return nullptr;
    }
    if (p.pointeeConst && (clause.direction == Direction::Out || keyword == "reduce")) {
      error(item.array, "'" + item.array.text + "' points to const ('" + p.type +
                            "'): the kernel does not write it, so " + keyword +
                            " would copy back what it never wrote; use copyin");
      return nullptr;
    }
    ArrayDraft* draft = draftFor(*index);
    if (draft && draft->clause != &clause) {
      const std::string& earlier = draft->clause->keyword.text;
      draft->namedTwice = true;
      if (earlier != keyword)
        error(item.array, "'" + item.array.text + "' is already in " + earlier +
                              "; an array has one direction: use copy for read-and-write");
      else
        error(item.array, "'" + item.array.text + "' is already named in another " + keyword +
                              " clause; list all its sections in one clause");
      return nullptr;
    }
    if (!draft) {
      drafts_.emplace_back();
      draft = &drafts_.back();
      draft->array.param = *index;
      draft->array.direction = clause.direction;
      draft->array.offset = item.array.offset;
      draft->nameLength = item.array.length;
      draft->clause = &clause;
    } else if (draft->whole || !item.section) {
      error(item.array, "'" + item.array.text +
                            "' is named both as a whole array and with a section (or twice as a "
                            "whole); name it once without a section, or only with sections");
      return nullptr;
    }
    if (!item.section) {
      draft->whole = true;
      return draft;
    }
    ir::Section section;
    section.begin = resolveSectionBound(item.section->begin);
    section.end = resolveSectionBound(item.section->end);
    if (section.begin && section.end) {
      draft->array.sections.push_back(section);
      draft->spelled.push_back(*item.section);
    } else {
      draft->brokenSection = true;
    }
    return draft;
  }

  ir::ExprPtr resolveSectionBound(const ir::ExprPtr& bound) {
    ir::ExprPtr resolved = names_->resolve(bound, ExprContext::Section);
    if (resolved && !ir::isAffineInChunk(*resolved)) {
      errorAt(*resolved, "section bound '" + ir::toSource(*resolved) +
                             "' is not affine in lo and hi; use sums of lo, hi and len times "
                             "factors that do not depend on the chunk (no products of two, no "
                             "division, min or max of them)");
      return nullptr;
    }
    return resolved;
  }

  // --- extents --------------------------------------------------------------------------------

  void checkExtents() {
    std::set<int> given;
    for (const ExtentClause& clause : syntax_.extents) {
      ir::ExprPtr elements = names_->resolve(clause.elements, ExprContext::Extent);
      for (const Name& name : clause.arrays) {
        std::optional<int> index = names_->findParam(name);
        if (!index)
          continue;
        ArrayDraft* draft = draftFor(*index);
        if (!draft) {
          // A pointer in no data clause gets its own error; one is enough.
          if (param(*index).isPointer && namedPointers_.count(*index) == 0)
            continue;
          if (!param(*index).isPointer)
            error(name, "'" + name.text +
                            "' is not an array; extent lists the arrays of "
                            "copyin, copyout and copy");
          continue;
        }
        if (!given.insert(*index).second) {
          error(name, "extent of '" + name.text + "' given twice; give it once");
          continue;
        }
        draft->array.extent = elements;
        draft->extentGiven = true;
      }
    }
  }

  // --- what must be present -------------------------------------------------------------------

  void checkCompleteness() {
    size_t writtenData = countWritten(syntax_, isDataClause);
    if (writtenData == 0) {
      error(0, 0, "no data clause: name the kernel's arrays in copyin, copyout or copy");
    } else if (writtenData == syntax_.dataClauses.size() + syntax_.reduces.size() &&
               !unknownArrayNamed_) {
      // After a misspelt array name, its pointer is surely the one without a direction: said once.
      for (size_t i = 0; i < signature_.params.size(); ++i) {
        const ir::Parameter& p = param(static_cast<int>(i));
        if (!p.isPointer || namedPointers_.count(static_cast<int>(i)) > 0)
          continue;
        if (p.name.empty())
          error(0, 0,
                "the kernel's parameter " + std::to_string(i + 1) + " ('" + p.type +
                    "') is a pointer without a name, which no clause can give a direction; name "
                    "it in the kernel's signature, then in copyin, copyout or copy");
        else
          error(0, 0,
                "pointer parameter '" + p.name +
                    "' has no direction; name it in copyin, copyout or copy");
      }
    }
    bool extentsComplete = countWritten(syntax_, [](ClauseKind kind) {
                             return kind == ClauseKind::Extent;
                           }) == syntax_.extents.size();
    if (!extentsComplete)
      return;
    for (const ArrayDraft& draft : drafts_) {
      const std::string& name = param(draft.array.param).name;
      if (!draft.extentGiven)
        error(draft.array.offset, draft.nameLength,
              "array '" + name + "' has no extent; add extent(" + name + ": ELEMENTS)");
    }
  }

  // --- sections: sizes, outputs, offset mode ---------------------------------------------------

  void checkSections() {
    for (const ArrayDraft& draft : drafts_) {
      const std::vector<ParamSample> samples =
          callableSamples(kernel_.partition, draft.array.extent, samples_);
      bool sizesOk = true;
      for (size_t s = 0; s < draft.array.sections.size(); ++s) {
        if (sizeCanBeNegative(draft.array.sections[s], kernel_.partition, samples)) {
          const SectionSyntax& spelled = draft.spelled[s];
          error(spelled.offset, spelled.length,
                "section of '" + param(draft.array.param).name +
                    "' can have a negative size (end before begin); write it as [begin:end), "
                    "half-open in elements, not [start:length]");
          sizesOk = false;
        }
      }
      if (!sizesOk || draft.brokenSection || draft.array.reduce != ir::ReduceOp::None)
        continue;
      if (draft.array.direction != Direction::In)
        checkOutput(draft, samples);
      else if (offsetMode_)
        checkOffsetModeInput(draft, samples);
    }
  }

  void checkOutput(const ArrayDraft& draft, const std::vector<ParamSample>& samples) {
    const std::string& name = param(draft.array.param).name;
    const char* keyword = clauseName(draft.array.direction);
    const std::vector<ir::Section>& sections = draft.array.sections;
    std::string writesAll = std::string(keyword) + " of '" + name +
                            "' without a chunked section: every chunk would write the whole "
                            "array; ";
    // A dot product's atomicAdd(result, v): the chunks accumulate into it, which reduce says.
    const ir::Parameter& written = param(draft.array.param);
    if (written.writeLine != 0 && written.plainWriteLine == 0)
      writesAll += "the kernel only updates it atomically (line " +
                   std::to_string(written.writeLine) + ", column " +
                   std::to_string(written.writeColumn) +
                   "): if the chunks accumulate into it, say so with reduce(+: " + name +
                   ") (or the operator of its atomic updates); otherwise ";
    writesAll += "give a section such as " + name + "[lo:hi]";
    if (sections.empty()) {
      error(draft.array.offset, draft.nameLength, writesAll);
      return;
    }
    if (sections.size() > 1) {
      const SectionSyntax& second = draft.spelled[1];
      error(second.offset, second.length,
            "output array '" + name + "' has several sections; an output (" + keyword +
                ") needs exactly one chunked section");
      return;
    }
    if (!sections[0].chunked()) {
      error(draft.spelled[0].offset, draft.spelled[0].length, writesAll);
      return;
    }
    if (tilesChunks(sections[0], samples))
      return;
    const SectionSyntax& spelled = draft.spelled[0];
    if (draft.array.direction == Direction::Out)
      error(spelled.offset, spelled.length,
            "sections of output '" + name +
                "' overlap between adjacent chunks, so chunks would write the same elements; an "
                "output section must tile, like " +
                name + "[lo*k:hi*k]");
    else
      error(spelled.offset, spelled.length,
            "copy array '" + name +
                "' has a halo: its sections overlap between adjacent chunks, so reads of "
                "neighbours' writes would race; split it into a copyin and a copyout array");
  }

  void checkOffsetModeInput(const ArrayDraft& draft, const std::vector<ParamSample>& samples) {
    const std::string& name = param(draft.array.param).name;
    const std::vector<ir::Section>& sections = draft.array.sections;
    if (sections.size() > 1) {
      error(draft.spelled[1].offset, draft.spelled[1].length,
            "'" + name +
                "' has several sections, but offset mode passes each array from its "
                "section's begin; give the chunk's own section and add halo(" +
                name + ": BEFORE, AFTER) for the elements around it, or use range mode");
      return;
    }
    if (sections.size() == 1 && sections[0].chunked() && !tilesChunks(sections[0], samples))
      error(draft.spelled[0].offset, draft.spelled[0].length,
            "section of '" + name +
                "' does not tile the chunks (a halo), but offset mode passes each array from "
                "its section's begin; give the chunk's own section, such as " +
                name + ownSection(sections[0]) + ", and add halo(" + name +
                ": BEFORE, AFTER) for the elements it reads around it");
  }

  // The chunk's own part of `section`: its begin's terms in lo, from there to where the next
  // chunk's begin ([lo * s : hi * s] for [lo * s - 1 : (b - 1) * f * s + hi * s]); [lo:hi] where
  // the begin is not a sum with such terms.
  static std::string ownSection(const ir::Section& section) {
    const std::function<bool(const ir::Expr&)> movesWithLo = [&](const ir::Expr& e) {
      if (e.kind == ir::ExprKind::ChunkHi || e.kind == ir::ExprKind::ChunkLen)
        return false;
      return std::all_of(e.operands.begin(), e.operands.end(),
                         [&](const ir::ExprPtr& operand) { return movesWithLo(*operand); });
    };
    // The terms of a sum that mention lo (lo * s of lo * s - 1 + k); null where a subtracted
    // term does (it would need a sign of its own).
    const std::function<ir::ExprPtr(const ir::ExprPtr&)> loTerms = [&](const ir::ExprPtr& e) {
      if (!ir::dependsOnChunk(*e))
        return ir::ExprPtr();
      if (e->kind != ir::ExprKind::Add && e->kind != ir::ExprKind::Sub)
        return e;
      const ir::ExprPtr left = loTerms(e->operands[0]);
      if (e->kind == ir::ExprKind::Sub && ir::dependsOnChunk(*e->operands[1]))
        return ir::ExprPtr();
      const ir::ExprPtr right = e->kind == ir::ExprKind::Add ? loTerms(e->operands[1]) : nullptr;
      if (!left || !right)
        return left ? left : right;
      auto sum = std::make_shared<ir::Expr>(*e);
      sum->operands = {left, right};
      return ir::ExprPtr(sum);
    };
    const ir::ExprPtr begin =
        section.begin && movesWithLo(*section.begin) ? loTerms(section.begin) : nullptr;
    if (!begin)
      return "[lo:hi]";
    const std::function<ir::ExprPtr(const ir::ExprPtr&)> atHi = [&](const ir::ExprPtr& e) {
      auto copy = std::make_shared<ir::Expr>(*e);
      if (copy->kind == ir::ExprKind::ChunkLo)
        copy->kind = ir::ExprKind::ChunkHi;
      for (ir::ExprPtr& operand : copy->operands)
        operand = atHi(operand);
      return ir::ExprPtr(copy);
    };
    const std::string from = ir::toSource(*begin), to = ir::toSource(*atHi(begin));
    return from == "lo" ? "[lo:hi]" : "[" + from + " : " + to + "]";
  }

  // --- bind -----------------------------------------------------------------------------------

  // Offset mode passes each chunked array from its section's begin: an index that adds a
  // parameter bound from the chunk (bind(start = lo), x[start + i]) counts the begin twice.
  void checkChunkIndexBinding(const Binding& binding, int index, const ir::Expr& value) {
    if (kernel_.mode != ir::ChunkMode::Offset || !ir::dependsOnChunk(value))
      return;
    for (const ArrayDraft& draft : drafts_) {
      if (draft.array.sections.size() != 1 || !draft.array.sections[0].chunked())
        continue;
      for (const ir::IndexUse& use : param(draft.array.param).indexUses)
        for (const ir::OffsetTerm& term : use.offset)
          if (std::count(term.params.begin(), term.params.end(), index) > 0) {
            error(binding.param,
                  "the kernel indexes '" + param(draft.array.param).name + "' with '" +
                      binding.param.text + "' (line " + std::to_string(use.line) + ", column " +
                      std::to_string(use.column) +
                      "), which bind sets from the chunk, but offset mode passes each array from "
                      "its section's begin: the chunk's begin would count twice; index the "
                      "arrays from 0 in offset mode, or use range mode");
            return;
          }
    }
  }

  void checkBindings() {
    std::set<int> bound;
    for (const BindClause& clause : syntax_.binds) {
      for (const Binding& binding : clause.bindings) {
        std::optional<int> index = names_->findParam(binding.param);
        ir::ExprPtr value = names_->resolve(binding.value, ExprContext::Bind);
        if (!index || !value)
          continue;
        const ir::Parameter& p = param(*index);
        if (!isIntegerScalar(p) || p.hostOnly) {
          error(binding.param, p.hostOnly
                                   ? "'" + binding.param.text +
                                         "' is a param(...) of the host functions; bind sets "
                                         "what a kernel parameter receives per chunk"
                                   : "parameter '" + binding.param.text + "' has type '" + p.type +
                                         "'; bind sets integer scalar parameters");
          continue;
        }
        if (*index == kernel_.lengthParam || *index == kernel_.beginParam ||
            *index == kernel_.endParam) {
          error(binding.param, "'" + binding.param.text +
                                   "' already receives the chunk from the offset or range "
                                   "clause; give its value there");
          continue;
        }
        if (!bound.insert(*index).second) {
          error(binding.param, "'" + binding.param.text + "' is bound twice; bind it once");
          continue;
        }
        if (!ir::isAffineInChunk(*value)) {
          errorAt(*value, "bound value '" + ir::toSource(*value) +
                              "' is not affine in lo and hi; use sums of lo, hi and len times "
                              "factors that do not depend on the chunk");
          continue;
        }
        kernel_.bindings.push_back({*index, value});
        checkChunkIndexBinding(binding, *index, *value);
      }
    }
  }

  // A write that does not move with the chunk as its output's section does (StrayWrites.h).
  void checkStrayWrites() {
    for (const ArrayDraft& output : drafts_) {
      if (output.brokenSection || output.array.direction == Direction::In ||
          output.array.reduce != ir::ReduceOp::None)
        continue;
      const JudgedSamples judged = judgedSamples(kernel_, output.array, output.array, samples_);
      if (const std::optional<StrayWrite> stray = strayWrite(kernel_, output.array, judged)) {
        reportStrayWrite(output, *stray);
        strayOutputs_.insert(output.array.param);
      }
    }
  }

  void reportStrayWrite(const ArrayDraft& output, const StrayWrite& found) {
    const std::string& y = param(output.array.param).name;
    const std::string begin = kernel_.beginParam >= 0 ? param(kernel_.beginParam).name : "";
    const std::string values = sampledValues(found.params, found.sample);
    if (found.atoms.empty()) {
      error(output.array.offset, output.nameLength,
            "the kernel writes '" + y + "' (" + at(*found.write) + ") " +
                elements(found.beginStep) + " further on for each unit of the partition (" +
                (found.blockTerm.empty() ? "the step of '" + begin + "' in its index"
                                         : "the step of " + found.blockTerm +
                                               " in its index, times the grid's blocks per unit") +
                "), but the section of '" + y + "' moves " + std::to_string(found.sectionStep) +
                " per unit" + values +
                ": each chunk would write elements that other chunks' sections hold, and its "
                "copy back would not bring them home; give '" +
                y +
                "' a section that moves as its writes do, or partition the kernel along the "
                "rows it writes");
      return;
    }
    error(output.array.offset, output.nameLength,
          "the kernel writes '" + y + "' (" + at(*found.write) + ") " + elements(found.atomStep) +
              " further on for each step of " + spelledAtoms(found.atoms) +
              ", another dimension than the partition's, which crosses whole rows of its "
              "section (which moves " +
              std::to_string(found.sectionStep) + " per unit)" + values +
              ": each chunk would write rows of '" + y +
              "' that other chunks' sections hold, and its copy back would not bring them home; "
              "partition the kernel along the rows it writes, so that each chunk's writes lie in "
              "its own section");
  }

  // A thread that reads an input beside what it writes of an output (a stencil's x[i - 1] and
  // x[i + 1] beside y[i]) reads past the input's chunked section unless its halo or section is
  // that much wider: the chunk would read a neighbouring chunk's elements, copied or not yet.
  void checkNeighbourReads() {
    for (const ArrayDraft& input : drafts_) {
      // A copy array is read where the kernel writes it, and has no halo to widen.
      if (input.brokenSection || input.array.direction == Direction::Out ||
          input.array.reduce != ir::ReduceOp::None)
        continue;
      for (const ArrayDraft& output : drafts_) {
        if (output.brokenSection || output.array.direction == Direction::In ||
            output.array.reduce != ir::ReduceOp::None ||
            strayOutputs_.count(output.array.param) > 0)
          continue;
        const JudgedSamples judged = judgedSamples(kernel_, input.array, output.array, samples_);
        if (const std::optional<CrossingWrite> crossing =
                crossingWrite(kernel_, input.array, output.array, judged)) {
          reportCrossingWrite(input, output, *crossing);
          break;
        }
        if (const std::optional<PitchMismatch> pitch =
                pitchMismatch(kernel_, input.array, output.array, judged)) {
          reportPitchMismatch(input, output, *pitch);
          break;
        }
        const std::optional<NeighbourRead> found =
            readOutsideSection(kernel_, input.array, output.array, judged);
        if (!found)
          continue;
        reportNeighbourRead(input, output, *found);
        break;
      }
    }
  }

  static std::string at(const ir::IndexUse& use) {
    return "line " + std::to_string(use.line) + ", column " + std::to_string(use.column);
  }

  // " (at w = 64, h = 1000)": the sample's values of the parameters a comparison read.
  std::string sampledValues(const std::vector<int>& params, const ParamSample& sample) const {
    std::string values;
    for (int p : params)
      if (static_cast<size_t>(p) < sample.size() && sample[p])
        values += std::string(values.empty() ? " (at " : ", ") + param(p).name + " = " +
                  std::to_string(*sample[p]);
    return values.empty() ? values : values + ")";
  }

  // "1 element", "64 elements".
  static std::string elements(long long n) {
    return std::to_string(n) + (n == 1 || n == -1 ? " element" : " elements");
  }

  // "threadIdx.x" for a term's atoms; a local's "i#42" (a loop's "k#7@1") as the code names it.
  static std::string spelledAtoms(const std::string& atoms) {
    std::string out;
    for (size_t i = 0; i < atoms.size(); ++i) {
      if (atoms[i] != '#') {
        out += atoms[i];
        continue;
      }
      while (i + 1 < atoms.size() &&
             (std::isdigit(static_cast<unsigned char>(atoms[i + 1])) || atoms[i + 1] == '@'))
        ++i;
    }
    return out;
  }

  void reportCrossingWrite(const ArrayDraft& input, const ArrayDraft& output,
                           const CrossingWrite& found) {
    const std::string& x = param(input.array.param).name;
    const std::string& y = param(output.array.param).name;
    error(output.array.offset, output.nameLength,
          "the kernel writes '" + y + "' (" + at(*found.write) + ") " + elements(found.writeStep) +
              " further on for each step of " + spelledAtoms(found.atoms) +
              ", whole rows of its section (which moves " + std::to_string(found.outputRow) +
              " per unit of the partition), where it reads '" + x + "' (" + at(*found.read) + ") " +
              elements(found.readStep) + " further on, within a row of its section (which moves " +
              std::to_string(found.inputRow) + ")" + sampledValues(found.params, found.sample) +
              ": each chunk would write rows of '" + y +
              "' that other chunks' sections hold, and its copy back would not bring them home; "
              "partition the kernel along the rows it writes, so that each chunk's writes lie in "
              "its own section");
  }

  void reportPitchMismatch(const ArrayDraft& input, const ArrayDraft& output,
                           const PitchMismatch& found) {
    const std::string& x = param(input.array.param).name;
    const std::string q = std::to_string(found.kernelPitch);
    // The section to give, where the pitch is known in the parameters: [lo * 2 * d : hi * 2 * d].
    std::string remedy =
        "give '" + x + "' a section that moves as far per unit as its rows lie apart";
    if (found.pitchTerm) {
      std::string factor = found.pitchTerm->coefficient == 1 && !found.pitchTerm->params.empty()
                               ? ""
                               : std::to_string(found.pitchTerm->coefficient);
      for (int p : found.pitchTerm->params)
        factor += (factor.empty() ? "" : " * ") + param(p).name;
      remedy +=
          factor == "1" ? ", as [lo : hi]" : ", as [lo * " + factor + " : hi * " + factor + "]";
    }
    error(input.array.offset, input.nameLength,
          "the kernel reads '" + x + "' (" + at(*found.read) + ") " + q +
              (found.kernelPitch == 1 ? " element" : " elements") +
              " further on for each unit of the partition, beside where it writes '" +
              param(output.array.param).name + "' (" + at(*found.write) +
              "), but the section of '" + x + "' moves " + std::to_string(found.sectionPitch) +
              " per unit" + sampledValues(found.params, found.sample) +
              ": each chunk would read rows that are not its own; " + remedy);
  }

  // read.offset - write.offset, like terms combined, without those that cancel.
  static std::vector<ir::OffsetTerm> offsetDifference(const ir::IndexUse& read,
                                                      const ir::IndexUse& write) {
    std::map<std::vector<int>, long long> sum;
    for (const ir::OffsetTerm& term : read.offset) {
      std::vector<int> params = term.params;
      std::sort(params.begin(), params.end());
      sum[params] += term.coefficient;
    }
    for (const ir::OffsetTerm& term : write.offset) {
      std::vector<int> params = term.params;
      std::sort(params.begin(), params.end());
      sum[params] -= term.coefficient;
    }
    std::vector<ir::OffsetTerm> out;
    for (const auto& [params, coefficient] : sum)
      if (coefficient != 0)
        out.push_back(ir::OffsetTerm{coefficient, params});
    return out;
  }

  // `terms` spelled in the parameters ("R * w", "2 * R * w + 1") where they name one, no
  // parameter set per chunk, and come to `halo` at `sample`; empty otherwise.
  std::string spelledHalo(const std::vector<ir::OffsetTerm>& terms, long long halo,
                          const ParamSample& sample) const {
    const std::set<int> perChunk = perChunkParams(kernel_);
    long long total = 0;
    bool named = false;
    std::string out;
    for (const ir::OffsetTerm& term : terms) {
      long long value = term.coefficient;
      std::string factors;
      for (int p : term.params) {
        if (perChunk.count(p) > 0 || static_cast<size_t>(p) >= sample.size() || !sample[p])
          return {};
        value *= *sample[p];
        factors += (factors.empty() ? "" : " * ") + param(p).name;
        named = true;
      }
      total += value;
      const long long magnitude = term.coefficient < 0 ? -term.coefficient : term.coefficient;
      const std::string spelled = factors.empty()  ? std::to_string(magnitude)
                                  : magnitude == 1 ? factors
                                                   : std::to_string(magnitude) + " * " + factors;
      out += out.empty() ? (term.coefficient < 0 ? "-" + spelled : spelled)
                         : (term.coefficient < 0 ? " - " : " + ") + spelled;
    }
    return named && total == halo ? out : std::string();
  }

  void reportNeighbourRead(const ArrayDraft& input, const ArrayDraft& output,
                           const NeighbourRead& found) {
    const std::string& x = param(input.array.param).name;
    const std::string& y = param(output.array.param).name;
    // In the parameters where the farthest read's offset beside its write's gives it (R * w for
    // x[(r - R) * w + c] beside y[r * w + c]), on the other side too where a stencil mirrors it;
    // otherwise at the sample's values.
    std::vector<ir::OffsetTerm> reach = offsetDifference(*found.read, *found.write);
    if (found.before)
      for (ir::OffsetTerm& term : reach)
        term.coefficient = -term.coefficient;
    // A reach counted in whole rows drops what lies within one (x[(r - 1) * w + c - 1]: w).
    std::vector<ir::OffsetTerm> rows;
    std::copy_if(reach.begin(), reach.end(), std::back_inserter(rows),
                 [](const ir::OffsetTerm& term) { return !term.params.empty(); });
    // A side the annotation's halo already covers keeps its spelling.
    const auto spelled = [&](long long halo, const ir::ExprPtr& given) {
      const std::string exact = spelledHalo(reach, halo, found.sample);
      if (!exact.empty())
        return exact;
      const std::string whole = spelledHalo(rows, halo, found.sample);
      if (!whole.empty() || !given)
        return whole;
      const std::optional<long long> value =
          ir::evaluate(*given, environment(found.sample, std::nullopt, std::nullopt));
      return value == halo && !ir::evaluate(*given, ir::Environment{}) ? ir::toSource(*given)
                                                                       : std::string();
    };
    std::string spelledBefore = spelled(found.haloBefore, input.array.haloBefore),
                spelledAfter = spelled(found.haloAfter, input.array.haloAfter);
    // A side left at the sample's values that is not 0 says which values those are.
    const bool numeric = (spelledBefore.empty() && found.haloBefore != 0) ||
                         (spelledAfter.empty() && found.haloAfter != 0);
    if (spelledBefore.empty())
      spelledBefore = std::to_string(found.haloBefore);
    if (spelledAfter.empty())
      spelledAfter = std::to_string(found.haloAfter);
    const std::string halo = "halo(" + x + ": " + spelledBefore + ", " + spelledAfter + ")" +
                             (numeric ? sampledValues(found.params, found.sample) : std::string());
    // A copy array's chunks write back what they read: it can have no halo, since a neighbour's
    // elements are that chunk's to write, here read before or after it does.
    const std::string remedy =
        input.array.direction == Direction::In
            ? "give it " + halo + ", or a section that much wider"
            : "a copy array has no halo (those elements are another chunk's to write): read "
              "them from a copyin array with " +
                  halo + ", and write the results to another array";
    error(input.array.offset, input.nameLength,
          "the kernel reads '" + x + "' (" + at(*found.read) + ") " +
              (found.before ? "before the begin" : "past the end") +
              " of its chunk's section, counted from where the same thread writes '" + y + "' (" +
              at(*found.write) +
              "): each chunk would read elements its own copies did not bring, a neighbouring "
              "chunk's, copied or not yet; " +
              remedy);
  }

  // --- halo and optional ----------------------------------------------------------------------

  void checkHalos() {
    for (const HaloClause& clause : syntax_.halos) {
      ir::ExprPtr before = names_->resolve(clause.before, ExprContext::Halo);
      ir::ExprPtr after = clause.after ? names_->resolve(clause.after, ExprContext::Halo) : before;
      for (const Name& name : clause.arrays) {
        ArrayDraft* draft = namedArray(name, "halo");
        if (!draft)
          continue;
        if (draft->array.direction != Direction::In) {
          error(name, "'" + name.text +
                          "' is an output; a halo widens what an input's chunks "
                          "read, and outputs must tile");
          continue;
        }
        const std::vector<ir::Section>& sections = draft->array.sections;
        if (sections.size() != 1 || !sections[0].chunked()) {
          error(name, "a halo widens the chunked section of '" + name.text +
                          "', which needs exactly one section that depends on the chunk, such "
                          "as " +
                          name.text + "[lo:hi]");
          continue;
        }
        if (draft->haloGiven) {
          error(name, "halo of '" + name.text + "' given twice; give it once");
          continue;
        }
        draft->haloGiven = true;
        draft->array.haloBefore = before;
        draft->array.haloAfter = after;
      }
      for (const ir::ExprPtr& width : {before, clause.after ? after : nullptr}) {
        if (!width)
          continue;
        const std::optional<long long> constant = ir::evaluate(*width, ir::Environment{});
        if (constant && *constant < 0)
          errorAt(*width, "halo width " + std::to_string(*constant) +
                              " is negative; give the elements read before and after the "
                              "chunk's section");
      }
    }
  }

  void checkOptionals() {
    for (const OptionalClause& clause : syntax_.optionals)
      for (const Name& name : clause.arrays)
        if (ArrayDraft* draft = namedArray(name, "optional"))
          draft->array.optional = true;
  }

  // The draft of an array a clause other than the data clauses names; null after an error.
  ArrayDraft* namedArray(const Name& name, const char* clause) {
    std::optional<int> index = names_->findParam(name);
    if (!index)
      return nullptr;
    ArrayDraft* draft = draftFor(*index);
    if (!draft && !(param(*index).isPointer && namedPointers_.count(*index)))
      error(name, "'" + name.text + "' is not an array of copyin, copyout, copy or reduce; " +
                      clause + " names those");
    return draft;
  }

  // --- launch ---------------------------------------------------------------------------------

  void checkLaunch() {
    if (syntax_.launches.empty()) {
      if (!syntax_.wasWritten(ClauseKind::Launch))
        error(0, 0,
              "missing launch clause: add launch(grid: DIM, block: DIM), e.g. "
              "launch(grid: ceil_div(len, 256), block: 256)");
      return;
    }
    for (size_t i = 1; i < syntax_.launches.size(); ++i)
      error(syntax_.launches[i].keyword, "duplicate 'launch' clause; give it once");

    const LaunchClause& clause = syntax_.launches[0];
    std::map<std::string, const LaunchEntry*> seen;
    std::set<std::string> misspelled;
    for (const LaunchEntry& entry : clause.entries) {
      static const std::vector<std::string> kKeys = {"grid", "block", "shared", "gridstride"};
      if (std::find(kKeys.begin(), kKeys.end(), entry.key.text) == kKeys.end()) {
        std::string meant = closestMatch(entry.key.text, kKeys);
        if (meant.empty())
          meant = launchKeyMeant(entry.key.text);
        if (meant.empty()) {
          error(entry.key, "unknown launch key '" + entry.key.text +
                               "'; the keys are grid, gridstride, block and shared");
        } else {
          error(entry.key,
                "unknown launch key '" + entry.key.text + "'; did you mean '" + meant + "'?");
          misspelled.insert(meant); // not also missing
        }
        continue;
      }
      if (!seen.emplace(entry.key.text, &entry).second) {
        error(entry.key, "duplicate '" + entry.key.text + "' in launch; give it once");
        continue;
      }
      checkLaunchEntry(entry);
    }
    auto grid = seen.find("grid");
    auto gridStride = seen.find("gridstride");
    if (grid != seen.end() && gridStride != seen.end()) {
      const Name& later = grid->second->key.offset > gridStride->second->key.offset
                              ? grid->second->key
                              : gridStride->second->key;
      error(later, "gridstride and grid exclude each other: gridstride sizes the grid from the "
                   "occupancy, grid gives it explicitly");
    } else if (grid == seen.end() && gridStride == seen.end() && misspelled.count("grid") == 0 &&
               misspelled.count("gridstride") == 0) {
      error(clause.keyword, "launch needs 'grid: DIM' (or 'gridstride' for grid-stride kernels)");
    }
    if (seen.count("block") == 0 && misspelled.count("block") == 0)
      error(clause.keyword, "launch needs 'block: DIM', e.g. block: 256");
    warnGridOfTheWholeCall();
    warnGridOfNoChunk();
    warnGridPastTheChunk();
    warnGridDroppingARemainder();
  }

  // c where `e` is len * c (len, len * 512, 512 * len), or nullopt.
  static std::optional<long long> lengthScale(const ir::Expr& e) {
    if (e.kind == ir::ExprKind::ChunkLen)
      return 1;
    if (e.kind != ir::ExprKind::Mul)
      return std::nullopt;
    for (int side = 0; side < 2; ++side)
      if (e.operands[side]->kind == ir::ExprKind::ChunkLen)
        return ir::evaluate(*e.operands[1 - side], ir::Environment{});
    return std::nullopt;
  }

  // With a bare offset the kernel does not know where its chunk ends, so its guard (i < n) is
  // the whole call's: a grid rounded up to whole blocks (ceil_div(len, 256)) runs the last
  // block's extra threads over the next chunk's elements, or past the array after the last chunk.
  void warnGridPastTheChunk() {
    const bool bareOffset = offsetMode_ && !syntax_.offsets[0].lengthParam;
    const bool rangeMode = !offsetMode_ && !syntax_.ranges.empty();
    if (!(bareOffset || rangeMode) || kernel_.launch.gridStride)
      return;
    if (bareOffset && aBindingGivesTheChunk())
      return;
    const bool readsTheEnd = kernel_.endParam >= 0 && param(kernel_.endParam).named;
    if (rangeMode && (readsTheEnd || aBindingGivesTheChunkEnd()))
      return;
    for (const ir::ExprPtr& dim : kernel_.launch.grid) {
      const ir::Expr* rounding = dim ? roundsUpTheChunk(*dim) : nullptr;
      if (rounding == nullptr)
        continue;
      // The rounding's divisor, where it is a number: the granule that makes chunks whole.
      const std::optional<long long> block =
          ir::evaluate(*rounding->operands[1], ir::Environment{});
      const std::string unit = block ? std::to_string(*block) : std::string("BLOCK");
      if (bareOffset) {
        warningAt(*rounding,
                  "with a bare offset the kernel does not know where its chunk ends, and this "
                  "grid rounds the chunk up to whole blocks: the last block's extra threads "
                  "would compute elements of the next chunk (past the array, after the last "
                  "one); give the kernel the chunk's length (offset(PARAM), bind(PARAM = len)) "
                  "or launch exactly the chunk's threads (granule(" +
                      unit + ") with grid: len / " + unit + ")");
        return;
      }
      // Range mode indexes globally, so the last chunk's extra threads meet the kernel's own
      // guard as one launch over the whole call does: chunks of whole blocks are exact.
      const std::optional<long long> granule = effectiveGranule();
      if (block && granule && *block > 0 && *granule % *block == 0 &&
          rounding->operands[0]->kind == ir::ExprKind::ChunkLen)
        continue;
      warningAt(*rounding,
                "the kernel never reads where its chunk ends (range mode without an END the "
                "kernel reads, nor a binding of hi or len), and this grid rounds the chunk up "
                "to whole blocks: the last block's extra threads would compute elements of the "
                "next chunk; guard the kernel by its END (range(BEGIN, END), if (i < END)), or "
                "make chunks whole blocks (granule(" +
                    unit + "))");
      return;
    }
  }

  // Whether bind(...) tells the kernel where its chunk ends (bind(n = len), bind(end = hi)).
  bool aBindingGivesTheChunkEnd() const {
    return std::any_of(kernel_.bindings.begin(), kernel_.bindings.end(),
                       [](const ir::Binding& binding) {
                         return binding.value && (mentions(*binding.value, ir::ExprKind::ChunkHi) ||
                                                  mentions(*binding.value, ir::ExprKind::ChunkLen));
                       });
  }
  static bool mentions(const ir::Expr& e, ir::ExprKind kind) {
    return e.kind == kind ||
           std::any_of(e.operands.begin(), e.operands.end(), [kind](const ir::ExprPtr& operand) {
             return operand && mentions(*operand, kind);
           });
  }
  // The granule chunk bounds fall on: the annotation's, and what vector accesses need.
  std::optional<long long> effectiveGranule() const {
    std::optional<long long> granule =
        kernel_.granule ? ir::evaluate(*kernel_.granule, ir::Environment{}) : 1;
    if (!granule)
      return std::nullopt;
    for (const ir::Parameter& p : signature_.params)
      if (p.isPointer && p.elementSize > 0 && p.vectorAccessAlignment > p.elementSize)
        granule =
            std::lcm(*granule, static_cast<long long>(p.vectorAccessAlignment / p.elementSize));
    return granule;
  }
  // Whether bind(...) gives the kernel something of its chunk (bind(n = len)).
  bool aBindingGivesTheChunk() const {
    return std::any_of(kernel_.bindings.begin(), kernel_.bindings.end(),
                       [](const ir::Binding& binding) {
                         return binding.value && ir::dependsOnChunk(*binding.value);
                       });
  }

  // A ceil_div of the chunk's length (ceil_div(len, 256), ceil_div(len * 4, 256)) in `e`, or
  // null.
  static const ir::Expr* roundsUpTheChunk(const ir::Expr& e) {
    if (e.kind == ir::ExprKind::CeilDiv && ir::dependsOnChunk(*e.operands[0]))
      return &e;
    for (const ir::ExprPtr& operand : e.operands)
      if (const ir::Expr* found = roundsUpTheChunk(*operand))
        return found;
    return nullptr;
  }

  // grid: len / 4 launches no block for a chunk's last len % 4 elements: where chunk bounds fall
  // inside a group of 4, Streams and Hybrid would leave elements that one launch over the whole
  // call covers. A granule that is a multiple of 4 keeps the bounds on groups, as does the one
  // the generated code derives from a float4 access of a float array.
  void warnGridDroppingARemainder() {
    const std::optional<long long> granule = effectiveGranule();
    if (!granule)
      return;
    for (ir::ExprPtr dim : kernel_.launch.grid) {
      while (dim && dim->kind == ir::ExprKind::CeilDiv) // ceil_div(len / 4, 8): blocks of groups
        dim = dim->operands[0];
      if (!dim || dim->kind != ir::ExprKind::Div)
        continue;
      const std::optional<long long> scale = lengthScale(*dim->operands[0]);
      const std::optional<long long> divisor = ir::evaluate(*dim->operands[1], ir::Environment{});
      if (!scale || !divisor || *divisor < 2 || *scale < 1)
        continue;
      // len * 512 / 1024 leaves a remainder of len % 2.
      const long long group = *divisor / std::gcd(*divisor, *scale);
      if (group < 2 || *granule % group == 0)
        continue;
      const std::string k = std::to_string(group);
      warningAt(*dim, "this grid launches no block for a chunk's last len % " + k +
                          " elements: where a chunk ends inside a group of " + k +
                          ", the chunked variants would skip elements one launch over the whole "
                          "call covers; add granule(" +
                          k + "), or use ceil_div(len, " + k + ") if the kernel checks its bounds");
    }
  }

  // With a bare offset the kernel learns its chunk only from the grid or a bound parameter: a
  // grid that depends on no chunk launches the same threads for every chunk, each from its own
  // chunk's pointers, past its section (vLLM-style grid: num_tokens with the count a param).
  void warnGridOfNoChunk() {
    if (!offsetMode_ || kernel_.lengthParam >= 0 || kernel_.launch.gridStride)
      return;
    if (aBindingGivesTheChunk())
      return;
    const ir::Expr* first = nullptr;
    for (const ir::ExprPtr& dim : kernel_.launch.grid) {
      if (dim && ir::dependsOnChunk(*dim))
        return;
      if (dim && first == nullptr)
        first = dim.get();
    }
    if (first != nullptr)
      warningAt(*first, "with a bare offset each chunk's kernel knows its chunk only from the "
                        "grid, and this grid does not depend on the chunk: every chunk would run "
                        "it from its own pointers, past its section; size the grid by len, or "
                        "give the kernel the chunk's length with bind(PARAM = len)");
  }

  // The launch key other projects' names for the launch geometry mean (CUDA's, Numba's, Kernel
  // Tuner's), or "".
  static std::string launchKeyMeant(const std::string& key) {
    static const std::pair<const char*, const char*> kOtherNames[] = {
        {"threads", "block"},     {"threadsPerBlock", "block"}, {"threads_per_block", "block"},
        {"blockDim", "block"},    {"blockSize", "block"},       {"block_size", "block"},
        {"blocks", "grid"},       {"numBlocks", "grid"},        {"gridDim", "grid"},
        {"gridSize", "grid"},     {"grid_size", "grid"},        {"smem", "shared"},
        {"shmem", "shared"},      {"sharedMem", "shared"},      {"shared_mem", "shared"},
        {"sharedBytes", "shared"}};
    for (const auto& [name, meant] : kOtherNames)
      if (key == name)
        return meant;
    return "";
  }

  // In offset mode a chunked section or a halo that names the length parameter reads the whole
  // call's value, while the kernel gets its chunk's length in it: a kernel that strides its rows
  // by it (PolyBench's N x N gesummv, a[i * n + j]) would address rows of the chunk's length.
  void warnStrideOfTheWholeCall() {
    if (!offsetMode_ || kernel_.lengthParam < 0)
      return;
    std::vector<const ir::Expr*> bounds;
    for (const ArrayDraft& draft : drafts_) {
      for (const ir::Section& section : draft.array.sections)
        if (section.chunked())
          bounds.insert(bounds.end(), {section.begin.get(), section.end.get()});
      for (const ir::ExprPtr& halo : {draft.array.haloBefore, draft.array.haloAfter})
        if (halo)
          bounds.push_back(halo.get());
    }
    if (const ir::Expr* mention = lengthMention(bounds))
      warningAt(*mention, "this section uses '" + mention->name +
                              "', the whole call's length, while each chunk's kernel gets its own "
                              "in '" +
                              mention->name + "': a kernel that strides its rows by '" +
                              mention->name +
                              "' would address rows of the chunk's length; give the stride a "
                              "parameter of its own, or use range mode");
  }

  // Offset mode passes an array with a section advanced to the section's begin: a section every
  // chunk shares that starts past element 0 (PolyBench's fdtd-2d copying fict[t : t + 1]) gives
  // the kernel a pointer it must index from 0, which a kernel indexing the whole array (fict[t])
  // would read past.
  void warnBroadcastFromElsewhere() {
    if (!offsetMode_)
      return;
    for (const ArrayDraft& draft : drafts_)
      for (const ir::Section& section : draft.array.sections) {
        if (section.chunked() || !section.begin)
          continue;
        const std::optional<long long> begin = ir::evaluate(*section.begin, ir::Environment{});
        if (begin && *begin == 0)
          continue;
        const std::string& name = param(draft.array.param).name;
        warningAt(*section.begin,
                  "offset mode passes '" + name + "' advanced to this section's begin (" +
                      ir::toSource(*section.begin) + "): the kernel must index '" + name +
                      "' from 0, not from " + ir::toSource(*section.begin) +
                      "; name the whole array, or start the section at 0, if it indexes the "
                      "whole array");
      }
  }

  // In offset mode the kernel's length parameter gets each chunk's length, but a launch
  // expression that names it reads the whole call's: every chunk would launch the whole call's
  // grid, its extra threads finding nothing to do. Correct, so a warning.
  void warnGridOfTheWholeCall() {
    if (!offsetMode_ || kernel_.lengthParam < 0)
      return;
    std::vector<const ir::Expr*> dims;
    for (const ir::ExprPtr& dim : kernel_.launch.grid)
      if (dim)
        dims.push_back(dim.get());
    if (const ir::Expr* mention = lengthMention(dims))
      warningAt(*mention, "the grid uses '" + mention->name +
                              "', the whole call's length, while each chunk's kernel gets its "
                              "own in '" +
                              mention->name +
                              "': every chunk would launch the whole call's grid; size it by len "
                              "(the chunk's length)");
  }

  // The first place one of `exprs` names the length parameter, or null.
  const ir::Expr* lengthMention(const std::vector<const ir::Expr*>& exprs) const {
    std::vector<const ir::Expr*> mentions;
    for (const ir::Expr* expr : exprs)
      collectParams(*expr, mentions);
    for (const ir::Expr* mention : mentions)
      if (mention->param == kernel_.lengthParam)
        return mention;
    return nullptr;
  }

  void checkLaunchEntry(const LaunchEntry& entry) {
    const std::string& key = entry.key.text;
    if (key == "gridstride") {
      kernel_.launch.gridStride = true;
      if (entry.value)
        error(entry.value->offset, entry.value->length,
              "gridstride takes no value; write launch(gridstride, block: DIM)");
      return;
    }
    if (!entry.value) {
      error(entry.key,
            "'" + key + "' needs a value: " + key + ": " + (key == "shared" ? "BYTES" : "DIM"));
      return;
    }
    const DimSyntax& value = *entry.value;
    if (key == "shared") {
      if (value.parenthesizedList) {
        error(value.offset, value.length,
              "shared takes one expression: the bytes of dynamic shared memory");
        return;
      }
      kernel_.launch.sharedBytes = names_->resolve(value.components[0], ExprContext::Launch);
      return;
    }
    if (value.components.size() > 3) {
      error(value.offset, value.length,
            "'" + key + "' has " + std::to_string(value.components.size()) +
                " dimensions; dim3 has at most 3 (x, y, z)");
      return;
    }
    std::array<ir::ExprPtr, 3>& dims = key == "grid" ? kernel_.launch.grid : kernel_.launch.block;
    for (size_t d = 0; d < value.components.size(); ++d)
      dims[d] = names_->resolve(value.components[d], ExprContext::Launch);
    if (key != "block")
      return;
    // Each dimension is checked at run time; a constant block's threads in all are known now.
    long long threads = 1;
    for (size_t d = 0; d < value.components.size(); ++d) {
      const std::optional<long long> n =
          dims[d] ? ir::evaluate(*dims[d], ir::Environment{}) : std::nullopt;
      if (n && *n < 1) {
        error(value.components[d]->offset, value.components[d]->length,
              "block dimension " + std::string(1, "xyz"[d]) + " is " + std::to_string(*n) +
                  "; a block has at least one thread in each dimension");
        return;
      }
      if (!n)
        return;
      threads = std::min(threads * std::min(*n, 1LL << 31), 1LL << 31); // no overflow
    }
    if (threads > 1024)
      error(value.offset, value.length,
            "block of " + std::to_string(threads) +
                " threads; a block holds at most 1024 (x * y * z)");
    else if (signature_.maxThreadsPerBlock && threads > *signature_.maxThreadsPerBlock)
      error(value.offset, value.length,
            "block of " + std::to_string(threads) + " threads; the kernel's __launch_bounds__ (" +
                std::to_string(*signature_.maxThreadsPerBlock) +
                ") allows at most that many, and a larger launch fails");
  }

  // --- tune -----------------------------------------------------------------------------------

  void checkTune() {
    std::map<int, const TuneEntry*> byParam;
    for (const TuneClause& clause : syntax_.tunes) {
      for (const TuneEntry& entry : clause.entries) {
        std::optional<int> index = checkTuneParam(entry.param);
        ir::ExprPtr value = names_->resolve(entry.value, ExprContext::Tune);
        if (!index || !value)
          continue;
        if (!byParam.emplace(*index, &entry).second) {
          error(entry.param, "tune default for '" + entry.param.text + "' given twice");
          continue;
        }
        kernel_.tuneDefaults.push_back({*index, value});
      }
    }
    checkTuneReferences();
  }

  std::optional<int> checkTuneParam(const Name& name) {
    std::optional<int> index = names_->findParam(name);
    if (!index)
      return std::nullopt;
    const ir::Parameter& p = param(*index);
    if (p.isPointer) {
      error(name, "'" + name.text +
                      "' is a pointer; tune gives defaults to integer scalar "
                      "parameters (the tuner allocates the arrays)");
      return std::nullopt;
    }
    if (!isIntegerScalar(p)) {
      error(name, "parameter '" + name.text + "' has type '" + p.type +
                      "'; tune gives defaults to integer parameters");
      return std::nullopt;
    }
    if (!kernel_.boundsFromCaller && (*index == kernel_.beginParam || *index == kernel_.endParam)) {
      error(name, "'" + name.text +
                      "' is set per chunk by the generator (range mode); it needs "
                      "no tuning default");
      return std::nullopt;
    }
    return index;
  }

  const ir::TuneDefault* tuneDefaultOf(int param) const {
    for (const ir::TuneDefault& d : kernel_.tuneDefaults)
      if (d.param == param)
        return &d;
    return nullptr;
  }

  static void collectParams(const ir::Expr& e, std::vector<const ir::Expr*>& out) {
    if (e.kind == ir::ExprKind::Param)
      out.push_back(&e);
    for (const ir::ExprPtr& operand : e.operands)
      collectParams(*operand, out);
  }

  // Defaults may use other parameters' defaults: each must exist, without cycles, and the
  // values must evaluate.
  void checkTuneReferences() {
    bool referencesOk = true;
    for (const ir::TuneDefault& d : kernel_.tuneDefaults) {
      std::vector<const ir::Expr*> mentions;
      collectParams(*d.value, mentions);
      for (const ir::Expr* mention : mentions) {
        if (tuneDefaultOf(mention->param))
          continue;
        errorAt(*mention, "tune default of '" + param(d.param).name + "' uses '" + mention->name +
                              "', which has no tune default; add tune(" + mention->name +
                              " = VALUE)");
        referencesOk = false;
      }
    }
    if (!referencesOk)
      return;
    for (const ir::TuneDefault& d : kernel_.tuneDefaults) {
      std::set<int> visiting;
      bool cyclic = false;
      std::optional<long long> value = evaluateTuneDefault(d.param, visiting, cyclic);
      if (cyclic) {
        // Every member of the cycle would report the same; once is enough.
        errorAt(*d.value, "tune default of '" + param(d.param).name +
                              "' depends on itself through other tune defaults");
        return;
      }
      if (!value)
        errorAt(*d.value, "tune default of '" + param(d.param).name +
                              "' overflows long long or divides by zero");
      else if (const std::optional<std::string> range = outOfRange(param(d.param), *value))
        // The tuner stores the value in the parameter's own type: a wrapped value would run a
        // call the extents, computed in long long, do not describe.
        errorAt(*d.value, "tune default of '" + param(d.param).name + "' is " +
                              std::to_string(*value) + ", which its type '" + param(d.param).type +
                              "' cannot hold (" + *range + ")");
    }
    if (!hasErrors(diags_))
      checkTuneSizes();
  }

  // The range of an integer parameter's type ("0 .. 65535") when `value` lies outside it.
  static std::optional<std::string> outOfRange(const ir::Parameter& p, long long value) {
    long long low = 0;
    long long high = 1;
    const unsigned bits = 8 * p.elementSize;
    if (p.scalarKind == ir::ScalarKind::SignedInteger) {
      if (bits == 0 || bits >= 64)
        return std::nullopt;
      high = (1LL << (bits - 1)) - 1;
      low = -high - 1;
    } else if (p.scalarKind == ir::ScalarKind::UnsignedInteger) {
      if (bits == 0)
        return std::nullopt;
      if (bits >= 64)
        return value < 0 ? std::optional<std::string>("0 .. 18446744073709551615") : std::nullopt;
      high = (1LL << bits) - 1;
    } else if (p.scalarKind != ir::ScalarKind::Boolean) {
      return std::nullopt;
    }
    if (value >= low && value <= high)
      return std::nullopt;
    return std::to_string(low) + " .. " + std::to_string(high);
  }

  // The tuner sizes its call with the defaults: no extent may come out negative.
  void checkTuneSizes() {
    ir::Environment env;
    env.param = [&](int index) {
      std::set<int> visiting;
      bool cyclic = false;
      return evaluateTuneDefault(index, visiting, cyclic);
    };
    const auto check = [&](const ir::ExprPtr& size, const std::string& what) {
      if (!size)
        return true;
      const std::optional<long long> value = ir::evaluate(*size, env);
      if (!value || *value >= 0)
        return true;
      std::vector<const ir::Expr*> mentions;
      collectParams(*size, mentions);
      for (const ir::Expr* mention : mentions)
        if (const ir::TuneDefault* d = tuneDefaultOf(mention->param)) {
          errorAt(*d->value, "with the tune defaults " + what + " is " + std::to_string(*value) +
                                 "; the tuner cannot size a call with it");
          return false;
        }
      return true;
    };
    if (!check(kernel_.partition, "the partition extent"))
      return;
    for (const ArrayDraft& draft : drafts_)
      if (!check(draft.array.extent, "the extent of '" + param(draft.array.param).name + "'"))
        return;
    checkTuneLength(env);
  }

  // checkLength at the tune defaults: the tuner's own call must pass the run-time check that one
  // launch over the whole partition gives the length parameter the caller's value.
  void checkTuneLength(const ir::Environment& defaults) {
    if (!offsetMode_ || kernel_.lengthParam < 0 || !kernel_.partition)
      return;
    const ir::TuneDefault* given = tuneDefaultOf(kernel_.lengthParam);
    const std::optional<WholeCall> whole =
        wholeCallLength(kernel_.lengthValue, kernel_.partition, defaults);
    const std::optional<long long> caller = defaults.param(kernel_.lengthParam);
    if (!given || !whole || whole->extent <= 0 || !caller || whole->passed == *caller)
      return;
    const std::string& name = param(kernel_.lengthParam).name;
    errorAt(*given->value,
            "with the tune defaults one launch over the whole partition (P = " +
                std::to_string(whole->extent) + ") passes " + name + " = " +
                std::to_string(whole->passed) +
                (kernel_.lengthValue ? " (" + ir::toSource(*kernel_.lengthValue) + ")" : "") +
                ", but the tune default of '" + name + "' is " + std::to_string(*caller) +
                "; the tuner's call would be refused");
  }

  std::optional<long long> evaluateTuneDefault(int index, std::set<int>& visiting, bool& cyclic) {
    const ir::TuneDefault* d = tuneDefaultOf(index);
    if (!d || !visiting.insert(index).second) {
      cyclic = cyclic || d;
      return std::nullopt;
    }
    ir::Environment env;
    env.param = [&](int other) { return evaluateTuneDefault(other, visiting, cyclic); };
    std::optional<long long> value = ir::evaluate(*d->value, env);
    visiting.erase(index);
    return value;
  }

  std::string_view text_;
  ir::KernelSignature signature_; // the kernel's, then the annotation's param(...) ones
  Diagnostics& diags_;
  std::optional<NameResolver> names_; // once the host-only parameters are known
  AnnotationSyntax syntax_;
  std::vector<DataClause> reduceClauses_; // reduce(...) as data clauses; reserved, never moved
  std::vector<ParamSample> samples_;
  ir::Kernel kernel_;
  std::vector<ArrayDraft> drafts_;
  std::set<int> strayOutputs_;     // outputs whose writes stray from their section (reported)
  std::set<int> namedPointers_;    // pointers named in a data clause, even if rejected there
  bool unknownArrayNamed_ = false; // a data clause named no parameter of the kernel
  bool offsetMode_ = false;        // offset mode was chosen without conflict
};

} // namespace

SemaResult buildKernel(std::string_view text, const ir::KernelSignature& signature) {
  SemaResult result;
  result.kernel = KernelChecker(text, signature, result.diagnostics).run();
  // The checks run clause kind by clause kind; readers expect the order of the text.
  std::stable_sort(result.diagnostics.begin(), result.diagnostics.end(),
                   [](const Diagnostic& a, const Diagnostic& b) { return a.offset < b.offset; });
  return result;
}

} // namespace overlap::annotation
