// CPU reference of btree.cu (findK): the same descent (count of node keys <= query, follow that
// child when it is a valid node) and the same leaf lookup. Integers only: bit for bit.
// prepare builds a valid tree from the scalar arguments (random bytes are not one) and random
// queries, about half of them present.
#include "CorpusCase.h"

#include <cstdint>
#include <random>
#include <vector>

namespace {

using overlap::corpus::arg;
using overlap::corpus::CallArgs;

constexpr int kOrder = 32;

struct knode { // layout of the kernel file's knode
  int num_keys;
  bool is_leaf;
  int keys[kOrder];
  int indices[kOrder + 1];
};

struct record {
  int value;
};

// Entry point: findK(long height, const knode* knodesD, long knodes_elem,
// const record* recordsD, long* currKnodeD, long* offsetD, const int* keysD, record* ansD,
// long count, long records_elem).
void reference(CallArgs args) {
  const long height = arg<long>(args, 0);
  const knode* knodes = arg<const knode*>(args, 1);
  const long knodes_elem = arg<long>(args, 2);
  const record* records = arg<const record*>(args, 3);
  long* currKnode = arg<long*>(args, 4);
  long* offset = arg<long*>(args, 5);
  const int* keys = arg<const int*>(args, 6);
  record* ans = arg<record*>(args, 7);
  const long count = arg<long>(args, 8);
  for (long q = 0; q < count; ++q) {
    const int key = keys[q];
    long node = currKnode[q];
    for (long level = 0; level < height; ++level) {
      const knode& current = knodes[node];
      int notGreater = 0;
      for (int t = 0; t < kOrder; ++t)
        notGreater += (t < current.num_keys && current.keys[t] <= key) ? 1 : 0;
      const long child = current.indices[notGreater];
      if (child < knodes_elem)
        node = child;
    }
    const knode& leaf = knodes[node];
    int found = -1;
    for (int t = 0; t < leaf.num_keys; ++t)
      if (leaf.keys[t] == key)
        found = t;
    currKnode[q] = node;
    offset[q] = found;
    ans[q].value = found >= 0 ? records[leaf.indices[found]].value : -1;
  }
}

// A complete tree of `height` levels below the root with the largest fanout f <= 32 whose
// 1 + f + ... + f^height nodes fit in knodes_elem (f = 1, a chain, if none does). Leaf j holds
// 31 keys, 2 * (32 * j + s) for s < 31, each pointing at record (32 * j + s) % records_elem.
// An internal node's separators are the first keys of its children 1 .. f - 1. Queries are
// random integers over the key range, even (mostly present) and odd (absent); every query
// starts at the root.
void prepare(CallArgs args, std::uint64_t seed) {
  const long height = arg<long>(args, 0);
  knode* knodes = arg<knode*>(args, 1);
  const long knodes_elem = arg<long>(args, 2);
  long* currKnode = arg<long*>(args, 4);
  int* keys = arg<int*>(args, 6);
  const long count = arg<long>(args, 8);
  const long records_elem = arg<long>(args, 9);

  auto nodes_for = [height](long f) {
    long total = 0, level = 1;
    for (long l = 0; l <= height; ++l, level *= f)
      total += level;
    return total;
  };
  long f = 1;
  for (long candidate = kOrder; candidate >= 2; --candidate)
    if (nodes_for(candidate) <= knodes_elem) {
      f = candidate;
      break;
    }

  for (long i = 0; i < knodes_elem; ++i) { // unused nodes: empty leaves
    knodes[i] = knode{};
    knodes[i].is_leaf = true;
  }
  std::vector<long> levelStart(height + 2, 0), levelWidth(height + 1, 1);
  for (long l = 1; l <= height; ++l)
    levelWidth[l] = levelWidth[l - 1] * f;
  for (long l = 0; l <= height; ++l)
    levelStart[l + 1] = levelStart[l] + levelWidth[l];

  for (long l = 0; l <= height; ++l) {
    long leavesBelow = 1; // leaves under one node of level l
    for (long k = l; k < height; ++k)
      leavesBelow *= f;
    for (long j = 0; j < levelWidth[l]; ++j) {
      knode& n = knodes[levelStart[l] + j];
      if (l == height) {
        n.is_leaf = true;
        n.num_keys = kOrder - 1;
        for (int s = 0; s < kOrder - 1; ++s) {
          const long slot = j * kOrder + s;
          n.keys[s] = static_cast<int>(2 * slot);
          n.indices[s] = static_cast<int>(slot % records_elem);
        }
      } else {
        n.is_leaf = false;
        n.num_keys = static_cast<int>(f - 1);
        for (long c = 0; c < f; ++c) {
          const long child = j * f + c;
          n.indices[c] = static_cast<int>(levelStart[l + 1] + child);
          if (c > 0)
            n.keys[c - 1] = static_cast<int>(2 * (child * (leavesBelow / f)) * kOrder);
        }
      }
    }
  }

  const long leaves = levelWidth[height];
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<long> query(-2, 2 * leaves * kOrder + 1);
  for (long q = 0; q < count; ++q) {
    keys[q] = static_cast<int>(query(rng));
    currKnode[q] = 0;
  }
}

} // namespace

OVERLAP_CORPUS_CASE(findK, "findK",
                    {{{"count", 1}},
                     {{"count", 3}},
                     {{"count", 1009}},
                     {{"count", 100001}},
                     {{"count", 1009}, {"height", 3}, {"knodes_elem", 1000}}},
                    {{"count", 4194304}}, // keys, offsets, nodes, answers: 4 M x 24 bytes
                    0.0, reference, prepare);
