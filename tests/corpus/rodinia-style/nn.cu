// Nearest-neighbour search, distance step: the Euclidean distance (in degrees) from one query
// location to every record's (latitude, longitude). Records are a user struct passed by pointer;
// the grid is 2-D because a 1-D grid of old GPUs held at most 65535 blocks, so the kernel
// linearizes (blockIdx.y, blockIdx.x).
//
// Modeled on: Rodinia 3.1, cuda/nn/nn_cuda.cu (euclid over a LatLong struct array, a 2-D grid
// computed from the record count). Written anew for this corpus.
//
// Exercises: a user struct element type (typedef'd struct); a 2-D grid computed from the chunk
// length with min() and nested ceil_div(); float scalar parameters after the length.
#include <overlap/annotate.h>

typedef struct latLong {
  float lat;
  float lng;
} LatLong;

OVERLAP_KERNEL(partition(numRecords) offset(numRecords)
               extent(d_locations, d_distances: numRecords)
               copyin(d_locations[lo:hi]) copyout(d_distances[lo:hi])
               launch(grid: (min(ceil_div(len, 256), 65535), ceil_div(ceil_div(len, 256), 65535)),
                      block: 256)
               tune(numRecords = 8388608))
__global__ void euclid(LatLong *d_locations, float *d_distances, int numRecords, float lat,
                       float lng) {
  const int globalId = blockDim.x * (gridDim.x * blockIdx.y + blockIdx.x) + threadIdx.x;
  if (globalId < numRecords) {
    const LatLong *record = d_locations + globalId;
    const float dLat = lat - record->lat;
    const float dLng = lng - record->lng;
    d_distances[globalId] = sqrtf(dLat * dLat + dLng * dLng);
  }
}
