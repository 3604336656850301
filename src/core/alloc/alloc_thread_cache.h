// ThreadCache: the top layer of the caching allocator — per thread, per allocator, small blocks only.
//
// A free of a block <= 64 KiB (default small pool, no stream fences) claims the block with one CAS
// (kLive -> kThreadCached) and pushes it on the thread's bin for its size; the next allocation of that
// size pops it. Neither touches a lock or a cache line another thread writes, so two threads allocating
// concurrently run as fast as one. Statistics are kept per thread and folded into the allocator's
// counters in steps of kFoldBytes (so the allocator's peak may miss a spike smaller than that per thread).
//
// Bounds: kBinCapacity blocks per size and `limit` bytes per thread; a full bin sends the free to the
// pool. Cached blocks count as reserved, not allocated. Other threads never touch a cache: on memory
// pressure the allocator bumps its flush epoch and each thread returns its cache at its next call; a
// thread's caches are returned when it exits.
//
// Lifetime: caches belong to their thread (a thread_local table indexed by the allocator's slot); an
// allocator that goes away detaches them under the registry lock (owner = nullptr).
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "core/alloc/alloc_block.h"
#include "core/alloc/alloc_size.h"

namespace npurt::core {

class CachingAllocator;

class ThreadCache {
 public:
  static constexpr uint32_t kBinCapacity = 32;
  static constexpr int64_t kFoldBytes = 256 << 10;
  static constexpr int kMaxSlots = 64;

  ThreadCache(CachingAllocator* owner, uint64_t limit, uint32_t epoch)
      : owner_(owner), epoch_(epoch), limit_(limit) {}

  CachingAllocator* owner() const { return owner_.load(std::memory_order_relaxed); }

  // Hot path: a cached block of exactly `size` bytes, or nullptr.
  Block* Pop(size_t size) {
    Bin& bin = bins_[size / alloc::kMinBlock - 1];
    if (bin.count == 0) return nullptr;
    Block* b = bin.items[--bin.count];
    bytes_ -= size;
    return b;
  }
  // Hot path: caches `b` (already kThreadCached); false if the bin or the byte budget is full.
  bool Push(Block* b) {
    Bin& bin = bins_[b->size / alloc::kMinBlock - 1];
    if (bin.count == kBinCapacity || bytes_ + b->size > limit_) return false;
    bin.items[bin.count++] = b;
    bytes_ += b->size;
    return true;
  }
  void CountAlloc(size_t size, bool hit) {
    delta_ += static_cast<int64_t>(size);
    published_allocs_.store(published_allocs_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    if (hit) published_hits_.store(published_hits_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    Publish();
  }
  void CountFree(size_t size) {
    delta_ -= static_cast<int64_t>(size);
    published_frees_.store(published_frees_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    Publish();
  }
  // True if the allocator asked every thread to return its cache since we last looked.
  bool FlushRequested(uint32_t epoch) const { return epoch != epoch_; }
  // Returns every cached block and folds the counters into the owner (owner thread, or the registry on
  // thread exit). Takes the owner's lock.
  void Flush(uint32_t epoch);

  // Read by Stats (any thread).
  int64_t published_delta() const { return published_delta_.load(std::memory_order_relaxed); }
  uint64_t published_bytes() const { return published_bytes_.load(std::memory_order_relaxed); }
  uint64_t published_allocs() const { return published_allocs_.load(std::memory_order_relaxed); }
  uint64_t published_frees() const { return published_frees_.load(std::memory_order_relaxed); }
  uint64_t published_hits() const { return published_hits_.load(std::memory_order_relaxed); }

  // Empties the cache: its blocks and unfolded counters go to the caller (who returns them to the owner).
  void TakeAll(std::vector<Block*>* blocks, int64_t* delta, uint64_t* allocs, uint64_t* frees, uint64_t* hits);

  void Detach() { owner_.store(nullptr, std::memory_order_relaxed); }
  void DropAll();  // forget every block (the owner is going away)

 private:
  void Publish();

  struct Bin {
    uint32_t count = 0;
    Block* items[kBinCapacity];
  };
  std::atomic<CachingAllocator*> owner_;
  uint32_t epoch_;
  uint64_t limit_;
  uint64_t bytes_ = 0;
  int64_t delta_ = 0;  // allocated bytes not yet folded into the owner
  std::atomic<int64_t> published_delta_{0};
  std::atomic<uint64_t> published_bytes_{0};
  std::atomic<uint64_t> published_allocs_{0};
  std::atomic<uint64_t> published_frees_{0};
  std::atomic<uint64_t> published_hits_{0};
  Bin bins_[alloc::kThreadCacheBins];
};

namespace detail {
// The calling thread's caches, by allocator slot (trivially destructible: the hot path pays one
// thread-local access and nothing else).
extern thread_local ThreadCache* t_thread_cache_slots[ThreadCache::kMaxSlots];
}  // namespace detail

// The calling thread's cache for slot `slot` (nullptr if none yet).
inline ThreadCache*& ThreadCacheSlot(int slot) { return detail::t_thread_cache_slots[slot]; }
// Creates the calling thread's cache for `owner` in its slot.
ThreadCache* CreateThreadCache(CachingAllocator* owner, int slot, uint64_t limit);
// Slot management: AcquireSlot returns -1 when every slot is taken (the allocator then runs without
// thread caches). ReleaseSlot detaches every thread's cache of `owner`.
int AcquireThreadCacheSlot();
void ReleaseThreadCacheSlot(int slot, CachingAllocator* owner);
// Calls fn(cache) for every live cache of `owner` (slot `slot`), under the registry lock.
template <typename Fn>
void ForEachThreadCache(int slot, const CachingAllocator* owner, Fn&& fn);

namespace detail {
void LockThreadCacheRegistry();
void UnlockThreadCacheRegistry();
ThreadCache* const* RegisteredCaches(int slot, size_t* count);
}  // namespace detail

template <typename Fn>
void ForEachThreadCache(int slot, const CachingAllocator* owner, Fn&& fn) {
  if (slot < 0) return;
  detail::LockThreadCacheRegistry();
  size_t n = 0;
  ThreadCache* const* caches = detail::RegisteredCaches(slot, &n);
  for (size_t i = 0; i < n; ++i) {
    if (caches[i]->owner() == owner) fn(*caches[i]);
  }
  detail::UnlockThreadCacheRegistry();
}

}  // namespace npurt::core
