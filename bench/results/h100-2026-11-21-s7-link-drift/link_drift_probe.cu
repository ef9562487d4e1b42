// Link drift probe (bench/results/h100-2026-11-21-s7-link-drift/README.md): per NUMA node and round,
// fresh pinned buffers, host-to-device rates alone and against a busy device-to-host copy.
#include <cuda_runtime.h>
#include <sched.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
#include <dirent.h>

#define CK(x) do { cudaError_t ck_ = (x); if (ck_ != cudaSuccess) { std::printf("%s: %s\n", #x, cudaGetErrorString(ck_)); std::exit(1); } } while (0)

static std::vector<int> parse_cpulist(const std::string& s) {
  std::vector<int> cpus; std::stringstream ss(s); std::string part;
  while (std::getline(ss, part, ',')) {
    auto dash = part.find('-');
    if (dash == std::string::npos) { if (!part.empty()) cpus.push_back(std::stoi(part)); }
    else { for (int c = std::stoi(part.substr(0, dash)); c <= std::stoi(part.substr(dash + 1)); ++c) cpus.push_back(c); }
  }
  return cpus;
}

struct Stat { double med, lo, hi; };
static Stat stat(std::vector<double> v) { std::sort(v.begin(), v.end()); return {v[v.size() / 2], v.front(), v.back()}; }

static const size_t MiB = 1 << 20;

// one-way or against a long copy the other way; pieces on as many streams
static double h2d_ms(char* host, char* dev, size_t bytes, int pieces, bool busy, char* host_other, char* dev_other,
                     std::vector<cudaStream_t>& streams, cudaStream_t other) {
  cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
  CK(cudaDeviceSynchronize());
  if (busy) CK(cudaMemcpyAsync(host_other, dev_other, 3 * bytes, cudaMemcpyDeviceToHost, other));
  CK(cudaEventRecord(a, streams[0]));
  size_t piece = bytes / pieces;
  for (int i = 0; i < pieces; ++i) {
    if (i > 0) CK(cudaStreamWaitEvent(streams[i], a, 0));
    CK(cudaMemcpyAsync(dev + i * piece, host + i * piece, piece, cudaMemcpyHostToDevice, streams[i]));
  }
  for (int i = 1; i < pieces; ++i) { cudaEvent_t e; CK(cudaEventCreate(&e)); CK(cudaEventRecord(e, streams[i])); CK(cudaStreamWaitEvent(streams[0], e, 0)); CK(cudaEventDestroy(e)); }
  CK(cudaEventRecord(b, streams[0]));
  CK(cudaDeviceSynchronize());
  float ms; CK(cudaEventElapsedTime(&ms, a, b));
  CK(cudaEventDestroy(a)); CK(cudaEventDestroy(b));
  return ms;
}

int main(int argc, char** argv) {
  int rounds = argc > 1 ? std::atoi(argv[1]) : 2;
  std::vector<std::vector<int>> nodes;
  for (int n = 0; n < 16; ++n) {
    std::ifstream f("/sys/devices/system/node/node" + std::to_string(n) + "/cpulist");
    if (!f) continue; std::string s; std::getline(f, s); nodes.push_back(parse_cpulist(s));
    std::printf("node %d cpus %s\n", n, s.c_str());
  }
  if (nodes.empty()) { std::vector<int> all; for (int c = 0; c < 16; ++c) all.push_back(c); nodes.push_back(all); }
  cudaDeviceProp p; CK(cudaGetDeviceProperties(&p, 0));
  std::printf("%s pci %04x:%02x:%02x\n", p.name, p.pciDomainID, p.pciBusID, p.pciDeviceID);
  const size_t big = 1024 * MiB;
  char *dev, *dev_other; CK(cudaMalloc(&dev, big)); CK(cudaMalloc(&dev_other, 3 * big));
  std::vector<cudaStream_t> streams(64); for (auto& s : streams) CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaStream_t other; CK(cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking));
  for (int round = 0; round < rounds; ++round)
    for (size_t n = 0; n < nodes.size(); ++n) {
      cpu_set_t set; CPU_ZERO(&set); for (int c : nodes[n]) CPU_SET(c, &set);
      if (sched_setaffinity(0, sizeof set, &set) != 0) std::printf("setaffinity failed\n");
      char *host, *host_other;
      CK(cudaHostAlloc(&host, big, cudaHostAllocDefault)); CK(cudaHostAlloc(&host_other, 3 * big, cudaHostAllocDefault));
      for (size_t i = 0; i < big; i += 4096) host[i] = char(i);
      for (size_t i = 0; i < 3 * big; i += 4096) host_other[i] = char(i);
      struct Case { size_t bytes; int pieces; bool busy; };
      Case cases[] = {{256 * MiB, 1, false}, {256 * MiB, 16, false}, {16 * MiB, 1, true}, {32 * MiB, 1, true}, {64 * MiB, 1, true}, {128 * MiB, 1, true}, {256 * MiB, 1, true}, {1024 * MiB, 1, true}, {1024 * MiB, 16, true}, {1024 * MiB, 64, true}, {256 * MiB, 32, true}};
      for (auto c : cases) {
        std::vector<double> gbs;
        for (int r = 0; r < 9; ++r) gbs.push_back(c.bytes / (h2d_ms(host, dev, c.bytes, c.pieces, c.busy, host_other, dev_other, streams, other) * 1e-3) / 1e9);
        Stat s = stat(gbs);
        std::printf("round %d node %zu h2d %5zu MiB x %2d %s: %6.2f GB/s [%6.2f .. %6.2f]\n", round, n, c.bytes / MiB, c.pieces, c.busy ? "busy" : "idle", s.med, s.lo, s.hi);
      }
      CK(cudaFreeHost(host)); CK(cudaFreeHost(host_other));
    }
  return 0;
}
