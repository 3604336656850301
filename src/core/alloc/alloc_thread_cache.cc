#include "core/alloc/alloc_thread_cache.h"

#include <algorithm>
#include <mutex>
#include <vector>

#include "core/alloc/alloc_caching.h"

namespace npurt::core {

namespace detail {
thread_local ThreadCache* t_thread_cache_slots[ThreadCache::kMaxSlots];
}  // namespace detail

namespace {

struct ThreadCacheRegistry {
  std::mutex mu;
  bool taken[ThreadCache::kMaxSlots] = {};
  std::vector<ThreadCache*> caches[ThreadCache::kMaxSlots];  // every thread's cache, per slot
};

ThreadCacheRegistry& ThreadCaches() {
  // Never destroyed: threads may exit after static destructors.
  static ThreadCacheRegistry* r = new ThreadCacheRegistry();
  return *r;
}

// The hot path reads the trivially destructible table detail::t_thread_cache_slots; ThreadExit (touched
// once, when the thread creates its first cache) returns the caches when the thread ends.

struct ThreadExit {
  bool armed = false;
  ~ThreadExit() {
    if (!armed) return;
    ThreadCacheRegistry& r = ThreadCaches();
    std::lock_guard<std::mutex> lock(r.mu);
    for (int s = 0; s < ThreadCache::kMaxSlots; ++s) {
      ThreadCache* tc = detail::t_thread_cache_slots[s];
      if (tc == nullptr) continue;
      detail::t_thread_cache_slots[s] = nullptr;
      auto& v = r.caches[s];
      v.erase(std::remove(v.begin(), v.end(), tc), v.end());
      // Registry lock, then the owner's lock: the order every path uses.
      if (tc->owner() != nullptr) tc->Flush(tc->owner()->flush_epoch());
      delete tc;
    }
  }
};
thread_local ThreadExit t_exit;

}  // namespace

void ThreadCache::Publish() {
  if (delta_ >= kFoldBytes || delta_ <= -kFoldBytes) {
    owner()->FoldThreadDelta(delta_);
    delta_ = 0;
  }
  published_delta_.store(delta_, std::memory_order_relaxed);
  published_bytes_.store(bytes_, std::memory_order_relaxed);
}

void ThreadCache::TakeAll(std::vector<Block*>* blocks, int64_t* delta, uint64_t* allocs, uint64_t* frees,
                          uint64_t* hits) {
  for (Bin& bin : bins_) {
    blocks->insert(blocks->end(), bin.items, bin.items + bin.count);
    bin.count = 0;
  }
  bytes_ = 0;
  *delta = delta_;
  delta_ = 0;
  *allocs = published_allocs_.exchange(0, std::memory_order_relaxed);
  *frees = published_frees_.exchange(0, std::memory_order_relaxed);
  *hits = published_hits_.exchange(0, std::memory_order_relaxed);
  published_delta_.store(0, std::memory_order_relaxed);
  published_bytes_.store(0, std::memory_order_relaxed);
}

void ThreadCache::Flush(uint32_t epoch) {
  epoch_ = epoch;
  CachingAllocator* o = owner();
  if (o == nullptr) return;
  std::vector<Block*> blocks;
  int64_t delta = 0;
  uint64_t allocs = 0, frees = 0, hits = 0;
  TakeAll(&blocks, &delta, &allocs, &frees, &hits);
  o->ReturnFromThreadCache(blocks.data(), blocks.size(), delta, allocs, frees, hits);
}

void ThreadCache::DropAll() {
  for (Bin& bin : bins_) bin.count = 0;
  bytes_ = 0;
  delta_ = 0;
}


ThreadCache* CreateThreadCache(CachingAllocator* owner, int slot, uint64_t limit) {
  t_exit.armed = true;
  ThreadCacheRegistry& r = ThreadCaches();
  std::lock_guard<std::mutex> lock(r.mu);
  if (ThreadCache* old = detail::t_thread_cache_slots[slot]; old != nullptr) {
    // The slot's previous allocator went away (its caches were detached): forget the old cache.
    auto& v = r.caches[slot];
    v.erase(std::remove(v.begin(), v.end(), old), v.end());
    delete old;
  }
  auto* tc = new ThreadCache(owner, limit, owner->flush_epoch());
  r.caches[slot].push_back(tc);
  detail::t_thread_cache_slots[slot] = tc;
  return tc;
}

int AcquireThreadCacheSlot() {
  ThreadCacheRegistry& r = ThreadCaches();
  std::lock_guard<std::mutex> lock(r.mu);
  for (int s = 0; s < ThreadCache::kMaxSlots; ++s) {
    if (!r.taken[s]) {
      r.taken[s] = true;
      return s;
    }
  }
  return -1;
}

void ReleaseThreadCacheSlot(int slot, CachingAllocator* owner) {
  ThreadCacheRegistry& r = ThreadCaches();
  std::lock_guard<std::mutex> lock(r.mu);
  for (ThreadCache* tc : r.caches[slot]) {
    if (tc->owner() == owner) {
      tc->DropAll();
      tc->Detach();
    }
  }
  r.taken[slot] = false;
}

namespace detail {
void LockThreadCacheRegistry() { ThreadCaches().mu.lock(); }
void UnlockThreadCacheRegistry() { ThreadCaches().mu.unlock(); }
ThreadCache* const* RegisteredCaches(int slot, size_t* count) {
  *count = ThreadCaches().caches[slot].size();
  return ThreadCaches().caches[slot].data();
}
}  // namespace detail

}  // namespace npurt::core
