// The links of the host's GPUs, copied at once (HardwareProfile::allLinksSecondsPerByte; the
// link limits of bench/multigpu and bench/outofcore): one host thread per device, each device's
// copies in and out at once in pieces through one device buffer each way, from and to host buffers
// larger than the host's caches (a call's arrays are: a small buffer copied again and again
// measured 213 GB/s on four H100s, where calls of gigabytes ran at 160-170). The host's memory and
// root complex give the links together less than their sum
// (bench/results/h100x4-2026-11-27-multigpu.md), which bounds a call split across the devices.
#pragma once

#include "overlap/PinnedBuffer.h"
#include "overlap/Status.h"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>
#include <vector>

namespace overlap::calibration {

class AllLinksBench {
public:
  // Buffers and streams on devices 0 .. devices - 1 (devices >= 1; hostBytes a multiple of
  // pieceBytes > 0); the current device is kept.
  static Status create(int devices, std::size_t pieceBytes, std::size_t hostBytes,
                       std::unique_ptr<AllLinksBench>* out);
  AllLinksBench(const AllLinksBench&) = delete;
  AllLinksBench& operator=(const AllLinksBench&) = delete;
  ~AllLinksBench();

  int devices() const { return static_cast<int>(links_.size()); }
  // `inBytes` to and `outBytes` from the first `devices` devices, an equal share on each, every
  // copy at once; the host's wall time.
  Status copy(std::size_t inBytes, std::size_t outBytes, int devices, double* seconds);

private:
  struct Link {
    int device = 0;
    void* deviceIn = nullptr;
    void* deviceOut = nullptr;
    cudaStream_t in = nullptr;
    cudaStream_t out = nullptr;
    PinnedBuffer hostIn;
    PinnedBuffer hostOut;
  };
  AllLinksBench(std::size_t pieceBytes, std::size_t hostBytes)
      : pieceBytes_(pieceBytes), hostBytes_(hostBytes) {}
  Status copyOne(Link& link, std::size_t inBytes, std::size_t outBytes) const;

  std::size_t pieceBytes_;
  std::size_t hostBytes_;
  std::vector<Link> links_;
};

} // namespace overlap::calibration
