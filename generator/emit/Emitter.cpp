#include "emit/Emitter.h"

#include <cassert>
#include <cctype>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace overlap::emit {
namespace {

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

const char* clauseName(ir::Direction direction) {
  switch (direction) {
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

// Everything the emitter prints about one kernel.
class KernelEmitter {
public:
  explicit KernelEmitter(const Kernel& kernel)
      : kernel_(kernel), qualified_(splitQualified(kernel.signature.name)) {
    for (std::size_t i = 0; i < kernel_.arrays.size(); ++i)
      arrayOfParam_[kernel_.arrays[i].param] = static_cast<int>(i);
  }

  const std::string& name() const { return qualified_.name; }
  std::string bindingName() const { return name() + "_binding"; }
  std::string descriptorName() const { return name() + "_descriptor"; }

  std::string openNamespaces() const {
    std::string out;
    for (const std::string& ns : qualified_.namespaces)
      out += "namespace " + ns + " {\n";
    return out;
  }
  std::string closeNamespaces() const {
    std::string out;
    for (auto it = qualified_.namespaces.rbegin(); it != qualified_.namespaces.rend(); ++it)
      out += "} // namespace " + *it + "\n";
    return out;
  }

  void emitDeclarations(std::ostream& out) const {
    out << "// " << kernel_.signature.name << " (" << fileName() << ":" << kernel_.line
        << "): " << summary() << "\n";
    out << openNamespaces();
    const std::string params = hostParameters();
    const std::string sep = params.empty() ? "" : ", ";
    out << "overlap::Status " << name() << "_explicit(" << params << ");\n";
    out << "overlap::Status " << name() << "_mapped(" << params << ");\n";
    out << "overlap::Status " << name() << "_streams(" << params << sep
        << "int streams, overlap::IssueOrder order = overlap::IssueOrder::DepthFirst);\n";
    out << "overlap::Status " << name() << "_hybrid(" << params << sep
        << "int streams, overlap::IssueOrder order = overlap::IssueOrder::DepthFirst);\n";
    out << "// The variant tuned for the current device (overlap/dispatch.h says how it is "
           "chosen).\n";
    out << "overlap::Status " << name() << "_tuned(" << params << ");\n";
    out << "extern const overlap::KernelDescriptor " << descriptorName() << ";\n";
    out << closeNamespaces() << "\n";
  }

  void emitDefinitions(std::ostream& out) const {
    out << "// ---- " << kernel_.signature.name << " (" << fileName() << ":" << kernel_.line
        << ") ----\n";
    out << "// " << summary() << "\n";
    out << openNamespaces();
    out << "namespace {\n\n";
    emitBinding(out);
    emitDescriptorTables(out);
    out << "} // namespace\n\n";
    emitVariants(out);
    emitDescriptor(out);
    out << closeNamespaces() << "\n";
  }

private:
  std::string fileName() const {
    const std::string::size_type slash = kernel_.file.find_last_of('/');
    return slash == std::string::npos ? kernel_.file : kernel_.file.substr(slash + 1);
  }

  const Parameter& param(int index) const { return kernel_.signature.params.at(index); }

  bool isRangeBound(int index) const {
    return kernel_.mode == ChunkMode::Range &&
           (index == kernel_.beginParam || index == kernel_.endParam);
  }

  // Parameter names as members of the binding; unnamed parameters get a stable placeholder.
  std::string member(int index) const {
    const Parameter& p = param(index);
    return p.name.empty() ? "unnamed_param_" + std::to_string(index) : p.name;
  }

  std::string pointeeType(const Parameter& p) const {
    return (p.pointeeConst ? "const " : "") + p.valueType;
  }

  std::string cxx(const ir::ExprPtr& expr) const {
    assert(expr && "the annotation checker leaves no required expression empty");
    return ir::toCxx(*expr, [this](const Expr& e) {
      return "static_cast<long long>(this->" + member(e.param) + ")";
    });
  }

  // One line a reader can match against the annotation.
  std::string summary() const {
    std::ostringstream out;
    out << "partition(" << ir::toSource(*kernel_.partition) << ")";
    if (kernel_.mode == ChunkMode::Offset)
      out << " offset(" << member(kernel_.lengthParam) << ")";
    else
      out << " range(" << member(kernel_.beginParam) << ", " << member(kernel_.endParam) << ")";
    for (const Array& array : kernel_.arrays) {
      out << " " << clauseName(array.direction) << "(";
      if (array.sections.empty())
        out << member(array.param);
      for (std::size_t s = 0; s < array.sections.size(); ++s)
        out << (s ? ", " : "") << member(array.param) << "["
            << ir::toSource(*array.sections[s].begin) << ":" << ir::toSource(*array.sections[s].end)
            << "]";
      out << ")";
    }
    return out.str();
  }

  // The parameters the user passes: every kernel parameter but the range bounds the pipeline sets.
  std::string hostParameters() const {
    std::string out;
    for (int i = 0; i < static_cast<int>(kernel_.signature.params.size()); ++i) {
      if (isRangeBound(i))
        continue;
      if (!out.empty())
        out += ", ";
      out += param(i).type + " " + member(i);
    }
    return out;
  }

  std::string hostArguments() const {
    std::string out;
    for (int i = 0; i < static_cast<int>(kernel_.signature.params.size()); ++i) {
      if (isRangeBound(i))
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
        << "'s arguments to the strategy templates (templates/overlap/binding.cuh).\n";
    out << "struct " << binding << " {\n";
    for (int i = 0; i < static_cast<int>(kernel_.signature.params.size()); ++i)
      if (!isRangeBound(i))
        out << "  " << param(i).type << " " << member(i) << ";\n";
    out << "\n  static constexpr int kArrays = " << kernel_.arrays.size() << ";\n\n";

    emitFromArgs(out);
    out << "  long long partition_extent() const { return " << cxx(kernel_.partition) << "; }\n";
    out << "  long long partition_begin() const { return 0; }\n";
    out << "  long long granule() const { return 1; }\n";
    out << "  overlap::Status check_call() const { return overlap::Status::success(); }\n\n";
    emitArray(out);
    emitSections(out);
    emitLaunch(out);
    out << "};\n\n";
  }

  void emitFromArgs(std::ostream& out) const {
    out << "  static " << bindingName() << " from_args(overlap::ArgPointers args) {\n";
    out << "    return {";
    bool first = true;
    for (int i = 0; i < static_cast<int>(kernel_.signature.params.size()); ++i) {
      if (isRangeBound(i))
        continue;
      out << (first ? "" : ", ") << "overlap::glue::arg<" << param(i).type << ">(args, " << i
          << ")";
      first = false;
    }
    out << "};\n  }\n\n";
  }

  void emitArray(std::ostream& out) const {
    out << "  overlap::HostArray array(int i) const {\n    switch (i) {\n";
    for (std::size_t i = 0; i < kernel_.arrays.size(); ++i) {
      const Array& array = kernel_.arrays[i];
      const Parameter& p = param(array.param);
      // Inputs are declared const; the strategies never write through an In array's pointer.
      out << "    case " << i << ":\n      return {const_cast<" << p.valueType << "*>(this->"
          << member(array.param) << "), sizeof(" << p.valueType << "), " << cxx(array.extent)
          << ", overlap::Direction::" << directionName(array.direction) << ", "
          << quoted(member(array.param)) << ", false, false};\n";
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
              << ir::toSource(*section.begin) << ":" << ir::toSource(*section.end) << "]\n"
              << "      return {" << cxx(section.begin) << ", " << cxx(section.end) << "};\n";
      }
      first += static_cast<int>(array.sections.size());
    }
    // Arrays without sections still need a slot, so the tables are never empty.
    if (chunked.empty())
      chunked = "false";
    out << "  // Sections in elements, unclipped; 0 sections: the whole array, sent once.\n";
    out << "  static int section_count(int i) {\n    static constexpr int kCounts[] = {" << counts
        << "};\n    return kCounts[i];\n  }\n\n";
    out << "  static bool section_is_chunked(int i, int s) {\n    static constexpr bool kChunked[] "
           "= {"
        << chunked << "};\n    return kChunked[first_section(i) + s];\n  }\n\n";
    out << "  overlap::Section section(int i, int s, long long lo, long long hi) const {\n"
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
    const auto found = arrayOfParam_.find(i);
    if (found == arrayOfParam_.end())
      return "this->" + member(i);
    const Array& array = kernel_.arrays[found->second];
    std::string base =
        "static_cast<" + pointeeType(p) + "*>(bases[" + std::to_string(found->second) + "])";
    // Offset mode hands the kernel its chunk: the pointer advanced to the section's begin.
    if (kernel_.mode == ChunkMode::Offset && !array.sections.empty())
      base += " + (" + cxx(array.sections.front().begin) + ")";
    return base;
  }

  void emitDim(std::ostream& out, const char* what, const std::array<ir::ExprPtr, 3>& dims) const {
    static const char* const kAxes[] = {"x", "y", "z"};
    for (int d = 0; d < 3; ++d) {
      const std::string var = std::string(what) + "_" + kAxes[d];
      if (!dims[d]) {
        out << "    const unsigned " << var << " = 1;\n";
        continue;
      }
      // CUDA's limits: grid.x up to 2^31-1, grid.y/z up to 65535, block.x/y 1024, block.z 64.
      const bool isGrid = std::string(what) == "grid";
      const long long limit = isGrid ? (d == 0 ? 2147483647LL : 65535LL) : (d == 2 ? 64 : 1024);
      out << "    unsigned " << var << " = 0;\n";
      out << "    OVERLAP_TRY(overlap::checked_dim(" << cxx(dims[d]) << ", " << limit << "LL, "
          << quoted(name() + ": " + what + "." + kAxes[d] + " = " + ir::toSource(*dims[d]) +
                    " is outside [1, " + std::to_string(limit) + "]")
          << ", &" << var << "));\n";
    }
  }

  void emitNarrow(std::ostream& out, int i, const char* var, const char* value) const {
    const Parameter& p = param(i);
    out << "    " << p.valueType << " " << var << " = 0;\n";
    out << "    OVERLAP_TRY(overlap::glue::narrow<" << p.valueType << ">(" << value << ", "
        << quoted(name() + ": chunk value does not fit parameter '" + member(i) + "' of type " +
                  p.type)
        << ", &" << var << "));\n";
  }

  // launch_config() computes the grid, block and shared memory of one chunk; launch() and the
  // descriptor's launch_geometry() (glue.cuh) both call it, so the geometry the tuner's model
  // sees is the launch's own.
  void emitLaunchConfig(std::ostream& out) const {
    const ir::Launch& launch = kernel_.launch;
    out << "  overlap::Status launch_config(long long lo, long long hi,\n"
        << "                                overlap::LaunchConfig* config) const {\n"
        << "    const long long len = hi - lo;\n    (void)lo;\n    (void)len;\n";
    emitDim(out, "block", launch.block);
    out << "    const size_t shared_bytes = "
        << (launch.sharedBytes ? "static_cast<size_t>(" + cxx(launch.sharedBytes) + ")" : "0")
        << ";\n";
    if (launch.gridStride) {
      out << "    unsigned grid_x = 0;\n    const unsigned grid_y = 1, grid_z = 1;\n";
      out << "    OVERLAP_TRY(overlap::grid_stride_grid(" << kernelReference()
          << ", static_cast<int>(block_x * block_y * block_z), shared_bytes, &grid_x));\n";
    } else {
      emitDim(out, "grid", launch.grid);
    }
    out << "    *config = {dim3(grid_x, grid_y, grid_z), dim3(block_x, block_y, block_z), "
           "shared_bytes, "
        << (launch.gridStride ? "true" : "false") << "};\n"
        << "    return overlap::Status::success();\n  }\n\n";
    out << "  static overlap::Status resident_blocks(int block_threads, size_t shared_bytes,\n"
        << "                                         int* blocks) {\n"
        << "    return overlap::resident_blocks_per_multiprocessor(" << kernelReference()
        << ", block_threads, shared_bytes, blocks);\n  }\n\n";
  }

  void emitLaunch(std::ostream& out) const {
    emitLaunchConfig(out);
    out << "  overlap::Status launch(void* const* bases, long long lo, long long hi,\n"
        << "                         cudaStream_t stream) const {\n"
        << "    const long long len = hi - lo;\n    (void)bases;\n    (void)len;\n";
    if (kernel_.mode == ChunkMode::Offset)
      emitNarrow(out, kernel_.lengthParam, "chunk_length", "len");
    else {
      emitNarrow(out, kernel_.beginParam, "chunk_begin", "lo");
      emitNarrow(out, kernel_.endParam, "chunk_end", "hi");
    }
    out << "    overlap::LaunchConfig config;\n"
        << "    OVERLAP_TRY(launch_config(lo, hi, &config));\n";
    out << "    " << kernelReference()
        << "<<<config.grid, config.block, config.shared_bytes, stream>>>(";
    for (int i = 0; i < static_cast<int>(kernel_.signature.params.size()); ++i)
      out << (i ? ",\n        " : "\n        ") << launchArgument(i);
    out << ");\n";
    out << "    return overlap::glue::launch_status(" << quoted(name() + "<<<...>>>") << ");\n";
    out << "  }\n";
  }

  std::string kernelReference() const { return "::" + kernel_.signature.name; }

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
    if (kernel_.mode == ChunkMode::Offset && i == kernel_.lengthParam)
      return "ChunkLength";
    if (kernel_.mode == ChunkMode::Range && i == kernel_.beginParam)
      return "ChunkBegin";
    if (kernel_.mode == ChunkMode::Range && i == kernel_.endParam)
      return "ChunkEnd";
    return arrayOfParam_.count(i) ? "Array" : "Scalar";
  }

  void emitDescriptorTables(std::ostream& out) const {
    out << "const overlap::ParamDescriptor " << name() << "_params[] = {\n";
    for (int i = 0; i < static_cast<int>(kernel_.signature.params.size()); ++i) {
      const Parameter& p = param(i);
      const auto found = arrayOfParam_.find(i);
      const std::string size = p.isPointer ? (p.elementSize ? "sizeof(" + p.valueType + ")" : "0")
                                           : "sizeof(" + p.valueType + ")";
      out << "    {" << quoted(member(i)) << ", " << quoted(p.type) << ", "
          << (p.isPointer ? "true" : "false")
          << ", overlap::ElementKind::" << ir::elementKindName(p.elementKind) << ", " << size
          << ", " << (found == arrayOfParam_.end() ? -1 : found->second)
          << ", overlap::ParamRole::" << roleOf(i) << "},\n";
    }
    out << "};\n\n";
    out << "const overlap::ArrayDescriptor " << name() << "_arrays[] = {\n";
    for (const Array& array : kernel_.arrays) {
      const Parameter& p = param(array.param);
      out << "    {" << array.param << ", " << quoted(member(array.param))
          << ", overlap::Direction::" << directionName(array.direction)
          << ", overlap::ElementKind::" << ir::elementKindName(p.elementKind) << ", sizeof("
          << p.valueType << ")},\n";
    }
    out << "};\n\n";
    const std::map<int, long long> tune = tuneValues();
    if (!tune.empty()) {
      out << "const overlap::TuneDefault " << name() << "_tune_defaults[] = {\n";
      for (const auto& [index, value] : tune)
        out << "    {" << index << ", " << value << "LL}, // " << member(index) << "\n";
      out << "};\n\n";
    }
  }

  void emitVariants(std::ostream& out) const {
    const std::string params = hostParameters();
    const std::string sep = params.empty() ? "" : ", ";
    const std::string binding = bindingName() + "{" + hostArguments() + "}";
    out << "overlap::Status " << name() << "_explicit(" << params << ") {\n"
        << "  return overlap::run_explicit(" << binding << ");\n}\n\n";
    out << "overlap::Status " << name() << "_mapped(" << params << ") {\n"
        << "  return overlap::run_mapped(" << binding << ");\n}\n\n";
    for (const char* variant : {"streams", "hybrid"})
      out << "overlap::Status " << name() << "_" << variant << "(" << params << sep
          << "int streams, overlap::IssueOrder order) {\n"
          << "  return overlap::run_" << variant << "(" << binding
          << ", overlap::StreamsConfig{streams, order});\n}\n\n";
  }

  void emitDescriptor(std::ostream& out) const {
    const std::string b = bindingName();
    const bool hasTune = !tuneValues().empty();
    out << "const overlap::KernelDescriptor " << descriptorName() << " = {\n"
        << "    " << quoted(kernel_.signature.name) << ", " << quoted(kernel_.file) << ", "
        << kernel_.line << ",\n"
        << "    " << kernel_.signature.params.size() << ", " << name() << "_params, "
        << kernel_.arrays.size() << ", " << name() << "_arrays,\n"
        << "    " << (hasTune ? std::to_string(tuneValues().size()) : "0") << ", "
        << (hasTune ? name() + "_tune_defaults" : "nullptr") << ",\n"
        << "    &overlap::glue::partition_extent<" << b << ">,\n"
        << "    &overlap::glue::array_extent<" << b << ">,\n"
        << "    &overlap::glue::section_count<" << b << ">,\n"
        << "    &overlap::glue::section<" << b << ">,\n"
        << "    &overlap::glue::section_is_chunked<" << b << ">,\n"
        << "    &overlap::glue::run_from_args<" << b << ">,\n"
        << "    &overlap::glue::launch_geometry<" << b << ">,\n"
        << "    &overlap::glue::partition_begin<" << b << ">,\n"
        << "    &overlap::glue::granule<" << b << ">,\n"
        << "};\n";
    out << "namespace {\nconst bool " << name() << "_registered = overlap::register_kernel(&"
        << descriptorName() << ");\n}\n";
    emitTunedEntry(out);
  }

  // K_tuned: the caller's arguments in kernel-parameter order, as the descriptor takes them; the
  // range bounds the generated code sets get placeholders.
  void emitTunedEntry(std::ostream& out) const {
    out << "\noverlap::Status " << name() << "_tuned(" << hostParameters() << ") {\n";
    std::string pointers;
    for (int i = 0; i < static_cast<int>(kernel_.signature.params.size()); ++i) {
      std::string value = member(i);
      if (isRangeBound(i)) {
        value = "overlap_bound_" + std::to_string(i);
        out << "  std::remove_cv_t<" << param(i).type << "> " << value << "{};\n";
      }
      pointers += (pointers.empty() ? "" : ", ") + ("&" + value);
    }
    if (pointers.empty())
      out << "  const void* const* overlap_args = nullptr;\n";
    else
      out << "  const void* overlap_args[] = {" << pointers << "};\n";
    out << "  return overlap::dispatch(" << descriptorName() << ", overlap_args);\n}\n";
  }

  const Kernel& kernel_;
  QualifiedName qualified_;
  std::map<int, int> arrayOfParam_; // parameter index -> array index
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

std::string qualifiedDescriptor(const KernelEmitter& emitter, const Kernel& kernel) {
  const QualifiedName q = splitQualified(kernel.signature.name);
  std::string out = "&";
  for (const std::string& ns : q.namespaces)
    out += ns + "::";
  return out + emitter.descriptorName();
}

} // namespace

GeneratedFiles emitFiles(const std::vector<ir::Kernel>& kernels, const EmitOptions& options) {
  if (kernels.empty())
    throw std::invalid_argument("emitFiles: no kernels to emit");

  const std::string banner = "// Generated by overlap-gen from " + options.inputInclude +
                             ".\n// Do not edit: change the OVERLAP_KERNEL annotations and "
                             "rebuild.\n";
  const std::string table = descriptorTableName(options);

  std::ostringstream header;
  header << banner << "#pragma once\n\n"
         << "#include \"overlap/descriptor.h\"\n#include \"overlap/kernel_types.h\"\n"
         << "#include \"overlap/status.h\"\n\n";
  for (const Kernel& kernel : kernels)
    KernelEmitter(kernel).emitDeclarations(header);
  header << "// Every annotated kernel of this file, for tuners.\n"
         << "extern const overlap::KernelDescriptor* const " << table << "[" << kernels.size()
         << "];\n";

  std::ostringstream source;
  source << banner << "#include " << quoted(options.inputInclude) << "\n"
         << "#include " << quoted(options.headerInclude) << "\n\n"
         << "#include \"overlap/dispatch.h\"\n#include \"overlap/expr_support.h\"\n"
         << "#include \"overlap/glue.cuh\"\n#include \"overlap/launch.cuh\"\n\n"
         << "#include <type_traits>\n\n";
  std::string entries;
  for (const Kernel& kernel : kernels) {
    const KernelEmitter emitter(kernel);
    emitter.emitDefinitions(source);
    entries += "    " + qualifiedDescriptor(emitter, kernel) + ",\n";
  }
  source << "const overlap::KernelDescriptor* const " << table << "[" << kernels.size() << "] = {\n"
         << entries << "};\n";
  return {header.str(), source.str()};
}

} // namespace overlap::emit
