#include "AllLinksBench.h"

#include <algorithm>
#include <cassert>
#include <chrono>
#include <thread>

namespace overlap::calibration {

Status AllLinksBench::create(int devices, std::size_t pieceBytes, std::size_t hostBytes,
                             std::unique_ptr<AllLinksBench>* out) {
  assert(devices >= 1 && pieceBytes > 0 && hostBytes % pieceBytes == 0 && hostBytes > 0);
  int current = 0;
  OVERLAP_CUDA_TRY(cudaGetDevice(&current));
  std::unique_ptr<AllLinksBench> bench(new AllLinksBench(pieceBytes, hostBytes));
  bench->links_.resize(static_cast<std::size_t>(devices));
  for (int d = 0; d < devices; ++d) {
    Link& link = bench->links_[static_cast<std::size_t>(d)];
    link.device = d;
    OVERLAP_CUDA_TRY(cudaSetDevice(d));
    OVERLAP_CUDA_TRY(cudaMalloc(&link.deviceIn, pieceBytes));
    OVERLAP_CUDA_TRY(cudaMalloc(&link.deviceOut, pieceBytes));
    OVERLAP_CUDA_TRY(cudaStreamCreateWithFlags(&link.in, cudaStreamNonBlocking));
    OVERLAP_CUDA_TRY(cudaStreamCreateWithFlags(&link.out, cudaStreamNonBlocking));
    OVERLAP_TRY(PinnedBuffer::allocate(hostBytes, &link.hostIn));
    OVERLAP_TRY(PinnedBuffer::allocate(hostBytes, &link.hostOut));
  }
  *out = std::move(bench);
  OVERLAP_CUDA_TRY(cudaSetDevice(current));
  return Status::success();
}

AllLinksBench::~AllLinksBench() {
  int current = 0;
  const bool saved = cudaGetDevice(&current) == cudaSuccess;
  for (Link& link : links_) {
    (void)cudaSetDevice(link.device);
    (void)cudaFree(link.deviceIn);
    (void)cudaFree(link.deviceOut);
    (void)cudaStreamDestroy(link.in);
    (void)cudaStreamDestroy(link.out);
  }
  if (saved)
    (void)cudaSetDevice(current);
}

Status AllLinksBench::copyOne(Link& link, std::size_t inBytes, std::size_t outBytes) const {
  OVERLAP_CUDA_TRY(cudaSetDevice(link.device));
  // Both directions' pieces issued in turn, so that neither waits for the other's issue.
  for (std::size_t done = 0; done < std::max(inBytes, outBytes); done += pieceBytes_) {
    const std::size_t offset = done % hostBytes_;
    if (done < inBytes)
      OVERLAP_CUDA_TRY(cudaMemcpyAsync(link.deviceIn, link.hostIn.as<char>() + offset,
                                       std::min(pieceBytes_, inBytes - done),
                                       cudaMemcpyHostToDevice, link.in));
    if (done < outBytes)
      OVERLAP_CUDA_TRY(cudaMemcpyAsync(link.hostOut.as<char>() + offset, link.deviceOut,
                                       std::min(pieceBytes_, outBytes - done),
                                       cudaMemcpyDeviceToHost, link.out));
  }
  OVERLAP_CUDA_TRY(cudaStreamSynchronize(link.in));
  OVERLAP_CUDA_TRY(cudaStreamSynchronize(link.out));
  return Status::success();
}

Status AllLinksBench::copy(std::size_t inBytes, std::size_t outBytes, int devices,
                           double* seconds) {
  assert(devices >= 1 && devices <= this->devices());
  const auto share = static_cast<std::size_t>(devices);
  std::vector<Status> results(share);
  std::vector<std::thread> threads;
  const auto begin = std::chrono::steady_clock::now();
  for (std::size_t d = 0; d < share; ++d)
    threads.emplace_back(
        [&, d] { results[d] = copyOne(links_[d], inBytes / share, outBytes / share); });
  for (std::thread& thread : threads)
    thread.join();
  *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  for (const Status& status : results)
    OVERLAP_TRY(status);
  return Status::success();
}

} // namespace overlap::calibration
