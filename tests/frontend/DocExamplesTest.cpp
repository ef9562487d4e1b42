// Every annotated kernel in docs/annotations.md goes through the whole generator as written, so
// the reference never shows an example the tool would reject: each ```cuda block that holds an
// OVERLAP_KERNEL is a file of its own (a block without the include gets it).
#include "FrontendTestSupport.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace overlap::frontend {
namespace {

std::vector<std::string> cudaBlocks(const std::string& markdown) {
  std::vector<std::string> blocks;
  const std::string open = "```cuda\n";
  for (std::size_t at = markdown.find(open); at != std::string::npos;
       at = markdown.find(open, at + 1)) {
    const std::size_t begin = at + open.size();
    const std::size_t end = markdown.find("```", begin);
    if (end == std::string::npos)
      break;
    const std::string block = markdown.substr(begin, end - begin);
    if (block.find("\nOVERLAP_KERNEL(") != std::string::npos ||
        block.rfind("OVERLAP_KERNEL(", 0) == 0)
      blocks.push_back(block);
  }
  return blocks;
}

TEST(DocExamples, EveryAnnotatedKernelInTheReferenceGenerates) {
  std::ifstream file(OVERLAP_ANNOTATIONS_DOC);
  ASSERT_TRUE(file) << "cannot read " << OVERLAP_ANNOTATIONS_DOC;
  std::stringstream text;
  text << file.rdbuf();
  const std::vector<std::string> blocks = cudaBlocks(text.str());
  EXPECT_EQ(blocks.size(), 10u); // a new example is counted here too
  for (const std::string& block : blocks) {
    const std::string code = block.find("#include <overlap/annotate.h>") == std::string::npos
                                 ? "#include <overlap/annotate.h>\n" + block
                                 : block;
    SCOPED_TRACE(code);
    const InMemoryResult run = testing::runOnCode(code);
    EXPECT_TRUE(run.result.ok()) << run.diagnostics;
    EXPECT_TRUE(run.result.files.has_value());
    EXPECT_EQ(run.diagnostics, "");
  }
}

} // namespace
} // namespace overlap::frontend
