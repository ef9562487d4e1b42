#include "annotation/NeighbourReads.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>

namespace overlap::annotation {
namespace {

// Sums of products of sampled values: no overflow to check.
__extension__ typedef __int128 Wide;

// The parameters each chunk's kernel gets a value of its own in.
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

bool mentionsAny(const ir::OffsetTerm& term, const std::set<int>& params) {
  for (int param : term.params)
    if (params.count(param) > 0)
      return true;
  return false;
}

// The terms of an offset that mention a per-chunk parameter.
std::vector<ir::OffsetTerm> perChunkTerms(const ir::IndexUse& use, const std::set<int>& perChunk) {
  std::vector<ir::OffsetTerm> out;
  for (const ir::OffsetTerm& term : use.offset)
    if (mentionsAny(term, perChunk))
      out.push_back(term);
  return out;
}

// The offset's value at `sample` without its per-chunk terms; nullopt where a parameter has none.
std::optional<Wide> value(const std::vector<ir::OffsetTerm>& terms, const std::set<int>& perChunk,
                          const ParamSample& sample) {
  Wide total = 0;
  for (const ir::OffsetTerm& term : terms) {
    if (mentionsAny(term, perChunk))
      continue;
    Wide product = term.coefficient;
    for (int param : term.params) {
      if (param < 0 || static_cast<size_t>(param) >= sample.size() || !sample[param])
        return std::nullopt;
      product *= *sample[param];
      if (product > (Wide{1} << 100) || product < -(Wide{1} << 100))
        return std::nullopt;
    }
    total += product;
  }
  return total;
}

struct Extreme {
  const ir::IndexUse* low = nullptr;
  const ir::IndexUse* high = nullptr;
  Wide min = 0, max = 0;
};

std::optional<Extreme> extremes(const std::vector<const ir::IndexUse*>& uses,
                                const std::set<int>& perChunk, const ParamSample& sample) {
  Extreme out;
  for (const ir::IndexUse* use : uses) {
    const std::optional<Wide> v = value(use->offset, perChunk, sample);
    if (!v)
      return std::nullopt;
    if (out.low == nullptr) {
      out = {use, use, *v, *v};
      continue;
    }
    if (*v < out.min)
      out.low = use, out.min = *v;
    if (*v > out.max)
      out.high = use, out.max = *v;
  }
  return out;
}

// The greatest multiple of `step` (> 0) not above `v`.
Wide floorTo(Wide v, Wide step) {
  const Wide r = v % step;
  return v - (r < 0 ? r + step : r);
}

Wide gcd(Wide a, Wide b) {
  a = a < 0 ? -a : a;
  b = b < 0 ? -b : b;
  while (b != 0)
    a = std::exchange(b, a % b);
  return a;
}

std::optional<Wide> evaluated(const ir::ExprPtr& e, const ir::Environment& env) {
  if (!e)
    return Wide{0};
  const std::optional<long long> v = ir::evaluate(*e, env);
  return v ? std::optional<Wide>(*v) : std::nullopt;
}

constexpr long long kLong[] = {64, 1000, 4099};

// The parameters the comparison reads, other than per-chunk ones (whose terms cancel): those of
// both sections and the input's halo, and those of the offsets of either array's subscripts.
std::vector<int> involvedParams(const ir::Kernel& kernel, const ir::Array& input,
                                const ir::Array& output, const std::set<int>& perChunk) {
  const std::vector<ir::Parameter>& params = kernel.signature.params;
  std::vector<int> involved;
  for (int p = 0; p < static_cast<int>(params.size()); ++p) {
    if (perChunk.count(p) > 0)
      continue;
    bool used = false;
    for (const ir::Array* array : {&input, &output}) {
      for (const ir::ExprPtr& e :
           {array->sections[0].begin, array->sections[0].end, array->haloBefore, array->haloAfter})
        used = used || (e && ir::mentionsParam(*e, p));
      for (const ir::IndexUse& use : params[array->param].indexUses)
        for (const ir::OffsetTerm& term : use.offset)
          used = used || std::count(term.params.begin(), term.params.end(), p) > 0;
    }
    if (used)
      involved.push_back(p);
  }
  return involved;
}

// Samples where every parameter the comparison reads is long (64, 1000 or 4099, in every
// combination for up to four of them), so that a row of one element does not condemn
// x[r * w + c + 1], nor a plane of one row a halo of one row. Beyond four, the given samples where
// they are all long (all of them where none is).
std::vector<ParamSample> longSamples(const std::vector<int>& involved, size_t paramCount,
                                     const std::vector<ParamSample>& samples) {
  if (involved.size() > 4) {
    std::vector<ParamSample> out;
    for (const ParamSample& sample : samples)
      if (std::all_of(involved.begin(), involved.end(),
                      [&sample](int p) { return sample[p] && *sample[p] >= kLong[0]; }))
        out.push_back(sample);
    return out.empty() ? samples : out;
  }
  std::vector<ParamSample> out{samples.empty() ? ParamSample(paramCount) : samples.front()};
  for (int p : involved) {
    std::vector<ParamSample> next;
    for (const ParamSample& sample : out)
      for (long long v : kLong) {
        next.push_back(sample);
        next.back()[p] = v;
      }
    out = std::move(next);
  }
  return out;
}

} // namespace

std::optional<NeighbourRead> readOutsideSection(const ir::Kernel& kernel, const ir::Array& input,
                                                const ir::Array& output,
                                                const std::vector<ParamSample>& samples) {
  if (input.sections.size() != 1 || !input.sections[0].chunked() || output.sections.size() != 1 ||
      !output.sections[0].chunked())
    return std::nullopt;
  const std::vector<ir::Parameter>& params = kernel.signature.params;
  const std::set<int> perChunk = perChunkParams(kernel);
  std::map<std::string, std::vector<const ir::IndexUse*>> writes, reads;
  for (const ir::IndexUse& use : params[output.param].indexUses)
    if (use.write && !use.base.empty())
      writes[use.base].push_back(&use);
  for (const ir::IndexUse& use : params[input.param].indexUses)
    if (!use.write && writes.count(use.base) > 0)
      reads[use.base].push_back(&use);
  const ir::Section& x = input.sections[0];
  const ir::Section& y = output.sections[0];
  const bool offsetMode = kernel.mode == ir::ChunkMode::Offset;
  const std::vector<int> involved = involvedParams(kernel, input, output, perChunk);
  const std::vector<ParamSample> judged = longSamples(involved, params.size(), samples);
  // The stride S of y's section per chunk unit (w for rows y[lo * w : hi * w]).
  std::vector<std::optional<long long>> stride;
  for (const ParamSample& sample : judged) {
    const std::optional<AffineForm> form = affineForm(*y.begin, sample);
    stride.push_back(form ? std::optional<long long>(std::max(form->lo, 1LL)) : std::nullopt);
  }
  for (const auto& [base, readUses] : reads) {
    const std::vector<const ir::IndexUse*>& writeUses = writes[base];
    const auto chunkTerms = perChunkTerms(*writeUses.front(), perChunk);
    bool comparable = true;
    for (const auto* uses : {&readUses, &writeUses})
      for (const ir::IndexUse* use : *uses)
        comparable = comparable && perChunkTerms(*use, perChunk) == chunkTerms;
    if (!comparable)
      continue;
    // Refused only where every sample leaves the section: parameters sampled apart from each
    // other (a rotary kernel's half and its row's dim) would otherwise condemn what the caller's
    // values never do.
    std::optional<NeighbourRead> first;
    bool everySample = true;
    for (size_t k = 0; k < judged.size() && everySample; ++k) {
      const ParamSample& sample = judged[k];
      if (!stride[k])
        continue;
      const Wide step = *stride[k];
      // A base whose every term moves in whole strides (x[2 * i] beside y[2 * i], one thread per
      // row at y[r * w]) is a multiple of the stride: its thread's reads are exact. One with a
      // finer term (r * w + c) leaves the column to the kernel's guards: its reach counts in
      // whole strides, to the nearest (a column + 1 reaches no row; - w + 1 reaches one).
      // The base is a multiple of its scales' greatest common divisor too (4 * i of a float4
      // view), whatever the section's stride.
      bool whole = true;
      Wide multiple = 0;
      for (const ir::OffsetTerm& term : writeUses.front()->baseScales) {
        const std::optional<Wide> scale = value({term}, {}, sample);
        whole = whole && scale && *scale % step == 0;
        multiple = scale ? gcd(multiple, *scale) : Wide{1};
      }
      multiple = std::max(multiple, Wide{1});
      for (const auto& [lo, hi] : {std::pair<long long, long long>{1000, 2000}, {3000, 3001}}) {
        const ir::Environment env = environment(sample, lo, hi);
        const std::optional<Wide> xb = evaluated(x.begin, env), xe = evaluated(x.end, env),
                                  yb = evaluated(y.begin, env), ye = evaluated(y.end, env),
                                  before = evaluated(input.haloBefore, env),
                                  after = evaluated(input.haloAfter, env);
        const std::optional<Extreme> c = extremes(readUses, perChunk, sample);
        const std::optional<Extreme> d = extremes(writeUses, perChunk, sample);
        if (!xb || !xe || !yb || !ye || !before || !after || !c || !d || *ye <= *yb)
          continue;
        // A writing thread's base P keeps its writes in y's section: P in [yb - oy - dmin,
        // ye - oy - dmax - 1] (offset mode counts from each section's begin, ox and oy), a
        // multiple of the stride where the base is whole. Its reads of x lie in [ox + P + cmin,
        // ox + P + cmax].
        const Wide ox = offsetMode ? *xb : 0, oy = offsetMode ? *yb : 0;
        Wide lowest = *yb - oy - d->min, highest = *ye - oy - d->max - 1;
        for (const Wide by : {whole ? step : Wide{1}, multiple}) {
          lowest = -floorTo(-lowest, by);
          highest = floorTo(highest, by);
        }
        if (highest < lowest)
          continue;
        Wide needBefore = *xb - (ox + lowest + c->min);
        Wide needAfter = ox + highest + c->max + 1 - *xe;
        if (!whole) { // ties to no row: a rotary kernel's x[r * d + c + d / 2]
          needBefore = floorTo(needBefore + (step - 1) / 2, step);
          needAfter = floorTo(needAfter + (step - 1) / 2, step);
        }
        if (needBefore <= *before && needAfter <= *after) {
          everySample = false;
          break;
        }
        if (first)
          continue;
        NeighbourRead& out = first.emplace();
        out.before = needBefore > *before;
        out.read = out.before ? c->low : c->high;
        out.write = out.before ? d->low : d->high;
        out.haloBefore = static_cast<long long>(std::max(needBefore, *before));
        out.haloAfter = static_cast<long long>(std::max(needAfter, *after));
        out.sample = sample;
        out.params = involved;
      }
    }
    if (first && everySample)
      return first;
  }
  return std::nullopt;
}

} // namespace overlap::annotation
