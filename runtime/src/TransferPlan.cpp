#include "overlap/TransferPlan.h"

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <map>

namespace overlap {
namespace {

constexpr int kBroadcastOwner = -1;

// The elements of one array that copies already issued hold, as disjoint intervals, each with the
// chunk whose copy brought it (kBroadcastOwner for the broadcast copies).
class IssuedCopies {
public:
  // Marks `wanted` as needed by `owner`. Appends to *copies the parts nobody issued yet (they
  // become owner's) and to *owners the owners of the parts that were issued.
  void claim(Section wanted, int owner, std::vector<Section>* copies, std::vector<int>* owners) {
    if (wanted.empty())
      return;
    std::vector<Section> gaps;
    long long position = wanted.begin;
    auto it = intervals_.upper_bound(wanted.begin);
    if (it != intervals_.begin() && std::prev(it)->second.end > wanted.begin)
      --it;
    for (; it != intervals_.end() && it->first < wanted.end; ++it) {
      if (it->first > position)
        gaps.push_back({position, it->first});
      owners->push_back(it->second.owner);
      position = std::max(position, it->second.end);
    }
    if (position < wanted.end)
      gaps.push_back({position, wanted.end});
    for (const Section& gap : gaps)
      intervals_.emplace(gap.begin, Interval{gap.end, owner});
    copies->insert(copies->end(), gaps.begin(), gaps.end());
  }

private:
  struct Interval {
    long long end;
    int owner;
  };
  std::map<long long, Interval> intervals_; // keyed by begin
};

void appendMerged(int array, std::vector<Section> sections, std::vector<ArrayCopy>* out) {
  for (const Section& s : mergeSections(std::move(sections)))
    out->push_back({array, s});
}

} // namespace

std::vector<Section> mergeSections(std::vector<Section> sections) {
  sections.erase(
      std::remove_if(sections.begin(), sections.end(), [](const Section& s) { return s.empty(); }),
      sections.end());
  std::sort(sections.begin(), sections.end(),
            [](const Section& a, const Section& b) { return a.begin < b.begin; });
  std::vector<Section> merged;
  for (const Section& s : sections) {
    if (!merged.empty() && s.begin <= merged.back().end)
      merged.back().end = std::max(merged.back().end, s.end);
    else
      merged.push_back(s);
  }
  return merged;
}

TransferPlan planTransfers(const std::vector<ArrayTransferNeeds>& needs, int chunkCount,
                           bool shareAcrossChunks) {
  TransferPlan plan;
  plan.chunks.resize(static_cast<std::size_t>(std::max(chunkCount, 0)));
  std::vector<IssuedCopies> issued(needs.size());

  for (std::size_t i = 0; i < needs.size(); ++i) {
    const int array = static_cast<int>(i);
    if (needs[i].copyIn) {
      std::vector<Section> copies;
      std::vector<int> owners;
      for (const Section& s : mergeSections(needs[i].broadcast))
        issued[i].claim(s, kBroadcastOwner, &copies, &owners);
      appendMerged(array, std::move(copies), &plan.broadcastIn);
    }
    if (needs[i].copyOut)
      appendMerged(array, needs[i].broadcast, &plan.broadcastOut);
  }

  for (int c = 0; c < chunkCount; ++c) {
    ChunkTransfers& chunk = plan.chunks[static_cast<std::size_t>(c)];
    std::vector<int> owners;
    for (std::size_t i = 0; i < needs.size(); ++i) {
      if (!needs[i].copyIn && !needs[i].copyOut)
        continue;
      const std::vector<Section>& sections = needs[i].chunked[static_cast<std::size_t>(c)];
      const int array = static_cast<int>(i);
      if (needs[i].copyIn) {
        std::vector<Section> copies;
        // Unshared, a chunk claims against its own copies and the broadcast ones only.
        IssuedCopies own = shareAcrossChunks ? IssuedCopies() : issued[i];
        IssuedCopies& claims = shareAcrossChunks ? issued[i] : own;
        for (const Section& s : sections)
          claims.claim(s, c, &copies, &owners);
        appendMerged(array, std::move(copies), &chunk.copyIn);
      }
      if (needs[i].copyOut)
        appendMerged(array, sections, &chunk.copyOut);
    }
    // Broadcast copies are awaited by every kernel anyway; the chunk's own copies precede its
    // kernel on its stream.
    owners.erase(std::remove_if(owners.begin(), owners.end(),
                                [c](int owner) { return owner == kBroadcastOwner || owner == c; }),
                 owners.end());
    std::sort(owners.begin(), owners.end());
    owners.erase(std::unique(owners.begin(), owners.end()), owners.end());
    for (int owner : owners)
      plan.chunks[static_cast<std::size_t>(owner)].awaited = true;
    chunk.waitsFor = std::move(owners);
  }
  return plan;
}

} // namespace overlap
