// CachingAllocator: one pool of device memory with the policy of docs/memory.md.
//
// Layers, top to bottom:
//   thread cache   per thread, blocks <= 64 KiB of the default small pool; alloc and free are a pop and a
//                  push with no lock and no shared write (alloc_thread_cache.h)
//   pools          per page kind (normal, huge, 1 GiB) a small pool (<= 1 MiB, 2 MiB segments) and a large
//                  pool; best fit over a (stream, size, address) index, split, merge with free neighbours,
//                  max_split_size; stream-ordered frees wait in a pending list until their fences pass
//                  (reusable at once on the freeing stream)
//   segments       from DeviceMemory: linear physical runs, or expandable reservations mapped page by page
//
// On exhaustion it reclaims passed frees, returns its thread's cache, asks other threads to return
// theirs, releases idle cached segments (and unmaps idle pages of expandable ones) and retries; then it
// fails with a message that gives requested, allocated, reserved, free, largest free block and a
// fragmentation figure. Several instances share one device: the device's default allocator (aclrtMalloc)
// and one per aclrtMemPool; DeviceAllocator routes pointers to their owner through the SegmentIndex.
// Thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/handle.h"
#include "base/status.h"
#include "core/alloc/alloc_block.h"
#include "core/alloc/alloc_config.h"
#include "core/alloc/alloc_segment_index.h"
#include "core/alloc/alloc_size.h"
#include "core/alloc/alloc_stream_fence.h"
#include "core/memory/mem_device_memory.h"

namespace npurt::core {

class ThreadCache;
class CachingAllocator;

struct AllocRequest {
  size_t size = 0;          // user bytes
  uint32_t policy = 0;      // aclrtMemMallocPolicy
  bool pad = true;          // aclrtMalloc's 32 B over-read padding
  void* owner = nullptr;    // owner tag (the context), for FreeOwnedBy and leak reports
  uintptr_t stream = 0;     // stream-ordered allocation (pools): reuse blocks this stream freed; 0 = none
  bool fresh_serial = false;  // skip the thread cache, so the block gets a new serial (managed memory)
};

// A live allocation as Lookup sees it.
struct LiveAllocation {
  uintptr_t base = 0;
  size_t size = 0;       // requested bytes
  size_t capacity = 0;   // block bytes
  void* owner = nullptr;
  uintptr_t stream = 0;
  uint32_t site = 0;
  alloc::PageKind kind = alloc::PageKind::kNormal;
  uint64_t serial = 0;   // allocation number (slow-path allocations; thread-cache hits keep the old one)
};

struct PoolFigures {
  uint64_t allocated = 0;       // block bytes handed out
  uint64_t allocated_peak = 0;
  uint64_t reserved = 0;        // bytes of segments (mapped pages for expandable ones)
  uint64_t reserved_peak = 0;
  uint64_t segments = 0;
  uint64_t live_blocks = 0;
};

struct CachingStats {
  PoolFigures total;
  PoolFigures pools[alloc::kPageKinds][2];  // [kind][0 small, 1 large]
  uint64_t cached_free = 0;        // bytes in free blocks (reusable without new segments)
  uint64_t largest_cached_free = 0;
  uint64_t pending_bytes = 0;
  uint64_t pending_count = 0;
  uint64_t thread_cached_bytes = 0;
  uint64_t alloc_count = 0;
  uint64_t free_count = 0;
  uint64_t thread_cache_hits = 0;
  uint64_t segment_allocs = 0;
  uint64_t segment_frees = 0;
  uint64_t page_maps = 0;          // expandable: pages mapped
  uint64_t page_unmaps = 0;
  uint64_t retries = 0;            // allocations that needed release-and-retry
  uint64_t ooms = 0;
};

// One entry of the allocation timeline (NPURT_ALLOC_CONF=history:N).
struct AllocEvent {
  enum Kind : uint8_t { kAlloc, kFree, kFreePending, kSegmentAlloc, kSegmentFree, kPageMap, kPageUnmap, kOom };
  uint64_t time_ns;
  Kind kind;
  uintptr_t addr;
  uint64_t size;
  uintptr_t stream;
  uint64_t allocated;  // after the event
  uint64_t reserved;
};
const char* AllocEventName(AllocEvent::Kind kind);

// One pool: the segments of one page kind and size class, and their blocks. Guarded by the owner's lock
// (except `owner`, `kind` and `small`, fixed at construction).
struct BlockPool {
  using FreeIndex = std::set<Block*, bool (*)(const Block*, const Block*)>;
  alloc::PageKind kind = alloc::PageKind::kNormal;
  bool small = true;
  FreeIndex free_index;                // free blocks (and stream-reusable pending ones) by (stream, size, address)
  std::map<uintptr_t, Block*> blocks;  // every block, by address (Lookup, snapshots)
  std::vector<Segment*> segments;
  Segment* expandable = nullptr;       // the pool's reservation when expandable segments are on
  bool expandable_failed = false;
  PoolFigures figures;
  CachingAllocator* owner = nullptr;
  BlockPool();
};

class CachingAllocator {
 public:
  struct Options {
    AllocatorConfig config;
    uint64_t limit = UINT64_MAX;  // most bytes it may reserve (aclrtMemPool maxSize)
    bool thread_cache = true;     // and config.thread_cache
    std::string name = "device";  // for messages ("device 0", "memory pool 0x...")
    // Called (by DeviceAllocator) after a block of this allocator was freed, outside its lock.
    void (*on_free)(void* ctx) = nullptr;
    void* on_free_ctx = nullptr;
    // Retained by DeviceAllocator around each free of one of our blocks (the pool that owns us), so
    // that on_free may release the owner without pulling the allocator from under a concurrent free.
    HandleObject* keepalive = nullptr;
  };

  CachingAllocator(DeviceMemory* memory, SegmentIndex* index, Options options);
  // Releases every segment. Live blocks are abandoned (their owners leaked them).
  ~CachingAllocator();
  CachingAllocator(const CachingAllocator&) = delete;
  CachingAllocator& operator=(const CachingAllocator&) = delete;

  StatusOr<void*> Allocate(const AllocRequest& request);
  // aclrtMalloc's fast path: a block of the calling thread's cache for a plain request (no stream, no
  // fresh serial) of `size` bytes, or nullptr when there is none (the caller then takes Allocate).
  void* AllocateCached(size_t size, uint32_t policy, bool pad, void* owner);
  // aclrtFree's fast path, for a block no stream may still use (no fences): true if the live small block
  // at `addr` went to the calling thread's cache; false changes nothing (the caller then takes Free).
  bool FreeCached(uintptr_t addr, Segment* segment);
  // FreeCached's two halves, which tests interleave with other work to open the race window between them:
  // the checks (is the block at `addr` live, small, of no stream?) and the claim, which succeeds only if the
  // block is still in the life the checks saw. An empty ticket (block == nullptr) failed the checks.
  struct FastFreeTicket {
    Block* block = nullptr;
    uint64_t seen = 0;  // the block's state word at the checks
  };
  FastFreeTicket CheckFastFree(uintptr_t addr) const;
  bool ClaimFastFree(const FastFreeTicket& ticket);
  // Frees the block starting at `addr` (which lies in `segment`, one of ours). With fences that have not
  // passed the block is pending; `stream_key` != 0 makes it reusable at once on that stream.
  Status Free(uintptr_t addr, Segment* segment, const StreamFence* fences, size_t fence_count, uintptr_t stream_key);
  bool Lookup(uintptr_t addr, Segment* segment, LiveAllocation* out) const;
  // Physical offsets of the pages [lo, hi) of `segment` (page-aligned; -1 for unmapped pages).
  std::vector<int64_t> PhysicalPages(const Segment* segment, uintptr_t lo, uintptr_t hi) const;
  // Frees every live block of `owner`; returns them (for the leak report).
  std::vector<LiveAllocation> FreeOwnedBy(void* owner);
  // Returns idle memory to the device until at most `keep` bytes stay reserved (aclrtMemPoolTrimTo, OOM).
  void Trim(uint64_t keep);
  // Moves every pending block whose fences passed to the free pools.
  void ReclaimPending();
  // Bytes Trim(0) would give back now: idle linear segments and idle mapped pages of expandable ones,
  // once the calling thread's cache is returned and pending frees whose streams passed are reclaimed
  // (both done here). aclrtGetMemInfo counts them as free: any allocation that needs them gets them.
  uint64_t SettleAndCountIdle();
  // Waits on the host until every pending free's streams passed it, then reclaims them (a pool being
  // released: its memory must not go back while a stream may still use it).
  void WaitForPendingFrees();

  CachingStats Stats() const;
  uint64_t live_blocks() const;
  uint64_t reserved() const;
  const Options& options() const { return options_; }
  void set_limit(uint64_t limit) { options_.limit = limit; }
  void ResetPeaks();
  DeviceMemory* memory() const { return memory_; }
  // Idle bytes this allocator keeps when another allocator of the device runs short (a pool's release
  // threshold; 0 for the default allocator: under pressure all its idle memory goes back).
  std::atomic<uint64_t> pressure_keep{0};

  // Every segment and block, as JSON (docs/memory.md, "Snapshots").
  nlohmann::json Snapshot() const;
  std::vector<AllocEvent> History() const;
  // Walks every pool and checks the invariants of alloc_block.h; the message names the first violation.
  Status CheckInvariants() const;

  // Thread-cache plumbing (alloc_thread_cache.cc).
  void ReturnFromThreadCache(Block** blocks, size_t count, int64_t allocated_delta, uint64_t allocs, uint64_t frees,
                             uint64_t hits);
  void FoldThreadDelta(int64_t delta);
  uint32_t flush_epoch() const { return flush_epoch_.load(std::memory_order_relaxed); }
  int thread_cache_slot() const { return tls_slot_; }

 private:
  friend class ThreadCache;
  using Pool = BlockPool;
  struct Pending {
    Block* block;
    std::vector<StreamFence> fences;
  };

  Pool& PoolFor(alloc::PageKind kind, size_t block_size);
  StatusOr<void*> AllocateSlow(const AllocRequest& r, size_t block_size, alloc::PageKind kind);
  Block* FindFree(Pool& pool, size_t size, uintptr_t stream);
  Block* Grow(Pool& pool, size_t size, Status* why);
  Status Commit(Pool& pool, Block* b, size_t size);
  Status EnsureMapped(Segment* seg, uintptr_t addr, size_t size);
  StatusOr<uint64_t> TakeIdlePage(Segment* target, uintptr_t keep_lo, uintptr_t keep_hi);
  Status UnmapPage(Segment* seg, size_t page);
  void TouchPages(Segment* seg, const Block* b, int delta);
  void ReleaseAndRetryPrep();
  void ReturnLocalCacheLocked();
  uint64_t IdleBytesLocked() const;
  void MakeFree(Block* b);
  void Index(Block* b);
  void Unindex(Block* b);
  void RemovePending(Block* b);
  Block* NewBlock();
  void RecycleBlock(Block* b);
  void SetStart(Segment* seg, uintptr_t addr, Block* b);
  void ReleaseSegment(Pool& pool, Segment* seg);
  uint64_t ReleaseIdle(uint64_t target_reserved, bool oldest_first);
  uint64_t UnmapIdlePages(Segment* seg, uint64_t target_reserved);
  void CollectGarbage(size_t incoming);
  Status OutOfMemory(const AllocRequest& r, size_t block_size, alloc::PageKind kind, const Status& why);
  void AddReserved(Pool& pool, int64_t bytes);
  void AddAllocated(Pool& pool, int64_t bytes);
  void Record(AllocEvent::Kind kind, uintptr_t addr, uint64_t size, uintptr_t stream);
  void CheckIfEnabled() const;        // takes the lock (fast paths)
  void CheckLocked() const;           // lock held (slow paths)
  Status CheckInvariantsLocked() const;
  Status FreeError(uintptr_t addr, const Pool& pool) const;
  ThreadCache* LocalCache();
  void* PopCached(size_t block_size, size_t size, void* owner);
  bool PushCached(uintptr_t addr, Segment* seg);
  FastFreeTicket CheckFastFreeInline(uintptr_t addr) const;
  bool ClaimFastFreeInline(const FastFreeTicket& ticket);

  DeviceMemory* const memory_;
  SegmentIndex* const index_;
  Options options_;
  const bool tls_enabled_;
  int tls_slot_ = -1;

  mutable std::mutex mu_;
  Pool pools_[alloc::kPageKinds][2];
  std::vector<Pending> pending_;
  uint64_t pending_bytes_ = 0;
  Block* recycled_ = nullptr;
  std::deque<std::unique_ptr<Block[]>> block_storage_;
  std::vector<std::unique_ptr<Segment>> retired_segments_;  // released, kept for lock-free readers
  uint64_t clock_ = 0;
  uint64_t serial_ = 0;
  uint64_t allocated_ = 0;  // slow path + folded thread-cache deltas
  uint64_t allocated_peak_ = 0;
  uint64_t reserved_ = 0;
  uint64_t reserved_peak_ = 0;
  uint64_t live_count_ = 0;  // slow path only; thread caches add their own
  CachingStats counters_;    // event counters (under mu_)
  std::atomic<uint32_t> flush_epoch_{0};
  std::vector<AllocEvent> history_;
  size_t history_next_ = 0;
};

}  // namespace npurt::core
