#include "emit/Emitter.h"

#include <cassert>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace overlap::emit {
namespace {

// A type as it can stand before a name or a `*`: one whose declarator wraps the name (a pointer
// to an array, `const float (*)[4]`; a function pointer) through overlap::Spelled.
std::string spelled(const std::string& type) {
  return type.find_first_of("([") == std::string::npos ? type : "::overlap::Spelled<" + type + ">";
}

// A pointer to elements of `type`, read only when `readOnly`: `const float*`; `float * const*` for
// a pointer element (a `float**` converts to it); `::overlap::Spelled<float (*)(float)> const*`.
std::string pointerTo(const std::string& type, bool readOnly) {
  if (type.find_first_of("*([") == std::string::npos)
    return (readOnly ? "const " : "") + type + "*";
  return spelled(type) + (readOnly ? " const*" : "*");
}

using ir::Array;
using ir::ChunkMode;
using ir::Expr;
using ir::Kernel;
using ir::Parameter;

const char* directionName(ir::Direction direction) {
  switch (direction) {
  case ir::Direction::In:
    return "In";
  case ir::Direction::Out:
    return "Out";
  case ir::Direction::InOut:
    return "InOut";
  }
  return "In";
}

const char* clauseName(const Array& array) {
  if (array.reduce != ir::ReduceOp::None)
    return "reduce";
  switch (array.direction) {
  case ir::Direction::In:
    return "copyin";
  case ir::Direction::Out:
    return "copyout";
  case ir::Direction::InOut:
    return "copy";
  }
  return "copyin";
}

// C++ string literal for arbitrary text (file paths may hold quotes or backslashes).
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out + "\"";
}

// Splits "ns::inner::saxpy" into its namespaces and the unqualified name.
struct QualifiedName {
  std::vector<std::string> namespaces;
  std::string name;
};

QualifiedName splitQualified(const std::string& qualified) {
  QualifiedName result;
  std::string::size_type start = 0;
  for (;;) {
    const std::string::size_type colons = qualified.find("::", start);
    if (colons == std::string::npos) {
      result.name = qualified.substr(start);
      return result;
    }
    if (colons > start) // a leading "::" names no namespace
      result.namespaces.push_back(qualified.substr(start, colons - start));
    start = colons + 2;
  }
}

std::string openNamespaces(const QualifiedName& name) {
  std::string out;
  for (const std::string& ns : name.namespaces)
    out += "namespace " + ns + " {\n";
  return out;
}

std::string closeNamespaces(const QualifiedName& name) {
  std::string out;
  for (auto it = name.namespaces.rbegin(); it != name.namespaces.rend(); ++it)
    out += "} // namespace " + *it + "\n";
  return out;
}

std::string withNamespaces(const QualifiedName& name, const std::string& unqualified) {
  std::string out;
  for (const std::string& ns : name.namespaces)
    out += ns + "::";
  return out + unqualified;
}

// Everything the emitter prints about one kernel (or one instantiation of a kernel template).
class KernelEmitter {
public:
  // `deviceGlobals`: the kernel's file declares __constant__ or __device__ variables.
  KernelEmitter(const Kernel& kernel, bool deviceGlobals)
      : kernel_(kernel), qualified_(splitQualified(kernel.signature.name)),
        deviceGlobals_(deviceGlobals) {
    for (std::size_t i = 0; i < kernel_.arrays.size(); ++i)
      arrayOfParam_[kernel_.arrays[i].param] = static_cast<int>(i);
    nameOwnIdentifiers();
  }

  // The entry points' base name: the kernel's, or its instantiation's.
  const std::string& name() const {
    return kernel_.signature.entryName.empty() ? qualified_.name : kernel_.signature.entryName;
  }
  std::string bindingName() const { return name() + "_binding"; }
  std::string descriptorName() const { return name() + "_descriptor"; }
  // "&ns::saxpy_descriptor", for the file's table in the global namespace.
  std::string descriptorAddress() const {
    return "&" + withNamespaces(qualified_, descriptorName());
  }

  void emitDeclarations(std::ostream& out) const {
    out << "// " << title() << ": " << summary() << "\n";
    out << openNamespaces(qualified_);
    const std::string params = hostParameters();
    const std::string sep = params.empty() ? "" : ", ";
    const std::string& stream = own_.stream;
    const std::string& config = own_.config;
    out << "::overlap::Status " << name() << "_explicit(" << params << ");\n";
    out << "::overlap::Status " << name() << "_mapped(" << params << ");\n";
    for (const char* variant : {"streams", "hybrid"})
      out << "::overlap::Status " << name() << "_" << variant << "(" << params << sep << "int "
          << own_.streams << ", ::overlap::IssueOrder " << own_.order
          << " = ::overlap::IssueOrder::DepthFirst);\n";
    out << "// With every setting: chunks apart from streams, device buffers and budget, pageable "
           "arrays.\n";
    for (const char* variant : {"streams", "hybrid"})
      out << "::overlap::Status " << name() << "_" << variant << "(" << params << sep
          << "const ::overlap::StreamsConfig& " << config << ");\n";
    out << "// The variant tuned for the current device (overlap/Dispatch.h says how it is "
           "chosen).\n";
    out << "::overlap::Status " << name() << "_tuned(" << params << ");\n";
    out << "// Asynchronous forms, on the caller's stream: ordered after what `stream` holds, and "
           "what\n// follows on `stream` after the call's last copy; they return without waiting. "
           "The host\n// arrays stay untouched until `stream` gets there; pageable ones make the "
           "call synchronous\n// (overlap/detail/AsyncCall.cuh).\n";
    out << "::overlap::Status " << name() << "_explicit_async(" << params << sep << "cudaStream_t "
        << stream << ");\n";
    out << "::overlap::Status " << name() << "_mapped_async(" << params << sep << "cudaStream_t "
        << stream << ");\n";
    for (const char* variant : {"streams", "hybrid"})
      out << "::overlap::Status " << name() << "_" << variant << "_async(" << params << sep
          << "const ::overlap::StreamsConfig& " << config << ", cudaStream_t " << stream << ");\n";
    out << "::overlap::Status " << name() << "_tuned_async(" << params << sep << "cudaStream_t "
        << stream << ");\n";
    out << "extern const ::overlap::KernelDescriptor " << descriptorName() << ";\n";
    out << closeNamespaces(qualified_) << "\n";
  }

  void emitDefinitions(std::ostream& out) const {
    out << "// ---- " << title() << " ----\n";
    out << "// " << summary() << "\n";
    out << openNamespaces(qualified_);
    out << "namespace {\n\n";
    emitBinding(out);
    emitDescriptorTables(out);
    out << "} // namespace\n\n";
    emitVariants(out);
    emitDescriptor(out);
    out << closeNamespaces(qualified_) << "\n";
  }

private:
  std::string fileName() const {
    const std::string::size_type slash = kernel_.file.find_last_of('/');
    return slash == std::string::npos ? kernel_.file : kernel_.file.substr(slash + 1);
  }

  // "saxpy (saxpy.cu:9)", "sum<float, 256> as sum_float_256 (sum.cu:12)".
  std::string title() const {
    std::string out = kernel_.signature.name + kernel_.signature.templateArguments;
    if (!kernel_.signature.entryName.empty())
      out += " as " + kernel_.signature.entryName;
    return out + " (" + fileName() + ":" + std::to_string(kernel_.line) + ")";
  }

  const Parameter& param(int index) const { return kernel_.signature.params.at(index); }
  int paramCount() const { return static_cast<int>(kernel_.signature.params.size()); }

  // Parameter names as members of the binding; unnamed parameters get a stable placeholder.
  std::string member(int index) const {
    const Parameter& p = param(index);
    return p.name.empty() ? "unnamed_param_" + std::to_string(index) : p.name;
  }

  // The parameter's member of the binding (nameOwnIdentifiers).
  const std::string& field(int index) const { return fields_.at(index); }

  std::string pointeeType(const Parameter& p) const {
    return (p.pointeeConst ? "const " : "") + spelled(p.valueType);
  }

  std::string cxx(const ir::ExprPtr& expr) const {
    assert(expr && "the annotation checker leaves no required expression empty");
    return ir::toCxx(*expr, [this](const Expr& e) {
      return "static_cast<long long>(this->" + field(e.param) + ")";
    });
  }

  // One line a reader can match against the annotation.
  std::string summary() const {
    std::ostringstream out;
    out << "partition(";
    if (kernel_.partitionBegin)
      out << ir::toSource(*kernel_.partitionBegin) << " : "
          << ir::toSource(*kernel_.partition->operands[0]);
    else
      out << ir::toSource(*kernel_.partition);
    out << ")";
    if (kernel_.mode == ChunkMode::Offset) {
      out << " offset";
      if (kernel_.lengthParam >= 0) {
        out << "(" << member(kernel_.lengthParam);
        if (kernel_.lengthValue)
          out << " = " << ir::toSource(*kernel_.lengthValue);
        out << ")";
      }
    } else {
      out << " range";
      if (kernel_.beginParam >= 0)
        out << "(" << member(kernel_.beginParam)
            << (kernel_.endParam >= 0 ? ", " + member(kernel_.endParam) : "") << ")";
    }
    for (const ir::Binding& binding : kernel_.bindings)
      out << " bind(" << member(binding.param) << " = " << ir::toSource(*binding.value) << ")";
    if (kernel_.granule)
      out << " granule(" << ir::toSource(*kernel_.granule) << ")";
    for (const Array& array : kernel_.arrays) {
      out << " " << clauseName(array) << "(";
      if (array.sections.empty())
        out << member(array.param);
      for (std::size_t s = 0; s < array.sections.size(); ++s)
        out << (s ? ", " : "") << member(array.param) << "["
            << ir::toSource(*array.sections[s].begin) << ":" << ir::toSource(*array.sections[s].end)
            << "]";
      out << ")";
      if (array.haloBefore)
        out << " halo(" << member(array.param) << ": " << ir::toSource(*array.haloBefore) << ", "
            << ir::toSource(*array.haloAfter) << ")";
      if (array.optional)
        out << " optional(" << member(array.param) << ")";
    }
    return out.str();
  }

  bool isCaller(int index) const { return ir::isCallerParam(kernel_, index); }

  // The parameters the user passes: the kernel's but the range bounds the pipeline sets, then the
  // annotation's host-only ones.
  std::string hostParameters() const {
    std::string out;
    for (int i = 0; i < paramCount(); ++i) {
      if (!isCaller(i))
        continue;
      if (!out.empty())
        out += ", ";
      out += spelled(param(i).type) + " " + member(i);
    }
    return out;
  }

  std::string hostArguments() const {
    std::string out;
    for (int i = 0; i < paramCount(); ++i) {
      if (!isCaller(i))
        continue;
      if (!out.empty())
        out += ", ";
      out += member(i);
    }
    return out;
  }

  void emitBinding(std::ostream& out) const {
    const std::string binding = bindingName();
    out << "// Binds " << name()
        << "'s arguments to the strategy templates (templates/overlap/Binding.cuh).\n";
    out << "struct " << binding << " {\n";
    for (int i = 0; i < paramCount(); ++i)
      if (isCaller(i))
        out << "  " << spelled(param(i).type) << " " << field(i) << ";\n";
    out << "\n  static constexpr int kArrays = " << kernel_.arrays.size() << ";\n";
    if (deviceGlobals_)
      out << "  // The file's __constant__ and __device__ variables live on one device: no "
             "multi-GPU calls.\n  static constexpr bool kDeviceGlobals = true;\n";
    out << "\n";

    emitFromArgs(out);
    out << "  long long partitionExtent() const { return " << cxx(kernel_.partition) << "; }\n\n";
    out << "  long long partitionBegin() const { return "
        << (kernel_.partitionBegin ? cxx(kernel_.partitionBegin) : "0") << "; }\n\n";
    emitGranule(out);
    emitCheckCall(out);
    emitArray(out);
    emitSections(out);
    emitLaunch(out);
    out << "};\n\n";
  }

  void emitFromArgs(std::ostream& out) const {
    out << "  static " << bindingName() << " fromArgs(::overlap::ArgPointers args) {\n";
    out << "    return {";
    bool first = true;
    for (int i = 0; i < paramCount(); ++i) {
      if (!isCaller(i))
        continue;
      out << (first ? "" : ", ") << "::overlap::glue::arg<" << param(i).type << ">(args, " << i
          << ")";
      first = false;
    }
    out << "};\n  }\n\n";
  }

  // The declared granule, then for every array the kernel reads through a wider type, the
  // granule that keeps each chunk's pointer aligned for it.
  void emitGranule(std::ostream& out) const {
    out << "  long long granule() const {\n    long long granule = "
        << (kernel_.granule ? cxx(kernel_.granule) : "1") << ";\n";
    for (std::size_t i = 0; i < kernel_.arrays.size(); ++i) {
      const Array& array = kernel_.arrays[i];
      const Parameter& p = param(array.param);
      if (p.vectorAccessAlignment == 0)
        continue;
      // Offset mode advances the pointer by the section's begin; range mode passes element 0
      // and the kernel indexes by lo itself. A whole array in offset mode stays at element 0 and
      // is indexed by the chunk's own indices, so its accesses keep their alignment anywhere.
      if (kernel_.mode == ChunkMode::Offset && array.sections.empty())
        continue;
      const bool advanced = kernel_.mode == ChunkMode::Offset;
      const std::string stride = advanced ? "section(" + std::to_string(i) +
                                                ", 0, 1, 1).begin - section(" + std::to_string(i) +
                                                ", 0, 0, 0).begin"
                                          : "1";
      out << "    // the kernel accesses '" << member(array.param) << "' "
          << p.vectorAccessAlignment << " bytes at a time from its chunk's first element\n";
      out << "    if (granule >= 1)\n      granule = ::overlap::lcmLL(granule, "
          << "::overlap::alignmentGranule(" << p.vectorAccessAlignment << ", static_cast<long "
          << "long>(sizeof(" << p.valueType << ")) * (" << stride << ")));\n";
    }
    out << "    return granule;\n  }\n\n";
  }

  std::string failure(const std::string& what) const {
    return "::overlap::Status{cudaErrorInvalidValue, " + quoted(name() + ": " + what) +
           ", __FILE__, __LINE__}";
  }

  // Run-time checks of a call's arguments that the annotation's checks could not decide.
  void emitCheckCall(std::ostream& out) const {
    out << "  ::overlap::Status checkCall() const {\n";
    if (kernel_.granule)
      out << "    if (" << cxx(kernel_.granule) << " < 1)\n      return "
          << failure("granule(" + ir::toSource(*kernel_.granule) + ") is not positive") << ";\n";
    if (kernel_.mode == ChunkMode::Offset && kernel_.lengthParam >= 0 && !lengthIsPartition()) {
      // One launch over the whole partition must pass the kernel the length the caller passed.
      const std::string value =
          kernel_.lengthValue ? ir::toSource(*kernel_.lengthValue) + " at len = P" : "P";
      out << "    {\n      const long long len = partitionExtent();\n";
      out << "      if ("
          << (kernel_.lengthValue ? "(" + cxx(kernel_.lengthValue) + ")" : std::string("len"))
          << " != static_cast<long long>(this->" << field(kernel_.lengthParam) << "))\n"
          << "        return "
          << failure("the call's " + member(kernel_.lengthParam) + " is not " + value +
                     " for the partition P = " + ir::toSource(*kernel_.partition) +
                     ", so no chunking computes what one launch would")
          << ";\n    }\n";
    }
    // The same for what bind(...) gives the kernel: one launch over the whole partition must pass
    // the caller's value.
    for (const ir::Binding& binding : kernel_.bindings) {
      out << "    {\n      const long long lo = partitionBegin();\n"
          << "      const long long hi = lo + partitionExtent();\n"
          << "      const long long len = hi - lo;\n      (void)len;\n"
          << "      if (" << cxx(binding.value) << " != static_cast<long long>(this->"
          << field(binding.param) << "))\n        return "
          << failure("the call's " + member(binding.param) + " is not bind(" +
                     member(binding.param) + " = " + ir::toSource(*binding.value) +
                     ") over the whole partition, so no chunking computes what one launch would")
          << ";\n    }\n";
    }
    out << "    return ::overlap::Status::success();\n  }\n\n";
  }

  // partition(n) offset(n): the check above holds by construction.
  bool lengthIsPartition() const {
    return !kernel_.lengthValue && !kernel_.partitionBegin &&
           kernel_.partition->kind == ir::ExprKind::Param &&
           kernel_.partition->param == kernel_.lengthParam;
  }

  void emitArray(std::ostream& out) const {
    out << "  ::overlap::HostArray array(int i) const {\n    switch (i) {\n";
    for (std::size_t i = 0; i < kernel_.arrays.size(); ++i) {
      const Array& array = kernel_.arrays[i];
      const Parameter& p = param(array.param);
      // Inputs are declared const; the strategies never write through an In array's pointer.
      out << "    case " << i << ":\n      return {const_cast<" << spelled(p.valueType)
          << "*>(this->" << field(array.param) << "), sizeof(" << p.valueType << "), "
          << cxx(array.extent) << ", ::overlap::Direction::" << directionName(array.direction)
          << ", " << quoted(member(array.param)) << ", " << (array.optional ? "true" : "false")
          << ", " << (array.reduce != ir::ReduceOp::None ? "true" : "false");
      if (array.reduce != ir::ReduceOp::None)
        out << ", ::overlap::ReduceOp::" << ir::reduceOpName(array.reduce)
            << ", ::overlap::ElementKind::" << ir::elementKindName(p.elementKind);
      out << "};\n";
    }
    out << "    }\n    return {};\n  }\n\n";
  }

  void emitSections(std::ostream& out) const {
    std::string counts, chunked, firsts;
    int first = 0;
    std::ostringstream cases;
    for (std::size_t i = 0; i < kernel_.arrays.size(); ++i) {
      const Array& array = kernel_.arrays[i];
      counts += (i ? ", " : "") + std::to_string(array.sections.size());
      firsts += (i ? ", " : "") + std::to_string(first);
      for (std::size_t s = 0; s < array.sections.size(); ++s) {
        const ir::Section& section = array.sections[s];
        chunked +=
            std::string(chunked.empty() ? "" : ", ") + (section.chunked() ? "true" : "false");
        cases << "    case " << first + static_cast<int>(s) << ": // " << member(array.param) << "["
              << ir::toSource(*section.begin) << ":" << ir::toSource(*section.end) << "]";
        std::string begin = cxx(section.begin);
        std::string end = cxx(section.end);
        if (array.haloBefore) {
          cases << " and its halo";
          begin = "(" + begin + ") - (" + cxx(array.haloBefore) + ")";
          end = "(" + end + ") + (" + cxx(array.haloAfter) + ")";
        }
        cases << "\n      return {" << begin << ", " << end << "};\n";
      }
      first += static_cast<int>(array.sections.size());
    }
    // Arrays without sections still need a slot, so the tables are never empty.
    if (chunked.empty())
      chunked = "false";
    out << "  // Sections in elements, unclipped; 0 sections: the whole array, sent once.\n";
    out << "  static int sectionCount(int i) {\n    static constexpr int kCounts[] = {" << counts
        << "};\n    return kCounts[i];\n  }\n\n";
    out << "  static bool sectionIsChunked(int i, int s) {\n    static constexpr bool kChunked[] "
           "= {"
        << chunked << "};\n    return kChunked[first_section(i) + s];\n  }\n\n";
    out << "  ::overlap::Section section(int i, int s, long long lo, long long hi) const {\n"
        << "    const long long len = hi - lo;\n    (void)lo;\n    (void)hi;\n    (void)len;\n"
        << "    switch (first_section(i) + s) {\n"
        << cases.str() << "    }\n    return {};\n  }\n\n";
    out << "  static int first_section(int i) {\n    static constexpr int kFirst[] = {" << firsts
        << "};\n    return kFirst[i];\n  }\n\n";
  }

  // The kernel argument for parameter i in a launch over chunk [lo, hi).
  std::string launchArgument(int i) const {
    const Parameter& p = param(i);
    if (kernel_.mode == ChunkMode::Offset && i == kernel_.lengthParam)
      return "chunk_length";
    if (kernel_.mode == ChunkMode::Range && i == kernel_.beginParam)
      return "chunk_begin";
    if (kernel_.mode == ChunkMode::Range && i == kernel_.endParam)
      return "chunk_end";
    for (const ir::Binding& binding : kernel_.bindings)
      if (binding.param == i)
        return "bound_" + member(i);
    const auto found = arrayOfParam_.find(i);
    if (found == arrayOfParam_.end())
      return "this->" + field(i);
    const Array& array = kernel_.arrays[found->second];
    const std::string index = std::to_string(found->second);
    std::string base = "static_cast<" + pointeeType(p) + "*>(bases[" + index + "])";
    // Offset mode hands the kernel its chunk: the pointer advanced to the section's begin (the
    // halo, if any, lies before it).
    if (kernel_.mode == ChunkMode::Offset && !array.sections.empty())
      base += " + (" + cxx(array.sections.front().begin) + ")";
    // An absent optional array stays null, never null advanced to the chunk.
    if (array.optional)
      base = "(bases[" + index + "] ? " + base + " : nullptr)";
    return base;
  }

  void emitDim(std::ostream& out, const char* what, const std::array<ir::ExprPtr, 3>& dims) const {
    static const char* const kAxes[] = {"x", "y", "z"};
    const bool isGrid = std::string(what) == "grid";
    for (int d = 0; d < 3; ++d) {
      const std::string var = std::string(what) + "_" + kAxes[d];
      if (!dims[d]) {
        out << "    const unsigned " << var << " = 1;\n";
        continue;
      }
      // CUDA's limits: grid.x up to 2^31-1, grid.y/z up to 65535, block.x/y 1024, block.z 64. A
      // grid dimension may be 0 (a chunk too small for one block): nothing is launched.
      const long long limit = isGrid ? (d == 0 ? 2147483647LL : 65535LL) : (d == 2 ? 64 : 1024);
      const long long least = isGrid ? 0 : 1;
      out << "    unsigned " << var << " = 0;\n";
      out << "    OVERLAP_TRY(::overlap::" << (isGrid ? "checkedGridDim" : "checkedDim") << "("
          << cxx(dims[d]) << ", " << limit << "LL, "
          << quoted(name() + ": " + what + "." + kAxes[d] + " = " + ir::toSource(*dims[d]) +
                    " is outside [" + std::to_string(least) + ", " + std::to_string(limit) + "]")
          << ", &" << var << "));\n";
    }
  }

  void emitNarrow(std::ostream& out, int i, const std::string& var,
                  const std::string& value) const {
    const Parameter& p = param(i);
    out << "    " << p.valueType << " " << var << " = 0;\n";
    out << "    OVERLAP_TRY(::overlap::glue::narrow<" << p.valueType << ">(" << value << ", "
        << quoted(name() + ": chunk value does not fit parameter '" + member(i) + "' of type " +
                  p.type)
        << ", &" << var << "));\n";
  }

  // launchConfig() computes the grid, block and shared memory of one chunk; launch() and the
  // descriptor's launchGeometry() (Glue.cuh) both call it, so the geometry the tuner's model
  // sees is the launch's own.
  void emitLaunchConfig(std::ostream& out) const {
    const ir::Launch& launch = kernel_.launch;
    out << "  ::overlap::Status launchConfig(long long lo, long long hi,\n"
        << "                                ::overlap::LaunchConfig* config) const {\n"
        << "    const long long len = hi - lo;\n    (void)lo;\n    (void)len;\n";
    emitDim(out, "block", launch.block);
    out << "    const size_t sharedBytes = "
        << (launch.sharedBytes ? "static_cast<size_t>(" + cxx(launch.sharedBytes) + ")" : "0")
        << ";\n";
    if (launch.sharedBytes)
      out << "    OVERLAP_TRY(::overlap::allowDynamicShared(" << kernelPointer()
          << ", sharedBytes));\n";
    if (launch.gridStride) {
      out << "    unsigned grid_x = 0;\n    const unsigned grid_y = 1, grid_z = 1;\n";
      out << "    OVERLAP_TRY(::overlap::gridStrideGrid(" << kernelPointer()
          << ", static_cast<int>(block_x * block_y * block_z), sharedBytes, &grid_x));\n";
    } else {
      emitDim(out, "grid", launch.grid);
    }
    out << "    *config = {dim3(grid_x, grid_y, grid_z), dim3(block_x, block_y, block_z), "
           "sharedBytes, "
        << (launch.gridStride ? "true" : "false") << "};\n"
        << "    return ::overlap::Status::success();\n  }\n\n";
    out << "  static ::overlap::Status residentBlocks(int blockThreads, size_t sharedBytes,\n"
        << "                                         int* blocks) {\n"
        << "    return ::overlap::residentBlocksPerMultiprocessor(" << kernelPointer()
        << ", blockThreads, sharedBytes, blocks);\n  }\n\n";
  }

  void emitLaunch(std::ostream& out) const {
    emitLaunchConfig(out);
    out << "  ::overlap::Status launch(void* const* bases, long long lo, long long hi,\n"
        << "                         cudaStream_t stream) const {\n"
        << "    const long long len = hi - lo;\n    (void)bases;\n    (void)len;\n";
    if (kernel_.mode == ChunkMode::Offset && kernel_.lengthParam >= 0)
      emitNarrow(out, kernel_.lengthParam, "chunk_length",
                 kernel_.lengthValue ? cxx(kernel_.lengthValue) : "len");
    if (kernel_.mode == ChunkMode::Range && kernel_.beginParam >= 0)
      emitNarrow(out, kernel_.beginParam, "chunk_begin", "lo");
    if (kernel_.mode == ChunkMode::Range && kernel_.endParam >= 0)
      emitNarrow(out, kernel_.endParam, "chunk_end", "hi");
    for (const ir::Binding& binding : kernel_.bindings)
      emitNarrow(out, binding.param, "bound_" + member(binding.param), cxx(binding.value));
    out << "    ::overlap::LaunchConfig config;\n"
        << "    OVERLAP_TRY(launchConfig(lo, hi, &config));\n"
        << "    if (config.empty())\n"
        << "      return ::overlap::Status::success(); // no blocks for this chunk\n";
    out << "    " << kernelReference()
        << "<<<config.grid, config.block, config.sharedBytes, stream>>>(";
    bool first = true;
    for (int i = 0; i < paramCount(); ++i) {
      if (param(i).hostOnly)
        continue;
      out << (first ? "\n        " : ",\n        ") << launchArgument(i);
      first = false;
    }
    out << ");\n";
    out << "    return ::overlap::glue::launchStatus(" << quoted(name() + "<<<...>>>") << ");\n";
    out << "  }\n";
  }

  std::string kernelReference() const {
    return "::" + kernel_.signature.name + kernel_.signature.templateArguments;
  }

  // The kernel as a function pointer: cast to its own type, so that an overload of the same name
  // (a double version beside a float one) does not make the name ambiguous.
  std::string kernelPointer() const {
    std::string type = "void (*)(";
    bool first = true;
    for (int i = 0; i < paramCount(); ++i) {
      if (param(i).hostOnly)
        continue;
      type += (first ? "" : ", ") + param(i).type;
      first = false;
    }
    return "static_cast<" + type + ")>(" + kernelReference() + ")";
  }

  // Tuning defaults may refer to each other (n = m * k); resolve them to constants here.
  std::map<int, long long> tuneValues() const {
    std::map<int, long long> values;
    for (std::size_t round = 0; round <= kernel_.tuneDefaults.size(); ++round)
      for (const ir::TuneDefault& d : kernel_.tuneDefaults) {
        if (values.count(d.param))
          continue;
        ir::Environment env;
        env.param = [&values](int p) -> std::optional<long long> {
          const auto found = values.find(p);
          if (found == values.end())
            return std::nullopt;
          return found->second;
        };
        if (const std::optional<long long> v = ir::evaluate(*d.value, env))
          values[d.param] = *v;
      }
    return values;
  }

  const char* roleOf(int i) const {
    if (param(i).hostOnly)
      return "HostOnly";
    if (kernel_.mode == ChunkMode::Offset && i == kernel_.lengthParam)
      return "ChunkLength";
    if (kernel_.mode == ChunkMode::Range && i == kernel_.beginParam)
      return kernel_.boundsFromCaller ? "PartitionBegin" : "ChunkBegin";
    if (kernel_.mode == ChunkMode::Range && i == kernel_.endParam)
      return kernel_.boundsFromCaller ? "PartitionEnd" : "ChunkEnd";
    return arrayOfParam_.count(i) ? "Array" : "Scalar";
  }

  void emitDescriptorTables(std::ostream& out) const {
    out << "const ::overlap::ParamDescriptor " << name() << "_params[] = {\n";
    for (int i = 0; i < paramCount(); ++i) {
      const Parameter& p = param(i);
      const auto found = arrayOfParam_.find(i);
      const std::string size = p.isPointer ? (p.elementSize ? "sizeof(" + p.valueType + ")" : "0")
                                           : "sizeof(" + p.valueType + ")";
      out << "    {" << quoted(member(i)) << ", " << quoted(p.type) << ", "
          << (p.isPointer ? "true" : "false")
          << ", ::overlap::ElementKind::" << ir::elementKindName(p.elementKind) << ", " << size
          << ", " << (found == arrayOfParam_.end() ? -1 : found->second)
          << ", ::overlap::ParamRole::" << roleOf(i) << "},\n";
    }
    out << "};\n\n";
    out << "const ::overlap::ArrayDescriptor " << name() << "_arrays[] = {\n";
    for (const Array& array : kernel_.arrays) {
      const Parameter& p = param(array.param);
      out << "    {" << array.param << ", " << quoted(member(array.param))
          << ", ::overlap::Direction::" << directionName(array.direction)
          << ", ::overlap::ElementKind::" << ir::elementKindName(p.elementKind) << ", sizeof("
          << p.valueType << "), " << (array.optional ? "true" : "false")
          << ", ::overlap::ReduceOp::" << ir::reduceOpName(array.reduce) << "},\n";
    }
    out << "};\n\n";
    const std::map<int, long long> tune = tuneValues();
    if (!tune.empty()) {
      out << "const ::overlap::TuneDefault " << name() << "_tune_defaults[] = {\n";
      for (const auto& [index, value] : tune)
        out << "    {" << index << ", " << value << "LL}, // " << member(index) << "\n";
      out << "};\n\n";
    }
  }

  void emitVariants(std::ostream& out) const {
    const std::string params = hostParameters();
    const std::string sep = params.empty() ? "" : ", ";
    const std::string binding = bindingName() + "{" + hostArguments() + "}";
    const std::string& streams = own_.streams;
    const std::string& order = own_.order;
    const std::string& config = own_.config;
    const std::string& stream = own_.stream;
    out << "::overlap::Status " << name() << "_explicit(" << params << ") {\n"
        << "  return ::overlap::runExplicit(" << binding << ");\n}\n\n";
    out << "::overlap::Status " << name() << "_mapped(" << params << ") {\n"
        << "  return ::overlap::runMapped(" << binding << ");\n}\n\n";
    const std::pair<const char*, const char*> pipelined[] = {{"streams", "runStreams"},
                                                             {"hybrid", "runHybrid"}};
    for (const auto& [variant, strategy] : pipelined)
      out << "::overlap::Status " << name() << "_" << variant << "(" << params << sep << "int "
          << streams << ", ::overlap::IssueOrder " << order << ") {\n"
          << "  return ::overlap::" << strategy << "(" << binding << ", ::overlap::StreamsConfig{"
          << streams << ", " << order << "});\n}\n\n"
          << "::overlap::Status " << name() << "_" << variant << "(" << params << sep
          << "const ::overlap::StreamsConfig& " << config << ") {\n"
          << "  return ::overlap::" << strategy << "(" << binding << ", " << config << ");\n}\n\n";
    out << "::overlap::Status " << name() << "_explicit_async(" << params << sep << "cudaStream_t "
        << stream << ") {\n"
        << "  return ::overlap::runExplicitAsync(" << binding << ", " << stream << ");\n}\n\n";
    out << "::overlap::Status " << name() << "_mapped_async(" << params << sep << "cudaStream_t "
        << stream << ") {\n"
        << "  return ::overlap::runMappedAsync(" << binding << ", " << stream << ");\n}\n\n";
    for (const auto& [variant, strategy] : pipelined)
      out << "::overlap::Status " << name() << "_" << variant << "_async(" << params << sep
          << "const ::overlap::StreamsConfig& " << config << ", cudaStream_t " << stream << ") {\n"
          << "  return ::overlap::" << strategy << "Async(" << binding << ", " << config << ", "
          << stream << ");\n}\n\n";
  }

  void emitDescriptor(std::ostream& out) const {
    const std::string b = bindingName();
    const std::map<int, long long> tune = tuneValues();
    out << "const ::overlap::KernelDescriptor " << descriptorName() << " = {\n"
        << "    " << quoted(withNamespaces(qualified_, name())) << ", " << quoted(kernel_.file)
        << ", " << kernel_.line << ",\n"
        << "    " << paramCount() << ", " << name() << "_params, " << kernel_.arrays.size() << ", "
        << name() << "_arrays,\n"
        << "    " << tune.size() << ", " << (tune.empty() ? "nullptr" : name() + "_tune_defaults")
        << ",\n"
        << "    &::overlap::glue::partitionExtent<" << b << ">,\n"
        << "    &::overlap::glue::arrayExtent<" << b << ">,\n"
        << "    &::overlap::glue::sectionCount<" << b << ">,\n"
        << "    &::overlap::glue::section<" << b << ">,\n"
        << "    &::overlap::glue::sectionIsChunked<" << b << ">,\n"
        << "    &::overlap::glue::runFromArgs<" << b << ">,\n"
        << "    &::overlap::glue::launchGeometry<" << b << ">,\n"
        << "    &::overlap::glue::partitionBegin<" << b << ">,\n"
        << "    &::overlap::glue::granule<" << b << ">,\n"
        << "    &::overlap::glue::runAsyncFromArgs<" << b << ">,\n"
        << "};\n";
    out << "namespace {\nconst bool " << name() << "_registered = ::overlap::registerKernel(&"
        << descriptorName() << ");\n}\n";
    emitTunedEntry(out);
  }

  // K_tuned and K_tuned_async: the caller's arguments in descriptor-parameter order; the range
  // bounds the generated code sets get placeholders.
  void emitTunedEntry(std::ostream& out) const {
    const std::string params = hostParameters();
    const std::string sep = params.empty() ? "" : ", ";
    out << "\n::overlap::Status " << name() << "_tuned(" << params << ") {\n";
    emitArgPointers(out);
    const std::string& args = own_.args;
    const std::string& stream = own_.stream;
    out << "  return ::overlap::dispatch(" << descriptorName() << ", " << args << ");\n}\n";
    out << "\n::overlap::Status " << name() << "_tuned_async(" << params << sep << "cudaStream_t "
        << stream << ") {\n";
    emitArgPointers(out);
    out << "  return ::overlap::dispatchAsync(" << descriptorName() << ", " << args << ", "
        << stream << ");\n}\n";
  }

  void emitArgPointers(std::ostream& out) const {
    std::string pointers;
    for (int i = 0; i < paramCount(); ++i) {
      std::string value = member(i);
      if (!isCaller(i)) {
        value = "overlap_bound_" + std::to_string(i);
        out << "  " << param(i).valueType << " " << value << "{};\n";
      }
      pointers += (pointers.empty() ? "" : ", ") + ("&" + value);
    }
    if (pointers.empty())
      out << "  const void* const* " << own_.args << " = nullptr;\n";
    else
      out << "  const void* " << own_.args << "[] = {" << pointers << "};\n";
  }

  // `name`, with '_' appended while `taken` says another identifier has it.
  template <class Taken> static std::string untaken(std::string name, Taken&& taken) {
    while (taken(name))
      name += '_';
    return name;
  }

  // Where a kernel parameter has the name of an identifier of the generated code's own (a
  // kernel's `float* array` against the binding's HostArray array(int); an `int stream` against
  // K_explicit_async's cudaStream_t stream), the generated side gets a trailing '_'. Fixed once,
  // so that the header and the source spell them alike.
  void nameOwnIdentifiers() {
    static const std::set<std::string> kBindingMembers = {
        "array",           "checkCall",      "first_section", "fromArgs",     "granule",
        "kArrays",         "kDeviceGlobals", "launch",        "launchConfig", "partitionBegin",
        "partitionExtent", "residentBlocks", "section",       "sectionCount", "sectionIsChunked"};
    auto isParameter = [this](const std::string& name, int except) {
      for (int i = 0; i < paramCount(); ++i)
        if (i != except && member(i) == name)
          return true;
      return false;
    };
    for (int i = 0; i < paramCount(); ++i)
      fields_.push_back(untaken(member(i), [&](const std::string& name) {
        return kBindingMembers.count(name) > 0 || isParameter(name, i);
      }));
    auto own = [&](const char* name) {
      return untaken(name,
                     [&](const std::string& candidate) { return isParameter(candidate, -1); });
    };
    own_ = {own("streams"), own("order"), own("config"), own("stream"), own("overlap_args")};
  }

  // The entry points' own parameters and locals (nameOwnIdentifiers).
  struct OwnNames {
    std::string streams, order, config, stream, args;
  };

  const Kernel& kernel_;
  QualifiedName qualified_;
  const bool deviceGlobals_;
  std::vector<std::string> fields_; // per parameter: its member of the binding
  OwnNames own_;
  std::map<int, int> arrayOfParam_; // parameter index -> array index
};

// The setter and getter of a __constant__ or __device__ variable, in its namespace.
class GlobalEmitter {
public:
  explicit GlobalEmitter(const ir::DeviceGlobal& global)
      : global_(global), qualified_(splitQualified(global.name)) {}

  void emitDeclarations(std::ostream& out) const {
    const std::string& var = qualified_.name;
    out << "// " << (global_.constant ? "__constant__" : "__device__") << " " << global_.name
        << " (" << global_.count << " x " << global_.elementType << ", line " << global_.line
        << "): copy count elements "
        << (global_.readOnly ? "to host memory (const: no setter)" : "from or to host memory")
        << ", starting at element offset.\n";
    out << openNamespaces(qualified_);
    if (!global_.readOnly)
      out << "::overlap::Status " << var << "_set(" << pointerTo(global_.elementType, true)
          << " values, std::size_t count = " << global_.count << ", std::size_t offset = 0);\n";
    out << "::overlap::Status " << var << "_get(" << pointerTo(global_.elementType, false)
        << " values, std::size_t count = " << global_.count << ", std::size_t offset = 0);\n";
    out << closeNamespaces(qualified_) << "\n";
  }

  void emitDefinitions(std::ostream& out) const {
    const std::string& var = qualified_.name;
    const std::string symbol = "::" + global_.name;
    const std::string range =
        quoted(var + ": offset + count exceeds its " + std::to_string(global_.count) + " elements");
    out << openNamespaces(qualified_);
    if (!global_.readOnly)
      out << "::overlap::Status " << var << "_set(" << pointerTo(global_.elementType, true)
          << " values, std::size_t count, std::size_t offset) {\n"
          << "  return ::overlap::glue::copyToSymbol(" << symbol << ", values, count, offset, "
          << global_.count << "ULL, " << range << ");\n}\n\n";
    out << "::overlap::Status " << var << "_get(" << pointerTo(global_.elementType, false)
        << " values, std::size_t count, std::size_t offset) {\n"
        << "  return ::overlap::glue::copyFromSymbol(" << symbol << ", values, count, offset, "
        << global_.count << "ULL, " << range << ");\n}\n";
    out << closeNamespaces(qualified_) << "\n";
  }

private:
  const ir::DeviceGlobal& global_;
  QualifiedName qualified_;
};

// Identifier-safe version of the input's base name, for the file's table of descriptors.
std::string identifier(const std::string& text) {
  std::string out;
  for (char c : text)
    out += (std::isalnum(static_cast<unsigned char>(c)) ? c : '_');
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out.front())))
    out.insert(0, "_");
  return out;
}

std::string descriptorTableName(const EmitOptions& options) {
  return "overlap_" + identifier(options.baseName) + "_kernels";
}

} // namespace

const std::vector<std::string>& generatedNameSuffixes() {
  static const std::vector<std::string> suffixes = {
      "_explicit",     "_mapped",         "_streams",       "_hybrid",
      "_tuned",        "_explicit_async", "_mapped_async",  "_streams_async",
      "_hybrid_async", "_tuned_async",    "_binding",       "_descriptor",
      "_params",       "_arrays",         "_tune_defaults", "_registered"};
  return suffixes;
}

GeneratedFiles emitFiles(const ir::SourceFile& file, const EmitOptions& options) {
  if (file.kernels.empty())
    throw std::invalid_argument("emitFiles: no kernels to emit");

  const std::string banner = "// Generated by overlap-gen from " + options.inputInclude +
                             ".\n// Do not edit: change the OVERLAP_KERNEL annotations and "
                             "rebuild.\n";
  const std::string table = descriptorTableName(options);

  // The header names the parameter types as the kernel file's own types or as what they are
  // (a typedef becomes its type), so a host .cpp needs nothing but this header to include it.
  std::ostringstream header;
  header << banner << "#pragma once\n\n"
         << "#include \"overlap/Descriptor.h\"\n#include \"overlap/KernelTypes.h\"\n"
         << "#include \"overlap/Status.h\"\n\n#include <cstddef>\n";
  for (const std::string& include : file.header.includes)
    header << "#include " << include << "\n";
  header << "\n";
  for (const std::string& declaration : file.header.declarations)
    header << declaration << "\n";
  if (!file.header.declarations.empty())
    header << "\n";
  const bool hostOnly = !file.header.declarationsWithoutKernelFile.empty();
  if (hostOnly) {
    header << "// The kernel file's unnamed types, by their typedef's name.\n"
           << "#ifndef OVERLAP_DETAIL_WITH_KERNEL_FILE\n";
    for (const std::string& declaration : file.header.declarationsWithoutKernelFile)
      header << declaration << "\n";
    header << "#endif\n\n";
  }
  for (const Kernel& kernel : file.kernels)
    KernelEmitter(kernel, !file.globals.empty()).emitDeclarations(header);
  for (const ir::DeviceGlobal& global : file.globals)
    GlobalEmitter(global).emitDeclarations(header);
  header << "// Every annotated kernel of this file, for tuners.\n"
         << "extern const ::overlap::KernelDescriptor* const " << table << "["
         << file.kernels.size() << "];\n";

  // Overlap's headers come before the kernel file, so that the file's own macros (a
  // `#define min(a, b)` is common) cannot reach into them; what follows the file's inclusion
  // uses no name such a macro could take.
  std::ostringstream source;
  source << banner << "#include \"overlap/Dispatch.h\"\n#include \"overlap/ExprSupport.h\"\n"
         << "#include \"overlap/Glue.cuh\"\n#include \"overlap/Launch.cuh\"\n\n"
         << "#include " << quoted(options.inputInclude) << "\n";
  if (hostOnly)
    source << "#define OVERLAP_DETAIL_WITH_KERNEL_FILE\n";
  source << "#include " << quoted(options.headerInclude) << "\n";
  if (hostOnly)
    source << "#undef OVERLAP_DETAIL_WITH_KERNEL_FILE\n";
  source << "\n";
  std::string entries;
  for (const Kernel& kernel : file.kernels) {
    const KernelEmitter emitter(kernel, !file.globals.empty());
    emitter.emitDefinitions(source);
    entries += "    " + emitter.descriptorAddress() + ",\n";
  }
  for (const ir::DeviceGlobal& global : file.globals)
    GlobalEmitter(global).emitDefinitions(source);
  source << "const ::overlap::KernelDescriptor* const " << table << "[" << file.kernels.size()
         << "] = {\n"
         << entries << "};\n";
  return {header.str(), source.str()};
}

} // namespace overlap::emit
