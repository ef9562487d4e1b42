#include "annotation/NeighbourReads.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <utility>

namespace overlap::annotation {
namespace {

// Sums of products of sampled values: no overflow to check.
__extension__ typedef __int128 Wide;

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
// both sections and the input's halo, and those of either array's subscripts (their offsets and
// the scales of their thread terms, a row pitch `stride`).
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
        for (const std::vector<ir::OffsetTerm>* terms : {&use.offset, &use.baseScales})
          for (const ir::OffsetTerm& term : *terms)
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

// The ratio p / q (q > 0) of a read's base to a write's at `sample`, where each term of the one
// is the other's same term times it: x[2 * i + 1] beside y[i] is 2, x[i] beside y[2 * i] 1 / 2,
// x[n - 1 - i] beside y[i] -1; nullopt where the terms differ.
std::optional<std::pair<Wide, Wide>> ratio(const ir::IndexUse& read, const ir::IndexUse& write,
                                           const ParamSample& sample) {
  const std::vector<std::string>& atoms = write.baseAtoms;
  if (read.baseAtoms.size() != atoms.size() ||
      std::set<std::string>(atoms.begin(), atoms.end()).size() != atoms.size())
    return std::nullopt;
  std::optional<std::pair<Wide, Wide>> out;
  for (size_t j = 0; j < atoms.size(); ++j) {
    const auto k = std::find(read.baseAtoms.begin(), read.baseAtoms.end(), atoms[j]);
    if (k == read.baseAtoms.end())
      return std::nullopt;
    const std::optional<Wide> s = value({write.baseScales[j]}, {}, sample);
    const std::optional<Wide> r = value({read.baseScales[k - read.baseAtoms.begin()]}, {}, sample);
    if (!s || !r || *s == 0 || *r == 0)
      return std::nullopt;
    const Wide g = gcd(*r, *s) * (*s < 0 ? -1 : 1);
    const std::pair<Wide, Wide> here{*r / g, *s / g};
    if (out && *out != here)
      return std::nullopt;
    out = here;
  }
  return out;
}

// `sample` with each per-chunk parameter's value for the chunk [lo, hi): range mode's bounds,
// offset mode's length, a bound parameter's expression.
ParamSample forChunk(const ir::Kernel& kernel, ParamSample sample, long long lo, long long hi) {
  const auto set = [&sample](int param, std::optional<long long> v) {
    if (param >= 0 && static_cast<size_t>(param) < sample.size())
      sample[param] = v;
  };
  if (kernel.mode == ir::ChunkMode::Offset)
    set(kernel.lengthParam, hi - lo);
  else
    set(kernel.beginParam, lo), set(kernel.endParam, hi);
  const ParamSample given = sample;
  for (const ir::Binding& binding : kernel.bindings)
    set(binding.param,
        binding.value ? ir::evaluate(*binding.value, environment(given, lo, hi)) : std::nullopt);
  return sample;
}

// How far a thread's reads reach beyond the input's section, before and after (not counting its
// halo), and the reads and writes that reach farthest each way.
struct Reach {
  Wide before = 0, after = 0;
  const ir::IndexUse *readBefore = nullptr, *readAfter = nullptr;
  const ir::IndexUse *writeBefore = nullptr, *writeAfter = nullptr;
  Wide tie = 1; // the halo needed counts in these, to the nearest (a row partition's rows)
};

// The array's one chunked section; null where it has none or several.
const ir::Section* chunkedSection(const ir::Array& array) {
  const auto isChunked = [](const ir::Section& s) { return s.chunked(); };
  const auto chunked = std::find_if(array.sections.begin(), array.sections.end(), isChunked);
  return chunked == array.sections.end() ||
                 std::count_if(array.sections.begin(), array.sections.end(), isChunked) != 1
             ? nullptr
             : &*chunked;
}

// How far apart `read` reads the rows `write` writes, at `sample`: the write's terms that move in
// whole strides of its section (m * S) are the thread's row, and the read has each of them times
// m * Q for one Q. Nullopt where the write has no such term, or the read is not of that form.
struct RowPitch {
  Wide pitch = 0;      // Q
  Wide rows = 0;       // m of the first row term
  size_t readTerm = 0; // the read's first row term, m * Q
};
std::optional<RowPitch> readPitch(const ir::IndexUse& read, const ir::IndexUse& write, Wide stride,
                                  const ParamSample& sample) {
  const auto unique = [](const std::vector<std::string>& atoms) {
    return std::set<std::string>(atoms.begin(), atoms.end()).size() == atoms.size();
  };
  if (stride == 0 || !unique(read.baseAtoms) || !unique(write.baseAtoms))
    return std::nullopt;
  std::optional<RowPitch> out;
  for (size_t j = 0; j < write.baseAtoms.size(); ++j) {
    const std::optional<Wide> scale = value({write.baseScales[j]}, {}, sample);
    if (!scale)
      return std::nullopt;
    if (*scale == 0 || *scale % stride != 0)
      continue; // a column
    const Wide m = *scale / stride;
    const auto k = std::find(read.baseAtoms.begin(), read.baseAtoms.end(), write.baseAtoms[j]);
    if (k == read.baseAtoms.end())
      return std::nullopt;
    const size_t term = static_cast<size_t>(k - read.baseAtoms.begin());
    const std::optional<Wide> r = value({read.baseScales[term]}, {}, sample);
    if (!r || *r % m != 0 || (out && out->pitch != *r / m))
      return std::nullopt;
    if (!out)
      out = RowPitch{*r / m, m, term};
  }
  return out;
}

} // namespace

JudgedSamples judgedSamples(const ir::Kernel& kernel, const ir::Array& input,
                            const ir::Array& output, const std::vector<ParamSample>& samples) {
  JudgedSamples out;
  // Neither check compares an input without one chunked section, or an output without exactly one.
  if (chunkedSection(input) == nullptr || output.sections.size() != 1 ||
      !output.sections[0].chunked())
    return out;
  out.params = involvedParams(kernel, input, output, perChunkParams(kernel));
  out.samples = longSamples(out.params, kernel.signature.params.size(), samples);
  return out;
}

std::optional<PitchMismatch> pitchMismatch(const ir::Kernel& kernel, const ir::Array& input,
                                           const ir::Array& output, const JudgedSamples& judged) {
  const ir::Section* x = chunkedSection(input);
  if (x == nullptr || output.sections.size() != 1 || !output.sections[0].chunked())
    return std::nullopt;
  const ir::Section& y = output.sections[0];
  const std::vector<ir::Parameter>& params = kernel.signature.params;
  std::vector<const ir::IndexUse*> writes;
  for (const ir::IndexUse& use : params[output.param].indexUses)
    if (use.write && !use.base.empty())
      writes.push_back(&use);
  for (const ir::IndexUse& read : params[input.param].indexUses) {
    if (read.write || read.base.empty())
      continue;
    for (const ParamSample& sample : judged.samples) {
      const std::optional<Wide> sectionPitch = sectionMove(*x, sample),
                                stride = sectionMove(y, sample);
      if (!sectionPitch || !stride)
        continue;
      // Is some write read at the section's pitch P here? Which one is read at another?
      bool matched = false;
      std::optional<std::pair<RowPitch, const ir::IndexUse*>> other;
      for (const ir::IndexUse* write : writes) {
        const std::optional<RowPitch> q = readPitch(read, *write, *stride, sample);
        matched = matched || (q && q->pitch == *sectionPitch);
        if (q && q->pitch != *sectionPitch && !other)
          other.emplace(*q, write);
      }
      if (matched || !other)
        continue;
      PitchMismatch out{&read,
                        other->second,
                        static_cast<long long>(other->first.pitch),
                        static_cast<long long>(*sectionPitch),
                        sample,
                        judged.params,
                        std::nullopt};
      // Q as the read's term over m, where m is the same at every sample (c[i * NJ + j] beside
      // c[lo * NJ : hi * NJ]: 1).
      const ir::OffsetTerm& term = read.baseScales[other->first.readTerm];
      const bool sameRows =
          std::all_of(judged.samples.begin(), judged.samples.end(), [&](const ParamSample& at) {
            const std::optional<Wide> by = sectionMove(y, at);
            const std::optional<RowPitch> q =
                by ? readPitch(read, *other->second, *by, at) : std::nullopt;
            return q && q->readTerm == other->first.readTerm && q->rows == other->first.rows;
          });
      if (sameRows && term.coefficient % other->first.rows == 0)
        out.pitchTerm = ir::OffsetTerm{term.coefficient / static_cast<long long>(other->first.rows),
                                       term.params};
      return out;
    }
  }
  return std::nullopt;
}

std::optional<CrossingWrite> crossingWrite(const ir::Kernel& kernel, const ir::Array& input,
                                           const ir::Array& output, const JudgedSamples& judged) {
  const ir::Section* x = chunkedSection(input);
  if (x == nullptr || output.sections.size() != 1 || !output.sections[0].chunked() ||
      judged.samples.empty())
    return std::nullopt;
  const ir::Section& y = output.sections[0];
  const std::vector<ir::Parameter>& params = kernel.signature.params;
  const auto unique = [](const std::vector<std::string>& atoms) {
    return std::set<std::string>(atoms.begin(), atoms.end()).size() == atoms.size();
  };
  for (const ir::IndexUse& write : params[output.param].indexUses) {
    if (!write.write || write.base.empty() || !unique(write.baseAtoms))
      continue;
    for (const ir::IndexUse& read : params[input.param].indexUses) {
      if (read.write || read.base.empty() || !unique(read.baseAtoms))
        continue;
      std::optional<CrossingWrite> best;
      for (size_t j = 0; j < write.baseAtoms.size(); ++j) {
        const auto k = std::find(read.baseAtoms.begin(), read.baseAtoms.end(), write.baseAtoms[j]);
        if (k == read.baseAtoms.end())
          continue;
        const ir::OffsetTerm& readTerm = read.baseScales[k - read.baseAtoms.begin()];
        // At every sample: the write moves more than one whole row of the output (a multiple of
        // S, |step| > |S|: a step of one row is the partition's, where the input's section is the
        // one to blame), the read less than a row of the input (0 < |step| < |P|).
        std::optional<CrossingWrite> found;
        for (const ParamSample& sample : judged.samples) {
          const std::optional<Wide> s = sectionMove(y, sample), p = sectionMove(*x, sample),
                                    w = value({write.baseScales[j]}, {}, sample),
                                    r = value({readTerm}, {}, sample);
          const auto magnitude = [](Wide v) { return v < 0 ? -v : v; };
          if (!s || !p || !w || !r || *s == 0 || *w % *s != 0 || magnitude(*w) <= magnitude(*s) ||
              *r == 0 || magnitude(*r) >= magnitude(*p)) {
            found.reset();
            break;
          }
          if (!found)
            found = CrossingWrite{&read,
                                  &write,
                                  write.baseAtoms[j],
                                  static_cast<long long>(*w),
                                  static_cast<long long>(*r),
                                  static_cast<long long>(*s),
                                  static_cast<long long>(*p),
                                  sample,
                                  judged.params};
        }
        // Of several such terms, the plainest to name (threadIdx.x before blockDim.x * blockIdx.x).
        if (found && (!best || found->atoms.size() < best->atoms.size()))
          best = std::move(found);
      }
      if (best)
        return best;
    }
  }
  return std::nullopt;
}

std::optional<NeighbourRead> readOutsideSection(const ir::Kernel& kernel, const ir::Array& input,
                                                const ir::Array& output,
                                                const JudgedSamples& judgedSamples) {
  // The input's one chunked section; in range mode it may have others the whole call shares (a
  // column's level 0 beside its chunk's levels), which hold what they hold for every chunk.
  const bool offsetMode = kernel.mode == ir::ChunkMode::Offset;
  const ir::Section* chunked = chunkedSection(input);
  if (chunked == nullptr || output.sections.size() != 1 || !output.sections[0].chunked() ||
      (offsetMode && input.sections.size() != 1))
    return std::nullopt;
  const std::vector<ir::Parameter>& params = kernel.signature.params;
  const std::set<int> perChunk = perChunkParams(kernel);
  std::map<std::string, std::vector<const ir::IndexUse*>> writes, reads;
  for (const ir::IndexUse& use : params[output.param].indexUses)
    if (use.write && !use.base.empty())
      writes[use.base].push_back(&use);
  for (const ir::IndexUse& use : params[input.param].indexUses)
    if (!use.write && !use.base.empty())
      reads[use.base].push_back(&use);
  const ir::Section& x = *chunked;
  const bool shared = input.sections.size() > 1;
  const ir::Section& y = output.sections[0];
  const std::vector<ParamSample>& judged = judgedSamples.samples;
  // The stride S of y's section per chunk unit (w for rows y[lo * w : hi * w]).
  std::vector<std::optional<long long>> stride;
  for (const ParamSample& sample : judged) {
    const std::optional<AffineForm> form = affineForm(*y.begin, sample);
    stride.push_back(form ? std::optional<long long>(std::max(form->lo, 1LL)) : std::nullopt);
  }

  // Refused only where every sample leaves the section: parameters sampled apart from each other
  // (a rotary kernel's half and its row's dim) would otherwise condemn what the caller's values
  // never do. `reach` measures one sample and chunk, given where the base of a writing thread
  // may lie (ox, oy: offset mode counts each array's index from its section's begin).
  using Measure = std::function<std::optional<Reach>(size_t k, long long lo, long long hi, Wide yb,
                                                     Wide ye, Wide ox, Wide oy)>;
  const auto judge = [&](const Measure& reach) -> std::optional<NeighbourRead> {
    std::optional<NeighbourRead> first;
    for (size_t k = 0; k < judged.size(); ++k)
      for (const auto& [lo, hi] : {std::pair<long long, long long>{1000, 2000}, {3000, 3001}}) {
        const ir::Environment env = environment(judged[k], lo, hi);
        const std::optional<Wide> xb = evaluated(x.begin, env), xe = evaluated(x.end, env),
                                  yb = evaluated(y.begin, env), ye = evaluated(y.end, env),
                                  before = evaluated(input.haloBefore, env),
                                  after = evaluated(input.haloAfter, env);
        if (!xb || !xe || !yb || !ye || !before || !after || *ye <= *yb)
          continue;
        const std::optional<Reach> r =
            reach(k, lo, hi, *yb, *ye, offsetMode ? *xb : 0, offsetMode ? *yb : 0);
        if (!r)
          continue;
        const Wide needBefore = floorTo(*xb - r->before + (r->tie - 1) / 2, r->tie),
                   needAfter = floorTo(r->after + 1 - *xe + (r->tie - 1) / 2, r->tie);
        // Elements [from, to) past the chunk's section that a shared section holds.
        const auto inShared = [&](Wide from, Wide to) {
          return std::any_of(
              input.sections.begin(), input.sections.end(), [&](const ir::Section& s) {
                const std::optional<Wide> b = evaluated(s.begin, env), e = evaluated(s.end, env);
                return !s.chunked() && b && e && *b <= from && to <= *e;
              });
        };
        const bool coveredBefore = needBefore <= *before || inShared(r->before, *xb - *before),
                   coveredAfter = needAfter <= *after || inShared(*xe + *after, r->after + 1);
        if (coveredBefore && coveredAfter)
          return std::nullopt;
        if (first)
          continue;
        NeighbourRead& out = first.emplace();
        out.before = !coveredBefore;
        out.read = out.before ? r->readBefore : r->readAfter;
        out.write = out.before ? r->writeBefore : r->writeAfter;
        out.haloBefore = static_cast<long long>(coveredBefore ? *before : needBefore);
        out.haloAfter = static_cast<long long>(coveredAfter ? *after : needAfter);
        out.sample = judged[k];
        out.params = judgedSamples.params;
      }
    return first;
  };

  // How far the reads of one base reach, given where the writes of another keep a thread's base
  // P: its writes y[P + d] lie in y's section, so P in [yb - oy - dmin, ye - oy - dmax - 1]; its
  // reads x[P * p / q + c] in [ox + P * p / q + cmin, ...]. A base whose every term moves in
  // whole strides (x[2 * i] beside y[2 * i], one thread per row at y[r * w]) is a multiple of the
  // stride: its reads are exact. One with a finer term (r * w + c) leaves the column to the
  // kernel's guards: its reach counts in whole strides, to the nearest (a column + 1 reaches no
  // row; - w + 1 reaches one), and it is compared at the same scale only. The base is a multiple
  // of its scales' greatest common divisor too (4 * i of a float4 view). `atChunk`: the offsets'
  // per-chunk terms take the chunk's own values (at another scale, or where they differ between
  // the uses); otherwise they are the same in every use and cancel.
  using Uses = std::vector<const ir::IndexUse*>;
  const auto measure = [&](const Uses& readUses, const Uses& writeUses, bool atChunk) -> Measure {
    return [&, readUses, writeUses, atChunk](size_t k, long long lo, long long hi, Wide yb, Wide ye,
                                             Wide ox, Wide oy) -> std::optional<Reach> {
      const ParamSample sample = atChunk ? forChunk(kernel, judged[k], lo, hi) : judged[k];
      const std::set<int> cancelled = atChunk ? std::set<int>{} : perChunk;
      const std::optional<std::pair<Wide, Wide>> pq =
          atChunk ? ratio(*readUses.front(), *writeUses.front(), judged[k])
                  : std::optional<std::pair<Wide, Wide>>{{1, 1}};
      if (!stride[k] || !pq)
        return std::nullopt;
      const Wide step = *stride[k];
      bool whole = true;
      Wide multiple = 0;
      for (const ir::OffsetTerm& term : writeUses.front()->baseScales) {
        const std::optional<Wide> scale = value({term}, {}, judged[k]);
        if (!scale)
          return std::nullopt;
        whole = whole && *scale % step == 0;
        multiple = gcd(multiple, *scale);
      }
      const std::optional<Extreme> c = extremes(readUses, cancelled, sample);
      const std::optional<Extreme> d = extremes(writeUses, cancelled, sample);
      if (!c || !d || multiple == 0 || (!whole && *pq != std::pair<Wide, Wide>{1, 1}))
        return std::nullopt;
      Wide lowest = yb - oy - d->min, highest = ye - oy - d->max - 1;
      for (const Wide by : {whole ? step : Wide{1}, multiple}) {
        lowest = -floorTo(-lowest, by);
        highest = floorTo(highest, by);
      }
      if (highest < lowest)
        return std::nullopt;
      // Each term of the read's base is p / q times the write's, so q divides the base.
      const auto [p, q] = *pq;
      const Wide first = p * lowest / q, last = p * highest / q;
      const bool forward = p > 0;
      Reach out{
          ox + std::min(first, last) + c->min, ox + std::max(first, last) + c->max, c->low, c->high,
          forward ? d->low : d->high,          forward ? d->high : d->low};
      if (!whole) // ties to no row: a rotary kernel's x[r * d + c + d / 2]
        out.tie = step;
      return out;
    };
  };

  for (const auto& read : reads) {
    const Uses& readUses = read.second;
    const auto same = writes.find(read.first);
    if (same != writes.end()) {
      const Uses& writeUses = same->second;
      const auto chunkTerms = perChunkTerms(*writeUses.front(), perChunk);
      bool comparable = true;
      for (const Uses* uses : {&readUses, &writeUses})
        for (const ir::IndexUse* use : *uses)
          comparable = comparable && perChunkTerms(*use, perChunk) == chunkTerms;
      // Beside a shared section, a read that does not move with the chunk as the write does (a
      // column's surface rho[p] beside dbloc[k * plane + p]) is the shared section's to hold.
      if (!comparable && shared)
        continue;
      if (std::optional<NeighbourRead> found = judge(measure(readUses, writeUses, !comparable)))
        return found;
      continue;
    }
    // A read at another scale than the writes (decimation's x[2 * i + 1] beside y[i], upsampling's
    // x[i] beside y[2 * i], a reversal's x[n - 1 - i]).
    if (shared)
      continue;
    for (const auto& write : writes)
      if (std::optional<NeighbourRead> found = judge(measure(readUses, write.second, true)))
        return found;
  }
  return std::nullopt;
}

} // namespace overlap::annotation
