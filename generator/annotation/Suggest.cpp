#include "annotation/Suggest.h"

#include <algorithm>
#include <numeric>

namespace overlap::annotation {

unsigned editDistance(std::string_view a, std::string_view b) {
  std::vector<unsigned> row(b.size() + 1);
  std::iota(row.begin(), row.end(), 0u);
  for (size_t i = 1; i <= a.size(); ++i) {
    unsigned diagonal = row[0];
    row[0] = static_cast<unsigned>(i);
    for (size_t j = 1; j <= b.size(); ++j) {
      unsigned above = row[j];
      unsigned substitution = diagonal + (a[i - 1] == b[j - 1] ? 0 : 1);
      row[j] = std::min({above + 1, row[j - 1] + 1, substitution});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string closestMatch(std::string_view word, const std::vector<std::string>& candidates,
                         unsigned maxDistance) {
  std::string best;
  unsigned bestDistance = maxDistance + 1;
  for (const std::string& candidate : candidates) {
    unsigned distance = editDistance(word, candidate);
    // Replacing every letter of a short word is no spelling mistake; suggesting then is noise.
    if (distance >= word.size())
      continue;
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

std::string didYouMean(std::string_view word, const std::vector<std::string>& candidates,
                       unsigned maxDistance) {
  std::string match = closestMatch(word, candidates, maxDistance);
  return match.empty() ? std::string() : "; did you mean '" + match + "'?";
}

} // namespace overlap::annotation
