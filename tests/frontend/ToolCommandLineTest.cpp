// overlap-gen's command line: every option, both value spellings, and the usage errors.
#include "frontend/ToolCommandLine.h"

#include <gtest/gtest.h>

namespace overlap::frontend {
namespace {

TEST(ToolCommandLine, AllOptions) {
  const ParsedToolCommandLine parsed = parseToolCommandLine(
      {"k.cu", "--header", "k.h", "--source=k.gen.cu", "--depfile", "k.d", "--cuda-path=/cuda",
       "--header-include", "gen/k.h", "--input-include=k.cu", "--dump-ir", "--", "-DX=1", "-I",
       "inc", "--header"});
  ASSERT_TRUE(parsed.ok()) << parsed.error;
  const ToolOptions& o = parsed.options;
  EXPECT_EQ(o.input, "k.cu");
  EXPECT_EQ(o.header, "k.h");
  EXPECT_EQ(o.source, "k.gen.cu");
  EXPECT_EQ(o.depfile, "k.d");
  EXPECT_EQ(o.cudaPath, "/cuda");
  EXPECT_EQ(o.headerInclude, "gen/k.h");
  EXPECT_EQ(o.inputInclude, "k.cu");
  EXPECT_TRUE(o.dumpIr);
  EXPECT_FALSE(o.version);
  // Everything after "--" belongs to the compiler, even what looks like our options.
  EXPECT_EQ(o.compilerArgs, (std::vector<std::string>{"-DX=1", "-I", "inc", "--header"}));
}

TEST(ToolCommandLine, DumpIrAloneNeedsNoOutputs) {
  const ParsedToolCommandLine parsed = parseToolCommandLine({"--dump-ir", "k.cu"});
  EXPECT_TRUE(parsed.ok()) << parsed.error;
  EXPECT_TRUE(parsed.options.header.empty());
}

TEST(ToolCommandLine, VersionAndHelpNeedNoInput) {
  EXPECT_TRUE(parseToolCommandLine({"--version"}).options.version);
  EXPECT_TRUE(parseToolCommandLine({"--version"}).ok());
  EXPECT_TRUE(parseToolCommandLine({"-h"}).options.help);
  EXPECT_TRUE(parseToolCommandLine({"--help"}).ok());
}

TEST(ToolCommandLine, UsageErrors) {
  const auto errorOf = [](std::vector<std::string> args) {
    return parseToolCommandLine(args).error;
  };
  EXPECT_EQ(errorOf({}), "no input file");
  EXPECT_EQ(errorOf({"k.cu"}), "no outputs: give --header and --source (or --dump-ir)");
  EXPECT_EQ(errorOf({"k.cu", "--header", "k.h"}), "--header and --source must be given together");
  EXPECT_EQ(errorOf({"k.cu", "--header", "k.h", "--source", "k.h"}),
            "--header and --source name the same file");
  EXPECT_EQ(errorOf({"k.cu", "--dump-ir", "--depfile", "k.d"}),
            "--depfile needs --source (the depfile's target)");
  EXPECT_EQ(errorOf({"k.cu", "--header"}), "option '--header' needs a value");
  EXPECT_EQ(errorOf({"k.cu", "--header="}), "option '--header' needs a non-empty value");
  EXPECT_EQ(errorOf({"k.cu", "--dump-ir=yes"}), "option '--dump-ir' takes no value");
  EXPECT_EQ(errorOf({"k.cu", "-DX"}), "unknown option '-DX' (compiler arguments go after '--')");
  EXPECT_EQ(errorOf({"a.cu", "b.cu"}), "more than one input file ('a.cu' and 'b.cu')");
}

TEST(ToolCommandLine, UsageNamesEveryOption) {
  const std::string usage = toolUsage("overlap-gen");
  for (const char* option : {"--header", "--source", "--depfile", "--cuda-path", "--header-include",
                             "--input-include", "--dump-ir", "--version"})
    EXPECT_NE(usage.find(option), std::string::npos) << option;
}

} // namespace
} // namespace overlap::frontend
