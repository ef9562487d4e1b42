// The overlap-gen executable as a build step runs it: outputs, exit status, messages, and what it
// leaves on disk after a failure.
#include "FrontendTestSupport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Program.h>

#include <optional>
#include <regex>

#ifndef OVERLAP_GEN_EXECUTABLE
#error "OVERLAP_GEN_EXECUTABLE must name the overlap-gen under test"
#endif

namespace overlap::frontend {
namespace {

using testing::directoryEntries;
using testing::fileExists;
using testing::parseDiagnostics;
using testing::positionOf;
using testing::readFile;
using testing::TemporaryDirectory;
using testing::writeFile;

struct ToolRun {
  int exitCode = -1;
  std::string out;
  std::string err;
};

ToolRun runTool(const TemporaryDirectory& dir, std::vector<std::string> args) {
  args.insert(args.begin(), OVERLAP_GEN_EXECUTABLE);
  std::vector<llvm::StringRef> argRefs(args.begin(), args.end());
  const std::string outPath = dir / "tool.stdout";
  const std::string errPath = dir / "tool.stderr";
  const std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(outPath),
                                                      llvm::StringRef(errPath)};
  std::string message;
  ToolRun run;
  run.exitCode = llvm::sys::ExecuteAndWait(OVERLAP_GEN_EXECUTABLE, argRefs, std::nullopt, redirects,
                                           /*SecondsToWait=*/120, 0, &message);
  EXPECT_GE(run.exitCode, 0) << "cannot run overlap-gen: " << message;
  run.out = readFile(outPath);
  run.err = readFile(errPath);
  llvm::sys::fs::remove(outPath);
  llvm::sys::fs::remove(errPath);
  return run;
}

const std::string kHelper = "#pragma once\n"
                            "constexpr int kBlock = 256;\n";

const std::string kKernel = "#include <overlap/annotate.h>\n"
                            "#include \"helper.h\"\n"
                            "\n"
                            "OVERLAP_KERNEL(partition(n) offset(n)\n"
                            "               extent(x, y: n)\n"
                            "               copyin(x[lo:hi]) copy(y[lo:hi])\n"
                            "               launch(grid: ceil_div(len, 256), block: 256))\n"
                            "__global__ void saxpy(int n, float a, const float* x, float* y) {\n"
                            "  const int i = blockIdx.x * kBlock + threadIdx.x;\n"
                            "  if (i < n)\n"
                            "    y[i] = a * x[i] + y[i];\n"
                            "}\n";

struct Outputs {
  std::string header, source, depfile;
};

Outputs outputsIn(const TemporaryDirectory& dir) {
  return {dir / "out/saxpy.overlap.h", dir / "out/saxpy.overlap.cu", dir / "out/saxpy.overlap.d"};
}

std::vector<std::string> generateArgs(const std::string& input, const Outputs& outputs) {
  return {input,          "--header",  outputs.header, "--source",
          outputs.source, "--depfile", outputs.depfile};
}

TEST(Tool, SuccessWritesHeaderSourceAndDepfile) {
  TemporaryDirectory dir;
  writeFile(dir / "src/saxpy.cu", kKernel);
  writeFile(dir / "src/helper.h", kHelper);
  const Outputs outputs = outputsIn(dir);
  const ToolRun run = runTool(dir, generateArgs(dir / "src/saxpy.cu", outputs));
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_EQ(run.err, "");
  EXPECT_EQ(directoryEntries(dir / "out"),
            (std::vector<std::string>{"saxpy.overlap.cu", "saxpy.overlap.d", "saxpy.overlap.h"}));

  const std::string source = readFile(outputs.source);
  // By default the source includes the input by its absolute path and the header by its name.
  EXPECT_NE(source.find("#include \"" + dir / "src/saxpy.cu" + "\""), std::string::npos) << source;
  EXPECT_NE(source.find("#include \"saxpy.overlap.h\""), std::string::npos) << source;
  EXPECT_NE(readFile(outputs.header).find("saxpy"), std::string::npos);

  // The depfile's target is the source; the input comes first, then what it includes.
  const std::string depfile = readFile(outputs.depfile);
  EXPECT_EQ(depfile.rfind(outputs.source + ": \\\n  " + dir / "src/saxpy.cu" + " \\\n", 0), 0u)
      << depfile;
  EXPECT_NE(depfile.find(dir / "src/helper.h"), std::string::npos) << depfile;
  EXPECT_NE(depfile.find("overlap/annotate.h"), std::string::npos) << depfile;
}

TEST(Tool, IncludeSpellingsCanBeChosen) {
  TemporaryDirectory dir;
  writeFile(dir / "src/saxpy.cu", kKernel);
  writeFile(dir / "src/helper.h", kHelper);
  const Outputs outputs = outputsIn(dir);
  std::vector<std::string> args = generateArgs(dir / "src/saxpy.cu", outputs);
  args.insert(args.end(), {"--input-include", "kernels/saxpy.cu", "--header-include",
                           "generated/saxpy.overlap.h"});
  const ToolRun run = runTool(dir, args);
  ASSERT_EQ(run.exitCode, 0) << run.err;
  const std::string source = readFile(outputs.source);
  EXPECT_NE(source.find("#include \"kernels/saxpy.cu\""), std::string::npos) << source;
  EXPECT_EQ(source.find("#include \"" + dir / "src/saxpy.cu"), std::string::npos) << source;
  EXPECT_NE(source.find("#include \"generated/saxpy.overlap.h\""), std::string::npos) << source;
}

TEST(Tool, BadAnnotationExitsOneWithALocatedErrorAndRemovesStaleOutputs) {
  TemporaryDirectory dir;
  std::string bad = kKernel;
  bad.replace(bad.find("copyin("), 6, "copyim");
  writeFile(dir / "src/saxpy.cu", bad);
  writeFile(dir / "src/helper.h", kHelper);
  const Outputs outputs = outputsIn(dir);
  // A previous successful run left its outputs; the build must not pick them up now.
  writeFile(outputs.header, "stale header\n");
  writeFile(outputs.source, "stale source\n");
  writeFile(outputs.depfile, "stale depfile\n");

  const ToolRun run = runTool(dir, generateArgs(dir / "src/saxpy.cu", outputs));
  EXPECT_EQ(run.exitCode, 1);
  const testing::Position at = positionOf(bad, "copyim");
  const std::vector<testing::PrintedDiagnostic> printed = parseDiagnostics(run.err);
  ASSERT_FALSE(printed.empty()) << run.err;
  EXPECT_EQ(printed[0].header.rfind(dir / "src/saxpy.cu:" + std::to_string(at.line) + ":" +
                                        std::to_string(at.column) +
                                        ": error: unknown clause 'copyim'",
                                    0),
            0u)
      << run.err;
  EXPECT_EQ(printed[0].caretColumn, at.column) << run.err;
  EXPECT_EQ(run.out, "");
  EXPECT_TRUE(directoryEntries(dir / "out").empty());
}

TEST(Tool, CompilerErrorExitsOne) {
  TemporaryDirectory dir;
  writeFile(dir / "src/saxpy.cu", kKernel); // helper.h is missing
  const ToolRun run = runTool(dir, generateArgs(dir / "src/saxpy.cu", outputsIn(dir)));
  EXPECT_EQ(run.exitCode, 1);
  EXPECT_NE(run.err.find("saxpy.cu:2:10: fatal error: 'helper.h' file not found"),
            std::string::npos)
      << run.err;
  EXPECT_FALSE(fileExists(dir / "out"));
}

TEST(Tool, CompilerArgumentsAfterTheSeparator) {
  TemporaryDirectory dir;
  writeFile(dir / "src/saxpy.cu", kKernel);
  writeFile(dir / "include/helper.h", kHelper); // found only through -I
  std::vector<std::string> args = generateArgs(dir / "src/saxpy.cu", outputsIn(dir));
  args.insert(args.end(), {"--", "-I", dir / "include"});
  const ToolRun run = runTool(dir, args);
  EXPECT_EQ(run.exitCode, 0) << run.err;
  EXPECT_NE(readFile(outputsIn(dir).depfile).find(dir / "include/helper.h"), std::string::npos);
}

TEST(Tool, UnwritableOutputExitsTwoAndLeavesNoOutput) {
  TemporaryDirectory dir;
  writeFile(dir / "src/saxpy.cu", kKernel);
  writeFile(dir / "src/helper.h", kHelper);
  Outputs outputs = outputsIn(dir);
  writeFile(dir / "blocked", "a file where a directory should be\n");
  outputs.source = dir / "blocked/saxpy.overlap.cu";
  const ToolRun run = runTool(dir, generateArgs(dir / "src/saxpy.cu", outputs));
  EXPECT_EQ(run.exitCode, 2);
  EXPECT_NE(run.err.find("overlap-gen: error: cannot"), std::string::npos) << run.err;
  EXPECT_FALSE(fileExists(outputs.header));
  EXPECT_FALSE(fileExists(outputs.depfile));
}

TEST(Tool, UsageErrorsExitTwo) {
  TemporaryDirectory dir;
  const ToolRun none = runTool(dir, {});
  EXPECT_EQ(none.exitCode, 2);
  EXPECT_NE(none.err.find("overlap-gen: error: no input file"), std::string::npos) << none.err;
  EXPECT_NE(none.err.find("usage: overlap-gen"), std::string::npos) << none.err;

  const ToolRun missing = runTool(dir, generateArgs(dir / "nowhere.cu", outputsIn(dir)));
  EXPECT_EQ(missing.exitCode, 2);
  EXPECT_NE(missing.err.find("cannot read the input"), std::string::npos) << missing.err;
}

TEST(Tool, Version) {
  TemporaryDirectory dir;
  const ToolRun run = runTool(dir, {"--version"});
  EXPECT_EQ(run.exitCode, 0);
  EXPECT_TRUE(std::regex_match(
      run.out, std::regex(R"(overlap-gen \d+\.\d+\.\d+ \(clang \d+\.\d+\.\d+.*\)\n)")))
      << run.out;
}

TEST(Tool, DumpIrPrintsTheKernelsAsJson) {
  TemporaryDirectory dir;
  writeFile(dir / "src/saxpy.cu", kKernel);
  writeFile(dir / "src/helper.h", kHelper);
  const ToolRun run = runTool(dir, {dir / "src/saxpy.cu", "--dump-ir"});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  const nlohmann::json ir = nlohmann::json::parse(run.out);
  ASSERT_EQ(ir.size(), 1u);
  EXPECT_EQ(ir[0]["name"], "saxpy");
  EXPECT_EQ(ir[0]["mode"], "offset");
  EXPECT_EQ(ir[0]["lengthParam"], "n");
  EXPECT_EQ(ir[0]["partition"], "n");
  ASSERT_EQ(ir[0]["arrays"].size(), 2u);
  EXPECT_EQ(ir[0]["arrays"][0]["param"], "x");
  EXPECT_EQ(ir[0]["arrays"][0]["direction"], "in");
  EXPECT_EQ(ir[0]["arrays"][1]["direction"], "inout");
  EXPECT_EQ(ir[0]["arrays"][1]["sections"][0]["begin"], "lo");
  EXPECT_EQ(ir[0]["launch"]["grid"][0], "ceil_div(len, 256)");
  EXPECT_EQ(ir[0]["params"][2]["type"], "const float *");
  // Nothing is written without --header/--source.
  EXPECT_EQ(directoryEntries(dir.path()), (std::vector<std::string>{"src"}));
}

} // namespace
} // namespace overlap::frontend
