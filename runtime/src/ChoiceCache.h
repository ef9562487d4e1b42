// The dispatch's memory (Dispatch.h): per kernel, by descriptor address, the choice made for each
// key (device, size class, ...) and the latest one run. Reading is lock-free -- an atomic load of
// an immutable table and a few probes -- so the calls of a kernel never wait for each other once
// their classes are known; only a miss takes the kernel's own mutex, and a miss of another kernel
// never. Private to the runtime.
#pragma once

#include "overlap/Descriptor.h"
#include "overlap/Dispatch.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace overlap::detail {

// One kept choice; never changed or freed once made, so a reference to it stays valid.
struct Decision {
  VariantChoice choice;
  // What a failed call's status text says of the choice: "saxpy_tuned chose Streams(16,
  // depth-first) (tuning results, P in [65536, 81920))".
  std::string label;
};

class KernelChoices {
public:
  KernelChoices();
  ~KernelChoices();
  KernelChoices(const KernelChoices&) = delete;
  KernelChoices& operator=(const KernelChoices&) = delete;

  // The decision kept under `key` (nonzero) in this `generation`, or null. Lock-free.
  const Decision* find(std::uint64_t key, std::uint64_t generation) const;
  // The decision under `key`, made by `make` when there is none in this `generation` yet: `make`
  // runs under the kernel's mutex, at most once per key and generation. A new generation forgets
  // every earlier decision (they stay allocated: references to them remain valid).
  const Decision& findOrMake(std::uint64_t key, std::uint64_t generation,
                             const std::function<Decision()>& make);

  void setLast(const Decision* decision) { last_.store(decision, std::memory_order_release); }
  const Decision* last() const { return last_.load(std::memory_order_acquire); }

private:
  struct Table;
  const Table* insertLocked(std::uint64_t key, std::uint64_t generation, const Decision* decision);

  std::mutex mutex_;
  std::atomic<const Table*> table_;
  std::atomic<const Decision*> last_{nullptr};
  // Everything ever published, since a reader may still hold any of it.
  std::vector<std::unique_ptr<Table>> tables_;
  std::vector<std::unique_ptr<Decision>> decisions_;
};

// The choices of `kernel`, created at its first use and never destroyed (a dispatch may still run
// from another static destructor). Lock-free once created.
KernelChoices& choicesOf(const KernelDescriptor& kernel);

} // namespace overlap::detail
