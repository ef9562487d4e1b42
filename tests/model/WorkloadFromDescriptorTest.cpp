// Deriving the model's workload from descriptors written the way the generator writes them, for
// the three shapes of the examples: saxpy (offset mode, an in-out array), C = A·B with B
// broadcast, and a buoydiff-like level kernel with a halo and a broadcast level.
#include "model/WorkloadFromDescriptor.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace overlap::model {
namespace {

long long intArg(ArgPointers args, int param) {
  return *static_cast<const int*>(args[param]);
}

KernelDescriptor descriptorWith(const ArrayDescriptor* arrays, int arrayCount) {
  KernelDescriptor descriptor{};
  descriptor.name = "test";
  descriptor.arrayCount = arrayCount;
  descriptor.arrays = arrays;
  return descriptor;
}

// saxpy(int n, float a, const float* x, float* y): copyin(x[lo:hi]) copy(y[lo:hi]).
const ArrayDescriptor kSaxpyArrays[] = {{2, "x", Direction::In, ElementKind::F32, 4},
                                        {3, "y", Direction::InOut, ElementKind::F32, 4}};

KernelDescriptor saxpy_descriptor() {
  KernelDescriptor descriptor = descriptorWith(kSaxpyArrays, 2);
  descriptor.partitionExtent = [](ArgPointers args) { return intArg(args, 0); };
  descriptor.arrayExtent = [](ArgPointers args, int) { return intArg(args, 0); };
  descriptor.sectionCount = [](ArgPointers, int) { return 1; };
  descriptor.section = [](ArgPointers, int, int, long long lo, long long hi) {
    return Section{lo, hi};
  };
  descriptor.sectionIsChunked = [](int, int) { return true; };
  return descriptor;
}

TEST(WorkloadFromDescriptor, Saxpy) {
  const int n = 1000;
  const float a = 2;
  const float* x = nullptr;
  float* y = nullptr;
  const void* args[] = {&n, &a, &x, &y};
  const Workload workload = workloadFromDescriptor(saxpy_descriptor(), args, 1e-3);
  EXPECT_EQ(workload.partition.extent, 1000);
  EXPECT_DOUBLE_EQ(workload.transfers.h2dBytes, 8000);      // x and y, 4 bytes each
  EXPECT_DOUBLE_EQ(workload.transfers.d2hBytes, 4000);      // y
  EXPECT_DOUBLE_EQ(workload.transfers.inoutD2hBytes, 4000); // y is copied in and out
  EXPECT_DOUBLE_EQ(workload.transfers.broadcastBytes, 0);
  EXPECT_DOUBLE_EQ(workload.transfers.haloBytesPerBoundary, 0);
  EXPECT_EQ(workload.transfers.h2dCopiesPerChunk, 2);
  EXPECT_EQ(workload.transfers.d2hCopiesPerChunk, 1);
  EXPECT_EQ(workload.transfers.explicitH2dCopies, 2);
  EXPECT_DOUBLE_EQ(workload.mapped.readFactor, 1);
  EXPECT_DOUBLE_EQ(workload.launch.kernelSeconds, 1e-3);
  EXPECT_EQ(workload.launch.totalBlocks, 0); // the descriptor has no launch geometry
  EXPECT_EQ(workload.mapped.narrowestElementBytes, 4u);
  EXPECT_FALSE(mappedPredictionIsLowerBound(workload));
  // One width: x and y read, y written back as an in-out array (Hybrid copies it).
  ASSERT_EQ(workload.mapped.bytesByWidth.size(), 1u);
  EXPECT_EQ(workload.mapped.bytesByWidth[0].elementBytes, 4u);
  EXPECT_DOUBLE_EQ(workload.mapped.bytesByWidth[0].readBytes, 8000);
  EXPECT_DOUBLE_EQ(workload.mapped.bytesByWidth[0].pureOutputBytes, 0);
  EXPECT_DOUBLE_EQ(workload.mapped.bytesByWidth[0].inoutOutputBytes, 4000);
  // Device buffers: x and y at full extent, each padded to 256 bytes as the runtime places them;
  // no pure outputs, nothing resident out of core; no budget of the workload's own.
  EXPECT_DOUBLE_EQ(workload.deviceMemory.fullBytes, 2 * 4096);
  EXPECT_DOUBLE_EQ(workload.deviceMemory.pureOutputFullBytes, 0);
  EXPECT_DOUBLE_EQ(workload.deviceMemory.residentBytes, 0);
  EXPECT_DOUBLE_EQ(workload.deviceMemory.budgetBytes, 0);
}

// frame_histogram(int frames, int pixels, const unsigned char* video, unsigned int* histograms):
// copyin(video[lo*pixels:hi*pixels]) copyout(histograms[lo*256:hi*256]).
const ArrayDescriptor kHistogramArrays[] = {{2, "video", Direction::In, ElementKind::U8, 1},
                                            {3, "histograms", Direction::Out, ElementKind::U32, 4}};

TEST(WorkloadFromDescriptor, ByteArraysMakeMappedALowerBound) {
  KernelDescriptor descriptor = descriptorWith(kHistogramArrays, 2);
  descriptor.partitionExtent = [](ArgPointers args) { return intArg(args, 0); };
  descriptor.arrayExtent = [](ArgPointers args, int array) -> long long {
    return intArg(args, 0) * (array == 0 ? intArg(args, 1) : 256);
  };
  descriptor.sectionCount = [](ArgPointers, int) { return 1; };
  descriptor.section = [](ArgPointers args, int array, int, long long lo, long long hi) {
    const long long width = array == 0 ? intArg(args, 1) : 256;
    return Section{lo * width, hi * width};
  };
  descriptor.sectionIsChunked = [](int, int) { return true; };
  const int frames = 4, pixels = 100;
  const unsigned char* video = nullptr;
  unsigned int* histograms = nullptr;
  const void* args[] = {&frames, &pixels, &video, &histograms};
  const Workload workload = workloadFromDescriptor(descriptor, args, 1e-3);
  EXPECT_DOUBLE_EQ(workload.transfers.h2dBytes, 400);
  EXPECT_DOUBLE_EQ(workload.transfers.d2hBytes, 4 * 256 * 4);
  EXPECT_EQ(workload.mapped.narrowestElementBytes, 1u);
  EXPECT_TRUE(mappedPredictionIsLowerBound(workload));
  // The bytes by width, ascending: pixels read at 1 byte, bins written at 4.
  ASSERT_EQ(workload.mapped.bytesByWidth.size(), 2u);
  EXPECT_EQ(workload.mapped.bytesByWidth[0].elementBytes, 1u);
  EXPECT_DOUBLE_EQ(workload.mapped.bytesByWidth[0].readBytes, 400);
  EXPECT_DOUBLE_EQ(workload.mapped.bytesByWidth[0].pureOutputBytes, 0);
  EXPECT_EQ(workload.mapped.bytesByWidth[1].elementBytes, 4u);
  EXPECT_DOUBLE_EQ(workload.mapped.bytesByWidth[1].readBytes, 0);
  EXPECT_DOUBLE_EQ(workload.mapped.bytesByWidth[1].pureOutputBytes, 4 * 256 * 4);
  // A profile that prices each width makes the narrow-element prediction a real one.
  HardwareProfile priced;
  priced.mappedByWidth = {{1, 8e-11, 8e-11}, {4, 2e-11, 2e-11}};
  EXPECT_FALSE(mappedPredictionIsLowerBound(workload, priced));
  EXPECT_TRUE(mappedPredictionIsLowerBound(workload, HardwareProfile{}));
}

// The histogram's descriptor with a launch geometry: one block of 256 threads per frame of the
// chunk, 8 resident per multiprocessor, as its launch(grid: len, block: 256) computes it on a GPU.
KernelDescriptor histogramDescriptorWithGeometry() {
  KernelDescriptor descriptor = descriptorWith(kHistogramArrays, 2);
  descriptor.partitionExtent = [](ArgPointers args) { return intArg(args, 0); };
  descriptor.arrayExtent = [](ArgPointers args, int array) -> long long {
    return intArg(args, 0) * (array == 0 ? intArg(args, 1) : 256);
  };
  descriptor.sectionCount = [](ArgPointers, int) { return 1; };
  descriptor.section = [](ArgPointers args, int array, int, long long lo, long long hi) {
    const long long width = array == 0 ? intArg(args, 1) : 256;
    return Section{lo * width, hi * width};
  };
  descriptor.sectionIsChunked = [](int, int) { return true; };
  descriptor.launchGeometry = [](ArgPointers, long long lo, long long hi, LaunchGeometry* out) {
    out->blocks = hi - lo;
    out->blockThreads = 256;
    out->sharedBytes = 0;
    out->residentBlocksPerSm = 8;
    out->gridStride = false;
    return Status::success();
  };
  return descriptor;
}

struct HistogramCall {
  int frames = 64;
  int pixels = 100;
  const unsigned char* video = nullptr;
  unsigned int* histograms = nullptr;
  const void* args[4] = {&frames, &pixels, &video, &histograms};
};

TEST(WorkloadFromDescriptor, LaunchGeometryOfAGridGrowingWithTheChunk) {
  const HistogramCall call;
  const Workload workload =
      workloadFromDescriptor(histogramDescriptorWithGeometry(), call.args, 1e-3);
  EXPECT_EQ(workload.launch.totalBlocks, 64);
  EXPECT_EQ(workload.launch.residentBlocksPerSm, 8);
  EXPECT_TRUE(validate(workload).empty());
}

TEST(WorkloadFromDescriptor, NoLaunchGeometryForAGridStrideOrConstantGrid) {
  const HistogramCall call;
  KernelDescriptor gridStride = histogramDescriptorWithGeometry();
  gridStride.launchGeometry = [](ArgPointers, long long, long long, LaunchGeometry* out) {
    out->blocks = 132 * 8;
    out->blockThreads = 256;
    out->residentBlocksPerSm = 8;
    out->gridStride = true;
    return Status::success();
  };
  Workload workload = workloadFromDescriptor(gridStride, call.args, 1e-3);
  EXPECT_EQ(workload.launch.totalBlocks, 0);
  EXPECT_EQ(workload.launch.residentBlocksPerSm, 0);
  // POP's level kernels: one block per 256 columns of a level, whatever the chunk's levels.
  KernelDescriptor constant = histogramDescriptorWithGeometry();
  constant.launchGeometry = [](ArgPointers, long long, long long, LaunchGeometry* out) {
    out->blocks = 4096;
    out->blockThreads = 256;
    out->residentBlocksPerSm = 8;
    out->gridStride = false;
    return Status::success();
  };
  workload = workloadFromDescriptor(constant, call.args, 1e-3);
  EXPECT_EQ(workload.launch.totalBlocks, 0);
  EXPECT_EQ(workload.launch.residentBlocksPerSm, 0);
}

TEST(WorkloadFromDescriptor, NoLaunchGeometryWhenTheQueryFails) {
  // What the generated launchGeometry returns on a machine without a GPU: the occupancy query's
  // error. The rest of the workload is derived as always.
  const HistogramCall call;
  KernelDescriptor descriptor = histogramDescriptorWithGeometry();
  descriptor.launchGeometry = [](ArgPointers, long long, long long, LaunchGeometry* out) {
    out->blocks = 64; // written before failing: must not be used
    return Status{cudaErrorNoDevice, "cudaOccupancyMaxActiveBlocksPerMultiprocessor", __FILE__,
                  __LINE__};
  };
  const Workload workload = workloadFromDescriptor(descriptor, call.args, 1e-3);
  EXPECT_EQ(workload.launch.totalBlocks, 0);
  EXPECT_EQ(workload.launch.residentBlocksPerSm, 0);
  EXPECT_DOUBLE_EQ(workload.transfers.h2dBytes, 64 * 100);
}

// matmul(int m, int n, int k, const float* a, const float* b, float* c):
// copyin(a[lo*k:hi*k], b) copyout(c[lo*n:hi*n]).
const ArrayDescriptor kMatmulArrays[] = {{3, "a", Direction::In, ElementKind::F32, 4},
                                         {4, "b", Direction::In, ElementKind::F32, 4},
                                         {5, "c", Direction::Out, ElementKind::F32, 4}};

TEST(WorkloadFromDescriptor, MatrixMultiplicationBroadcastsB) {
  KernelDescriptor descriptor = descriptorWith(kMatmulArrays, 3);
  descriptor.partitionExtent = [](ArgPointers args) { return intArg(args, 0); };
  descriptor.arrayExtent = [](ArgPointers args, int array) -> long long {
    const long long m = intArg(args, 0), n = intArg(args, 1), k = intArg(args, 2);
    return array == 0 ? m * k : array == 1 ? k * n : m * n;
  };
  descriptor.sectionCount = [](ArgPointers, int array) { return array == 1 ? 0 : 1; };
  descriptor.section = [](ArgPointers args, int array, int, long long lo, long long hi) {
    const long long width = array == 0 ? intArg(args, 2) : intArg(args, 1);
    return Section{lo * width, hi * width};
  };
  descriptor.sectionIsChunked = [](int, int) { return true; };

  const int m = 64, n = 32, k = 16;
  const void* pointer = nullptr;
  const void* args[] = {&m, &n, &k, &pointer, &pointer, &pointer};
  const Workload workload = workloadFromDescriptor(descriptor, args, 2e-3);
  EXPECT_DOUBLE_EQ(workload.transfers.h2dBytes, 64.0 * 16 * 4);
  EXPECT_DOUBLE_EQ(workload.transfers.broadcastBytes, 16.0 * 32 * 4);
  EXPECT_DOUBLE_EQ(workload.transfers.d2hBytes, 64.0 * 32 * 4);
  EXPECT_DOUBLE_EQ(workload.transfers.inoutD2hBytes, 0);
  EXPECT_EQ(workload.transfers.h2dCopiesPerChunk, 1);
  EXPECT_EQ(workload.transfers.explicitH2dCopies, 2); // a's section and all of b
  EXPECT_DOUBLE_EQ(workload.mapped.readFactor, 1);
  // The broadcast array's bytes are read bytes of its width too.
  ASSERT_EQ(workload.mapped.bytesByWidth.size(), 1u);
  EXPECT_DOUBLE_EQ(workload.mapped.bytesByWidth[0].readBytes, (64.0 * 16 + 16.0 * 32) * 4);
  EXPECT_DOUBLE_EQ(workload.mapped.bytesByWidth[0].pureOutputBytes, 64.0 * 32 * 4);
  // Every matrix on the device; C is a pure output (Hybrid maps it), B stays resident out of core.
  EXPECT_DOUBLE_EQ(workload.deviceMemory.fullBytes, (64.0 * 16 + 16.0 * 32 + 64.0 * 32) * 4);
  EXPECT_DOUBLE_EQ(workload.deviceMemory.pureOutputFullBytes, 64.0 * 32 * 4);
  EXPECT_DOUBLE_EQ(workload.deviceMemory.residentBytes, 16.0 * 32 * 4);
  EXPECT_EQ(workload.deviceMemory.pagedArrays, 0); // B is broadcast only: resident
}

// buoydiff-like, range mode: buoy(int levels, int plane, const float* t, float* out) with
// copyin(t[0:plane], t[(lo-1)*plane : hi*plane]) copyout(out[lo*plane:hi*plane]).
const ArrayDescriptor kLevelArrays[] = {{2, "t", Direction::In, ElementKind::F32, 4},
                                        {3, "out", Direction::Out, ElementKind::F32, 4}};

TEST(WorkloadFromDescriptor, LevelKernelWithHaloAndBroadcastLevel) {
  KernelDescriptor descriptor = descriptorWith(kLevelArrays, 2);
  descriptor.partitionExtent = [](ArgPointers args) { return intArg(args, 0); };
  descriptor.arrayExtent = [](ArgPointers args, int) { return intArg(args, 0) * intArg(args, 1); };
  descriptor.sectionCount = [](ArgPointers, int array) { return array == 0 ? 2 : 1; };
  descriptor.section = [](ArgPointers args, int array, int index, long long lo, long long hi) {
    const long long plane = intArg(args, 1);
    if (array == 0 && index == 0)
      return Section{0, plane};
    if (array == 0)
      return Section{(lo - 1) * plane, hi * plane};
    return Section{lo * plane, hi * plane};
  };
  descriptor.sectionIsChunked = [](int array, int index) { return !(array == 0 && index == 0); };

  const int levels = 42, plane = 100;
  const void* pointer = nullptr;
  const void* args[] = {&levels, &plane, &pointer, &pointer};
  const Workload workload = workloadFromDescriptor(descriptor, args, 1e-3);
  EXPECT_DOUBLE_EQ(workload.transfers.broadcastBytes, 100 * 4); // level 0
  // Level 0 and the chunk's levels of t through one pointer: paged out of core, level 0 resident.
  EXPECT_EQ(workload.deviceMemory.pagedArrays, 1);
  EXPECT_DOUBLE_EQ(workload.deviceMemory.residentBytes, 100 * 4);
  // Levels -1..41 clipped to 0..41.
  EXPECT_DOUBLE_EQ(workload.transfers.h2dBytes, 4200 * 4);
  // Every chunk but the first also needs the level before it: one plane per boundary.
  EXPECT_DOUBLE_EQ(workload.transfers.haloBytesPerBoundary, 100 * 4);
  EXPECT_DOUBLE_EQ(workload.transfers.d2hBytes, 4200 * 4);
  EXPECT_EQ(workload.transfers.explicitH2dCopies, 2);
  // Mapped runs one kernel over all levels: the halo that chunks share is no second read through
  // the link (the level is re-read from the cache), so each level crosses once.
  EXPECT_DOUBLE_EQ(workload.mapped.readFactor, 1);
}

TEST(WorkloadFromDescriptor, EmptyPartition) {
  const int n = 0;
  const float a = 0;
  const void* pointer = nullptr;
  const void* args[] = {&n, &a, &pointer, &pointer};
  const Workload workload = workloadFromDescriptor(saxpy_descriptor(), args, 0);
  EXPECT_EQ(workload.partition.extent, 0);
  EXPECT_DOUBLE_EQ(workload.transfers.h2dBytes, 0);
  EXPECT_DOUBLE_EQ(workload.transfers.d2hBytes, 0);
  EXPECT_TRUE(validate(workload).empty());
}

// A five-point stencil in range mode over the inner rows [iy_start, iy_end) of an ny x nx grid:
// stencil(int iy_start, int iy_end, int nx, const float* in, float* out) with
// partition(iy_end - iy_start) origin iy_start, copyin(in[(lo - 1) * nx : (hi + 1) * nx]),
// copyout(out[lo * nx : hi * nx]), extent(in, out: (iy_end + 1) * nx).
const ArrayDescriptor kStencilArrays[] = {{3, "in", Direction::In, ElementKind::F32, 4},
                                          {4, "out", Direction::Out, ElementKind::F32, 4}};

KernelDescriptor stencilDescriptor() {
  KernelDescriptor descriptor = descriptorWith(kStencilArrays, 2);
  descriptor.partitionExtent = [](ArgPointers args) { return intArg(args, 1) - intArg(args, 0); };
  descriptor.partitionBegin = [](ArgPointers args) { return intArg(args, 0); };
  descriptor.arrayExtent = [](ArgPointers args, int) {
    return (intArg(args, 1) + 1) * intArg(args, 2);
  };
  descriptor.sectionCount = [](ArgPointers, int) { return 1; };
  descriptor.section = [](ArgPointers args, int array, int, long long lo, long long hi) {
    const long long nx = intArg(args, 2);
    return array == 0 ? Section{(lo - 1) * nx, (hi + 1) * nx} : Section{lo * nx, hi * nx};
  };
  descriptor.sectionIsChunked = [](int, int) { return true; };
  return descriptor;
}

TEST(WorkloadFromDescriptor, SectionsOfARangeWithAnOrigin) {
  // Rows [1, 99) of 100: the inner rows read every row once, and write the inner ones.
  const int iy_start = 1, iy_end = 99, nx = 64;
  const void* pointer = nullptr;
  const void* args[] = {&iy_start, &iy_end, &nx, &pointer, &pointer};
  const Workload workload = workloadFromDescriptor(stencilDescriptor(), args, 1e-3);
  EXPECT_EQ(workload.partition.extent, 98);
  EXPECT_EQ(workload.partition.granule, 1);
  EXPECT_DOUBLE_EQ(workload.transfers.h2dBytes, 100.0 * 64 * 4); // rows 0..99, not -1..98 clipped
  EXPECT_DOUBLE_EQ(workload.transfers.d2hBytes, 98.0 * 64 * 4);  // rows 1..98
  // Each boundary between chunks adds the two rows both neighbours read.
  EXPECT_DOUBLE_EQ(workload.transfers.haloBytesPerBoundary, 2.0 * 64 * 4);
  EXPECT_TRUE(validate(workload).empty());
}

// vec4(int n, const float* x, float* y) loading float4 from each chunk's first element:
// partition(n) granule(4), copyin(x[lo:hi]) copyout(y[lo:hi]), and a launch over [lo, hi) the
// test records.
const ArrayDescriptor kVec4Arrays[] = {{1, "x", Direction::In, ElementKind::F32, 4},
                                       {2, "y", Direction::Out, ElementKind::F32, 4}};
long long recordedLo = -1;
long long recordedHi = -1;

KernelDescriptor vec4Descriptor() {
  KernelDescriptor descriptor = descriptorWith(kVec4Arrays, 2);
  descriptor.partitionExtent = [](ArgPointers args) { return intArg(args, 0); };
  descriptor.granule = [](ArgPointers) { return 4LL; };
  descriptor.arrayExtent = [](ArgPointers args, int) { return intArg(args, 0); };
  descriptor.sectionCount = [](ArgPointers, int) { return 1; };
  descriptor.section = [](ArgPointers, int array, int, long long lo, long long hi) {
    return array == 0 ? Section{lo - 1, hi} : Section{lo, hi}; // x with a one-element halo
  };
  descriptor.sectionIsChunked = [](int, int) { return true; };
  descriptor.launchGeometry = [](ArgPointers, long long lo, long long hi, LaunchGeometry* out) {
    if (hi - lo < 1000) { // the probe chunk, not the whole range
      recordedLo = lo;
      recordedHi = hi;
    }
    out->blocks = (hi - lo + 255) / 256;
    out->blockThreads = 256;
    out->residentBlocksPerSm = 8;
    return Status::success();
  };
  return descriptor;
}

TEST(WorkloadFromDescriptor, ChunksKeepTheGranule) {
  // 10 elements in granules of 4 make at most 3 chunks: the halo is probed at 2 boundaries.
  const int n = 10;
  const void* pointer = nullptr;
  const void* args[] = {&n, &pointer, &pointer};
  Workload workload = workloadFromDescriptor(vec4Descriptor(), args, 1e-3);
  EXPECT_EQ(workload.partition.granule, 4);
  EXPECT_EQ(chunkCount(workload, 8), 3);
  EXPECT_EQ(chunkCount(workload, 2), 2);
  EXPECT_EQ(granuleCount(workload), 3);
  EXPECT_DOUBLE_EQ(workload.transfers.haloBytesPerBoundary, 4); // one float per boundary
  // The geometry's probe chunk is the strategies' first chunk of 16 (here: of 250 granules).
  const int large = 1000;
  const void* largeArgs[] = {&large, &pointer, &pointer};
  workload = workloadFromDescriptor(vec4Descriptor(), largeArgs, 1e-3);
  EXPECT_EQ(recordedLo, 0);
  EXPECT_EQ(recordedHi, 15 * 4); // floor(250 / 16) granules
  EXPECT_EQ(workload.launch.totalBlocks, 4);
}

// dot(int n, const float* x, const float* y, float* sum): copyin(x[lo:hi], y[lo:hi]) and the
// reduction reduce(+: sum) of one float; and an optional histogram out of 256 counts.
const ArrayDescriptor kDotArrays[] = {
    {1, "x", Direction::In, ElementKind::F32, 4},
    {2, "y", Direction::In, ElementKind::F32, 4},
    {3, "sum", Direction::InOut, ElementKind::F32, 4, false, ReduceOp::Sum},
    {4, "bins", Direction::InOut, ElementKind::U32, 4, true, ReduceOp::Sum}};

KernelDescriptor dotDescriptor() {
  KernelDescriptor descriptor = descriptorWith(kDotArrays, 4);
  descriptor.partitionExtent = [](ArgPointers args) { return intArg(args, 0); };
  descriptor.arrayExtent = [](ArgPointers args, int array) -> long long {
    return array < 2 ? intArg(args, 0) : array == 2 ? 1 : 256;
  };
  descriptor.sectionCount = [](ArgPointers, int array) { return array < 2 ? 1 : 0; };
  descriptor.section = [](ArgPointers, int, int, long long lo, long long hi) {
    return Section{lo, hi};
  };
  descriptor.sectionIsChunked = [](int, int) { return true; };
  return descriptor;
}

TEST(WorkloadFromDescriptor, ReductionArraysMoveOnceEachWayAndAreNeverMapped) {
  const int n = 1000;
  const float* x = nullptr;
  float sum = 0;
  float* sumPointer = &sum;
  unsigned* bins = nullptr; // optional and absent
  const void* args[] = {&n, &x, &x, &sumPointer, &bins};
  const Workload workload = workloadFromDescriptor(dotDescriptor(), args, 1e-3);
  EXPECT_DOUBLE_EQ(workload.transfers.h2dBytes, 8000);
  EXPECT_DOUBLE_EQ(workload.transfers.reductionBytes, 4);
  EXPECT_DOUBLE_EQ(workload.transfers.broadcastBytes, 0);
  EXPECT_DOUBLE_EQ(workload.transfers.d2hBytes, 0);
  EXPECT_EQ(workload.transfers.explicitH2dCopies, 3);      // x, y and sum
  EXPECT_EQ(workload.transfers.explicitD2hCopies, 1);      // sum
  EXPECT_TRUE(workload.transfers.reductionsCombineOnHost); // a float sum: a split adds partials
  // Not a broadcast input of unknown re-reads, nor mapped bytes of any width.
  EXPECT_FALSE(mappedPredictionIsLowerBound(workload));
  ASSERT_EQ(workload.mapped.bytesByWidth.size(), 1u);
  EXPECT_DOUBLE_EQ(workload.mapped.bytesByWidth[0].readBytes, 8000);
  EXPECT_TRUE(validate(workload).empty());
}

TEST(WorkloadFromDescriptor, AReductionOfHalvesCannotBeSplit) {
  const ArrayDescriptor arrays[] = {
      {1, "x", Direction::In, ElementKind::F16, 2},
      {2, "sum", Direction::InOut, ElementKind::F16, 2, false, ReduceOp::Sum}};
  KernelDescriptor descriptor = descriptorWith(arrays, 2);
  descriptor.partitionExtent = [](ArgPointers args) { return intArg(args, 0); };
  descriptor.arrayExtent = [](ArgPointers args, int array) -> long long {
    return array == 0 ? intArg(args, 0) : 1;
  };
  descriptor.sectionCount = [](ArgPointers, int array) { return array == 0 ? 1 : 0; };
  descriptor.section = [](ArgPointers, int, int, long long lo, long long hi) {
    return Section{lo, hi};
  };
  descriptor.sectionIsChunked = [](int, int) { return true; };
  const int n = 100;
  const void* x = nullptr;
  const void* sum = nullptr;
  const void* args[] = {&n, &x, &sum};
  EXPECT_FALSE(workloadFromDescriptor(descriptor, args, 0).transfers.reductionsCombineOnHost);
}

TEST(WorkloadFromDescriptor, AbsentOptionalArraysAreNotCountedUnlessTheTunerAllocatesThem) {
  const int n = 1000;
  const float* x = nullptr;
  float sum = 0;
  float* sumPointer = &sum;
  unsigned bins[256] = {};
  unsigned* binsPointer = nullptr;
  const void* args[] = {&n, &x, &x, &sumPointer, &binsPointer};
  EXPECT_DOUBLE_EQ(workloadFromDescriptor(dotDescriptor(), args, 0).transfers.reductionBytes, 4);
  EXPECT_DOUBLE_EQ(workloadFromDescriptor(dotDescriptor(), args, 0, OptionalArrays::AllPresent)
                       .transfers.reductionBytes,
                   4 + 1024);
  binsPointer = bins;
  EXPECT_DOUBLE_EQ(workloadFromDescriptor(dotDescriptor(), args, 0).transfers.reductionBytes,
                   4 + 1024);
  // A non-optional array counts even when null (descriptors are read before allocation too).
  sumPointer = nullptr;
  EXPECT_DOUBLE_EQ(workloadFromDescriptor(dotDescriptor(), args, 0).transfers.reductionBytes,
                   4 + 1024);
}

TEST(WorkloadFromDescriptor, TheBudgetOfTheEnvironmentAsTheRuntimeReadsIt) {
  const char* const name = "OVERLAP_DEVICE_MEMORY_BUDGET";
  const char* const before = std::getenv(name);
  const std::string saved = before ? before : "";
  std::string error;
  unsetenv(name);
  EXPECT_EQ(deviceMemoryBudgetFromEnvironment(&error), 0);
  setenv(name, "1.5GiB", 1);
  EXPECT_EQ(deviceMemoryBudgetFromEnvironment(&error), 1.5 * (1 << 30));
  EXPECT_TRUE(error.empty());
  setenv(name, "lots", 1);
  EXPECT_EQ(deviceMemoryBudgetFromEnvironment(&error), 0);
  EXPECT_NE(error.find("OVERLAP_DEVICE_MEMORY_BUDGET='lots'"), std::string::npos) << error;
  if (before)
    setenv(name, saved.c_str(), 1);
  else
    unsetenv(name);
}

TEST(WorkloadFromDescriptor, TheAutomaticBudgetOnlyForACallLargerThanIt) {
  const double mib = 1 << 20;
  Workload workload;
  workload.deviceMemory.fullBytes = 3000 * mib;
  // Fits: unlimited, whatever is free.
  EXPECT_EQ(automaticDeviceMemoryBudget(workload, 3000 * mib), 0);
  EXPECT_EQ(automaticDeviceMemoryBudget(workload, 80000 * mib), 0);
  // Does not fit: the free memory, rounded down to 256 MiB, so that a few MiB more or less free
  // give the same budget.
  EXPECT_EQ(automaticDeviceMemoryBudget(workload, 1100 * mib), 1024 * mib);
  EXPECT_EQ(automaticDeviceMemoryBudget(workload, 1030 * mib), 1024 * mib);
  EXPECT_EQ(automaticDeviceMemoryBudget(workload, 2999 * mib), 2816 * mib);
  // Almost nothing free: still a budget (0 would mean unlimited).
  EXPECT_EQ(automaticDeviceMemoryBudget(workload, 0), 256 * mib);
}

} // namespace
} // namespace overlap::model
