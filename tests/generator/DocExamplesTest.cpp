// The annotations in docs/annotations.md are accepted as written, so the reference never shows
// an example the generator would reject.
#include "SignatureBuilder.h"
#include "annotation/AnnotationSema.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

namespace overlap {
namespace {

struct DocExample {
  std::string annotation;
  std::string kernel;
};

// Every OVERLAP_KERNEL(...) followed by its kernel's name, in document order.
std::vector<DocExample> examplesIn(const std::string& markdown) {
  std::vector<DocExample> examples;
  const std::string macro = "OVERLAP_KERNEL(";
  for (size_t at = markdown.find(macro); at != std::string::npos;
       at = markdown.find(macro, at + 1)) {
    if (at > 0 && markdown[at - 1] != '\n')
      continue; // prose that mentions the macro; in code it starts the line
    size_t open = at + macro.size() - 1;
    int depth = 0;
    size_t close = open;
    for (; close < markdown.size(); ++close) {
      if (markdown[close] == '(')
        ++depth;
      else if (markdown[close] == ')' && --depth == 0)
        break;
    }
    const std::string kernelIntro = "__global__ void ";
    size_t name = markdown.find(kernelIntro, close);
    if (close == markdown.size() || name == std::string::npos)
      continue;
    name += kernelIntro.size();
    examples.push_back({markdown.substr(open + 1, close - open - 1),
                        markdown.substr(name, markdown.find('(', name) - name)});
  }
  return examples;
}

TEST(DocExamples, EveryAnnotationInTheReferenceBuilds) {
  std::ifstream file(OVERLAP_ANNOTATIONS_DOC);
  ASSERT_TRUE(file) << "cannot read " << OVERLAP_ANNOTATIONS_DOC;
  std::stringstream text;
  text << file.rdbuf();

  const std::map<std::string, ir::KernelSignature> signatures = {
      {"saxpy", testing::saxpySignature()},
      {"matmul", testing::matmulSignature()},
      {"buoydiff", testing::buoydiffSignature()}};
  std::vector<DocExample> examples = examplesIn(text.str());
  ASSERT_EQ(examples.size(), 3u);
  for (const DocExample& example : examples) {
    SCOPED_TRACE(example.kernel + ": " + example.annotation);
    auto signature = signatures.find(example.kernel);
    ASSERT_NE(signature, signatures.end()) << "no test signature for this kernel";
    annotation::SemaResult result = annotation::buildKernel(example.annotation, signature->second);
    for (const annotation::Diagnostic& d : result.diagnostics)
      ADD_FAILURE() << d.offset << ": " << d.message;
    EXPECT_TRUE(result.kernel.has_value());
  }
}

} // namespace
} // namespace overlap
