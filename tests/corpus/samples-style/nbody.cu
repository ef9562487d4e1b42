// One step of an all-pairs gravitational n-body system for the deviceNumBodies bodies from
// deviceOffset on: every body sums the softened pull of all numBodies bodies, which the block
// stages through shared memory one tile of blockDim.x bodies at a time, then updates its velocity
// and position. Compute-bound: numBodies interactions (about 20 flops and an rsqrtf each) per body.
// The (deviceOffset, deviceNumBodies) pair is how the sample splits the bodies between GPUs.
//
// Modeled on: NVIDIA cuda-samples, Samples/5_Domain_Specific/nbody/bodysystemcuda.cu
// (integrateBodies(newPos, oldPos, vel, deviceOffset, deviceNumBodies, deltaTime, damping, ...),
// computeBodyAccel, bodyBodyInteraction: float4 positions with the mass in w, shared-memory tiles,
// softening, rsqrtf). Written anew for this corpus; it takes the body count instead of the tile
// count and the softening as an argument instead of a __constant__.
//
// Exercises: a bare `range` with bind(deviceOffset = deviceOffset + lo, deviceNumBodies = len)
// (the kernel takes its chunk as an offset and a count, and indexes globally); sections that
// start at a caller's offset; a broadcast input (every chunk reads all of oldPos); float4 element
// type; dynamic shared memory with sizeof(float4); unsigned parameters; a read-write array (vel)
// next to an output; compute-heavy inner loop.
#include <overlap/annotate.h>

__device__ inline float3 bodyBodyInteraction(float3 ai, float4 bi, float4 bj,
                                             float softeningSquared) {
  float3 r;
  r.x = bj.x - bi.x;
  r.y = bj.y - bi.y;
  r.z = bj.z - bi.z;
  const float distSqr = r.x * r.x + r.y * r.y + r.z * r.z + softeningSquared;
  const float invDist = rsqrtf(distSqr);
  const float invDistCube = invDist * invDist * invDist;
  const float s = bj.w * invDistCube;
  ai.x += r.x * s;
  ai.y += r.y * s;
  ai.z += r.z * s;
  return ai;
}

OVERLAP_KERNEL(partition(deviceNumBodies) range
               bind(deviceOffset = deviceOffset + lo, deviceNumBodies = len)
               extent(newPos, oldPos, vel: numBodies)
               copyin(oldPos)
               copy(vel[deviceOffset + lo : deviceOffset + hi])
               copyout(newPos[deviceOffset + lo : deviceOffset + hi])
               launch(grid: ceil_div(len, 256), block: 256, shared: 256 * sizeof(float4))
               tune(numBodies = 65536, deviceOffset = 0, deviceNumBodies = numBodies))
__global__ void integrateBodies(float4 *__restrict__ newPos, const float4 *__restrict__ oldPos,
                                float4 *__restrict__ vel, unsigned int deviceOffset,
                                unsigned int deviceNumBodies, float deltaTime, float damping,
                                float softeningSquared, int numBodies) {
  extern __shared__ float4 sharedPos[];

  const unsigned int index = blockIdx.x * blockDim.x + threadIdx.x;
  const bool active = index < deviceNumBodies;
  const unsigned int body = deviceOffset + index;
  const float4 position = active ? oldPos[body] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);

  float3 accel = make_float3(0.0f, 0.0f, 0.0f);
  // Every thread helps load every tile, active or not.
  for (int tileStart = 0; tileStart < numBodies; tileStart += blockDim.x) {
    const int j = tileStart + threadIdx.x;
    sharedPos[threadIdx.x] = j < numBodies ? oldPos[j] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    __syncthreads();
    const int tileCount = min(static_cast<int>(blockDim.x), numBodies - tileStart);
#pragma unroll 4
    for (int k = 0; k < tileCount; ++k)
      accel = bodyBodyInteraction(accel, position, sharedPos[k], softeningSquared);
    __syncthreads();
  }
  if (!active)
    return;

  float4 velocity = vel[body];
  velocity.x += accel.x * deltaTime;
  velocity.y += accel.y * deltaTime;
  velocity.z += accel.z * deltaTime;
  velocity.x *= damping;
  velocity.y *= damping;
  velocity.z *= damping;

  float4 moved = position;
  moved.x += velocity.x * deltaTime;
  moved.y += velocity.y * deltaTime;
  moved.z += velocity.z * deltaTime;

  newPos[body] = moved;
  vel[body] = velocity;
}
