// DeviceAllocator: all device memory of one device, as the rest of the runtime sees it.
//
// It owns the layers of docs/memory.md:
//   DeviceMemory     physical pages and the VMM address window (driver segments)
//   SegmentIndex     address -> segment -> block, lock-free
//   CachingAllocator the default allocator (aclrtMalloc: thread cache -> pools -> segments)
//   VmmSpace         reservations and mappings (aclrtReserveMemAddress ..., IPC imports)
// plus the registry of stream-ordered pools (aclrtMemPool, each a CachingAllocator of its own), so that
// any device pointer can be freed, looked up or reported wherever it came from.
//
// Callers: api/memory.cc (aclrtMalloc/aclrtFree and friends), memory_ops.cc (ResolveSpan -> Lookup),
// Context::Destroy (FreeOwnedBy, which logs a leak report), the memory API files (pools, VMM, IPC).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/handle.h"
#include "base/status.h"
#include "core/alloc/alloc_caching.h"
#include "core/alloc/alloc_config.h"
#include "core/alloc/alloc_segment_index.h"
#include "core/alloc/alloc_stream_fence.h"
#include "core/memory/mem_device_memory.h"
#include "core/memory/mem_vmm.h"

namespace npurt::hal {
class Device;
}

namespace npurt::core {

class Context;
class Stream;

struct AllocationInfo {
  uintptr_t base = 0;
  size_t size = 0;  // requested bytes (VMM: the contiguous mapped run)
  Context* owner = nullptr;
  bool read_only = false;  // VMM mapping without write access
  bool vmm = false;        // a VMM mapping (or IPC import), not an allocator block
};

struct AllocatorStats {
  uint64_t total = 0;         // device memory (bytes)
  uint64_t reserved = 0;      // physical bytes in use: every allocator's segments + VMM physical memory
  uint64_t live = 0;          // bytes of live aclrtMalloc blocks
  uint64_t peak_live = 0;
  uint64_t largest_free = 0;  // largest free run on the device or in the default allocator's cache
  uint64_t allocations = 0;   // live aclrtMalloc blocks
};

// One row of aclrtGetMemUsageInfo.
struct MemUsageRow {
  std::string name;
  uint64_t current = 0;
  uint64_t peak = 0;
};

class DeviceAllocator {
 public:
  // The device's linear memory [base, base + size); the full address range comes from `device`.
  DeviceAllocator(hal::Device* device, uint8_t* base, uint64_t size);
  // For tests and tools: `device` may be null (bookkeeping only, at a fake `base`).
  DeviceAllocator(hal::Device* device, uintptr_t base, uint64_t memory_size, uint64_t address_size,
                  const AllocatorConfig& config);
  ~DeviceAllocator();
  DeviceAllocator(const DeviceAllocator&) = delete;
  DeviceAllocator& operator=(const DeviceAllocator&) = delete;

  // aclrtMalloc with the default policy / with every option.
  StatusOr<void*> Allocate(size_t size, Context* owner);
  StatusOr<void*> Allocate(const AllocRequest& request);
  // Allocates from `allocator` (the default one or a pool of this device). When it is out of memory, every
  // other allocator of the device gives back its idle memory above its `pressure_keep`, and it retries.
  StatusOr<void*> AllocateFrom(CachingAllocator* allocator, const AllocRequest& request);
  // aclrtMalloc / aclrtFree fast paths: the default allocator's thread cache only, and only while no one
  // watches (profiling of memory, debug logs). nullptr / false: nothing happened, take Allocate / Free.
  // FreeCached is for a block no stream may still use (the caller checked that no stream is busy).
  void* AllocateCached(size_t size, uint32_t policy, bool pad, Context* owner);
  bool FreeCached(void* ptr);
  // Frees the allocation starting at `ptr` (from the default allocator or any memory pool); `fences`
  // are the streams that may still use it.
  Status Free(void* ptr, std::vector<StreamFence> fences);
  Status Free(void* ptr, const StreamFence* fences, size_t fence_count, uintptr_t stream_key = 0);
  // Finds the live allocation (or accessible VMM mapping) containing `ptr`.
  bool Lookup(const void* ptr, AllocationInfo* out) const;
  // Allocator blocks only, with their details.
  bool LookupBlock(const void* ptr, LiveAllocation* out) const;
  // The physical pages behind [ptr, ptr + size) of one live block, as (offset, bytes) runs of whole
  // pages; `inner` receives ptr's offset in the first page (IPC exports).
  Status PhysicalExtents(const void* ptr, size_t size, std::vector<std::pair<uint64_t, uint64_t>>* runs,
                         uint64_t* inner) const;
  // Frees every live allocation owned by `owner` (context destruction) and logs a leak report, then gives
  // the default allocator's idle memory back to the device (a dead context's memory is free again, in
  // fact and not only in aclrtGetMemInfo); returns how many allocations were freed.
  size_t FreeOwnedBy(Context* owner);
  AllocatorStats Stats() const;
  // Device memory in use as aclrtGetMemInfo and npu-smi report it: every physical page in use (allocators,
  // memory pools, VMM) less the default allocator's idle cache, which any allocation that needs it gets
  // back (docs/memory.md, "What aclrtGetMemInfo reports"). Returns the calling thread's cache first.
  uint64_t UsedBytes();
  // Memory pressure outside the allocators (aclrtMallocPhysical): every allocator of the device gives
  // back its idle memory above its `pressure_keep`. Returns whether anything was released.
  bool ReleaseIdleMemory();
  // Profiling: records the memory in use after an allocation (+) or free (-) of `delta` bytes.
  void TraceMemory(int64_t delta) const;
  bool Contains(const void* ptr) const { return memory_.Contains(reinterpret_cast<uintptr_t>(ptr)); }

  DeviceMemory& memory() { return memory_; }
  SegmentIndex& index() { return index_; }
  CachingAllocator& caching() { return *default_; }
  VmmSpace& vmm() { return vmm_; }
  // The caching allocator (default or pool) owning the block at `ptr`, or nullptr.
  CachingAllocator* OwnerOf(const void* ptr) const;

  // Stream-ordered pools register here for snapshots and usage figures.
  void RegisterPool(CachingAllocator* pool);
  void UnregisterPool(CachingAllocator* pool);

  // Every allocator's segments and blocks plus the VMM figures (docs/memory.md, "Snapshots").
  nlohmann::json Snapshot() const;
  std::vector<MemUsageRow> UsageRows() const;

 private:
  // Every allocator of the device but `except` (nullptr: all) gives back idle memory above its
  // pressure_keep; true if the device's physical use went down.
  bool TrimOthers(CachingAllocator* except);

  DeviceMemory memory_;
  SegmentIndex index_;
  std::unique_ptr<CachingAllocator> default_;
  VmmSpace vmm_;
  mutable std::mutex pools_mu_;
  std::vector<CachingAllocator*> pools_;
};

// Writes a snapshot of every opened device to `path` (NPURT_ALLOC_SNAPSHOT); used at exit and on request.
Status WriteMemorySnapshot(const std::string& path);

}  // namespace npurt::core
