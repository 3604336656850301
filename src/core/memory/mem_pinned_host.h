// Pinned host memory: host memory the device reaches directly (page-locked on hardware; resident on the sim).
// Two origins, one registry:
//  - blocks allocated by aclrtMallocHost: page-aligned, pre-faulted mappings that aclrtFreeHost validates;
//  - existing host ranges registered with aclrtHostRegister / V2 (made resident; may not overlap each other).
// Copies ask "is this host range pinned?" (pageable memory is staged, pinned memory is not) with one lookup
// under one lock (IsPinned), whichever origin the range has.
//
// On the sim the device reaches host memory at its own address, so the "device pointer" of a registered
// range is the host pointer. Thread-safe.
//
// Freed blocks are cached, as CUDA's and PyTorch's caching host allocators do: mapping and pre-faulting a
// block costs ~10 us per 4 KiB page here, so a program that allocates and frees staging buffers per batch
// would spend its time in the kernel. aclrtFreeHost keeps the block mapped (up to kCacheLimit bytes) and
// the next aclrtMallocHost of a size it fits (at most twice the request) takes it back. A cached block is
// not allocated: freeing it again is a double free, and it is not pinned memory to the copy engines. It
// also means a program that writes a block after freeing it (a bug CANN's pooled driver memory hides too)
// writes memory that is still mapped instead of faulting.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>

#include "base/status.h"

namespace npurt::core {

class PinnedHost {
 public:
  static PinnedHost& Get();

  // aclrtMallocHost / aclrtFreeHost.
  StatusOr<void*> Allocate(size_t size);
  Status Free(void* ptr);
  // aclrtHostRegister(V2) / aclrtHostUnregister. `flags`: ACL_HOST_REG_* bits (MAPPED, IOMEMORY, READONLY,
  // PINNED).
  Status Register(void* ptr, uint64_t size, uint32_t flags);
  Status Unregister(void* ptr);
  // The device address of host address `p` (inside a registered, mapped range).
  StatusOr<void*> DevicePointer(void* p) const;

  // True if [ptr, ptr + size) lies inside one allocated block or one registered range.
  bool IsPinned(const void* ptr, size_t size) const;
  // True if `ptr` lies inside a block of aclrtMallocHost (error messages: "use aclrtFreeHost").
  bool IsAllocated(const void* ptr) const;
  // Bytes of freed blocks kept mapped for reuse, and giving them back to the system.
  uint64_t CachedBytes() const;
  void ReleaseCache();

  static constexpr uint64_t kCacheLimit = uint64_t{1} << 30;  // 1 GiB of freed blocks at most

 private:
  struct Range {
    uint64_t size;    // user bytes
    uint64_t mapped;  // allocated blocks: the mapping's length
    uint32_t flags;   // registered ranges: ACL_HOST_REG_*
  };
  using Map = std::map<uintptr_t, Range>;
  // The range of `map` containing [p, p + size), or end().
  static Map::const_iterator Containing(const Map& map, uintptr_t p, size_t size);

  mutable std::mutex mu_;
  Map allocated_;   // aclrtMallocHost blocks
  Map registered_;  // aclrtHostRegister ranges
  std::multimap<uint64_t, uintptr_t> cached_;  // freed blocks by mapped length
  uint64_t cached_bytes_ = 0;
};

}  // namespace npurt::core
