// Dependency files as Make and Ninja read them.
#include "frontend/Depfile.h"

#include <gtest/gtest.h>

namespace overlap::frontend {
namespace {

TEST(Depfile, TargetThenOneDependencyPerContinuedLine) {
  EXPECT_EQ(formatDepfile("out/k.overlap.cu", {"/src/k.cu", "/usr/include/stdio.h"}),
            "out/k.overlap.cu: \\\n  /src/k.cu \\\n  /usr/include/stdio.h\n");
}

TEST(Depfile, SpacesHashesAndDollarsAreEscaped) {
  EXPECT_EQ(escapeForMake("/my dir/a#1$.h"), "/my\\ dir/a\\#1$$.h");
  EXPECT_EQ(formatDepfile("my out.cu", {"in put.cu"}), "my\\ out.cu: \\\n  in\\ put.cu\n");
}

TEST(Depfile, BackslashesBeforeABlankAreDoubled) {
  // "a\ b" as a file name: the backslash is part of the name, the blank is escaped.
  EXPECT_EQ(escapeForMake("a\\ b"), "a\\\\\\ b");
  EXPECT_EQ(escapeForMake("dir\\file"), "dir\\file");
}

TEST(Depfile, NoDependencies) {
  EXPECT_EQ(formatDepfile("t", {}), "t:\n");
}

} // namespace
} // namespace overlap::frontend
