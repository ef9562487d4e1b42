#include "annotation/StrayWrites.h"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <set>

namespace overlap::annotation {
namespace {

// Products of sampled values: no overflow to check.
__extension__ typedef __int128 Wide;

// The product of the term's parameters other than `skip` at `sample`, times its coefficient;
// nullopt where one has no value or the product grows past what a sample can mean.
std::optional<long long> valueWithout(const ir::OffsetTerm& term, int skip,
                                      const ParamSample& sample) {
  long long product = term.coefficient;
  for (int param : term.params) {
    if (param == skip)
      continue;
    if (param < 0 || static_cast<size_t>(param) >= sample.size() || !sample[param] ||
        std::llabs(*sample[param]) > (1LL << 20) || std::llabs(product) > (1LL << 40))
      return std::nullopt;
    product *= *sample[param];
  }
  return product;
}

// B: the coefficient of the begin parameter in the write's offset; nullopt where a term names it
// twice or beside the end (not a plain per-unit step) or a parameter has no value.
std::optional<long long> beginStep(const ir::IndexUse& write, const ir::Kernel& kernel,
                                   const ParamSample& sample) {
  long long step = 0;
  for (const ir::OffsetTerm& term : write.offset) {
    const auto begins = std::count(term.params.begin(), term.params.end(), kernel.beginParam);
    if (begins == 0)
      continue;
    if (begins > 1 || std::count(term.params.begin(), term.params.end(), kernel.endParam) > 0)
      return std::nullopt;
    const std::optional<long long> v = valueWithout(term, kernel.beginParam, sample);
    if (!v)
      return std::nullopt;
    step += *v;
  }
  return step;
}

// 'x', 'y' or 'z' where every atom of the term is a CUDA built-in of that dimension
// ("blockDim.y * blockIdx.y"); 0 otherwise (a loop's variable, dimensions mixed).
char dimensionOf(const std::string& atoms) {
  char dimension = 0;
  size_t pos = 0;
  while (pos <= atoms.size()) {
    const size_t end = std::min(atoms.find(" * ", pos), atoms.size());
    const std::string atom = atoms.substr(pos, end - pos);
    const size_t dot = atom.find('.');
    if (dot == std::string::npos || dot + 2 != atom.size() || atom.find('#') != std::string::npos)
      return 0;
    const char d = atom.back();
    if (dimension != 0 && d != dimension)
      return 0;
    dimension = d;
    pos = end + 3;
  }
  return dimension;
}

// At one sample: a term of another dimension than the partition's that steps the write by
// several whole rows of the section, farther than any step of the partition's own dimension
// (its index into write.baseAtoms); nullopt where there is none or the partition's dimension is
// not clear. That dimension is the one whose grid grows with the chunk (len), the x of a
// grid-stride launch, or else that of the smallest whole-row step. A term within the span of the
// partition's coarser terms (a block of (32, 2) threads flattened by hand, blockIdx.x * 64 +
// threadIdx.y * 32 + threadIdx.x) stays in the chunk's own elements.
std::optional<size_t> acrossRows(const ir::Kernel& kernel, const ir::IndexUse& write,
                                 long long section, const ParamSample& sample) {
  const auto gridOf = [&kernel](char dimension) -> const ir::ExprPtr& {
    return kernel.launch.grid[static_cast<size_t>(dimension - 'x')];
  };
  // A dimension the launch leaves at one block of one thread has no steps.
  const auto single = [&kernel, &gridOf](char dimension) {
    const auto one = [](const ir::ExprPtr& e) {
      return !e || ir::evaluate(*e, ir::Environment{}) == std::optional<long long>(1);
    };
    return dimension != 'x' && !kernel.launch.gridStride && one(gridOf(dimension)) &&
           one(kernel.launch.block[static_cast<size_t>(dimension - 'x')]);
  };
  const auto coversTheChunk = [&gridOf](char dimension) {
    return gridOf(dimension) && ir::dependsOnChunk(*gridOf(dimension));
  };
  std::vector<std::pair<size_t, long long>> steps; // every dimensional term's
  for (size_t j = 0; j < write.baseAtoms.size(); ++j) {
    const std::optional<long long> step = valueWithout(write.baseScales[j], -1, sample);
    if (!step)
      return std::nullopt;
    const char dimension = dimensionOf(write.baseAtoms[j]);
    if (*step != 0 && dimension != 0 && !single(dimension))
      steps.emplace_back(j, std::llabs(*step));
  }
  const auto wholeRows = [section](long long step) { return step % section == 0; };
  std::set<char> growing;
  for (const char dimension : {'x', 'y', 'z'})
    if (coversTheChunk(dimension))
      growing.insert(dimension);
  char partition = kernel.launch.gridStride ? 'x' : growing.size() == 1 ? *growing.begin() : 0;
  if (partition == 0) {
    std::optional<std::pair<size_t, long long>> smallest;
    for (const auto& [j, step] : steps)
      if (wholeRows(step) && (!smallest || step < smallest->second))
        smallest = std::make_pair(j, step);
    if (!smallest)
      return std::nullopt;
    partition = dimensionOf(write.baseAtoms[smallest->first]);
    for (const auto& [j, step] : steps)
      if (wholeRows(step) && step == smallest->second &&
          dimensionOf(write.baseAtoms[j]) != partition)
        return std::nullopt; // two dimensions alike: which is the partition's is not clear
  }
  long long span = std::llabs(section); // the partition's farthest step
  for (const auto& [j, step] : steps)
    if (dimensionOf(write.baseAtoms[j]) == partition)
      span = std::max(span, step);
  std::optional<size_t> out; // of several, the plainest to name (threadIdx.x)
  for (const auto& [j, step] : steps) {
    const char dimension = dimensionOf(write.baseAtoms[j]);
    if (dimension != partition && wholeRows(step) && step > span && growing.count(dimension) == 0 &&
        (!out || write.baseAtoms[j].size() < write.baseAtoms[*out].size()))
      out = j;
  }
  return out;
}

// The grid dimension that grows with the chunk (its grid mentions len, with no min or max that
// caps it): the partition's; 0 where there is not exactly one.
char growingDimension(const ir::Kernel& kernel) {
  const std::function<bool(const ir::Expr&)> capped = [&](const ir::Expr& e) {
    return e.kind == ir::ExprKind::Min || e.kind == ir::ExprKind::Max ||
           std::any_of(e.operands.begin(), e.operands.end(),
                       [&](const ir::ExprPtr& operand) { return capped(*operand); });
  };
  char out = 0;
  for (const char dimension : {'x', 'y', 'z'}) {
    const ir::ExprPtr& grid = kernel.launch.grid[static_cast<size_t>(dimension - 'x')];
    if (!grid || !ir::dependsOnChunk(*grid))
      continue;
    if (out != 0 || capped(*grid))
      return 0;
    out = dimension;
  }
  return kernel.launch.gridStride ? 0 : out;
}

// Offset mode's step of the write per unit of the partition, from its one term in the blocks of
// the partition's dimension (blockIdx.y, blockDim.x * blockIdx.x): that term's step per block
// times the grid's blocks per unit, measured over a long chunk. As (step per block, blocks, units)
// so that rounding up to whole blocks stays exact; nullopt where it cannot be read.
struct BlockStep {
  long long perBlock = 0;
  long long blocks = 0;
  long long units = 0;
  size_t term = 0;
};
std::optional<BlockStep> blockStep(const ir::Kernel& kernel, const ir::IndexUse& write,
                                   const ParamSample& sample) {
  const char dimension = growingDimension(kernel);
  if (dimension == 0)
    return std::nullopt;
  const size_t d = static_cast<size_t>(dimension - 'x');
  const std::string blockIdx = std::string("blockIdx.") + dimension;
  std::optional<BlockStep> out;
  for (size_t j = 0; j < write.baseAtoms.size(); ++j) {
    const std::string& atoms = write.baseAtoms[j];
    if (atoms.find(blockIdx) == std::string::npos)
      continue;
    if (out || dimensionOf(atoms) != dimension ||
        (atoms != blockIdx && atoms != std::string("blockDim.") + dimension + " * " + blockIdx))
      return std::nullopt;
    const std::optional<long long> scale = valueWithout(write.baseScales[j], -1, sample);
    std::optional<long long> threads = 1;
    if (atoms != blockIdx && kernel.launch.block[d])
      threads =
          ir::evaluate(*kernel.launch.block[d], environment(sample, std::nullopt, std::nullopt));
    // A chunk long enough for every block to fill (divisible by all small blocks and granules).
    const long long units = 1LL << 12;
    const std::optional<long long> blocks =
        ir::evaluate(*kernel.launch.grid[d], environment(sample, 0, units * 45045));
    if (!scale || !threads || !blocks || *blocks <= 0 || std::llabs(*scale) > (1LL << 30) ||
        *threads > (1LL << 20))
      return std::nullopt;
    out = BlockStep{*scale * *threads, *blocks, units * 45045, j};
  }
  return out;
}

// Whether a caller may pass values for which the section moves `step` per unit, where the step
// is a constant: ggml's soft_max_f32<ncols_template = 1024> writes rows 1024 apart beside
// dst[lo * ncols_par : hi * ncols_par], right for the callers of that instantiation, who pass
// ncols_par = 1024. A parameter of the section's move, set to the value (2 or more) that makes it
// `step` where the move is linear in it.
bool reachable(const ir::Section& section, long long step, const std::vector<int>& params,
               const ParamSample& sample) {
  for (int p : params) {
    if (static_cast<size_t>(p) >= sample.size() || !sample[p])
      continue;
    ParamSample next = sample;
    *next[p] += 1;
    const std::optional<long long> at = sectionMove(section, sample),
                                   after = sectionMove(section, next);
    if (!at || !after || *after == *at)
      continue;
    const long long slope = *after - *at, base = *at - slope * *sample[p];
    if ((step - base) % slope != 0 || (step - base) / slope < 2)
      continue;
    ParamSample there = sample;
    there[p] = (step - base) / slope;
    if (sectionMove(section, there) == std::optional<long long>(step))
      return true;
  }
  return false;
}

} // namespace

std::optional<StrayWrite> strayWrite(const ir::Kernel& kernel, const ir::Array& output,
                                     const JudgedSamples& judged) {
  if (output.sections.size() != 1 || !output.sections[0].chunked() || judged.samples.empty())
    return std::nullopt;
  // Range mode's begin gives the write's step per unit; offset mode's is read from the grid
  // (blockStep).
  const bool range = kernel.mode == ir::ChunkMode::Range && kernel.beginParam >= 0;
  const bool offset = kernel.mode == ir::ChunkMode::Offset;
  const ir::Section& y = output.sections[0];
  for (const ir::IndexUse& write : kernel.signature.params[output.param].indexUses) {
    if (!write.write)
      continue;
    const bool loopFree =
        std::all_of(write.baseAtoms.begin(), write.baseAtoms.end(),
                    [](const std::string& atoms) { return dimensionOf(atoms) != 0; });
    std::optional<StrayWrite> pitch, across;
    bool pitchEverywhere = range || offset, acrossEverywhere = true;
    std::vector<long long> steps; // B at each sample
    for (const ParamSample& sample : judged.samples) {
      const std::optional<long long> move = sectionMove(y, sample);
      const long long s = move.value_or(0);
      const std::optional<long long> b = range ? beginStep(write, kernel, sample) : s;
      if (!move || !b || *b == 0) {
        pitchEverywhere = acrossEverywhere = false;
        break;
      }
      if (range) {
        steps.push_back(*b);
        pitchEverywhere = pitchEverywhere && *b != s;
        if (pitchEverywhere && !pitch)
          pitch = StrayWrite{&write, *b, s, {}, 0, sample, judged.params, {}};
      } else if (offset) {
        // Short by more than the last block's rounding: perBlock * blocks against s * units. A
        // grid that launches more threads than the chunk has elements may leave the extra ones
        // to the kernel's guard (if (4 * i + 3 < n)), and a loop over rows (a variable of the
        // write's) may cover what the grid does not: neither is judged.
        const std::optional<BlockStep> step = blockStep(kernel, write, sample);
        const Wide moved = step ? Wide{step->perBlock} * step->blocks : 0,
                   wanted = step ? Wide{s} * step->units : 0;
        const Wide magnitude = moved < 0 ? -moved : moved, span = wanted < 0 ? -wanted : wanted;
        pitchEverywhere = pitchEverywhere && step && s != 0 && loopFree &&
                          span - magnitude > std::llabs(step->perBlock);
        if (step)
          steps.push_back(static_cast<long long>(moved / step->units));
        if (pitchEverywhere && !pitch)
          pitch = StrayWrite{&write,
                             static_cast<long long>(moved / step->units),
                             s,
                             {},
                             0,
                             sample,
                             judged.params,
                             write.baseAtoms[step->term]};
      }
      const std::optional<size_t> j =
          *b == s && s != 0 ? acrossRows(kernel, write, s, sample) : std::nullopt;
      acrossEverywhere = acrossEverywhere && j.has_value();
      if (acrossEverywhere && !across)
        across = StrayWrite{&write,
                            *b,
                            s,
                            write.baseAtoms[*j],
                            *valueWithout(write.baseScales[*j], -1, sample),
                            sample,
                            judged.params,
                            {}};
    }
    // A constant step that some caller's values give the section too is theirs to keep.
    const bool constantStep = pitch && std::all_of(steps.begin(), steps.end(), [&](long long step) {
                                return step == pitch->beginStep;
                              });
    if (pitchEverywhere && pitch &&
        !(constantStep && reachable(y, pitch->beginStep, judged.params, pitch->sample)))
      return pitch;
    if (acrossEverywhere && across)
      return across;
  }
  return std::nullopt;
}

} // namespace overlap::annotation
