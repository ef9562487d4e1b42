// The registration cache (overlap/RegistrationCache.h) against a fake registrar that behaves as
// CUDA does where it matters: a page is registered at most once, unregistering needs the
// registration's first address, and freed memory can be scripted. No GPU.
#include "overlap/RegistrationCache.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

namespace {

using overlap::HostMemoryKind;
using overlap::PageRange;
using overlap::RangePin;
using overlap::RegistrationCache;

constexpr std::size_t kPage = 4096;
constexpr std::uintptr_t kBase = 0x100000;

std::uintptr_t page(long long index) {
  return kBase + static_cast<std::uintptr_t>(index) * kPage;
}

PageRange pages(long long first, long long end, bool written = false) {
  PageRange range;
  range.begin = page(first);
  range.end = page(end);
  range.written = written;
  return range;
}

class FakeRegistrar final : public overlap::PageRegistrar {
public:
  HostMemoryKind classify(const void* pointer) override {
    const std::lock_guard<std::mutex> lock(mutex_);
    const auto at = reinterpret_cast<std::uintptr_t>(pointer);
    return overlapsLocked(at, at + 1) ? HostMemoryKind::Pinned : HostMemoryKind::Pageable;
  }

  overlap::Status registerPages(void* begin, std::size_t bytes, bool readOnly) override {
    const std::lock_guard<std::mutex> lock(mutex_);
    ++registerCalls;
    const auto first = reinterpret_cast<std::uintptr_t>(begin);
    if (failuresLeft > 0) {
      --failuresLeft;
      return {cudaErrorMemoryAllocation, "cudaHostRegister", __FILE__, __LINE__};
    }
    if (overlapsLocked(first, first + bytes)) {
      ++alreadyRegistered;
      return {cudaErrorHostMemoryAlreadyRegistered, "cudaHostRegister", __FILE__, __LINE__};
    }
    if (!readOnly && readOnlyMemory.count(first) != 0)
      return {cudaErrorInvalidValue, "cudaHostRegister", __FILE__, __LINE__};
    registered[first] = {first + bytes, readOnly};
    return {};
  }

  overlap::Status unregisterPages(void* begin) override {
    const std::lock_guard<std::mutex> lock(mutex_);
    ++unregisterCalls;
    if (forbidUnregister)
      ++forbiddenUnregisters;
    if (registered.erase(reinterpret_cast<std::uintptr_t>(begin)) == 0)
      return {cudaErrorHostMemoryNotRegistered, "cudaHostUnregister", __FILE__, __LINE__};
    return {};
  }

  bool stillRegistered(void* begin) override {
    const std::lock_guard<std::mutex> lock(mutex_);
    return registered.count(reinterpret_cast<std::uintptr_t>(begin)) != 0;
  }

  bool pagesResident(void* begin, std::size_t bytes) override {
    const std::lock_guard<std::mutex> lock(mutex_);
    const auto first = reinterpret_cast<std::uintptr_t>(begin);
    for (const auto& [freedBegin, freedEnd] : freed)
      if (freedBegin < first + bytes && first < freedEnd)
        return false;
    return true;
  }

  // The user freed [begin, end): its pages are not resident until touched again.
  void freePages(std::uintptr_t begin, std::uintptr_t end) {
    const std::lock_guard<std::mutex> lock(mutex_);
    freed[begin] = end;
  }

  struct Registration {
    std::uintptr_t end;
    bool readOnly;
  };
  std::map<std::uintptr_t, Registration> registered; // ours and foreign ones
  std::map<std::uintptr_t, std::uintptr_t> freed;
  std::map<std::uintptr_t, bool> readOnlyMemory; // begins that only register read-only
  int registerCalls = 0;
  int unregisterCalls = 0;
  int alreadyRegistered = 0;
  int failuresLeft = 0;
  std::atomic<bool> forbidUnregister{false};
  int forbiddenUnregisters = 0;

private:
  bool overlapsLocked(std::uintptr_t begin, std::uintptr_t end) const {
    for (const auto& [first, registration] : registered)
      if (first < end && begin < registration.end)
        return true;
    return false;
  }

  std::mutex mutex_;
};

std::vector<RangePin> acquire(RegistrationCache& cache, const std::vector<PageRange>& ranges,
                              RegistrationCache::Hold* hold) {
  std::vector<RangePin> pins;
  cache.acquire(ranges, &pins, hold);
  return pins;
}

// Acquires and releases at once: one call on the ranges.
std::vector<RangePin> call(RegistrationCache& cache, const std::vector<PageRange>& ranges) {
  RegistrationCache::Hold hold;
  return acquire(cache, ranges, &hold);
}

class RegistrationCacheTest : public testing::Test {
protected:
  FakeRegistrar registrar;
  RegistrationCache cache{&registrar, 64 * kPage, kPage};
};

TEST_F(RegistrationCacheTest, ASecondCallOnTheSameRangeRegistersNothing) {
  EXPECT_TRUE(call(cache, {pages(0, 4)})[0].locked);
  EXPECT_TRUE(call(cache, {pages(0, 4)})[0].locked);
  EXPECT_EQ(registrar.registerCalls, 1);
  EXPECT_EQ(registrar.unregisterCalls, 0);
  const overlap::RegistrationCacheStats stats = cache.stats();
  EXPECT_EQ(stats.hits, 1);
  EXPECT_EQ(stats.registrations, 1);
  EXPECT_EQ(stats.entries, 1);
  EXPECT_EQ(stats.bytes, 4 * kPage);
}

TEST_F(RegistrationCacheTest, ItsGenerationChangesWithItsEntriesOnly) {
  const std::uint64_t start = cache.generation();
  call(cache, {pages(0, 4)});
  const std::uint64_t registered = cache.generation();
  EXPECT_NE(registered, start);
  call(cache, {pages(0, 4)});
  EXPECT_EQ(cache.generation(), registered) << "a hit changes no kind";
  ASSERT_TRUE(cache.unpin(pages(0, 4).begin, pages(0, 4).end).ok());
  EXPECT_NE(cache.generation(), registered);
}

TEST_F(RegistrationCacheTest, ARangeWithinAnEntryIsAHit) {
  call(cache, {pages(0, 8)});
  EXPECT_TRUE(call(cache, {pages(2, 4), pages(5, 7)})[1].locked);
  EXPECT_EQ(registrar.registerCalls, 1);
  EXPECT_EQ(cache.stats().hits, 2);
}

TEST_F(RegistrationCacheTest, AnOverlappingRangeReplacesTheEntryByTheirUnion) {
  call(cache, {pages(0, 4)});
  EXPECT_TRUE(call(cache, {pages(2, 6)})[0].locked);
  ASSERT_EQ(registrar.registered.size(), 1u);
  EXPECT_EQ(registrar.registered.begin()->first, page(0));
  EXPECT_EQ(registrar.registered.begin()->second.end, page(6));
  EXPECT_EQ(cache.stats().merges, 1);
  EXPECT_TRUE(cache.holds(page(0), page(6)));
  EXPECT_EQ(registrar.alreadyRegistered, 0);
}

TEST_F(RegistrationCacheTest, AdjacentRangesStayApartUntilOneRangeSpansThem) {
  call(cache, {pages(0, 4)});
  call(cache, {pages(4, 8)});
  EXPECT_EQ(cache.stats().entries, 2);
  EXPECT_EQ(registrar.unregisterCalls, 0);
  // One call with two touching ranges reuses both entries.
  EXPECT_TRUE(call(cache, {pages(0, 4), pages(4, 8)})[1].locked);
  EXPECT_EQ(registrar.registerCalls, 2);
  // A copy must lie within one registration: a range over both merges them.
  EXPECT_TRUE(call(cache, {pages(2, 6)})[0].locked);
  EXPECT_EQ(cache.stats().entries, 1);
  EXPECT_EQ(cache.stats().merges, 2);
  EXPECT_TRUE(cache.holds(page(0), page(8)));
}

TEST_F(RegistrationCacheTest, RangesOfOneCallSharingAnEntryMergeOnce) {
  // [3, 5) links the call's two ranges: one registration of [0, 8) results.
  call(cache, {pages(3, 5)});
  const std::vector<RangePin> pins = call(cache, {pages(0, 4), pages(4, 8)});
  EXPECT_TRUE(pins[0].locked);
  EXPECT_TRUE(pins[1].locked);
  EXPECT_EQ(cache.stats().entries, 1);
  EXPECT_TRUE(cache.holds(page(0), page(8)));
  EXPECT_EQ(registrar.alreadyRegistered, 0);
}

TEST_F(RegistrationCacheTest, TheLeastRecentlyUsedEntriesGoOnceTheBudgetIsExceeded) {
  RegistrationCache small(&registrar, 8 * kPage, kPage);
  call(small, {pages(0, 4)});
  call(small, {pages(10, 14)});
  call(small, {pages(0, 4)}); // [0, 4) is now the more recent
  call(small, {pages(20, 24)});
  EXPECT_TRUE(small.holds(page(0), page(4)));
  EXPECT_FALSE(small.holds(page(10), page(14)));
  EXPECT_TRUE(small.holds(page(20), page(24)));
  EXPECT_EQ(small.stats().evictions, 1);
  EXPECT_LE(small.stats().bytes, 8 * kPage);
  EXPECT_EQ(registrar.registered.size(), 2u);
}

TEST_F(RegistrationCacheTest, HeldEntriesOutliveTheBudgetUntilReleased) {
  RegistrationCache small(&registrar, 4 * kPage, kPage);
  RegistrationCache::Hold first;
  acquire(small, {pages(0, 4)}, &first);
  {
    RegistrationCache::Hold second;
    EXPECT_TRUE(acquire(small, {pages(10, 14)}, &second)[0].locked);
    EXPECT_EQ(small.stats().entries, 2);
  }
  // [10, 14), released and over budget, went; [0, 4) is still held.
  EXPECT_EQ(small.stats().entries, 1);
  EXPECT_TRUE(small.holds(page(0), page(4)));
  first.release();
  EXPECT_EQ(small.stats().entries, 1);
}

TEST_F(RegistrationCacheTest, ARangeLargerThanTheBudgetIsRegisteredForItsCallOnly) {
  RegistrationCache tiny(&registrar, 2 * kPage, kPage);
  EXPECT_TRUE(call(tiny, {pages(0, 4)})[0].locked);
  EXPECT_EQ(tiny.stats().entries, 0);
  EXPECT_TRUE(registrar.registered.empty());
}

TEST_F(RegistrationCacheTest, AFreedBufferIsRegisteredAgainBeforeReuse) {
  call(cache, {pages(0, 4)});
  registrar.freePages(page(0), page(4)); // unmapped, or mapped again and not touched yet
  EXPECT_TRUE(call(cache, {pages(0, 4)})[0].locked);
  EXPECT_EQ(cache.stats().invalidations, 1);
  EXPECT_EQ(cache.stats().hits, 0);
  EXPECT_EQ(registrar.unregisterCalls, 1); // the driver's stale registration went first
  EXPECT_EQ(registrar.registerCalls, 2);
}

TEST_F(RegistrationCacheTest, ARegistrationTheUserRemovedIsForgottenAndRegisteredAgain) {
  call(cache, {pages(0, 4)});
  registrar.registered.clear(); // cudaHostUnregister by the user
  EXPECT_TRUE(call(cache, {pages(0, 4)})[0].locked);
  EXPECT_EQ(cache.stats().invalidations, 1);
  EXPECT_EQ(registrar.unregisterCalls, 0);
  EXPECT_EQ(registrar.registered.size(), 1u);
}

TEST_F(RegistrationCacheTest, MemorySomebodyElseRegisteredIsLockedButNotCached) {
  registrar.registered[page(0)] = {page(4), false};
  EXPECT_TRUE(call(cache, {pages(0, 4)})[0].locked);
  EXPECT_EQ(cache.stats().entries, 0);
  bool cached = true;
  EXPECT_EQ(cache.classify(reinterpret_cast<void*>(page(1)), kPage, &cached),
            HostMemoryKind::Pinned);
  EXPECT_FALSE(cached);
}

TEST_F(RegistrationCacheTest, ClassifyTellsCachedRangesFromForeignOnes) {
  call(cache, {pages(0, 4)});
  bool cached = false;
  // Registered, but by the cache: pageable memory it pins, to be held through acquire().
  EXPECT_EQ(cache.classify(reinterpret_cast<void*>(page(3) + 100), 2 * kPage, &cached),
            HostMemoryKind::Pageable);
  EXPECT_TRUE(cached);
  EXPECT_EQ(cache.classify(reinterpret_cast<void*>(page(8)), 16, &cached),
            HostMemoryKind::Pageable);
  EXPECT_FALSE(cached);
}

TEST_F(RegistrationCacheTest, AFailedRegistrationIsRetriedAfterEvictingIdleEntries) {
  call(cache, {pages(0, 4)});
  registrar.failuresLeft = 1; // out of pinnable memory, say
  EXPECT_TRUE(call(cache, {pages(10, 12)})[0].locked);
  EXPECT_EQ(cache.stats().evictions, 1);
  EXPECT_FALSE(cache.holds(page(0), page(4)));
  EXPECT_TRUE(cache.holds(page(10), page(12)));
}

TEST_F(RegistrationCacheTest, AFailureLeavesTheRangeUnlockedWithItsStatus) {
  registrar.failuresLeft = 2; // the first try and the read-only one (nothing to evict)
  const std::vector<RangePin> pins = call(cache, {pages(0, 4)});
  EXPECT_FALSE(pins[0].locked);
  EXPECT_EQ(pins[0].status.code, cudaErrorMemoryAllocation);
  EXPECT_EQ(cache.stats().entries, 0);
}

TEST_F(RegistrationCacheTest, ReadOnlyMemoryIsRegisteredReadOnlyAndNeverForAWrite) {
  registrar.readOnlyMemory[page(0)] = true;
  EXPECT_TRUE(call(cache, {pages(0, 4)})[0].locked);
  ASSERT_EQ(registrar.registered.size(), 1u);
  EXPECT_TRUE(registrar.registered.begin()->second.readOnly);
  EXPECT_TRUE(call(cache, {pages(0, 4)})[0].locked); // reading it again: a hit
  EXPECT_EQ(cache.stats().hits, 1);
  // A call writing it cannot use a read-only registration: registered anew, writable, which
  // such memory refuses.
  const std::vector<RangePin> pins = call(cache, {pages(0, 4, true)});
  EXPECT_FALSE(pins[0].locked);
  EXPECT_EQ(cache.stats().entries, 0);
}

TEST_F(RegistrationCacheTest, UnpinDropsTheEntriesOverlappingTheRange) {
  call(cache, {pages(0, 4)});
  call(cache, {pages(10, 12)});
  EXPECT_TRUE(cache.unpin(page(1), page(2)).ok());
  EXPECT_FALSE(cache.holds(page(0), page(4)));
  EXPECT_TRUE(cache.holds(page(10), page(12)));
  EXPECT_EQ(registrar.registered.size(), 1u);
  EXPECT_TRUE(cache.unpin(page(30), page(31)).ok()); // nothing there
  EXPECT_TRUE(cache.clear().ok());
  EXPECT_TRUE(registrar.registered.empty());
  EXPECT_EQ(cache.stats().unpins, 2);
}

TEST_F(RegistrationCacheTest, AWideningWaitsForTheCallHoldingTheEntry) {
  RegistrationCache::Hold held;
  acquire(cache, {pages(0, 4)}, &held);
  registrar.forbidUnregister = true; // unregistering [0, 4) now would pull it from under a call
  std::atomic<bool> widened{false};
  std::thread other([&] {
    EXPECT_TRUE(call(cache, {pages(2, 6)})[0].locked);
    widened = true;
  });
  // Gives the other thread time to reach the wait; the result does not depend on it.
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(widened);
  registrar.forbidUnregister = false;
  held.release();
  other.join();
  EXPECT_TRUE(widened);
  EXPECT_EQ(registrar.forbiddenUnregisters, 0);
  EXPECT_TRUE(cache.holds(page(0), page(6)));
}

TEST_F(RegistrationCacheTest, UnpinWaitsForTheCallHoldingTheEntry) {
  RegistrationCache::Hold held;
  acquire(cache, {pages(0, 4)}, &held);
  registrar.forbidUnregister = true;
  std::thread other([&] { EXPECT_TRUE(cache.unpin(page(0), page(4)).ok()); });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  registrar.forbidUnregister = false;
  held.release();
  other.join();
  EXPECT_EQ(registrar.forbiddenUnregisters, 0);
  EXPECT_TRUE(registrar.registered.empty());
}

// Threads calling on shared and private ranges, overlapping in every way, while the budget
// evicts: CUDA's rules are never broken and the cache ends consistent with the registrar.
TEST_F(RegistrationCacheTest, ConcurrentCallsKeepTheRegistrarConsistent) {
  RegistrationCache shared(&registrar, 24 * kPage, kPage);
  std::vector<std::thread> threads;
  std::atomic<int> unlocked{0};
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      std::mt19937 random(static_cast<unsigned>(t));
      for (int i = 0; i < 300; ++i) {
        const long long first = static_cast<long long>(random() % 40);
        const long long length = 1 + static_cast<long long>(random() % 6);
        std::vector<PageRange> ranges = {pages(first, first + length, random() % 2 == 0)};
        const long long second = first + length + static_cast<long long>(random() % 3);
        if (random() % 2 == 0)
          ranges.push_back(pages(second, second + 2));
        for (const RangePin& pin : call(shared, ranges))
          unlocked += pin.locked ? 0 : 1;
        if (random() % 50 == 0)
          (void)shared.unpin(page(first), page(first + 1));
      }
    });
  for (std::thread& thread : threads)
    thread.join();
  EXPECT_EQ(unlocked, 0);
  EXPECT_EQ(registrar.alreadyRegistered, 0);
  const overlap::RegistrationCacheStats stats = shared.stats();
  EXPECT_EQ(static_cast<std::size_t>(stats.entries), registrar.registered.size());
  std::size_t registeredBytes = 0;
  for (const auto& [first, registration] : registrar.registered)
    registeredBytes += registration.end - first;
  EXPECT_EQ(stats.bytes, registeredBytes);
  EXPECT_LE(stats.bytes, 24 * kPage);
}

} // namespace
