// CPU reference of kmeans.cu (kmeans::findNearestCluster). prepare quantizes features and
// centroids to multiples of 1/8 in [-4, 4): every difference, square and partial sum is then exact
// in float, so the GPU's fmaf contraction of dist += diff * diff cannot move a near-tie and the
// memberships (integers) and the changed count must match bit for bit. With arbitrary floats a
// one-ulp difference between two nearly equidistant centroids would flip an integer result.
#include "CorpusCase.h"

#include <cfloat>
#include <cstdint>
#include <random>

namespace {

using overlap::corpus::arg;
using overlap::corpus::CallArgs;

// Entry point: findNearestCluster(const float* objects, const float* clusters, int* membership,
// unsigned* delta, int numObjs, int numCoords, int numClusters).
void reference(CallArgs args) {
  const float* objects = arg<const float*>(args, 0);
  const float* clusters = arg<const float*>(args, 1);
  int* membership = arg<int*>(args, 2);
  unsigned int* delta = arg<unsigned int*>(args, 3);
  const int numObjs = arg<int>(args, 4), numCoords = arg<int>(args, 5),
            numClusters = arg<int>(args, 6);
  for (int i = 0; i < numObjs; ++i) {
    const float* point = objects + static_cast<long long>(i) * numCoords;
    int nearest = 0;
    float minDist = FLT_MAX;
    for (int c = 0; c < numClusters; ++c) {
      float dist = 0.0f;
      for (int f = 0; f < numCoords; ++f) {
        const float diff = point[f] - clusters[c * numCoords + f];
        dist += diff * diff;
      }
      if (dist < minDist) {
        minDist = dist;
        nearest = c;
      }
    }
    if (membership[i] != nearest) {
      ++*delta;
      membership[i] = nearest;
    }
  }
}

void prepare(CallArgs args, std::uint64_t seed) {
  float* objects = arg<float*>(args, 0);
  float* clusters = arg<float*>(args, 1);
  int* membership = arg<int*>(args, 2);
  const int numObjs = arg<int>(args, 4), numCoords = arg<int>(args, 5),
            numClusters = arg<int>(args, 6);
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> eighths(-32, 31), cluster(0, numClusters - 1);
  for (long long i = 0; i < static_cast<long long>(numObjs) * numCoords; ++i)
    objects[i] = eighths(rng) / 8.0f;
  for (int i = 0; i < numClusters * numCoords; ++i)
    clusters[i] = eighths(rng) / 8.0f;
  // Previous memberships: valid cluster indices, so some points keep theirs (random ints would
  // be out of range: valid input, but every point would count as changed).
  for (int i = 0; i < numObjs; ++i)
    membership[i] = cluster(rng);
}

} // namespace

OVERLAP_CORPUS_CASE(findNearestCluster, "kmeans::findNearestCluster",
                    {{{"numObjs", 1}, {"numCoords", 4}, {"numClusters", 5}},
                     {{"numObjs", 3}, {"numCoords", 16}, {"numClusters", 32}},
                     {{"numObjs", 1009}, {"numCoords", 3}, {"numClusters", 7}},
                     {{"numObjs", 65537}, {"numCoords", 34}, {"numClusters", 50}}},
                    {{"numObjs", 1048576}, {"numCoords", 16}, {"numClusters", 32}}, // 64 MiB
                    0.0, reference, prepare);
