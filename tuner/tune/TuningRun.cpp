#include "tune/TuningRun.h"

namespace overlap::tune {

const char* to_string(Verification verification) {
  switch (verification) {
  case Verification::NotRun:
    return "not-run";
  case Verification::Reference:
    return "reference";
  case Verification::Passed:
    return "passed";
  case Verification::WrongResult:
    return "wrong-result";
  case Verification::Failed:
    return "failed";
  }
  return "?";
}

std::optional<Verification> parseVerification(const std::string& text) {
  for (Verification v : {Verification::NotRun, Verification::Reference, Verification::Passed,
                         Verification::WrongResult, Verification::Failed})
    if (text == to_string(v))
      return v;
  return std::nullopt;
}

std::optional<std::size_t> TuningRun::find(const model::Candidate& candidate) const {
  for (std::size_t i = 0; i < candidates.size(); ++i)
    if (candidates[i].candidate == candidate)
      return i;
  return std::nullopt;
}

std::optional<std::size_t> TuningRun::explicitIndex() const {
  return find(model::Candidate{});
}

int TuningRun::runCount() const {
  int count = 0;
  for (const CandidateOutcome& outcome : candidates)
    count += outcome.run ? 1 : 0;
  return count;
}

std::optional<double> TuningRun::speedup(std::size_t index) const {
  const std::optional<std::size_t> reference = explicitIndex();
  if (!reference || index >= candidates.size())
    return std::nullopt;
  const CandidateOutcome& base = candidates[*reference];
  const CandidateOutcome& other = candidates[index];
  if (!base.usable() || !other.usable() || other.timing.median <= 0)
    return std::nullopt;
  return base.timing.median / other.timing.median;
}

} // namespace overlap::tune
