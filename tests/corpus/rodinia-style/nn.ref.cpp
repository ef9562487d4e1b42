// CPU reference of nn.cu (euclid). The GPU contracts dLat*dLat + dLng*dLng into one fmaf, this
// reference does not; sqrtf is correctly rounded on both: relative tolerance 1e-6 (one rounding
// of a sum of two non-negative terms, halved by the square root).
#include "CorpusCase.h"

#include <cmath>
#include <cstdint>
#include <random>

namespace {

using overlap::corpus::arg;
using overlap::corpus::CallArgs;

struct LatLong { // layout of the kernel file's LatLong
  float lat;
  float lng;
};

// Entry point: euclid(LatLong* d_locations, float* d_distances, int numRecords, float lat,
// float lng).
void reference(CallArgs args) {
  const LatLong* records = arg<const LatLong*>(args, 0);
  float* distances = arg<float*>(args, 1);
  const int n = arg<int>(args, 2);
  const float lat = arg<float>(args, 3), lng = arg<float>(args, 4);
  for (int i = 0; i < n; ++i) {
    const float dLat = lat - records[i].lat;
    const float dLng = lng - records[i].lng;
    distances[i] = std::sqrt(dLat * dLat + dLng * dLng);
  }
}

// Struct arrays are filled with random bytes: real coordinates instead.
void prepare(CallArgs args, std::uint64_t seed) {
  LatLong* records = arg<LatLong*>(args, 0);
  const int n = arg<int>(args, 2);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> lat(-90.0f, 90.0f), lng(-180.0f, 180.0f);
  for (int i = 0; i < n; ++i)
    records[i] = LatLong{lat(rng), lng(rng)};
}

} // namespace

OVERLAP_CORPUS_CASE(euclid, "euclid",
                    {{{"numRecords", 1}, {"lat", 30.0}, {"lng", 90.0}},
                     {{"numRecords", 3}, {"lat", -12.5}, {"lng", 45.25}},
                     {{"numRecords", 1009}, {"lat", 30.0}, {"lng", 90.0}},
                     {{"numRecords", 99991}, {"lat", 0.0}, {"lng", 0.0}}},
                    // 2^24 records (128 + 64 MiB): more than 65535 blocks of 256, so grid.y = 2
                    {{"numRecords", 16777216}, {"lat", 30.0}, {"lng", 90.0}}, 1e-6, reference,
                    prepare);
