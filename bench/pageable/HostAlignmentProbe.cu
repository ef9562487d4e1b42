// Does where a host array starts change how fast it crosses the link? Copies (H2D, D2H, both at
// once) and a kernel's own reads and writes of mapped host memory, from cudaHostAlloc'ed memory
// and from registered anonymous memory with and without transparent huge pages, at offsets of 0,
// 16, 64, 128, 256 and 4096 bytes past a page, and from a glibc `malloc` (16 bytes past a page, as
// a large std::vector's data is). Every buffer in turn, each test in turn, medians.
//
//   bench_host_alignment [MiB] [rounds] [--json FILE]
#include "BenchCheck.h"

#include <cuda_runtime.h>
#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

#ifdef MADV_COLLAPSE
constexpr int kMadvCollapse = MADV_COLLAPSE;
#else
constexpr int kMadvCollapse = 25; // Linux 6.1's value, for older headers
#endif

__global__ void writeHost(float* out, std::size_t n) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride)
    out[i] = 1.0f + static_cast<float>(i);
}

__global__ void readHost(const float* in, float* out, std::size_t n) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  float sum = 0;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride)
    sum += in[i];
  if (sum == -1.0f) // never: keeps the reads
    out[0] = sum;
}

struct Buffer {
  std::string name;
  unsigned char* host = nullptr;
};

enum Test { H2d, D2h, Both, MappedWrite, MappedRead, TestCount };
const char* const kTestNames[TestCount] = {"h2d", "d2h", "both", "mapped_write", "mapped_read"};

// Anonymous memory at a huge page's start, registered as the registration cache registers.
unsigned char* registeredRegion(std::size_t bytes, bool hugePages) {
  constexpr std::size_t kHuge = 2 << 20;
  void* mapped =
      mmap(nullptr, bytes + kHuge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapped == MAP_FAILED)
    bench::fail("mmap");
  auto* start = reinterpret_cast<unsigned char*>(
      (reinterpret_cast<std::uintptr_t>(mapped) + kHuge - 1) & ~std::uintptr_t{kHuge - 1});
  (void)madvise(start, bytes, hugePages ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
  std::memset(start, 1, bytes);
  bench::checkCuda(
      cudaHostRegister(start, bytes, cudaHostRegisterMapped | cudaHostRegisterPortable),
      "cudaHostRegister");
  return start;
}

} // namespace

int main(int argc, char** argv) {
  std::size_t mib = 128;
  int rounds = 9;
  const char* json = nullptr;
  std::vector<const char*> positional;
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--json") == 0 && i + 1 < argc)
      json = argv[++i];
    else
      positional.push_back(argv[i]);
  if (!positional.empty())
    mib = std::strtoull(positional[0], nullptr, 10);
  if (positional.size() > 1)
    rounds = std::atoi(positional[1]);
  const std::size_t bytes = mib << 20;
  const std::size_t region = bytes + (8 << 20);

  std::vector<Buffer> buffers;
  unsigned char* pinned = nullptr;
  bench::checkCuda(cudaHostAlloc(reinterpret_cast<void**>(&pinned), region,
                                 cudaHostAllocMapped | cudaHostAllocPortable),
                   "cudaHostAlloc");
  std::memset(pinned, 1, region);
  buffers.push_back({"cudaHostAlloc+0", pinned});
  buffers.push_back({"cudaHostAlloc+16", pinned + 16});
  for (bool huge : {false, true}) {
    unsigned char* start = registeredRegion(region, huge);
    for (std::size_t offset : {0, 16, 64, 128, 256, 4096})
      buffers.push_back(
          {std::string(huge ? "registered-thp+" : "registered-4k+") + std::to_string(offset),
           start + offset});
  }
  // Twice: as malloc gives it (4 KiB pages, already touched), and collapsed into huge pages
  // (MADV_COLLAPSE, Linux 6.1) before it is registered.
  for (bool collapse : {false, true}) {
    auto* heap = static_cast<unsigned char*>(std::malloc(region));
    if (heap == nullptr)
      bench::fail("malloc");
    std::memset(heap, 1, region);
    std::string name = "malloc+" + std::to_string(reinterpret_cast<std::uintptr_t>(heap) % 4096);
    if (collapse) {
      constexpr std::uintptr_t kHuge = 2 << 20;
      const std::uintptr_t first =
          (reinterpret_cast<std::uintptr_t>(heap) + kHuge - 1) & ~(kHuge - 1);
      const std::uintptr_t last = (reinterpret_cast<std::uintptr_t>(heap) + region) & ~(kHuge - 1);
      const auto begin = std::chrono::steady_clock::now();
      const int rc = madvise(reinterpret_cast<void*>(first), last - first, kMadvCollapse);
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
      std::printf("MADV_COLLAPSE of %zu MiB: %s, %.1f ms (%.1f GB/s)\n", (last - first) >> 20,
                  rc == 0 ? "done" : std::strerror(errno), seconds * 1e3,
                  static_cast<double>(last - first) / seconds / 1e9);
      name += rc == 0 ? " collapsed" : " (collapse failed)";
    }
    bench::checkCuda(
        cudaHostRegister(heap, region, cudaHostRegisterMapped | cudaHostRegisterPortable),
        "cudaHostRegister");
    buffers.push_back({name, heap});
  }

  unsigned char* deviceIn = nullptr;
  unsigned char* deviceOut = nullptr;
  bench::checkCuda(cudaMalloc(&deviceIn, region), "cudaMalloc");
  bench::checkCuda(cudaMalloc(&deviceOut, region), "cudaMalloc");
  cudaStream_t first = nullptr;
  cudaStream_t second = nullptr;
  bench::checkCuda(cudaStreamCreateWithFlags(&first, cudaStreamNonBlocking), "cudaStreamCreate");
  bench::checkCuda(cudaStreamCreateWithFlags(&second, cudaStreamNonBlocking), "cudaStreamCreate");
  cudaEvent_t begin = nullptr;
  cudaEvent_t end = nullptr;
  cudaEvent_t joined = nullptr;
  for (cudaEvent_t* event : {&begin, &end, &joined})
    bench::checkCuda(cudaEventCreate(event), "cudaEventCreate");
  int multiprocessors = 0;
  bench::checkCuda(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, 0),
                   "cudaDeviceGetAttribute");

  std::vector<std::vector<std::vector<float>>> times(buffers.size(),
                                                     std::vector<std::vector<float>>(TestCount));
  for (int round = 0; round < rounds; ++round)
    for (std::size_t b = 0; b < buffers.size(); ++b) {
      unsigned char* host = buffers[b].host;
      unsigned char* mapped = nullptr;
      bench::checkCuda(cudaHostGetDevicePointer(reinterpret_cast<void**>(&mapped), host, 0),
                       "cudaHostGetDevicePointer");
      for (int test = 0; test < TestCount; ++test) {
        bench::checkCuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
        bench::checkCuda(cudaEventRecord(begin, first), "cudaEventRecord");
        switch (test) {
        case H2d:
          bench::checkCuda(cudaMemcpyAsync(deviceIn, host, bytes, cudaMemcpyHostToDevice, first),
                           "cudaMemcpyAsync");
          break;
        case D2h:
          bench::checkCuda(cudaMemcpyAsync(host, deviceOut, bytes, cudaMemcpyDeviceToHost, first),
                           "cudaMemcpyAsync");
          break;
        case Both: // half the bytes each way at once
          bench::checkCuda(cudaStreamWaitEvent(second, begin), "cudaStreamWaitEvent");
          bench::checkCuda(
              cudaMemcpyAsync(deviceIn, host, bytes / 2, cudaMemcpyHostToDevice, first),
              "cudaMemcpyAsync");
          bench::checkCuda(cudaMemcpyAsync(host + bytes / 2, deviceOut, bytes / 2,
                                           cudaMemcpyDeviceToHost, second),
                           "cudaMemcpyAsync");
          bench::checkCuda(cudaEventRecord(joined, second), "cudaEventRecord");
          bench::checkCuda(cudaStreamWaitEvent(first, joined), "cudaStreamWaitEvent");
          break;
        case MappedWrite:
          writeHost<<<4 * multiprocessors, 512, 0, first>>>(reinterpret_cast<float*>(mapped),
                                                            bytes / sizeof(float));
          break;
        case MappedRead:
          readHost<<<4 * multiprocessors, 512, 0, first>>>(reinterpret_cast<const float*>(mapped),
                                                           reinterpret_cast<float*>(deviceOut),
                                                           bytes / sizeof(float));
          break;
        }
        bench::checkCuda(cudaGetLastError(), kTestNames[test]);
        bench::checkCuda(cudaEventRecord(end, first), "cudaEventRecord");
        bench::checkCuda(cudaEventSynchronize(end), "cudaEventSynchronize");
        float ms = 0;
        bench::checkCuda(cudaEventElapsedTime(&ms, begin, end), "cudaEventElapsedTime");
        times[b][static_cast<std::size_t>(test)].push_back(ms);
      }
    }

  std::vector<std::vector<double>> medians(buffers.size(), std::vector<double>(TestCount));
  for (std::size_t b = 0; b < buffers.size(); ++b)
    for (int test = 0; test < TestCount; ++test) {
      std::vector<float> series = times[b][static_cast<std::size_t>(test)];
      std::sort(series.begin(), series.end());
      medians[b][static_cast<std::size_t>(test)] = series[series.size() / 2] * 1e-3;
    }
  std::printf("%zu MiB, %d rounds: medians in ms, and against cudaHostAlloc+0\n", mib, rounds);
  std::printf("%-20s", "buffer");
  for (const char* name : kTestNames)
    std::printf(" %19s", name);
  std::printf("\n");
  for (std::size_t b = 0; b < buffers.size(); ++b) {
    std::printf("%-20s", buffers[b].name.c_str());
    for (int test = 0; test < TestCount; ++test)
      std::printf("   %8.3f ms %5.2fx", medians[b][static_cast<std::size_t>(test)] * 1e3,
                  medians[b][static_cast<std::size_t>(test)] /
                      medians[0][static_cast<std::size_t>(test)]);
    std::printf("\n");
  }
  if (json != nullptr) {
    FILE* out = std::fopen(json, "w");
    if (out == nullptr)
      bench::fail(std::string("cannot write ") + json);
    std::fprintf(out, "{\"bytes\": %zu, \"rounds\": %d, \"seconds\": {", bytes, rounds);
    for (std::size_t b = 0; b < buffers.size(); ++b) {
      std::fprintf(out, "%s\n  \"%s\": {", b ? "," : "", buffers[b].name.c_str());
      for (int test = 0; test < TestCount; ++test)
        std::fprintf(out, "%s\"%s\": %.6g", test ? ", " : "", kTestNames[test],
                     medians[b][static_cast<std::size_t>(test)]);
      std::fprintf(out, "}");
    }
    std::fprintf(out, "}}\n");
    std::fclose(out);
  }
  return 0;
}
