// MemPool: a stream-ordered memory pool (aclrtMemPool*), a CachingAllocator of its own on one device.
//
// Allocations are keyed by stream: a block freed with aclrtMemPoolFreeAsync on stream S is reused at once
// by later allocations on S (S runs in order) and by other streams once S passed the free (never a host
// wait, never a device sync). Reuse attributes are stored and reported; the sim always observes completed
// frees exactly, so "opportunistic" reuse is reuse of frees whose streams passed them (see docs/memory.md).
// maxSize bounds what the pool reserves; the release threshold is what it keeps idle when its device runs
// short of memory (any allocator's retry asks the others to trim to their thresholds) and what
// aclrtMemPoolTrimTo leaves at least.
//
// Destroying a pool with live allocations invalidates the handle at once and releases the pool's memory
// when the last allocation is freed (CUDA's rule).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>

#include "base/handle.h"
#include "base/status.h"
#include "core/alloc/alloc_caching.h"

namespace npurt::core {

class Device;
class Stream;

class MemPool final : public HandleObject {
 public:
  // `max_size` 0 = the device's capacity.
  static StatusOr<MemPool*> Create(Device* device, uint64_t max_size);

  Device* device() const { return device_; }
  CachingAllocator& allocator() { return *allocator_; }
  uint64_t max_size() const { return max_size_; }

  StatusOr<void*> Allocate(size_t size, Stream* stream);
  // Frees `ptr` (a block of this pool) in `stream`'s order.
  Status FreeAsync(void* ptr, Stream* stream);
  void Destroy();

  std::atomic<int32_t> reuse_follow_event_dependencies{1};
  std::atomic<int32_t> reuse_allow_opportunistic{1};
  std::atomic<int32_t> reuse_allow_internal_dependencies{1};
  void set_release_threshold(uint64_t bytes) { allocator_->pressure_keep.store(bytes, std::memory_order_relaxed); }
  uint64_t release_threshold() const { return allocator_->pressure_keep.load(std::memory_order_relaxed); }

  // The pool owning `allocator` (nullptr for a device's default allocator).
  static MemPool* FromAllocator(const CachingAllocator* allocator);

 private:
  template <typename T, typename... Args>
  friend T* npurt::NewHandle(Args&&... args);
  MemPool(Device* device, uint64_t max_size);
  ~MemPool() override;
  static void OnFree(void* self);
  void ReleaseIfDone();

  Device* device_;
  uint64_t max_size_;
  std::unique_ptr<CachingAllocator> allocator_;
  std::atomic<bool> destroyed_{false};
  std::atomic<bool> released_{false};
};

}  // namespace npurt::core
