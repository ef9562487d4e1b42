#include "frontend/AtomicOutputs.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

namespace overlap::frontend {
namespace {

llvm::Error failure(const std::string& what, const std::string& path, std::error_code error) {
  return llvm::createStringError(error, "cannot %s '%s': %s", what.c_str(), path.c_str(),
                                 error.message().c_str());
}

} // namespace

AtomicOutputs::~AtomicOutputs() {
  for (const Staged& file : staged_)
    llvm::sys::fs::remove(file.temporary);
}

llvm::Error AtomicOutputs::stage(const std::string& path, const std::string& contents) {
  const llvm::StringRef directory = llvm::sys::path::parent_path(path);
  if (!directory.empty())
    if (std::error_code error = llvm::sys::fs::create_directories(directory))
      return failure("create the directory of", path, error);
  int descriptor = -1;
  llvm::SmallString<256> temporary;
  if (std::error_code error =
          llvm::sys::fs::createUniqueFile(path + ".tmp-%%%%%%%%", descriptor, temporary))
    return failure("create a temporary for", path, error);
  staged_.push_back({path, std::string(temporary)});
  llvm::raw_fd_ostream stream(descriptor, /*shouldClose=*/true);
  stream << contents;
  stream.close();
  if (stream.has_error()) {
    const std::error_code error = stream.error();
    stream.clear_error(); // reported here; the stream must not abort on destruction
    return failure("write", std::string(temporary), error);
  }
  return llvm::Error::success();
}

llvm::Error AtomicOutputs::commit() {
  std::size_t renamed = 0;
  for (; renamed < staged_.size(); ++renamed) {
    const Staged file = staged_[renamed]; // a copy: the list is cleared below
    if (std::error_code error = llvm::sys::fs::rename(file.temporary, file.path)) {
      // Outputs of an earlier run at the paths not yet reached would be stale next to the new
      // ones: none of the set may survive.
      for (std::size_t i = 0; i < staged_.size(); ++i) {
        llvm::sys::fs::remove(staged_[i].path);
        if (i >= renamed)
          llvm::sys::fs::remove(staged_[i].temporary);
      }
      staged_.clear();
      return failure("rename a temporary to", file.path, error);
    }
  }
  staged_.clear();
  return llvm::Error::success();
}

llvm::Error removeStaleOutputs(const std::vector<std::string>& paths) {
  for (const std::string& path : paths) {
    if (path.empty())
      continue;
    if (std::error_code error = llvm::sys::fs::remove(path, /*IgnoreNonExisting=*/true))
      return failure("remove the stale output", path, error);
  }
  return llvm::Error::success();
}

} // namespace overlap::frontend
