#include "fit_quality.h"

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

std::string judge_fit(const std::string& what, const LinearFit& fit,
                      const FitRequirement& requirement) {
  std::string reasons;
  auto add = [&reasons](const std::string& reason) {
    reasons += (reasons.empty() ? "" : "; ") + reason;
  };
  if (fit.points < 2)
    add("fewer than two points measured");
  if (requirement.min_r_squared > 0 && !(fit.r_squared >= requirement.min_r_squared))
    add(format("R^2 %.5f is below %.5f (the times do not follow a line)", fit.r_squared,
               requirement.min_r_squared));
  if (requirement.max_relative_residual > 0 &&
      !(fit.max_relative_residual <= requirement.max_relative_residual))
    add(format("largest relative residual %.2f %% exceeds %.2f %%", 100 * fit.max_relative_residual,
               100 * requirement.max_relative_residual));
  if (requirement.max_slope_relative_error > 0) {
    const double relative =
        fit.slope != 0 ? fit.slope_standard_error / std::fabs(fit.slope) : INFINITY;
    if (!(relative <= requirement.max_slope_relative_error))
      add(format("the slope's standard error is %.1f %% of it, above %.1f %%", 100 * relative,
                 100 * requirement.max_slope_relative_error));
  }
  return reasons.empty() ? reasons : what + ": " + reasons;
}

} // namespace overlap::calibration
