// k-means, assignment step: every point (numCoords features, stored point-major) goes to the
// nearest of numClusters centroids by squared Euclidean distance (the first one on a tie). The
// block stages all centroids in dynamic shared memory; the number of points whose membership
// changed is counted per block and added to *delta, the convergence test of the host loop.
//
// Modeled on: Rodinia 3.1, cuda/kmeans/kmeans_cuda_kernel.cu (kmeansPoint: nearest centroid per
// point, membership array, per-block delta counts), with the features point-major in global
// memory instead of Rodinia's feature-major copy read through a texture, and the centroids in
// dynamic shared memory instead of constant memory. Written anew for this corpus.
//
// Exercises: a kernel in a named namespace; dynamic shared memory sized by parameters
// (shared: numClusters * numCoords * 4); a broadcast input; a read-write array (copy); an integer
// counter every chunk adds to, reduce(+: delta); a row-major section with a parameter stride.
#include <overlap/annotate.h>

#include <cfloat>

namespace kmeans {

OVERLAP_KERNEL(partition(numObjs) offset(numObjs)
               extent(objects: numObjs * numCoords) extent(clusters: numClusters * numCoords)
               extent(membership: numObjs) extent(delta: 1)
               copyin(objects[lo * numCoords : hi * numCoords], clusters)
               copy(membership[lo:hi])
               reduce(+: delta)
               launch(grid: ceil_div(len, 128), block: 128, shared: numClusters * numCoords * 4)
               tune(numObjs = 1048576, numCoords = 16, numClusters = 32))
__global__ void findNearestCluster(const float *__restrict__ objects,
                                   const float *__restrict__ clusters, int *__restrict__ membership,
                                   unsigned int *__restrict__ delta, int numObjs, int numCoords,
                                   int numClusters) {
  extern __shared__ float sharedClusters[];
  __shared__ unsigned int blockDelta;

  for (int i = threadIdx.x; i < numClusters * numCoords; i += blockDim.x)
    sharedClusters[i] = clusters[i];
  if (threadIdx.x == 0)
    blockDelta = 0;
  __syncthreads();

  const int objectId = blockDim.x * blockIdx.x + threadIdx.x;
  if (objectId < numObjs) {
    const float *point = objects + (long long)objectId * numCoords;
    int nearest = 0;
    float minDist = FLT_MAX;
    for (int c = 0; c < numClusters; ++c) {
      float dist = 0.0f;
      for (int f = 0; f < numCoords; ++f) {
        const float diff = point[f] - sharedClusters[c * numCoords + f];
        dist += diff * diff;
      }
      if (dist < minDist) {
        minDist = dist;
        nearest = c;
      }
    }
    if (membership[objectId] != nearest) {
      atomicAdd(&blockDelta, 1U);
      membership[objectId] = nearest;
    }
  }
  __syncthreads();
  if (threadIdx.x == 0 && blockDelta != 0)
    atomicAdd(delta, blockDelta);
}

} // namespace kmeans
