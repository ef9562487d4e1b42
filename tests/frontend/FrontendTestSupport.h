// Runs the generator in memory on a source string (clang-tidy's runCheckOnCode style) and picks
// apart clang-format diagnostics: "file:line:col: severity: message", the source line, the caret.
#pragma once

#include "frontend/Generator.h"

#include <string>
#include <vector>

namespace overlap::frontend::testing {

// The generator on `code` as "input.cu" (or `fileName`), with the given compiler arguments and
// extra in-memory files.
InMemoryResult runOnCode(const std::string& code, const std::string& fileName = "input.cu",
                         const std::vector<std::string>& compilerArgs = {},
                         const std::map<std::string, std::string>& otherFiles = {});

struct Position {
  unsigned line = 0;
  unsigned column = 0;
};

// 1-based line and column of the first occurrence of `marker` in `code`; fails the test (and
// returns {0, 0}) when there is none.
Position positionOf(const std::string& code, const std::string& marker);

// One diagnostic as printed: its header line and the two lines below it.
struct PrintedDiagnostic {
  std::string header;       // "input.cu:3:5: error: ..."
  std::string sourceLine;   // the quoted source line, without clang's "  3 | " gutter
  unsigned caretColumn = 0; // 1-based column of '^' under sourceLine; 0 if there is none
};

// The diagnostics of a run in order; notes and fix-it lines are kept as entries of their own
// when they have a header.
std::vector<PrintedDiagnostic> parseDiagnostics(const std::string& text);

// The `index`-th line of `code` (1-based).
std::string lineOf(const std::string& code, unsigned line);

// Reads a file; empty and a test failure when it cannot be read.
std::string readFile(const std::string& path);

// Writes a file, creating its directory; a test failure when it cannot.
void writeFile(const std::string& path, const std::string& contents);

bool fileExists(const std::string& path);

// The names in a directory, sorted.
std::vector<std::string> directoryEntries(const std::string& path);

// A fresh directory, removed with everything in it at the end of the scope.
class TemporaryDirectory {
public:
  TemporaryDirectory();
  ~TemporaryDirectory();
  TemporaryDirectory(const TemporaryDirectory&) = delete;
  TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;

  const std::string& path() const { return path_; }
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }

private:
  std::string path_;
};

} // namespace overlap::frontend::testing
