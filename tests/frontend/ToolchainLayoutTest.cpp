// Where the generator looks for its headers, and the clang command line built from that.
#include "frontend/ToolchainLayout.h"
#include "FrontendTestSupport.h"
#include "frontend/CompilerCommandLine.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace overlap::frontend {
namespace {

using testing::fileExists;
using testing::TemporaryDirectory;
using testing::writeFile;

TEST(ToolchainLayout, BuildTreeUsesTheSourceTree) {
  const ToolchainLayout layout = locateToolchain("/nowhere/bin/overlap-gen", "", nullptr);
  EXPECT_TRUE(fileExists(layout.overlapIncludeDir + "/overlap/annotate.h"))
      << layout.overlapIncludeDir;
  EXPECT_TRUE(fileExists(layout.shimDir + "/texture_fetch_functions.h")) << layout.shimDir;
  EXPECT_TRUE(fileExists(layout.resourceDir + "/include/__clang_cuda_runtime_wrapper.h"))
      << layout.resourceDir;
}

TEST(ToolchainLayout, InstalledToolUsesItsPrefix) {
  TemporaryDirectory prefix;
  writeFile(prefix / "include/overlap/annotate.h", "#pragma once\n");
  writeFile(prefix / "share/overlap/shim/texture_fetch_functions.h", "#pragma once\n");
  ASSERT_TRUE(fileExists(prefix / "include/overlap/annotate.h"));
  ASSERT_TRUE(fileExists(prefix / "share/overlap/shim/texture_fetch_functions.h"));
  const ToolchainLayout layout = locateToolchain(prefix / "bin/overlap-gen", "", nullptr);
  EXPECT_EQ(layout.overlapIncludeDir, prefix / "include");
  EXPECT_EQ(layout.shimDir, prefix / "share/overlap/shim");
}

TEST(ToolchainLayout, IncompleteInstallFallsBackToTheSourceTree) {
  TemporaryDirectory prefix;
  writeFile(prefix / "include/overlap/annotate.h", "#pragma once\n"); // no shim
  const ToolchainLayout layout = locateToolchain(prefix / "bin/overlap-gen", "", nullptr);
  EXPECT_NE(layout.overlapIncludeDir, prefix / "include");
}

TEST(ToolchainLayout, CudaPathPrecedence) {
  EXPECT_EQ(locateToolchain("", "/opt/cuda-a", "/opt/cuda-b").cudaPath, "/opt/cuda-a");
  EXPECT_EQ(locateToolchain("", "", "/opt/cuda-b").cudaPath, "/opt/cuda-b");
  EXPECT_EQ(locateToolchain("", "", "").cudaPath, "/usr/local/cuda");
  EXPECT_EQ(locateToolchain("", "", nullptr).cudaPath, "/usr/local/cuda");
}

TEST(CompilerCommandLine, GeneratorFlagsThenUserFlagsThenTheInput) {
  ToolchainLayout layout;
  layout.overlapIncludeDir = "/ov/include";
  layout.shimDir = "/ov/shim";
  layout.resourceDir = "/clang/res";
  layout.cudaPath = "/no/such/cuda";
  const std::vector<std::string> args =
      buildCompilerCommandLine(layout, "k.cu", {"-std=c++20", "-DN=4"});
  const auto indexOf = [&](const std::string& arg) {
    return static_cast<std::size_t>(std::find(args.begin(), args.end(), arg) - args.begin());
  };
  for (const char* expected :
       {"-fsyntax-only", "--cuda-host-only", "--cuda-path=/no/such/cuda", "/clang/res", "/ov/shim",
        "/ov/include", "-D__OVERLAP_GENERATOR__=1", "-std=c++17", "-Wno-unknown-cuda-version"})
    EXPECT_LT(indexOf(expected), args.size()) << expected;
  // The user's -std comes after the default, so it wins.
  EXPECT_LT(indexOf("-std=c++17"), indexOf("-std=c++20"));
  EXPECT_EQ(args[indexOf("/ov/include") - 1], "-I");
  EXPECT_EQ(args[indexOf("/ov/shim") - 1], "-isystem");
  EXPECT_EQ(args[indexOf("/clang/res") - 1], "-resource-dir");
  // No cccl directory under a CUDA path that does not exist.
  EXPECT_EQ(indexOf("/no/such/cuda/include/cccl"), args.size());
  ASSERT_GE(args.size(), 3u);
  EXPECT_EQ(args[args.size() - 3], "-x");
  EXPECT_EQ(args[args.size() - 2], "cuda");
  EXPECT_EQ(args.back(), "k.cu");
}

TEST(CompilerCommandLine, CcclDirectoryOfNewerToolkits) {
  TemporaryDirectory cuda;
  writeFile(cuda / "include/cccl/cuda/std/version", "\n");
  ToolchainLayout layout;
  layout.cudaPath = cuda.path();
  const std::vector<std::string> args = buildCompilerCommandLine(layout, "k.cu", {});
  const auto cccl = std::find(args.begin(), args.end(), cuda / "include/cccl");
  ASSERT_NE(cccl, args.end());
  EXPECT_EQ(*(cccl - 1), "-isystem");
}

} // namespace
} // namespace overlap::frontend
