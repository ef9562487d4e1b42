#include "FitQuality.h"

#include <cmath>
#include <cstdio>

namespace overlap::calibration {

namespace {
std::string format(const char* pattern, double a, double b) {
  char text[160];
  std::snprintf(text, sizeof(text), pattern, a, b);
  return text;
}
} // namespace

std::string judgeFit(const std::string& what, const LinearFit& fit,
                     const FitRequirement& requirement) {
  std::string reasons;
  auto add = [&reasons](const std::string& reason) {
    reasons += (reasons.empty() ? "" : "; ") + reason;
  };
  if (fit.points < 2)
    add("fewer than two points measured");
  if (requirement.minRSquared > 0 && !(fit.rSquared >= requirement.minRSquared))
    add(format("R^2 %.5f is below %.5f (the times do not follow a line)", fit.rSquared,
               requirement.minRSquared));
  if (requirement.maxRelativeResidual > 0 &&
      !(fit.maxRelativeResidual <= requirement.maxRelativeResidual))
    add(format("largest relative residual %.2f %% exceeds %.2f %%", 100 * fit.maxRelativeResidual,
               100 * requirement.maxRelativeResidual));
  if (requirement.maxSlopeRelativeError > 0) {
    const double relative =
        fit.slope != 0 ? fit.slopeStandardError / std::fabs(fit.slope) : INFINITY;
    if (!(relative <= requirement.maxSlopeRelativeError))
      add(format("the slope's standard error is %.1f %% of it, above %.1f %%", 100 * relative,
                 100 * requirement.maxSlopeRelativeError));
  }
  return reasons.empty() ? reasons : what + ": " + reasons;
}

} // namespace overlap::calibration
