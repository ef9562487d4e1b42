// The generated header and source of small kernels, compared byte for byte with the files under
// tests/frontend/golden/: offset mode (saxpy), a broadcast input (matmul), range mode with a halo
// (blur), restrict pointers to half loaded as half2 (haxpy), and a kernel template in a namespace
// with a __constant__ table (transform).
//
// After an intended change of the generated code, refresh the goldens and review the diff:
//   OVERLAP_UPDATE_GOLDENS=1 ./overlap_frontend_tests --gtest_filter='Golden*'
//   git diff tests/frontend/golden
#include "FrontendTestSupport.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#ifndef OVERLAP_FRONTEND_TEST_DIR
#error "OVERLAP_FRONTEND_TEST_DIR must name tests/frontend in the source tree"
#endif

namespace overlap::frontend {
namespace {

using testing::readFile;
using testing::runOnCode;
using testing::writeFile;

bool updatingGoldens() {
  const char* update = std::getenv("OVERLAP_UPDATE_GOLDENS");
  return update != nullptr && std::string(update) == "1";
}

void expectMatchesGolden(const std::string& actual, const std::string& goldenName) {
  const std::string path = std::string(OVERLAP_FRONTEND_TEST_DIR) + "/golden/" + goldenName;
  if (updatingGoldens()) {
    writeFile(path, actual);
    std::printf("updated %s\n", path.c_str());
    return;
  }
  EXPECT_EQ(actual, readFile(path))
      << goldenName << " differs from the generated file; if the change is intended, rerun with "
      << "OVERLAP_UPDATE_GOLDENS=1 and review the diff";
}

// The input is run in memory under its bare file name, so that the generated files (which
// include it) are the same on every machine.
void checkGolden(const std::string& name) {
  const std::string input =
      readFile(std::string(OVERLAP_FRONTEND_TEST_DIR) + "/inputs/" + name + ".cu");
  ASSERT_FALSE(input.empty());
  const InMemoryResult run = runOnCode(input, name + ".cu");
  ASSERT_TRUE(run.result.ok()) << run.diagnostics;
  EXPECT_EQ(run.diagnostics, "");
  expectMatchesGolden(run.result.files->header, name + ".overlap.h");
  expectMatchesGolden(run.result.files->source, name + ".overlap.cu");
}

TEST(Golden, SaxpyOffsetMode) {
  checkGolden("saxpy");
}

TEST(Golden, MatmulWithBroadcastInput) {
  checkGolden("matmul");
}

TEST(Golden, BlurRangeModeWithHalo) {
  checkGolden("blur");
}

TEST(Golden, HaxpyRestrictHalfLoadedAsHalf2) {
  checkGolden("haxpy");
}

TEST(Golden, TransformTemplateInANamespaceWithAConstantTable) {
  checkGolden("transform");
}

} // namespace
} // namespace overlap::frontend
