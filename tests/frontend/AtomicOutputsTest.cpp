// All-or-nothing outputs: complete files appear only on commit, and a failed set leaves none of
// its files (and no temporaries) behind.
#include "frontend/AtomicOutputs.h"
#include "FrontendTestSupport.h"

#include <gtest/gtest.h>

#include <llvm/Support/FileSystem.h>

namespace overlap::frontend {
namespace {

using testing::directoryEntries;
using testing::fileExists;
using testing::readFile;
using testing::TemporaryDirectory;
using testing::writeFile;

TEST(AtomicOutputs, CommitWritesEveryFile) {
  TemporaryDirectory dir;
  AtomicOutputs outputs;
  ASSERT_FALSE(bool(outputs.stage(dir / "a.h", "header\n")));
  ASSERT_FALSE(bool(outputs.stage(dir / "sub/b.cu", "source\n"))); // creates sub/
  // Staged but not committed: only temporaries exist.
  EXPECT_FALSE(fileExists(dir / "a.h"));
  ASSERT_FALSE(bool(outputs.commit()));
  EXPECT_EQ(readFile(dir / "a.h"), "header\n");
  EXPECT_EQ(readFile(dir / "sub/b.cu"), "source\n");
  EXPECT_EQ(directoryEntries(dir.path()), (std::vector<std::string>{"a.h", "sub"}));
  EXPECT_EQ(directoryEntries(dir / "sub"), (std::vector<std::string>{"b.cu"}));
}

TEST(AtomicOutputs, CommitReplacesAnEarlierFile) {
  TemporaryDirectory dir;
  writeFile(dir / "a.h", "old contents that are longer than the new ones\n");
  AtomicOutputs outputs;
  ASSERT_FALSE(bool(outputs.stage(dir / "a.h", "new\n")));
  ASSERT_FALSE(bool(outputs.commit()));
  EXPECT_EQ(readFile(dir / "a.h"), "new\n");
}

TEST(AtomicOutputs, AnUncommittedSetLeavesNothing) {
  TemporaryDirectory dir;
  {
    AtomicOutputs outputs;
    ASSERT_FALSE(bool(outputs.stage(dir / "a.h", "header\n")));
  }
  EXPECT_TRUE(directoryEntries(dir.path()).empty());
}

TEST(AtomicOutputs, AFailedCommitRemovesTheWholeSet) {
  TemporaryDirectory dir;
  writeFile(dir / "b.cu/occupied", "a directory where an output should go\n");
  writeFile(dir / "c.d", "stale depfile of an earlier run\n");
  AtomicOutputs outputs;
  ASSERT_FALSE(bool(outputs.stage(dir / "a.h", "header\n")));
  ASSERT_FALSE(bool(outputs.stage(dir / "b.cu", "source\n")));
  ASSERT_FALSE(bool(outputs.stage(dir / "c.d", "depfile\n")));
  llvm::Error error = outputs.commit();
  ASSERT_TRUE(bool(error));
  const std::string message = llvm::toString(std::move(error));
  EXPECT_NE(message.find("b.cu"), std::string::npos) << message;
  // a.h was renamed before b.cu failed: it is gone again, and so is the stale c.d.
  EXPECT_EQ(directoryEntries(dir.path()), (std::vector<std::string>{"b.cu"}));
}

TEST(AtomicOutputs, StagingIntoAnUnwritablePlaceFails) {
  TemporaryDirectory dir;
  writeFile(dir / "file", "not a directory\n");
  AtomicOutputs outputs;
  llvm::Error error = outputs.stage(dir / "file/a.h", "header\n");
  ASSERT_TRUE(bool(error));
  EXPECT_NE(llvm::toString(std::move(error)).find("file/a.h"), std::string::npos);
}

TEST(AtomicOutputs, RemoveStaleOutputs) {
  TemporaryDirectory dir;
  writeFile(dir / "a.h", "stale\n");
  ASSERT_FALSE(bool(removeStaleOutputs({dir / "a.h", dir / "missing.cu", ""})));
  EXPECT_TRUE(directoryEntries(dir.path()).empty());
}

} // namespace
} // namespace overlap::frontend
