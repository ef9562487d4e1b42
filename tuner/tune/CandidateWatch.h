// What the search tells an observer around every run it cannot take back: which candidate starts,
// where its tuning is saved and how long it may take. A tuning worker forwards this to its
// supervisor (WorkerChannel.h), which stops a candidate that overruns its bound and records it in
// that cache file, since a hung GPU call cannot be stopped inside the process that made it.
#pragma once

#include <string>

namespace overlap::tune {

struct CandidateStart {
  std::string candidate;   // model::describe(), as in the cache and the progress lines
  bool reference = false;  // Explicit as the reference: without it nothing can be compared
  std::string cacheFile;   // the tuning's cache file; empty when the cache is disabled
  double boundSeconds = 0; // verification and timing together should end within this
};

class CandidateWatch {
public:
  virtual ~CandidateWatch() = default;
  virtual void begin(const CandidateStart& start) = 0;
  virtual void end() = 0;
};

} // namespace overlap::tune
