// When a fit is good enough to go into a profile. overlap-calibrate refuses to write a profile
// with a poor fit and says which fit and why: a model fed a bad G predicts every variant wrong.
#pragma once

#include "linear_fit.h"

#include <string>

namespace overlap::calibration {

struct FitRequirement {
  double min_r_squared = 0;         // 0: not checked (fits of slopes that may be near 0)
  double max_relative_residual = 0; // largest |measured - fitted| / measured allowed
};

// The defaults are set from what the accuracy targets need (3 % one way, 5 % both ways): a fit
// whose own points miss by more cannot predict other sizes better.
struct QualityThresholds {
  FitRequirement size_fit{0.999, 0.015};          // G over sizes, per direction
  FitRequirement piece_fit{0, 0.015};             // g over piece counts: residuals only
  FitRequirement bidirectional_fit{0.999, 0.025}; // G with both directions busy
  FitRequirement pageable_fit{0.99, 0.05};        // pageable copies vary with the host
  FitRequirement with_mapped_fit{0.99, 0.05};     // copies competing with mapped traffic
  FitRequirement mapped_kernel_fit{0.999, 0.03};  // kernels on mapped memory
  FitRequirement stream_round_fit{0.9, 0.15};     // t_sc: microseconds measured by the host clock
};

// Empty when `fit` meets `requirement`; otherwise why not, starting with `what`, e.g.
// "host_to_device G over sizes: largest relative residual 2.3 % exceeds 1.5 %".
std::string judge_fit(const std::string& what, const LinearFit& fit,
                      const FitRequirement& requirement);

} // namespace overlap::calibration
