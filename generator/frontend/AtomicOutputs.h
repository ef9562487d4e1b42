// Writes a set of output files so that the build never sees a half-written or stale one: every
// file is written to a temporary next to it, and only when all of them are complete are they
// renamed into place. A failure leaves none of them behind.
#pragma once

#include <llvm/Support/Error.h>

#include <string>
#include <vector>

namespace overlap::frontend {

class AtomicOutputs {
public:
  AtomicOutputs() = default;
  AtomicOutputs(const AtomicOutputs&) = delete;
  AtomicOutputs& operator=(const AtomicOutputs&) = delete;
  // Removes the temporaries of an uncommitted set.
  ~AtomicOutputs();

  // Writes `contents` to a temporary in the directory of `path`, creating the directory.
  llvm::Error stage(const std::string& path, const std::string& contents);

  // Renames every staged temporary to its path. On failure, removes the temporaries and any
  // output already renamed, so that no output of this set exists afterwards.
  llvm::Error commit();

private:
  struct Staged {
    std::string path;
    std::string temporary;
  };
  std::vector<Staged> staged_;
};

// Removes the files that exist among `paths` (outputs of an earlier run that must not survive a
// failed one). Missing files are fine; other failures are reported.
llvm::Error removeStaleOutputs(const std::vector<std::string>& paths);

} // namespace overlap::frontend
