// Registrations of the user's pageable arrays kept across calls (PageableMode::CachedRegister),
// so that a loop calling kernels on the same buffers pays cudaHostRegister once instead of once
// per call (about one pageable copy of the bytes each time; HostArrayPinning.h).
//
// Entries are disjoint page ranges, one registration each, dropped least recently used first
// whenever their bytes exceed the budget (entries a call holds are never dropped; a range larger
// than the budget is thus registered for its call only). CUDA refuses to register a page twice,
// and one copy or one mapped array must lie within one registration, so a call's range that
// overlaps entries without lying within one of them (a larger view of a buffer, or two arrays
// cached apart that a call now uses as one range) replaces them by one registration of their
// union. That unregisters them, which is safe only while no call uses them: the call waits for
// the calls in flight that hold them. Ranges that merely touch stay apart: they may be two
// allocations, and a registration must not span pages that could be unmapped.
//
// A cached registration outlives the call, so the pages stay pinned until they are unpinned
// (unpin(), the budget, or the end of the process). A buffer freed while registered leaves a
// stale registration: the driver keeps the old physical pages, and a new allocation at the same
// address would be copied from and to those. The contract (PinCache.h) is therefore cuFile's: a
// cached buffer is unpinned before it is freed. What can be detected cheaply is checked before
// every reuse of an entry: the registration still exists (the user did not unregister it
// himself), and every page is mapped and resident (pinned pages always are; a page that is not
// belongs to a mapping made after the registration). A stale entry is unregistered and the
// range registered again. A freed buffer whose address was reused and whose pages were written
// since cannot be told from the original: that is the contract's part.
//
// Thread safety: one mutex for the cache; calls on different devices may share entries
// (registrations are portable). Registering and unregistering happen under the mutex, so a
// call that registers a large range makes the others wait for it.
#pragma once

#include "overlap/HostMemoryKind.h"
#include "overlap/PageRange.h"
#include "overlap/Status.h"

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

namespace overlap {

// What the cache asks of CUDA and of the operating system; tests substitute a fake.
class PageRegistrar {
public:
  virtual ~PageRegistrar() = default;
  // What CUDA says the memory at `pointer` is.
  virtual HostMemoryKind classify(const void* pointer) = 0;
  // Page-locks [begin, begin + bytes), mapped and portable (read-only when asked).
  virtual Status registerPages(void* begin, std::size_t bytes, bool readOnly) = 0;
  virtual Status unregisterPages(void* begin) = 0;
  // The registration made at `begin` still exists.
  virtual bool stillRegistered(void* begin) = 0;
  // Every page of the range is mapped, and resident (the real registrar samples large ranges).
  virtual bool pagesResident(void* begin, std::size_t bytes) = 0;
};

// What acquire() made of one requested range.
struct RangePin {
  // Copies from and to the range run asynchronously: a cached registration holds it, or somebody
  // else registered its pages (cudaErrorHostMemoryAlreadyRegistered; theirs to unregister).
  bool locked = false;
  Status status; // why it is not locked
};

struct RegistrationCacheStats {
  long long hits = 0;          // ranges found registered
  long long registrations = 0; // cudaHostRegister calls that succeeded
  long long merges = 0;        // entries replaced by a registration of a wider range
  long long evictions = 0; // entries dropped for the budget, or for a registration out of memory
  long long invalidations = 0; // stale entries found before reuse
  long long unpins = 0;        // entries dropped by unpin()
  std::size_t bytes = 0;       // registered now
  int entries = 0;
};

class RegistrationCache {
public:
  // The entries one call holds; they are neither replaced nor dropped until released (at the
  // latest when the hold ends).
  class Hold {
  public:
    Hold() = default;
    Hold(const Hold&) = delete;
    Hold& operator=(const Hold&) = delete;
    ~Hold() { release(); }
    void release();

  private:
    friend class RegistrationCache;
    RegistrationCache* cache_ = nullptr;
    std::vector<std::uintptr_t> entries_; // begins of the held entries
  };

  // `registrar` must outlive the cache. A budget of 0 keeps nothing beyond the calls in flight.
  RegistrationCache(PageRegistrar* registrar, std::size_t budgetBytes, std::size_t pageSize);
  RegistrationCache(const RegistrationCache&) = delete;
  RegistrationCache& operator=(const RegistrationCache&) = delete;
  // Keeps the registrations: the cache of the process lives as long as the process, whose end
  // releases them (unregistering in a static destructor could run after CUDA's teardown).
  ~RegistrationCache() = default;

  // What the memory at `pointer` is, for `bytes` bytes: Pageable, with *cached true, for a range
  // that overlaps a cached registration (pageable memory the cache pinned: acquire() holds it),
  // else what the registrar says. Atomic with the cache's own registrations, so a range the cache
  // registers meanwhile is never taken for memory somebody else pinned.
  HostMemoryKind classify(const void* pointer, std::size_t bytes, bool* cached);

  // Whether [begin, end) lies within one cached registration.
  bool holds(std::uintptr_t begin, std::uintptr_t end);

  // Pins every range (page-aligned, disjoint, sorted: groupPageRanges()) for a call and adds
  // the entries to `hold` (which must be empty). (*pins)[i] says what became of ranges[i]. Waits
  // while a registration it must replace is held by a call in flight.
  void acquire(const std::vector<PageRange>& ranges, std::vector<RangePin>* pins, Hold* hold);

  // Unregisters every entry overlapping [begin, end) (page-aligned), once no call holds it. The
  // first failure is returned; the entries are forgotten either way.
  Status unpin(std::uintptr_t begin, std::uintptr_t end);
  Status clear(); // unpin() of everything

  RegistrationCacheStats stats();
  std::size_t budget() const { return budget_; }
  // Changes whenever an entry is registered or dropped (and only then), without taking the lock:
  // what a caller that remembers the kinds of ranges checks (CallMemory.h).
  std::uint64_t generation() const { return generation_.load(std::memory_order_acquire); }

private:
  struct Entry {
    std::uintptr_t end = 0;
    bool readOnly = false;
    int users = 0;          // calls in flight holding it
    std::uint64_t used = 0; // when a call last acquired it: the LRU order
  };
  using Entries = std::map<std::uintptr_t, Entry>; // by begin

  // Consecutive requested ranges that overlap the same entries, with those entries.
  struct Cluster {
    std::uintptr_t begin = 0; // hull of the ranges and the entries
    std::uintptr_t end = 0;
    bool written = false;
    std::vector<int> ranges;
    std::vector<std::uintptr_t> entries;
  };

  std::vector<Cluster> clustersOf(const std::vector<PageRange>& ranges) const;
  // The cluster can use its one entry as it is (checked for staleness first; a stale entry is
  // dropped). False when it must be registered anew.
  bool reusable(const Cluster& cluster);
  bool busy(const Cluster& cluster) const;
  void pinCluster(const Cluster& cluster, const std::vector<PageRange>& ranges,
                  std::vector<RangePin>* pins, Hold* hold);
  // Registers [begin, end) as an entry held by `hold`; the status of the last attempt.
  Status registerEntry(std::uintptr_t begin, std::uintptr_t end, bool written, Hold* hold);
  Status drop(Entries::iterator entry);
  void holdEntry(Entries::iterator entry, Hold* hold);
  // Drops idle entries, least recently used first, until the bytes fit `limit`.
  void evictTo(std::size_t limit);
  void release(Hold* hold);

  PageRegistrar* const registrar_;
  const std::size_t budget_;
  const std::size_t pageSize_;
  std::mutex mutex_;
  std::condition_variable released_; // an entry's last user released it
  Entries entries_;
  std::size_t bytes_ = 0;
  std::uint64_t clock_ = 0;
  RegistrationCacheStats stats_;
  std::atomic<std::uint64_t> generation_{0};
};

} // namespace overlap
