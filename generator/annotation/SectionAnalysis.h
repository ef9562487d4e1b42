// Judges affine sections over sampled parameter values: whether the sections of consecutive
// chunks tile (never overlap), and whether a section can be empty-with-a-negative-size. Sections
// are affine in lo and hi (checked before), so a bound is b0 + bl*lo + bh*hi for fixed parameter
// values, and three evaluations give its coefficients exactly.
#pragma once

#include "ir/Expr.h"
#include "ir/KernelIR.h"

#include <optional>
#include <set>
#include <vector>

namespace overlap::annotation {

// Values for every parameter (nullopt for those expressions cannot read), one set per sample.
using ParamSample = std::vector<std::optional<long long>>;

// An environment giving each parameter its value in `sample` (which must outlive it).
ir::Environment environment(const ParamSample& sample, std::optional<long long> lo,
                            std::optional<long long> hi);

// Deterministic samples: each integer parameter gets one of 1, 3, 64, 1000, 4099, both all alike
// and rotated so that different parameters get different values; bools get 0 or 1.
std::vector<ParamSample> sampleParameters(const ir::KernelSignature& signature);

// Samples where every integer parameter is a large multiple of all small numbers and powers of
// two (2^20 and 2^20 * 45045), so that divisions in a sampled expression come out exact: a
// partition(n / 512) matches its length for such n, if for any.
std::vector<ParamSample> divisibleSamples(const ir::KernelSignature& signature);

// The samples at which a call uses the sections of an array of `extent` elements: the runtime
// refuses a negative extent or partition, and a call over an empty partition runs nothing, so a
// valid convolution's `out[lo * (w - 2) : hi * (w - 2)]` is not judged at w = 1. All samples when
// none is left: a check over no sample would pass anything.
std::vector<ParamSample> callableSamples(const ir::ExprPtr& partition, const ir::ExprPtr& extent,
                                         const std::vector<ParamSample>& samples);

// Coefficients of an affine bound for one sample; nullopt when it cannot be evaluated there.
struct AffineForm {
  long long constant = 0;
  long long lo = 0;
  long long hi = 0;
};
std::optional<AffineForm> affineForm(const ir::Expr& bound, const ParamSample& sample);

// How far a section moves when the chunk moves by one unit (lo + 1, hi + 1): a reversed one,
// x[n - 1 - hi : n - lo], by -1. Nullopt where its begin has no affine form at `sample`, or the
// move overflows.
std::optional<long long> sectionMove(const ir::Section& section, const ParamSample& sample);

// The parameters each chunk's kernel gets a value of its own in: offset mode's length, range
// mode's bounds, the bound ones.
std::set<int> perChunkParams(const ir::Kernel& kernel);

// True unless, for some sample, chunk [lo, hi)'s section overlaps the next chunk [hi, ...)'s:
// begin must not depend on hi, end not on lo, both must move by the same non-negative stride,
// and end(lo = hi = x) <= begin(x).
bool tilesChunks(const ir::Section& section, const std::vector<ParamSample>& samples);

// True when, for some sample and some 0 <= lo <= hi <= P, end - begin < 0. `partition` may be
// null; the chunk bounds are then sampled from small values.
bool sizeCanBeNegative(const ir::Section& section, const ir::ExprPtr& partition,
                       const std::vector<ParamSample>& samples);

// Offset mode: what one launch over the whole partition passes the length parameter in `env`:
// `value` at lo = 0, hi = P (a null `value`: P); none where P or that has no value.
struct WholeCall {
  long long extent; // P
  long long passed;
};
std::optional<WholeCall> wholeCallLength(const ir::ExprPtr& value, const ir::ExprPtr& partition,
                                         const ir::Environment& env);

// The same against the caller's value of the length parameter. True when they differ for every
// sample where both evaluate, so that no call could be right: partition(n / 2) offset(n); false
// where the caller may pass what the launch passes (a length the partition does not depend on).
bool lengthNeverMatches(int lengthParam, const ir::ExprPtr& value, const ir::ExprPtr& partition,
                        const std::vector<ParamSample>& samples);

} // namespace overlap::annotation
