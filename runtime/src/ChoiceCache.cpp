#include "ChoiceCache.h"

#include <cstddef>

namespace overlap::detail {
namespace {

// A 64-bit mix (splitmix64's finalizer): keys differ in few bits.
std::uint64_t mix(std::uint64_t key) {
  key ^= key >> 30;
  key *= 0xbf58476d1ce4e5b9ull;
  key ^= key >> 27;
  key *= 0x94d049bb133111ebull;
  return key ^ (key >> 31);
}

constexpr std::size_t kFirstCapacity = 16; // a power of two

} // namespace

// Open addressing with linear probing; a key, once written, is never moved or removed, so a
// reader that finds it finds its decision (written before the key, released by it). Grown by
// publishing a copy twice as large before it is half full.
struct KernelChoices::Table {
  struct Slot {
    std::atomic<std::uint64_t> key{0}; // 0: empty
    std::atomic<const Decision*> decision{nullptr};
  };

  Table(std::uint64_t generation, std::size_t capacity)
      : generation(generation), mask(capacity - 1), slots(new Slot[capacity]) {}

  const Decision* find(std::uint64_t key) const {
    for (std::size_t i = mix(key) & mask;; i = (i + 1) & mask) {
      const std::uint64_t found = slots[i].key.load(std::memory_order_acquire);
      if (found == key)
        return slots[i].decision.load(std::memory_order_acquire);
      if (found == 0)
        return nullptr;
    }
  }

  // Under the kernel's mutex, with room left.
  void put(std::uint64_t key, const Decision* decision) {
    std::size_t i = mix(key) & mask;
    while (slots[i].key.load(std::memory_order_relaxed) != 0)
      i = (i + 1) & mask;
    slots[i].decision.store(decision, std::memory_order_relaxed);
    slots[i].key.store(key, std::memory_order_release);
    ++used;
  }

  const std::uint64_t generation;
  const std::size_t mask;
  std::unique_ptr<Slot[]> slots;
  std::size_t used = 0;
};

KernelChoices::KernelChoices() {
  tables_.push_back(std::make_unique<Table>(0, kFirstCapacity));
  table_.store(tables_.back().get(), std::memory_order_release);
}

KernelChoices::~KernelChoices() = default;

const Decision* KernelChoices::find(std::uint64_t key, std::uint64_t generation) const {
  const Table* table = table_.load(std::memory_order_acquire);
  return table->generation == generation ? table->find(key) : nullptr;
}

const KernelChoices::Table* KernelChoices::insertLocked(std::uint64_t key, std::uint64_t generation,
                                                        const Decision* decision) {
  Table* table = tables_.back().get();
  const bool stale = table->generation != generation;
  const std::size_t capacity = table->mask + 1;
  if (stale || 2 * (table->used + 1) > capacity) {
    auto grown = std::make_unique<Table>(generation, stale ? kFirstCapacity : 2 * capacity);
    if (!stale)
      for (std::size_t i = 0; i < capacity; ++i)
        if (const std::uint64_t old = table->slots[i].key.load(std::memory_order_relaxed))
          grown->put(old, table->slots[i].decision.load(std::memory_order_relaxed));
    grown->put(key, decision);
    tables_.push_back(std::move(grown));
    table_.store(tables_.back().get(), std::memory_order_release);
    return tables_.back().get();
  }
  table->put(key, decision);
  return table;
}

const Decision& KernelChoices::findOrMake(std::uint64_t key, std::uint64_t generation,
                                          const std::function<Decision()>& make) {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (const Decision* kept = find(key, generation))
    return *kept;
  decisions_.push_back(std::make_unique<Decision>(make()));
  insertLocked(key, generation, decisions_.back().get());
  return *decisions_.back();
}

namespace {

// Kernels by descriptor address: buckets of lists that only ever grow at their head, so a reader
// walks them without a lock while a first use inserts under one.
struct KernelNode {
  const KernelDescriptor* kernel;
  KernelChoices choices;
  KernelNode* next;
  KernelNode(const KernelDescriptor* kernel, KernelNode* next) : kernel(kernel), next(next) {}
};

constexpr std::size_t kKernelBuckets = 256;

struct KernelRegistry {
  std::mutex mutex;
  std::atomic<KernelNode*> buckets[kKernelBuckets] = {};
};

KernelRegistry& kernelRegistry() {
  static KernelRegistry* const instance = new KernelRegistry;
  return *instance;
}

KernelNode* findNode(KernelNode* node, const KernelDescriptor* kernel) {
  for (; node; node = node->next)
    if (node->kernel == kernel)
      return node;
  return nullptr;
}

} // namespace

KernelChoices& choicesOf(const KernelDescriptor& kernel) {
  KernelRegistry& registry = kernelRegistry();
  std::atomic<KernelNode*>& bucket =
      registry.buckets[mix(reinterpret_cast<std::uintptr_t>(&kernel)) % kKernelBuckets];
  if (KernelNode* node = findNode(bucket.load(std::memory_order_acquire), &kernel))
    return node->choices;
  const std::lock_guard<std::mutex> lock(registry.mutex);
  KernelNode* head = bucket.load(std::memory_order_relaxed);
  if (KernelNode* node = findNode(head, &kernel))
    return node->choices;
  auto* node = new KernelNode(&kernel, head);
  bucket.store(node, std::memory_order_release);
  return node->choices;
}

} // namespace overlap::detail
