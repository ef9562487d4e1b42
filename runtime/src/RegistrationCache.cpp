#include "overlap/RegistrationCache.h"

#include <algorithm>
#include <iterator>

namespace overlap {

void RegistrationCache::Hold::release() {
  if (cache_ != nullptr)
    cache_->release(this);
  cache_ = nullptr;
  entries_.clear();
}

RegistrationCache::RegistrationCache(PageRegistrar* registrar, std::size_t budgetBytes,
                                     std::size_t pageSize)
    : registrar_(registrar), budget_(budgetBytes), pageSize_(pageSize) {}

HostMemoryKind RegistrationCache::classify(const void* pointer, std::size_t bytes, bool* cached) {
  const PageRange pages = pagesOf(pointer, bytes, pageSize_);
  const std::lock_guard<std::mutex> lock(mutex_);
  auto it = entries_.upper_bound(pages.begin);
  if (it != entries_.begin() && std::prev(it)->second.end > pages.begin)
    --it;
  *cached = it != entries_.end() && it->first < pages.end;
  return *cached ? HostMemoryKind::Pageable : registrar_->classify(pointer);
}

bool RegistrationCache::holds(std::uintptr_t begin, std::uintptr_t end) {
  const std::lock_guard<std::mutex> lock(mutex_);
  auto it = entries_.upper_bound(begin);
  if (it == entries_.begin())
    return false;
  --it;
  return it->first <= begin && end <= it->second.end;
}

std::vector<RegistrationCache::Cluster>
RegistrationCache::clustersOf(const std::vector<PageRange>& ranges) const {
  std::vector<Cluster> clusters;
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    const PageRange& range = ranges[i];
    std::vector<std::uintptr_t> overlapping;
    auto it = entries_.upper_bound(range.begin);
    if (it != entries_.begin() && std::prev(it)->second.end > range.begin)
      --it;
    for (; it != entries_.end() && it->first < range.end; ++it)
      overlapping.push_back(it->first);
    // Ranges are sorted and disjoint, so a range shares an entry with the previous cluster only
    // through that cluster's last entry.
    const bool joins = !clusters.empty() && !overlapping.empty() &&
                       !clusters.back().entries.empty() &&
                       overlapping.front() == clusters.back().entries.back();
    if (!joins) {
      Cluster cluster;
      cluster.begin = range.begin;
      cluster.end = range.end;
      clusters.push_back(cluster);
    }
    Cluster& cluster = clusters.back();
    cluster.end = std::max(cluster.end, range.end);
    cluster.written = cluster.written || range.written;
    cluster.ranges.push_back(static_cast<int>(i));
    for (std::uintptr_t begin : overlapping)
      if (cluster.entries.empty() || cluster.entries.back() != begin)
        cluster.entries.push_back(begin);
  }
  return clusters;
}

bool RegistrationCache::busy(const Cluster& cluster) const {
  for (std::uintptr_t begin : cluster.entries) {
    const auto it = entries_.find(begin);
    if (it != entries_.end() && it->second.users > 0)
      return true;
  }
  return false;
}

bool RegistrationCache::reusable(const Cluster& cluster) {
  if (cluster.entries.size() != 1)
    return false;
  // An earlier cluster's retry may have evicted it (registerEntry).
  const auto it = entries_.find(cluster.entries.front());
  if (it == entries_.end())
    return false;
  const Entry& entry = it->second;
  if (it->first > cluster.begin || entry.end < cluster.end)
    return false;
  return !(cluster.written && entry.readOnly);
}

void RegistrationCache::acquire(const std::vector<PageRange>& ranges, std::vector<RangePin>* pins,
                                Hold* hold) {
  std::unique_lock<std::mutex> lock(mutex_);
  pins->assign(ranges.size(), RangePin{});
  std::vector<Cluster> clusters;
  // A registration a cluster must replace (or a stale one it must drop) may be held by a call in
  // flight: wait for it, then look again, since the entries may have changed meanwhile. Nothing is
  // held while waiting, so two calls never wait for each other.
  for (;;) {
    clusters = clustersOf(ranges);
    bool wait = false;
    for (Cluster& cluster : clusters) {
      if (reusable(cluster)) {
        const auto it = entries_.find(cluster.entries.front());
        if (registrar_->stillRegistered(reinterpret_cast<void*>(it->first)) &&
            registrar_->pagesResident(reinterpret_cast<void*>(it->first),
                                      it->second.end - it->first))
          continue;
        if (it->second.users == 0) {
          // Stale: the buffer was freed or unregistered since. Forgotten, not unregistered, when
          // the registration is gone; otherwise unregistered (the driver still pins the old pages).
          const bool registered = registrar_->stillRegistered(reinterpret_cast<void*>(it->first));
          bytes_ -= it->second.end - it->first;
          if (registered)
            (void)registrar_->unregisterPages(reinterpret_cast<void*>(it->first));
          entries_.erase(it);
          ++stats_.invalidations;
          cluster.entries.clear();
          continue;
        }
      }
      wait = wait || busy(cluster);
    }
    if (!wait)
      break;
    released_.wait(lock);
  }
  for (const Cluster& cluster : clusters)
    pinCluster(cluster, ranges, pins, hold);
  evictTo(budget_);
}

void RegistrationCache::pinCluster(const Cluster& cluster, const std::vector<PageRange>& ranges,
                                   std::vector<RangePin>* pins, Hold* hold) {
  if (reusable(cluster)) {
    holdEntry(entries_.find(cluster.entries.front()), hold);
    stats_.hits += static_cast<long long>(cluster.ranges.size());
    for (int i : cluster.ranges)
      (*pins)[static_cast<std::size_t>(i)].locked = true;
    return;
  }
  // One registration of the union of the ranges and the entries they overlap, which replaces
  // those entries (idle: acquire() waited for them).
  std::uintptr_t begin = cluster.begin;
  std::uintptr_t end = cluster.end;
  for (std::uintptr_t entry : cluster.entries) {
    const auto it = entries_.find(entry);
    if (it == entries_.end())
      continue;
    begin = std::min(begin, it->first);
    end = std::max(end, it->second.end);
    (void)drop(it);
    ++stats_.merges;
  }
  Status status = registerEntry(begin, end, cluster.written, hold);
  if (status.ok() || status.code == cudaErrorHostMemoryAlreadyRegistered) {
    for (int i : cluster.ranges)
      (*pins)[static_cast<std::size_t>(i)].locked = true;
    return;
  }
  // The union may reach into pages an old entry covered that are no longer mapped: each range
  // alone, then (they are the caller's arrays).
  for (int i : cluster.ranges) {
    const PageRange& range = ranges[static_cast<std::size_t>(i)];
    RangePin& pin = (*pins)[static_cast<std::size_t>(i)];
    status = cluster.ranges.size() > 1 || range.begin != begin || range.end != end
                 ? registerEntry(range.begin, range.end, range.written, hold)
                 : status;
    pin.locked = status.ok() || status.code == cudaErrorHostMemoryAlreadyRegistered;
    if (!pin.locked)
      pin.status = status;
  }
}

Status RegistrationCache::registerEntry(std::uintptr_t begin, std::uintptr_t end, bool written,
                                        Hold* hold) {
  void* const pointer = reinterpret_cast<void*>(begin);
  const std::size_t bytes = end - begin;
  bool readOnly = false;
  Status status = registrar_->registerPages(pointer, bytes, readOnly);
  // Out of pinnable memory: the idle entries give theirs back, and it is tried again.
  if (status.code == cudaErrorMemoryAllocation) {
    const std::size_t before = bytes_;
    evictTo(0);
    if (bytes_ < before)
      status = registrar_->registerPages(pointer, bytes, false);
  }
  // Memory the process mapped read-only can only be registered read-only.
  if (!status.ok() && status.code != cudaErrorHostMemoryAlreadyRegistered && !written) {
    readOnly = true;
    status = registrar_->registerPages(pointer, bytes, readOnly);
  }
  if (!status.ok())
    return status;
  Entry entry;
  entry.end = end;
  entry.readOnly = readOnly;
  const auto inserted = entries_.emplace(begin, entry).first;
  bytes_ += bytes;
  ++stats_.registrations;
  generation_.fetch_add(1, std::memory_order_acq_rel);
  holdEntry(inserted, hold);
  return status;
}

Status RegistrationCache::drop(Entries::iterator entry) {
  const Status status = registrar_->unregisterPages(reinterpret_cast<void*>(entry->first));
  bytes_ -= entry->second.end - entry->first;
  entries_.erase(entry);
  generation_.fetch_add(1, std::memory_order_acq_rel);
  return status;
}

void RegistrationCache::holdEntry(Entries::iterator entry, Hold* hold) {
  ++entry->second.users;
  entry->second.used = ++clock_;
  hold->cache_ = this;
  hold->entries_.push_back(entry->first);
}

void RegistrationCache::evictTo(std::size_t limit) {
  while (bytes_ > limit) {
    auto oldest = entries_.end();
    for (auto it = entries_.begin(); it != entries_.end(); ++it)
      if (it->second.users == 0 &&
          (oldest == entries_.end() || it->second.used < oldest->second.used))
        oldest = it;
    if (oldest == entries_.end())
      return;
    (void)drop(oldest);
    ++stats_.evictions;
  }
}

void RegistrationCache::release(Hold* hold) {
  const std::lock_guard<std::mutex> lock(mutex_);
  for (std::uintptr_t begin : hold->entries_) {
    const auto it = entries_.find(begin);
    if (it != entries_.end())
      --it->second.users;
  }
  evictTo(budget_);
  released_.notify_all();
}

Status RegistrationCache::unpin(std::uintptr_t begin, std::uintptr_t end) {
  std::unique_lock<std::mutex> lock(mutex_);
  const auto overlapping = [&] {
    std::vector<Entries::iterator> found;
    auto it = entries_.upper_bound(begin);
    if (it != entries_.begin() && std::prev(it)->second.end > begin)
      --it;
    for (; it != entries_.end() && it->first < end; ++it)
      found.push_back(it);
    return found;
  };
  released_.wait(lock, [&] {
    for (const auto& it : overlapping())
      if (it->second.users > 0)
        return false;
    return true;
  });
  Status first;
  for (const auto& it : overlapping()) {
    keepFirst(first, drop(it));
    ++stats_.unpins;
  }
  return first;
}

Status RegistrationCache::clear() {
  return unpin(0, UINTPTR_MAX);
}

RegistrationCacheStats RegistrationCache::stats() {
  const std::lock_guard<std::mutex> lock(mutex_);
  RegistrationCacheStats stats = stats_;
  stats.bytes = bytes_;
  stats.entries = static_cast<int>(entries_.size());
  return stats;
}

} // namespace overlap
