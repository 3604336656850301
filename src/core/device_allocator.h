// DeviceAllocator: carves one device's memory arena into allocations.
//
// Policy (the memory issue will layer a thread cache and stream-ordered pools on top):
//  - every block is a multiple of kGranule (512 B), so every pointer is 512-byte aligned (ACL promises
//    64); the requested size is kept for bounds checks;
//  - freed blocks of up to kMaxCachedSize are kept per size in a cache and handed out again without a
//    search (they still count as used, as in cudaMemGetInfo with a caching allocator);
//  - other frees merge with free neighbours; allocation is best fit over free blocks;
//  - frees are stream-ordered: a block freed while device streams still have queued work is reused
//    only after each of those streams passed the point of the free — never an implicit sync;
//  - when nothing fits, cached and drained blocks are returned to the free tree and the search retried;
//    then the error says what was requested, used, free and the largest free block.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <unordered_map>
#include <vector>

#include "base/handle.h"
#include "base/status.h"

namespace npurt::hal {
class Device;
}

namespace npurt::core {

class Context;
class Stream;

struct AllocationInfo {
  uintptr_t base = 0;
  size_t size = 0;  // requested bytes
  Context* owner = nullptr;
};

struct AllocatorStats {
  uint64_t total = 0;      // arena size
  uint64_t reserved = 0;   // bytes in live, cached and pending blocks
  uint64_t live = 0;       // bytes of live allocations (rounded)
  uint64_t peak_live = 0;
  uint64_t largest_free = 0;
  uint64_t allocations = 0;  // live allocation count
};

// One fence of a stream-ordered free: the block may be reused once `stream` completed `seq`.
struct StreamFence {
  Ref<Stream> stream;
  uint64_t seq;
};

class DeviceAllocator {
 public:
  static constexpr size_t kGranule = 512;
  static constexpr size_t kMaxCachedSize = 1 << 20;

  DeviceAllocator(hal::Device* device, uint8_t* base, uint64_t size);

  StatusOr<void*> Allocate(size_t size, Context* owner);
  // Frees the allocation starting at `ptr`; `fences` are the streams that may still use it.
  Status Free(void* ptr, std::vector<StreamFence> fences);
  // Finds the live allocation containing `ptr`.
  bool Lookup(const void* ptr, AllocationInfo* out) const;
  // Frees every live allocation owned by `owner` (context destruction); returns how many.
  size_t FreeOwnedBy(Context* owner);
  AllocatorStats Stats() const;
  bool Contains(const void* ptr) const {
    auto p = reinterpret_cast<uintptr_t>(ptr);
    return p >= base_ && p < base_ + size_;
  }

 private:
  enum class State : uint8_t { kFree, kLive, kCached, kPending };
  struct Block {
    size_t size;       // capacity (multiple of kGranule)
    size_t requested;  // user size when live
    State state;
    Context* owner;
  };
  struct PendingFree {
    uintptr_t addr;
    std::vector<StreamFence> fences;
  };

  void* TakeCached(size_t rounded);
  void* CarveBestFit(size_t rounded);
  void ReleaseToFreeTree(uintptr_t addr);
  void ReclaimPending(bool all_passed_only);
  void FlushCaches();
  void PrefaultUpTo(uintptr_t end);
  uint64_t LargestFree() const;

  hal::Device* device_;
  const uintptr_t base_;
  const uint64_t size_;
  mutable std::mutex mu_;
  std::map<uintptr_t, Block> blocks_;                   // every block, by address
  std::set<std::pair<size_t, uintptr_t>> free_index_;   // free blocks by (size, address)
  std::unordered_map<size_t, std::vector<uintptr_t>> cache_;
  std::vector<PendingFree> pending_;
  uintptr_t prefaulted_end_;
  uint64_t reserved_ = 0;
  uint64_t live_ = 0;
  uint64_t peak_live_ = 0;
  uint64_t live_count_ = 0;
};

}  // namespace npurt::core
