// The typed IR of an annotated kernel: parameters, arrays and their sections, the partition, the
// chunk-passing mode and the launch geometry. Free of Clang types, so the annotation checker, the
// emitter and the tuner are testable without a compiler.
#pragma once

#include "ir/Expr.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace overlap::ir {

enum class ScalarKind { SignedInteger, UnsignedInteger, Boolean, FloatingPoint, Other };

// Mirrors overlap::ElementKind of the runtime (kernel_types.h); the emitter prints the name.
enum class ElementKind { F32, F64, I8, U8, I16, U16, I32, U32, I64, U64, Other };

// The enumerator's name, "F32" ... "Other": the same spelling in generated code and in IR dumps.
const char* elementKindName(ElementKind kind);

// One kernel parameter as the frontend read it from the AST.
struct Parameter {
  std::string name;
  std::string type; // full type as spelled in the signature, e.g. "const float *"
  bool isPointer = false;
  // Pointers: the pointee type without top-level const, e.g. "float"; scalars: the type without
  // top-level const, e.g. "int".
  std::string valueType;
  bool pointeeConst = false;                    // pointers: pointee is const-qualified
  ScalarKind scalarKind = ScalarKind::Other;    // scalars
  ElementKind elementKind = ElementKind::Other; // pointee for pointers, value for scalars
  unsigned elementSize = 0;      // bytes: pointee for pointers, value for scalars; 0 if incomplete
  unsigned line = 0, column = 0; // where the parameter is declared (for notes)
};

struct KernelSignature {
  std::string name;
  std::vector<Parameter> params;
  bool isTemplate = false;
};

enum class Direction { In, Out, InOut };

// The part [begin, end) of an array, in elements, that one chunk [lo, hi) needs. A section that
// does not depend on lo/hi is a broadcast section: sent once before the pipeline.
struct Section {
  ExprPtr begin;
  ExprPtr end;
  bool chunked() const { return dependsOnChunk(*begin) || dependsOnChunk(*end); }
};

struct Array {
  int param = -1; // index into KernelSignature::params
  Direction direction = Direction::In;
  ExprPtr extent; // number of elements of the whole array
  // Empty: the whole array [0, extent) is a broadcast input.
  std::vector<Section> sections;
  unsigned offset = 0; // where the array is named in its data clause
};

enum class ChunkMode {
  Offset, // pointers advanced to the chunk's section, lengthParam receives hi - lo
  Range   // kernel indexes globally; beginParam receives lo, endParam receives hi
};

struct Launch {
  bool gridStride = false;        // grid from occupancy instead of an expression
  std::array<ExprPtr, 3> grid{};  // x, y, z; y and z may be null (1)
  std::array<ExprPtr, 3> block{}; // x, y, z; y and z may be null (1)
  ExprPtr sharedBytes;            // may be null (0)
};

struct TuneDefault {
  int param = -1;
  ExprPtr value; // free of lo/hi; may use other parameters' tuning defaults
};

struct Kernel {
  KernelSignature signature;
  ExprPtr partition; // P: extent of the partitioned index
  ChunkMode mode = ChunkMode::Offset;
  int lengthParam = -1;      // Offset
  int beginParam = -1;       // Range
  int endParam = -1;         // Range
  std::vector<Array> arrays; // in parameter order
  Launch launch;
  std::vector<TuneDefault> tuneDefaults;
  // Where the kernel is, for generated comments and the descriptor.
  std::string file;
  unsigned line = 0;
};

// The array bound to a parameter, or null.
const Array* findArray(const Kernel& kernel, int param);

} // namespace overlap::ir
