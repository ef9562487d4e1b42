// Kernel signatures for the annotation tests, written the way the frontend fills them from the
// AST, so each test states its kernel in one readable line per parameter; and the helpers every
// annotation test reports findings with.
#pragma once

#include "annotation/AnnotationSema.h"
#include "ir/KernelIR.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>

namespace overlap::testing {

class SignatureBuilder {
public:
  explicit SignatureBuilder(std::string name) { signature_.name = std::move(name); }

  SignatureBuilder& integer(const std::string& name, const std::string& type = "int") {
    bool isUnsigned = type.rfind("unsigned", 0) == 0 || type == "size_t";
    unsigned size = type == "long long" || type == "size_t" || type == "long" ||
                            type == "unsigned long long" || type == "unsigned long"
                        ? 8
                        : 4;
    return scalar(name, type,
                  isUnsigned ? ir::ScalarKind::UnsignedInteger : ir::ScalarKind::SignedInteger,
                  size);
  }
  SignatureBuilder& boolean(const std::string& name) {
    return scalar(name, "bool", ir::ScalarKind::Boolean, 1);
  }
  SignatureBuilder& floating(const std::string& name, const std::string& type = "float") {
    return scalar(name, type, ir::ScalarKind::FloatingPoint, type == "double" ? 8 : 4);
  }
  SignatureBuilder& structure(const std::string& name, const std::string& type) {
    return scalar(name, type, ir::ScalarKind::Other, 16);
  }
  // `element` is the pointee without const: "float", "double", "void", "int", ...
  SignatureBuilder& pointer(const std::string& name, const std::string& element,
                            bool isConst = false) {
    ir::Parameter p;
    p.name = name;
    p.type = (isConst ? "const " : "") + element + " *";
    p.isPointer = true;
    p.valueType = element;
    p.pointeeConst = isConst;
    if (element == "float") {
      p.elementKind = ir::ElementKind::F32;
      p.elementSize = 4;
    } else if (element == "double") {
      p.elementKind = ir::ElementKind::F64;
      p.elementSize = 8;
    } else if (element == "int") {
      p.elementKind = ir::ElementKind::I32;
      p.elementSize = 4;
    } else if (element == "void") {
      p.elementSize = 0;
    } else {
      p.elementSize = 0; // an incomplete type
    }
    p.column = static_cast<unsigned>(signature_.params.size() + 1);
    signature_.params.push_back(p);
    return *this;
  }
  SignatureBuilder& templated() {
    signature_.isTemplate = true;
    return *this;
  }

  ir::KernelSignature build() const { return signature_; }
  operator ir::KernelSignature() const { return signature_; }

private:
  SignatureBuilder& scalar(const std::string& name, const std::string& type, ir::ScalarKind kind,
                           unsigned size) {
    ir::Parameter p;
    p.name = name;
    p.type = type;
    p.valueType = type;
    p.scalarKind = kind;
    p.elementSize = size;
    p.column = static_cast<unsigned>(signature_.params.size() + 1);
    signature_.params.push_back(p);
    return *this;
  }

  ir::KernelSignature signature_;
};

// saxpy(int n, float a, const float* x, float* y)
inline ir::KernelSignature saxpySignature() {
  return SignatureBuilder("saxpy")
      .integer("n")
      .floating("a")
      .pointer("x", "float", true)
      .pointer("y", "float");
}

// matmul(int m, int n, int k, const float* a, const float* b, float* c)
inline ir::KernelSignature matmulSignature() {
  return SignatureBuilder("matmul")
      .integer("m")
      .integer("n")
      .integer("k")
      .pointer("a", "float", true)
      .pointer("b", "float", true)
      .pointer("c", "float");
}

// buoydiff(int begin, int end, int levels, int plane, const double* t, double* b)
inline ir::KernelSignature buoydiffSignature() {
  return SignatureBuilder("buoydiff")
      .integer("begin")
      .integer("end")
      .integer("levels")
      .integer("plane")
      .pointer("t", "double", true)
      .pointer("b", "double");
}

// "offset+length: message" per line, for failure messages.
inline std::string formatDiagnostics(const annotation::Diagnostics& diags) {
  std::string text;
  for (const annotation::Diagnostic& d : diags)
    text += std::to_string(d.offset) + "+" + std::to_string(d.length) + ": " + d.message + "\n";
  return text;
}

// The IR of an annotation that must check without a finding.
inline ir::Kernel buildOk(const std::string& text, const ir::KernelSignature& signature) {
  annotation::SemaResult result = annotation::buildKernel(text, signature);
  EXPECT_TRUE(result.diagnostics.empty()) << formatDiagnostics(result.diagnostics);
  EXPECT_TRUE(result.kernel.has_value());
  return result.kernel.value_or(ir::Kernel{});
}

} // namespace overlap::testing
