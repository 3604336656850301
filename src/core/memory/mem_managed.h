// Managed memory (aclrtMemAllocManaged, advice, prefetch, range attributes).
//
// On a device whose memory the host can address (the sim; the capability host_visible_memory), one device
// allocation serves host and devices alike; other devices refuse managed memory. Managed memory is a
// block of the current device's allocator, marked managed here, with the advice and
// last-prefetch location of each allocation recorded so that the attribute queries answer what the
// program asked. Prefetch is a stream-ordered task (the memory is already resident wherever it is used).
// Entries are dropped on aclrtFree; an entry whose block was freed otherwise (context destroyed) is
// recognised by its allocation number and ignored. Thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <set>

#include "base/status.h"

namespace npurt::core {

class Device;

struct ManagedLocation {
  int32_t type = 0;  // aclrtMemManagedLocationType
  int32_t id = 0;
};

struct ManagedInfo {
  uintptr_t base = 0;
  size_t size = 0;
  bool read_mostly = false;
  ManagedLocation preferred;      // type INVALID (0) = none
  std::set<int32_t> accessed_by;  // device ids
  ManagedLocation last_prefetch;  // type INVALID = never prefetched
};

class ManagedRegistry {
 public:
  static ManagedRegistry& Get();

  StatusOr<void*> Allocate(Device* device, void* owner, uint64_t size);
  // Drops the entry at `base` if its block is no longer live (after aclrtFree).
  void Forget(const void* base);
  // The managed allocation containing [ptr, ptr + size) (a copy), or an error naming what is wrong.
  StatusOr<ManagedInfo> Find(const void* ptr, size_t size) const;
  bool IsManaged(const void* ptr) const { return count_.load(std::memory_order_acquire) != 0 && Find(ptr, 1).ok(); }
  Status Advise(const void* ptr, size_t size, int32_t advice, ManagedLocation location);
  Status SetLastPrefetch(const void* ptr, size_t size, ManagedLocation location);

 private:
  struct Entry {
    Device* device;
    uint64_t serial;
    ManagedInfo info;
  };
  bool Live(const Entry& e) const;
  Status FindLocked(const void* ptr, size_t size, Entry** out) const;
  mutable std::mutex mu_;
  std::map<uintptr_t, Entry> entries_;
  std::atomic<size_t> count_{0};
};

}  // namespace npurt::core
