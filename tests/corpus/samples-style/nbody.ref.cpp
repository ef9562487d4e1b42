// CPU reference of nbody.cu (integrateBodies): the same sums in the same order (body 0 to
// numBodies - 1, the self term included). The GPU's rsqrtf is an approximation (up to 2 ulp)
// where this uses 1 / sqrtf, and the GPU contracts the products and sums into fmaf, so each of the
// numBodies terms differs by a few ulp and the acceleration differs by ~1e-6 of its size.
// Relative tolerance 1e-3 on vel and newPos: prepare starts every velocity component at
// magnitude 0.5 to 1 and the calls use a time step (1e-5) small enough that a step cannot bring a
// component near 0, where a per-element relative check would be meaningless; a wrong acceleration
// still moves the velocities by up to tens of percent.
// The large call has 32 K bodies, not tens of MB: the reference is O(numBodies^2).
#include "CorpusCase.h"

#include <vector_types.h>

#include <cmath>
#include <cstdint>
#include <random>

namespace {

using overlap::corpus::arg;
using overlap::corpus::CallArgs;

// Entry point: integrateBodies(float4* newPos, const float4* oldPos, float4* vel,
// unsigned deviceOffset, unsigned deviceNumBodies, float deltaTime, float damping,
// float softeningSquared, int numBodies). Bodies outside [deviceOffset, deviceOffset +
// deviceNumBodies) keep their newPos and vel.
void reference(CallArgs args) {
  float4* newPos = arg<float4*>(args, 0);
  const float4* oldPos = arg<const float4*>(args, 1);
  float4* vel = arg<float4*>(args, 2);
  const unsigned int first = arg<unsigned int>(args, 3), count = arg<unsigned int>(args, 4);
  const float dt = arg<float>(args, 5), damping = arg<float>(args, 6), soft2 = arg<float>(args, 7);
  const int n = arg<int>(args, 8);
  for (unsigned int i = first; i < first + count; ++i) {
    const float4 bi = oldPos[i];
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    for (int j = 0; j < n; ++j) {
      const float4 bj = oldPos[j];
      const float rx = bj.x - bi.x, ry = bj.y - bi.y, rz = bj.z - bi.z;
      const float distSqr = rx * rx + ry * ry + rz * rz + soft2;
      const float invDist = 1.0f / std::sqrt(distSqr);
      const float invDistCube = invDist * invDist * invDist;
      const float s = bj.w * invDistCube;
      ax += rx * s;
      ay += ry * s;
      az += rz * s;
    }
    float4 v = vel[i];
    v.x += ax * dt;
    v.y += ay * dt;
    v.z += az * dt;
    v.x *= damping;
    v.y *= damping;
    v.z *= damping;
    float4 p = bi;
    p.x += v.x * dt;
    p.y += v.y * dt;
    p.z += v.z * dt;
    newPos[i] = p;
    vel[i] = v;
  }
}

// float4 arrays are filled with random bytes: bodies in the cube [-1, 1]^3 with masses 0.5 to
// 1.5, velocity components of magnitude 0.5 to 1 and random sign.
void prepare(CallArgs args, std::uint64_t seed) {
  float4* oldPos = arg<float4*>(args, 1);
  float4* vel = arg<float4*>(args, 2);
  const int n = arg<int>(args, 8);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f), mass(0.5f, 1.5f), speed(0.5f, 1.0f);
  auto component = [&] { return (rng() & 1) ? speed(rng) : -speed(rng); };
  for (int i = 0; i < n; ++i) {
    oldPos[i] = float4{unit(rng), unit(rng), unit(rng), mass(rng)};
    const float vx = component(), vy = component(), vz = component();
    vel[i] = float4{vx, vy, vz, 0.0f};
  }
}

} // namespace

#define NBODY_STEP {"deltaTime", 1e-5}, {"damping", 0.995}, {"softeningSquared", 0.01}

// deviceNumBodies (the partition) 1, 3, 1009 (from body 1000 of 4099) and 4099 (all).
OVERLAP_CORPUS_CASE(
    integrateBodies, "integrateBodies",
    {{{"numBodies", 1}, {"deviceOffset", 0}, {"deviceNumBodies", 1}, NBODY_STEP},
     {{"numBodies", 100}, {"deviceOffset", 50}, {"deviceNumBodies", 3}, NBODY_STEP},
     {{"numBodies", 4099}, {"deviceOffset", 1000}, {"deviceNumBodies", 1009}, NBODY_STEP},
     {{"numBodies", 4099}, {"deviceOffset", 0}, {"deviceNumBodies", 4099}, NBODY_STEP}},
    {{"numBodies", 32768}, {"deviceOffset", 0}, {"deviceNumBodies", 32768}, NBODY_STEP}, 1e-3,
    reference, prepare);
