#include "annotation/SectionAnalysis.h"

#include "annotation/NameResolver.h"

#include <algorithm>

namespace overlap::annotation {

ir::Environment environment(const ParamSample& sample, std::optional<long long> lo,
                            std::optional<long long> hi) {
  ir::Environment env;
  env.param = [&sample](int param) -> std::optional<long long> {
    if (param < 0 || static_cast<size_t>(param) >= sample.size())
      return std::nullopt;
    return sample[param];
  };
  env.lo = lo;
  env.hi = hi;
  return env;
}

namespace {

constexpr long long kSampleValues[] = {1, 3, 64, 1000, 4099};
constexpr size_t kSampleCount = sizeof(kSampleValues) / sizeof(kSampleValues[0]);

std::optional<long long> difference(std::optional<long long> a, std::optional<long long> b) {
  long long result = 0;
  if (!a || !b || __builtin_sub_overflow(*a, *b, &result))
    return std::nullopt;
  return result;
}

// Chunk bounds to try: the ends and the middle of [0, P], or small values when P is unknown.
std::vector<long long> chunkBoundSamples(const ir::ExprPtr& partition, const ParamSample& sample) {
  std::optional<long long> extent;
  if (partition)
    extent = ir::evaluate(*partition, environment(sample, std::nullopt, std::nullopt));
  if (!extent)
    return {0, 1, 2, 7};
  if (*extent <= 0)
    return {}; // nothing runs
  std::vector<long long> values = {0, 1, 2, *extent / 2, *extent - 1, *extent};
  values.erase(std::remove_if(values.begin(), values.end(),
                              [&](long long v) { return v < 0 || v > *extent; }),
               values.end());
  return values;
}

} // namespace

std::vector<ParamSample> sampleParameters(const ir::KernelSignature& signature) {
  std::vector<ParamSample> samples;
  for (bool rotate : {false, true}) {
    for (size_t round = 0; round < kSampleCount; ++round) {
      ParamSample sample(signature.params.size());
      for (size_t i = 0; i < signature.params.size(); ++i) {
        const ir::Parameter& param = signature.params[i];
        if (!isIntegerScalar(param))
          continue;
        size_t pick = rotate ? (round + i) % kSampleCount : round;
        if (param.scalarKind == ir::ScalarKind::Boolean)
          sample[i] = static_cast<long long>(pick % 2);
        else
          sample[i] = kSampleValues[pick];
      }
      samples.push_back(std::move(sample));
    }
  }
  return samples;
}

std::vector<ParamSample> divisibleSamples(const ir::KernelSignature& signature) {
  std::vector<ParamSample> samples;
  for (long long value : {1LL << 20, (1LL << 20) * 45045}) {
    ParamSample sample(signature.params.size());
    for (size_t i = 0; i < signature.params.size(); ++i)
      if (isIntegerScalar(signature.params[i]))
        sample[i] = signature.params[i].scalarKind == ir::ScalarKind::Boolean ? 1 : value;
    samples.push_back(std::move(sample));
  }
  return samples;
}

std::vector<ParamSample> callableSamples(const ir::ExprPtr& partition, const ir::ExprPtr& extent,
                                         const std::vector<ParamSample>& samples) {
  // nullopt (not evaluable here) counts as callable.
  auto below = [](const ir::ExprPtr& expr, const ParamSample& sample, long long bound) {
    if (!expr)
      return false;
    std::optional<long long> value =
        ir::evaluate(*expr, environment(sample, std::nullopt, std::nullopt));
    return value && *value < bound;
  };
  std::vector<ParamSample> callable;
  for (const ParamSample& sample : samples)
    if (!below(extent, sample, 0) && !below(partition, sample, 1))
      callable.push_back(sample);
  return callable.empty() ? samples : callable;
}

std::optional<AffineForm> affineForm(const ir::Expr& bound, const ParamSample& sample) {
  std::optional<long long> atOrigin = ir::evaluate(bound, environment(sample, 0, 0));
  std::optional<long long> loStep =
      difference(ir::evaluate(bound, environment(sample, 1, 0)), atOrigin);
  std::optional<long long> hiStep =
      difference(ir::evaluate(bound, environment(sample, 0, 1)), atOrigin);
  if (!atOrigin || !loStep || !hiStep)
    return std::nullopt;
  return AffineForm{*atOrigin, *loStep, *hiStep};
}

std::optional<long long> sectionMove(const ir::Section& section, const ParamSample& sample) {
  const std::optional<AffineForm> form = affineForm(*section.begin, sample);
  long long move = 0;
  if (!form || __builtin_add_overflow(form->lo, form->hi, &move))
    return std::nullopt;
  return move;
}

std::set<int> perChunkParams(const ir::Kernel& kernel) {
  std::set<int> out;
  if (kernel.mode == ir::ChunkMode::Offset)
    out.insert(kernel.lengthParam);
  else
    out.insert({kernel.beginParam, kernel.endParam});
  for (const ir::Binding& binding : kernel.bindings)
    out.insert(binding.param);
  out.erase(-1);
  return out;
}

bool tilesChunks(const ir::Section& section, const std::vector<ParamSample>& samples) {
  for (const ParamSample& sample : samples) {
    std::optional<AffineForm> begin = affineForm(*section.begin, sample);
    std::optional<AffineForm> end = affineForm(*section.end, sample);
    if (!begin || !end)
      continue;
    bool tiles = begin->hi == 0 && end->lo == 0 && begin->lo == end->hi && begin->lo >= 0 &&
                 end->constant <= begin->constant;
    if (!tiles)
      return false;
  }
  return true;
}

bool sizeCanBeNegative(const ir::Section& section, const ir::ExprPtr& partition,
                       const std::vector<ParamSample>& samples) {
  for (const ParamSample& sample : samples) {
    std::vector<long long> bounds = chunkBoundSamples(partition, sample);
    for (long long lo : bounds) {
      for (long long hi : bounds) {
        if (lo > hi)
          continue;
        ir::Environment env = environment(sample, lo, hi);
        std::optional<long long> size =
            difference(ir::evaluate(*section.end, env), ir::evaluate(*section.begin, env));
        if (size && *size < 0)
          return true;
      }
    }
  }
  return false;
}

std::optional<WholeCall> wholeCallLength(const ir::ExprPtr& value, const ir::ExprPtr& partition,
                                         const ir::Environment& env) {
  ir::Environment whole = env;
  whole.lo = std::nullopt;
  whole.hi = std::nullopt;
  const std::optional<long long> extent = ir::evaluate(*partition, whole);
  if (!extent)
    return std::nullopt;
  whole.lo = 0;
  whole.hi = *extent;
  const std::optional<long long> passed = value ? ir::evaluate(*value, whole) : extent;
  if (!passed)
    return std::nullopt;
  return WholeCall{*extent, *passed};
}

bool lengthNeverMatches(int lengthParam, const ir::ExprPtr& value, const ir::ExprPtr& partition,
                        const std::vector<ParamSample>& samples) {
  bool evaluated = false;
  for (const ParamSample& sample : samples) {
    if (lengthParam < 0 || static_cast<size_t>(lengthParam) >= sample.size() ||
        !sample[lengthParam])
      return false;
    const std::optional<WholeCall> whole =
        wholeCallLength(value, partition, environment(sample, std::nullopt, std::nullopt));
    if (!whole)
      continue;
    evaluated = true;
    if (whole->passed == *sample[lengthParam])
      return false;
    // The caller's n where it is what the launch passes: a length the partition and the value do
    // not depend on (partition(rows) offset(n = 2 * len)) matches for callers that pass it so
    // (an empty call, n = 0, matches anything).
    ParamSample matched = sample;
    matched[lengthParam] = whole->passed;
    const std::optional<WholeCall> again =
        wholeCallLength(value, partition, environment(matched, std::nullopt, std::nullopt));
    if (whole->passed > 0 && again && again->passed == whole->passed)
      return false;
  }
  return evaluated;
}

} // namespace overlap::annotation
