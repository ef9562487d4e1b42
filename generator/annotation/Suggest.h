// "Did you mean ...?" for misspelled clause names, launch keys and parameter names.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace overlap::annotation {

// Levenshtein distance (insertions, deletions, substitutions).
unsigned editDistance(std::string_view a, std::string_view b);

// The candidate closest to `word` when it is at most `maxDistance` edits away, else empty. Ties
// go to the earlier candidate, so callers list the likelier ones first.
std::string closestMatch(std::string_view word, const std::vector<std::string>& candidates,
                         unsigned maxDistance = 2);

// "; did you mean 'x'?" or "" when nothing is close.
std::string didYouMean(std::string_view word, const std::vector<std::string>& candidates,
                       unsigned maxDistance = 2);

} // namespace overlap::annotation
