// CPU reference of pnpoly.cu (pnpoly_multi). The crossing test evaluates
// (vk.x - vj.x) * (p.y - vj.y) / (vk.y - vj.y) + vj.x: a product, a correctly rounded division
// (nvcc's default -prec-div=true) and a sum, with nothing the GPU can contract into an fma (the
// product feeds the division, not the sum), so the GPU computes exactly these roundings: bit for
// bit. which may be null (optional): then only bitmap is computed.
#include "CorpusCase.h"

#include <vector_types.h>

#include <cmath>
#include <cstdint>
#include <random>

namespace {

using overlap::corpus::arg;
using overlap::corpus::CallArgs;

// Entry point: pnpoly_multi(int* bitmap, int* which, const float2* points,
// const float2* vertices, const int* polyStart, int n, int numPolygons, int numVertices).
void reference(CallArgs args) {
  int* bitmap = arg<int*>(args, 0);
  int* which = arg<int*>(args, 1);
  const float2* points = arg<const float2*>(args, 2);
  const float2* vertices = arg<const float2*>(args, 3);
  const int* polyStart = arg<const int*>(args, 4);
  const int n = arg<int>(args, 5), numPolygons = arg<int>(args, 6);
  for (int i = 0; i < n; ++i) {
    const float2 p = points[i];
    int containing = 0, first = -1;
    for (int poly = 0; poly < numPolygons; ++poly) {
      const int begin = polyStart[poly], end = polyStart[poly + 1];
      bool inside = false;
      for (int j = begin, k = end - 1; j < end; k = j++) {
        const float2 vj = vertices[j], vk = vertices[k];
        if ((vj.y > p.y) != (vk.y > p.y) &&
            p.x < (vk.x - vj.x) * (p.y - vj.y) / (vk.y - vj.y) + vj.x)
          inside = !inside;
      }
      if (inside) {
        ++containing;
        if (first < 0)
          first = poly;
      }
    }
    bitmap[i] = containing;
    if (which != nullptr)
      which[i] = first;
  }
}

// Random bytes make neither offsets nor coordinates. The numVertices vertices are split as evenly
// as possible between the polygons (polyStart sorted, from 0 to numVertices); each polygon is a
// star-shaped, simple polygon around a random centre in [-1, 1]^2 (vertices at increasing angles,
// random radii 0.2 to 0.8); the points are uniform in [-1.5, 1.5]^2.
void prepare(CallArgs args, std::uint64_t seed) {
  float2* points = arg<float2*>(args, 2);
  float2* vertices = arg<float2*>(args, 3);
  int* polyStart = arg<int*>(args, 4);
  const int n = arg<int>(args, 5), numPolygons = arg<int>(args, 6), numVertices = arg<int>(args, 7);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> centre(-1.0f, 1.0f), radius(0.2f, 0.8f), where(-1.5f, 1.5f);
  for (int poly = 0; poly <= numPolygons; ++poly)
    polyStart[poly] = static_cast<int>(static_cast<long long>(numVertices) * poly / numPolygons);
  for (int poly = 0; poly < numPolygons; ++poly) {
    const float cx = centre(rng), cy = centre(rng);
    const int begin = polyStart[poly], count = polyStart[poly + 1] - begin;
    for (int v = 0; v < count; ++v) {
      const double angle = 2.0 * 3.14159265358979323846 * v / count;
      const float r = radius(rng);
      vertices[begin + v] = float2{cx + r * static_cast<float>(std::cos(angle)),
                                   cy + r * static_cast<float>(std::sin(angle))};
    }
  }
  for (int i = 0; i < n; ++i)
    points[i] = float2{where(rng), where(rng)};
}

} // namespace

OVERLAP_CORPUS_CASE(pnpoly_multi, "pnpoly_multi",
                    {{{"n", 1}, {"numPolygons", 3}, {"numVertices", 20}},
                     {{"n", 3}, {"numPolygons", 8}, {"numVertices", 600}},
                     {{"n", 1009}, {"numPolygons", 5}, {"numVertices", 61}},
                     {{"n", 123457}, {"numPolygons", 8}, {"numVertices", 600}},
                     {{"n", 1009}, {"numPolygons", 4}, {"numVertices", 6}}},    // 1-2 vertices each
                    {{"n", 2097152}, {"numPolygons", 8}, {"numVertices", 256}}, // 16 + 8 + 8 MiB
                    0.0, reference, prepare);
