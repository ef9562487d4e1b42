// The table the generator emits for every annotated kernel: enough for a tuner to allocate the
// arrays, fill them, run every variant and compare the results, knowing nothing else of the kernel.
#pragma once

#include "overlap/KernelTypes.h"
#include "overlap/Status.h"

#include <cstddef>

namespace overlap {

// args[i] points at the value of the i-th parameter of KernelDescriptor::params (as for
// cudaLaunchKernel; the host-only parameters follow the kernel's); for a pointer parameter that
// value is the host pointer the user would pass.
using ArgPointers = const void* const*;

// What a kernel parameter is to the generated host code.
enum class ParamRole : unsigned char {
  Scalar,      // passed through unchanged
  Array,       // a pointer with a data clause
  ChunkLength, // offset mode: the caller passes the full length, each chunk launch gets hi - lo
  ChunkBegin,  // range mode: set to lo by the generated code, not passed by the caller
  ChunkEnd,    // range mode: set to hi by the generated code, not passed by the caller
  // Range mode whose partition reads the bounds (partition(iy_end - iy_start)): the caller passes
  // the whole call's begin / end, each chunk launch gets lo / hi.
  PartitionBegin,
  PartitionEnd,
  // Declared by the annotation's param(...): the generated entry points take it, the kernel does
  // not. Listed after all of the kernel's parameters.
  HostOnly
};

struct ParamDescriptor {
  const char* name;
  const char* type; // as spelled in the kernel signature, e.g. "const float *"
  bool isPointer;
  ElementKind kind; // of the pointee for pointers, of the value for scalars
  std::size_t size; // sizeof the pointee for pointers, of the value for scalars
  int array;        // index into KernelDescriptor::arrays for pointers, -1 for scalars
  ParamRole role;
};

struct ArrayDescriptor {
  int param; // index of the kernel parameter
  const char* name;
  Direction direction;
  // Of one lane for elements made of several of one kind (float4: F32, 16 bytes; laneCount).
  ElementKind kind;
  std::size_t elementSize;
  bool optional = false;            // the caller may pass null: the array is absent for the call
  ReduceOp reduce = ReduceOp::None; // a reduction array (Binding.cuh: HostArray::reduction)
};

// A default argument value for tuning, from the annotation's tune(...) clause.
struct TuneDefault {
  int param;
  long long value;
};

struct RunConfig {
  Variant variant = Variant::Explicit;
  // Used by Streams and Hybrid; its `pageable` by Mapped too (Stage meaning Default there).
  StreamsConfig streams;
};

// How the generated code launches the kernel over one chunk [lo, hi).
struct LaunchGeometry {
  long long blocks = 0;        // grid.x * grid.y * grid.z
  int blockThreads = 0;        // block.x * block.y * block.z
  std::size_t sharedBytes = 0; // dynamic shared memory per block
  int residentBlocksPerSm = 0; // cudaOccupancyMaxActiveBlocksPerMultiprocessor at this block
  // A grid-stride launch (launch(gridstride)): the grid is as many blocks as the device keeps
  // resident, whatever the chunk, so a smaller chunk means less work per block, not fewer blocks.
  bool gridStride = false;
};

struct KernelDescriptor {
  const char* name;
  const char* sourceFile;
  int sourceLine;

  int paramCount;
  const ParamDescriptor* params;
  int arrayCount;
  const ArrayDescriptor* arrays;
  int tuneDefaultCount;
  const TuneDefault* tuneDefaults;

  long long (*partitionExtent)(ArgPointers args);
  long long (*arrayExtent)(ArgPointers args, int array);
  // Sections of one array that chunk [lo, hi) needs, unclipped; chunked() tells the broadcast
  // sections (sent once before the pipeline) from the chunked ones.
  int (*sectionCount)(ArgPointers args, int array);
  Section (*section)(ArgPointers args, int array, int index, long long lo, long long hi);
  bool (*sectionIsChunked)(int array, int index);

  Status (*run)(ArgPointers args, const RunConfig& config);

  // The geometry of the launch over chunk [lo, hi), computed by the same code the launch itself
  // uses; the occupancy query needs a CUDA device (without one the call fails and *out is left
  // unchanged). Null in descriptors written before it existed: the geometry is unknown.
  Status (*launchGeometry)(ArgPointers args, long long lo, long long hi, LaunchGeometry* out);

  // The partition's origin B (chunks lie in [B, B + P)) and granule G (chunk boundaries at
  // B + k * G); null: 0 and 1. Use partitionOf(). Members are only ever appended, so that
  // aggregate initialisers written before a member existed stay valid and leave it null.
  long long (*partitionBegin)(ArgPointers args);
  long long (*granule)(ArgPointers args);

  // run() on the caller's stream, returning without waiting for the device (the generated
  // K_<variant>_async; detail/AsyncCall.cuh says what it promises). Null in older descriptors.
  Status (*runAsync)(ArgPointers args, const RunConfig& config, cudaStream_t stream);
};

// The partition of one call, the defaults filled in where the descriptor predates them.
inline Partition partitionOf(const KernelDescriptor& descriptor, ArgPointers args) {
  Partition partition;
  partition.extent = descriptor.partitionExtent(args);
  if (descriptor.partitionBegin != nullptr)
    partition.begin = descriptor.partitionBegin(args);
  if (descriptor.granule != nullptr)
    partition.granule = descriptor.granule(args);
  return partition;
}

// Every kernel the generated sources linked into this program describe, in registration order.
int registeredKernelCount();
const KernelDescriptor* registeredKernel(int index);
const KernelDescriptor* findRegisteredKernel(const char* name);

// Called by generated code from a static initializer.
bool registerKernel(const KernelDescriptor* descriptor);

} // namespace overlap
