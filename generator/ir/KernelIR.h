// The typed IR of an annotated kernel: parameters, arrays and their sections, the partition, the
// chunk-passing mode and the launch geometry. Free of Clang types, so the annotation checker, the
// emitter and the tuner are testable without a compiler.
#pragma once

#include "ir/Expr.h"
#include "overlap/KernelTypes.h" // CUDA-free: the runtime's kernel vocabulary

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace overlap::ir {

enum class ScalarKind { SignedInteger, UnsignedInteger, Boolean, FloatingPoint, Other };

// The runtime's own enums (KernelTypes.h), so that what the emitter prints into generated code
// names exactly what the runtime defines. For CUDA vector types and other structs of one scalar
// type (float2, __half2, uchar4) the element kind is the kind of that scalar, the lane; the
// element holds elementSize / (size of the lane) lanes.
using ElementKind = ::overlap::ElementKind;
using Direction = ::overlap::Direction;
using ReduceOp = ::overlap::ReduceOp; // reduce(OP: name): every chunk's kernel updates the array

// The enumerator's name, "F32" ... "Other": the same spelling in generated code and in IR dumps.
const char* elementKindName(ElementKind kind);

// One access of an array parameter in the kernel's body or a helper it calls (x[i], *(x + i),
// __ldg(x + i), through a pointer the body never changes), its element read as base + offset
// (IndexOffsetFinder): the base is what varies from thread to thread (threadIdx.x, a loop's
// variable), as a key equal for equal bases; the offset a polynomial of integer parameters and
// constants. x[i - 1] is base i, offset -1; in[(r - 1) * w + c] is base r * w + c, offset -w.
struct OffsetTerm {
  long long coefficient = 0;
  std::vector<int> params; // the product of these parameters (none: a constant)
  bool operator==(const OffsetTerm& other) const {
    return coefficient == other.coefficient && params == other.params;
  }
};
struct IndexUse {
  std::string base;
  // Each term of the base as its scale: the coefficient and the parameters it multiplies (i * w
  // + c: w and 1), so that the checker sees whether a thread's base moves in whole strides.
  std::vector<OffsetTerm> baseScales;
  std::vector<std::string> baseAtoms; // each term's thread-dependent atoms ("threadIdx.x")
  std::vector<OffsetTerm> offset;
  bool write = false; // assigned to (x[i] = v); a compound assignment is a read and a write
  unsigned line = 0, column = 0; // in a helper: the kernel's call
};

// One kernel parameter as the frontend read it from the AST.
struct Parameter {
  std::string name;
  std::string type; // full type as spelled in the signature, e.g. "const float *"
  bool isPointer = false;
  // Pointers: the pointee type without top-level const, e.g. "float"; scalars: the type without
  // top-level const, e.g. "int".
  std::string valueType;
  bool pointeeConst = false;   // pointers: pointee is const-qualified
  bool pointeePointer = false; // pointers to pointers: host addresses the device cannot follow
  ScalarKind scalarKind = ScalarKind::Other;    // scalars
  ElementKind elementKind = ElementKind::Other; // pointee for pointers, value for scalars
  unsigned elementSize = 0; // bytes: pointee for pointers, value for scalars; 0 if incomplete
  // Pointers: the widest alignment, in bytes, at which the kernel body reads or writes the array
  // through a cast to a wider type (reinterpret_cast<const float4*>(x)); 0 when it does not.
  unsigned vectorAccessAlignment = 0;
  // Pointers: where the kernel's own body first writes through it (p[i] = ..., atomicAdd(&p[i],
  // ...)); 0 when no such write was found (ParameterAccessFinder).
  unsigned writeLine = 0, writeColumn = 0;
  bool named = true; // the kernel's body names it
  // Where it first writes through it other than atomically (0: nowhere found).
  unsigned plainWriteLine = 0, plainWriteColumn = 0;
  // Where it first reads its array before writing it (y[i] += v); 0: nowhere found.
  unsigned readLine = 0, readColumn = 0;
  // Integers: where the body first indexes an array parameter (params[indexedArray]) at a
  // multiple of it (y[k * n + i], planes n apart); 0 and -1: nowhere found (IndexTermFinder).
  unsigned indexLine = 0, indexColumn = 0;
  int indexedArray = -1;
  // Pointers: the kernel's own accesses of it whose index is base + offset (IndexOffsetFinder).
  std::vector<IndexUse> indexUses;
  unsigned line = 0, column = 0; // where the parameter is declared (for notes)
  // Declared by the annotation's param(...): the generated entry points take it, the kernel does
  // not. Host-only parameters follow the kernel's own.
  bool hostOnly = false;
};

// A template parameter of a kernel template, for checking instantiate(...) clauses.
struct TemplateParam {
  std::string name;
  bool isType = false; // typename/class; otherwise a non-type (or template template) parameter
  bool hasDefault = false;
};

// A name expressions may use for a constant: an integral template argument of an instantiation,
// or the file's macro, constant or enumerator of that name.
struct TemplateConstant {
  std::string name;
  long long value = 0;
};

// sizeof(TYPE) in expressions: the sizes of the types the checker knows by name.
struct TypeSize {
  std::string name;
  unsigned bytes = 0;
};

// param(TYPE NAME) with a type the file declares (typedef int Index_t, ns::idx): the builtin
// type it stands for, as Clang spells it ("int", "unsigned long").
struct TypeAlias {
  std::string name;
  std::string builtin;
};

// A function of the kernel's file that annotation expressions may call, CEIL_DIV(n, 256) or
// Caffe's CAFFE_GET_BLOCKS(n): a function-like macro, or a function whose body is one return
// statement. The checker expands each call: a macro's text with the arguments' text, as the
// preprocessor would; a function's expression with the arguments' values.
struct FileFunction {
  std::string name;
  std::vector<std::string> params;
  std::vector<std::string> defaults; // a function's default arguments as written ("" for none)
  std::string body;                  // the macro's replacement text, or the returned expression
  bool macro = false;
  std::string where;    // "relu.cu:12", for messages
  std::string unusable; // why annotations cannot call it; empty when they can
};

struct KernelSignature {
  std::string name; // qualified by its named namespaces: "ns::inner::saxpy"
  std::vector<Parameter> params;
  bool isTemplate = false;                   // a template, not one of its instantiations
  std::vector<TemplateParam> templateParams; // of a template
  // An instantiation: its template arguments as C++ ("<float, 256>") and the integral ones by
  // name; entryName, when set, names its entry points instead of the kernel's plain name.
  std::string templateArguments;
  std::vector<TemplateConstant> constants;
  std::string entryName;
  std::vector<TypeSize> typeSizes;
  std::vector<TypeAlias> typeAliases;
  std::vector<FileFunction> functions; // those the annotation calls, directly or not
  // __launch_bounds__'s threads per block where it is a constant: a larger launch cannot run.
  std::optional<long long> maxThreadsPerBlock;
};

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
  // Empty: the whole array [0, extent) is a broadcast input (or, with reduce, the reduced array).
  std::vector<Section> sections;
  // halo(name: before, after): the chunked section is copied this many elements wider on each
  // side; null when there is none. The kernel's pointer still starts at the section's begin.
  ExprPtr haloBefore;
  ExprPtr haloAfter;
  bool optional = false; // optional(name): a null pointer is skipped, the kernel gets null
  ReduceOp reduce = ReduceOp::None;
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

// bind(param = value): what a kernel parameter receives for chunk [lo, hi).
struct Binding {
  int param = -1;
  ExprPtr value;
};

struct TuneDefault {
  int param = -1;
  ExprPtr value; // free of lo/hi; may use other parameters' tuning defaults
};

struct Kernel {
  KernelSignature signature;
  ExprPtr partition;      // P: extent of the partitioned index
  ExprPtr partitionBegin; // partition(BEGIN : END): chunks lie in [BEGIN, BEGIN + P); null: 0
  ExprPtr granule;        // granule(G): chunk bounds at BEGIN + multiples of G; null: 1
  ChunkMode mode = ChunkMode::Offset;
  int lengthParam = -1; // Offset; -1 when the kernel takes no chunk length
  ExprPtr lengthValue;  // Offset: what lengthParam receives per chunk, in len; null: len
  int beginParam = -1;  // Range; -1 when the kernel takes no such bound
  int endParam = -1;    // Range; -1 when the kernel takes no such bound
  // Range: the partition(BEGIN : END) uses the bound parameters, so the caller passes them.
  bool boundsFromCaller = false;
  std::vector<Array> arrays; // in parameter order
  std::vector<Binding> bindings;
  Launch launch;
  std::vector<TuneDefault> tuneDefaults;
  // Where the kernel is, for generated comments and the descriptor.
  std::string file;
  unsigned line = 0;
};

// A __constant__ or __device__ variable of the kernel file: the generated header declares a
// setter and a getter for it, so that host code elsewhere can initialise it.
struct DeviceGlobal {
  std::string name;        // qualified by its named namespaces: "ns::c_filter"
  std::string elementType; // its innermost element type, spelled for generated code: "float"
  long long count = 1;     // elements: 17 for float c[17], 9 for float c[3][3]
  bool constant = true;    // __constant__; false: __device__
  // Its elements are const (`__constant__ const float c[3] = {...}`): the compiler may fold their
  // values into the kernels, so a setter could not change what they read; it gets a getter only.
  bool readOnly = false;
  unsigned line = 0;
};

// What the generated header includes or declares so that host code compiled by a host compiler
// can name the types of the entry points' parameters and of the setters.
struct HeaderNeeds {
  std::vector<std::string> includes;     // "<cuda_fp16.h>", "\"types.h\"": unique, in order
  std::vector<std::string> declarations; // "namespace ns { struct Params; }"
  // Declarations for host code only: `struct block_q8_0;` for the kernel file's
  // `typedef struct { ... } block_q8_0;`, which the typedef conflicts with where both are seen
  // (the generated source includes the kernel file, then the header).
  std::vector<std::string> declarationsWithoutKernelFile;
};

// Everything generated from one annotated file.
struct SourceFile {
  std::vector<Kernel> kernels;
  std::vector<DeviceGlobal> globals;
  HeaderNeeds header;
};

// The array bound to a parameter, or null.
const Array* findArray(const Kernel& kernel, int param);

// The parameters the generated entry points take: all but range bounds the pipeline sets.
bool isCallerParam(const Kernel& kernel, int param);

const char* reduceOpName(ReduceOp op); // "Sum", ... as the runtime's enum spells it

} // namespace overlap::ir
