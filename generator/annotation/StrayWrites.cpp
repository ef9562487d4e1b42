#include "annotation/StrayWrites.h"

#include <algorithm>
#include <cstdlib>
#include <set>

namespace overlap::annotation {
namespace {

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

} // namespace

std::optional<StrayWrite> strayWrite(const ir::Kernel& kernel, const ir::Array& output,
                                     const JudgedSamples& judged) {
  if (output.sections.size() != 1 || !output.sections[0].chunked() || judged.samples.empty())
    return std::nullopt;
  // Range mode's begin gives the write's step per unit; offset mode counts from the chunk's
  // section, where only the terms of other dimensions than the partition's are judged.
  const bool range = kernel.mode == ir::ChunkMode::Range && kernel.beginParam >= 0;
  const ir::Section& y = output.sections[0];
  for (const ir::IndexUse& write : kernel.signature.params[output.param].indexUses) {
    if (!write.write)
      continue;
    std::optional<StrayWrite> pitch, across;
    bool pitchEverywhere = range, acrossEverywhere = true;
    for (const ParamSample& sample : judged.samples) {
      const std::optional<AffineForm> form = affineForm(*y.begin, sample);
      const long long s = form ? form->lo + form->hi : 0;
      const std::optional<long long> b = range ? beginStep(write, kernel, sample) : s;
      if (!form || !b || *b == 0) {
        pitchEverywhere = acrossEverywhere = false;
        break;
      }
      pitchEverywhere = pitchEverywhere && *b != s;
      if (pitchEverywhere && !pitch)
        pitch = StrayWrite{&write, *b, s, {}, 0, sample, judged.params};
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
                            judged.params};
    }
    if (pitchEverywhere && pitch)
      return pitch;
    if (acrossEverywhere && across)
      return across;
  }
  return std::nullopt;
}

} // namespace overlap::annotation
