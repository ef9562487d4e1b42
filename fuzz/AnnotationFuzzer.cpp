// libFuzzer target: overlap::annotation::buildKernel (lexer, parser, name resolution, section
// analysis, IR validation) on arbitrary annotation text. The first input byte picks one of a few
// fixed kernel signatures, so the corpus reaches the checks that depend on parameter types; the
// rest is the annotation text. Beyond "no crash, no hang" it checks the contract the frontend
// relies on to print a caret: a rejected annotation has at least one error, and every diagnostic
// lies inside the text.
#include "SignatureBuilder.h"
#include "annotation/AnnotationSema.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace {

using overlap::testing::SignatureBuilder;

// The file's functions annotations may call: macros (one expanding to itself, one doubling its
// argument), one-return functions (one reading the file's constant, one unusable, one with a
// default argument) and a qualified constant and function, as a namespace's are.
overlap::ir::KernelSignature withFunctions(overlap::ir::KernelSignature signature) {
  signature.functions = {
      {"CEIL_DIV", {"M", "N"}, {}, "( ( ( M ) + ( N ) - 1 ) / ( N ) )", true, "k.cu:2", ""},
      {"TWICE", {"a"}, {}, "a + a", true, "k.cu:3", ""},
      {"SELF", {"a"}, {}, "SELF ( a )", true, "k.cu:4", ""},
      {"get_blocks", {"N"}, {}, "(N + THREADS - 1) / THREADS", false, "k.cu:5", ""},
      {"scaled", {"lo", "n"}, {}, "lo * n + CEIL_DIV(n, lo)", false, "k.cu:6", ""},
      {"checked", {"N"}, {}, "", false, "k.cu:7", "its body is more than one return statement"},
      {"cfg::blocks", {"n", "t"}, {"", "::cfg::kBlock"}, "ceil_div(n, t)", false, "k.cu:8", ""},
  };
  signature.constants = {{"THREADS", 256}, {"::cfg::kBlock", 128}, {"cfg::kBlock", 128}};
  return signature;
}

const overlap::ir::KernelSignature& signatureFor(uint8_t selector) {
  // Built once: the fuzzer must spend its time in the parser, not in building signatures.
  static const overlap::ir::KernelSignature kSignatures[] = {
      overlap::testing::saxpySignature(),
      overlap::testing::matmulSignature(),
      overlap::testing::buoydiffSignature(),
      // Unsigned and 64-bit lengths, a struct, a bool and an incomplete pointee.
      SignatureBuilder("mixed")
          .integer("n", "size_t")
          .integer("count", "unsigned")
          .boolean("flag")
          .structure("params", "Params")
          .pointer("in", "double", true)
          .pointer("out", "int")
          .pointer("opaque", "Node"),
      SignatureBuilder("generic").integer("n").pointer("x", "float").templated(),
      SignatureBuilder("noargs"),
      withFunctions(overlap::testing::saxpySignature()),
  };
  return kSignatures[selector % (sizeof(kSignatures) / sizeof(kSignatures[0]))];
}

[[noreturn]] void fail(const char* what, std::string_view text) {
  std::fprintf(stderr, "contract violated: %s\ntext (%zu bytes): %.*s\n", what, text.size(),
               static_cast<int>(text.size()), text.data());
  std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0)
    return 0;
  const overlap::ir::KernelSignature& signature = signatureFor(data[0]);
  std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);

  overlap::annotation::SemaResult result = overlap::annotation::buildKernel(text, signature);

  const bool hasErrors = overlap::annotation::hasErrors(result.diagnostics);
  if (result.kernel.has_value() == hasErrors)
    fail(hasErrors ? "a kernel came back together with errors"
                   : "no kernel came back and no error says why",
         text);
  for (const overlap::annotation::Diagnostic& d : result.diagnostics) {
    if (d.offset > text.size() || d.length > text.size() - d.offset)
      fail("a diagnostic points outside the annotation text", text);
    if (d.message.empty())
      fail("a diagnostic without a message", text);
  }
  return 0;
}
