#include "FrontendTestSupport.h"

#include <gtest/gtest.h>

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <algorithm>

#include <fstream>
#include <regex>
#include <sstream>

namespace overlap::frontend::testing {
namespace {

std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);)
    lines.push_back(line);
  return lines;
}

// "input.cu:3:5: error: message" (also warnings, notes and clang's fatal errors).
bool isHeader(const std::string& line) {
  static const std::regex header(R"(^[^ :][^:]*:\d+:\d+: (fatal error|error|warning|note): .*)");
  return std::regex_match(line, header);
}

// Clang 17 and later print the source line as "   12 | text" and the caret line as
// "      | ^"; older releases print them bare. Returns the gutter's width (0 when bare).
std::size_t gutterWidth(const std::string& sourceLine) {
  static const std::regex gutter(R"(^( *\d+ \| ).*)");
  std::smatch match;
  if (std::regex_match(sourceLine, match, gutter))
    return static_cast<std::size_t>(match.length(1));
  return 0;
}

} // namespace

InMemoryResult runOnCode(const std::string& code, const std::string& fileName,
                         const std::vector<std::string>& compilerArgs,
                         const std::map<std::string, std::string>& otherFiles) {
  GeneratorRequest request;
  request.inputPath = fileName;
  request.compilerArgs = compilerArgs;
  request.emit = defaultEmitOptions(fileName, "", fileName);
  request.emit.headerInclude = request.emit.baseName + ".overlap.h";
  return generateInMemory(request, code, otherFiles);
}

Position positionOf(const std::string& code, const std::string& marker) {
  const std::size_t at = code.find(marker);
  if (at == std::string::npos) {
    ADD_FAILURE() << "marker '" << marker << "' is not in the test source";
    return {};
  }
  Position position{1, 1};
  for (std::size_t i = 0; i < at; ++i) {
    if (code[i] == '\n') {
      ++position.line;
      position.column = 1;
    } else {
      ++position.column;
    }
  }
  return position;
}

std::vector<PrintedDiagnostic> parseDiagnostics(const std::string& text) {
  const std::vector<std::string> lines = splitLines(text);
  std::vector<PrintedDiagnostic> diagnostics;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (!isHeader(lines[i]))
      continue;
    PrintedDiagnostic diagnostic;
    diagnostic.header = lines[i];
    if (i + 2 < lines.size() && !isHeader(lines[i + 1])) {
      const std::size_t width = gutterWidth(lines[i + 1]);
      diagnostic.sourceLine = lines[i + 1].substr(width);
      const std::string& caretLine = lines[i + 2];
      const std::size_t caret = caretLine.find('^');
      if (caret != std::string::npos && caret >= width)
        diagnostic.caretColumn = static_cast<unsigned>(caret - width + 1);
    }
    diagnostics.push_back(diagnostic);
  }
  return diagnostics;
}

std::string lineOf(const std::string& code, unsigned line) {
  const std::vector<std::string> lines = splitLines(code);
  if (line == 0 || line > lines.size())
    return {};
  return lines[line - 1];
}

std::string readFile(const std::string& path) {
  std::ifstream stream(path, std::ios::binary);
  if (!stream) {
    ADD_FAILURE() << "cannot read " << path;
    return {};
  }
  std::ostringstream contents;
  contents << stream.rdbuf();
  return contents.str();
}

void writeFile(const std::string& path, const std::string& contents) {
  const llvm::StringRef directory = llvm::sys::path::parent_path(path);
  if (!directory.empty()) {
    ASSERT_FALSE(llvm::sys::fs::create_directories(directory))
        << "cannot create " << directory.str();
  }
  std::ofstream stream(path, std::ios::binary);
  ASSERT_TRUE(stream) << "cannot write " << path;
  stream << contents;
}

bool fileExists(const std::string& path) {
  return llvm::sys::fs::exists(path);
}

std::vector<std::string> directoryEntries(const std::string& path) {
  std::vector<std::string> names;
  std::error_code error;
  for (llvm::sys::fs::directory_iterator it(path, error), end; !error && it != end;
       it.increment(error))
    names.push_back(std::string(llvm::sys::path::filename(it->path())));
  EXPECT_FALSE(error) << "cannot list " << path << ": " << error.message();
  std::sort(names.begin(), names.end());
  return names;
}

TemporaryDirectory::TemporaryDirectory() {
  llvm::SmallString<128> created;
  const std::error_code error =
      llvm::sys::fs::createUniqueDirectory("overlap-frontend-test", created);
  EXPECT_FALSE(error) << "cannot create a temporary directory: " << error.message();
  path_ = std::string(created);
}

TemporaryDirectory::~TemporaryDirectory() {
  if (!path_.empty())
    llvm::sys::fs::remove_directories(path_);
}

} // namespace overlap::frontend::testing
