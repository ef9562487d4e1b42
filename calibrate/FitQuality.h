// When a fit is good enough to go into a profile. overlap-calibrate refuses to write a profile
// with a poor fit and says which fit and why: a model fed a bad G predicts every variant wrong.
#pragma once

#include "LinearFit.h"

#include <string>

namespace overlap::calibration {

struct FitRequirement {
  double minRSquared = 0;         // 0: not checked (fits of slopes that may be near 0)
  double maxRelativeResidual = 0; // largest |measured - fitted| / measured allowed; 0: not checked
  // Largest standard error of the slope relative to the slope; 0: not checked. For overheads
  // fitted over counts, where the smallest point's time is mostly fixed cost and its relative
  // residual says little about the slope that is stored.
  double maxSlopeRelativeError = 0;
};

// The link parameters must fit their own points as well as the model must predict new ones:
// within the accuracy targets of issue 3 (3 % one way, 5 % with both directions busy). A fit
// that misses its own points by more cannot meet the target elsewhere.
struct QualityThresholds {
  FitRequirement sizeFit{0.999, 0.03};           // G over sizes, per direction
  FitRequirement pieceFit{0, 0.03};              // g over piece counts: residuals only
  FitRequirement bidirectionalFit{0.999, 0.05};  // G with the other direction busy
  FitRequirement bidirectionalPieceFit{0, 0.05}; // g with the other direction busy
  // Pageable copies go through the host's staging and memory system, whose rate varies with
  // size and time; the number says what pinning buys, the model of pinned copies does not use it.
  FitRequirement pageableFit{0.99, 0.15};
  FitRequirement withMappedFit{0.99, 0.05};     // copies competing with mapped traffic
  FitRequirement mappedKernelFit{0.999, 0.03};  // kernels on mapped memory
  FitRequirement streamRoundFit{0.99, 0, 0.05}; // t_sc: a slope over stream counts
};

// Empty when `fit` meets `requirement`; otherwise why not, starting with `what`, e.g.
// "host_to_device G over sizes: largest relative residual 2.3 % exceeds 1.5 %".
std::string judgeFit(const std::string& what, const LinearFit& fit,
                     const FitRequirement& requirement);

} // namespace overlap::calibration
