// Helpers for the allocator's unit tests: a device allocator over bookkeeping-only memory (no driver, a
// fake address range), with the expensive checks on, so every operation is followed by a walk of every
// pool (CachingAllocator::CheckInvariants aborts the test on the first violation).
#pragma once

#include <gtest/gtest.h>

#include <memory>

#include "core/alloc/device_allocator.h"
#include "core/stream.h"  // StreamFence vectors hold Ref<Stream>

namespace npurt::core::testing {

inline constexpr uintptr_t kFakeBase = 0x200000000000ull;  // 1 GiB aligned, never dereferenced
inline constexpr uint64_t kMiB = 1ull << 20;

inline AllocatorConfig TestConfig(bool thread_cache = false) {
  AllocatorConfig c;
  c.expandable_segments = false;  // the fixed-segment policy; tests of expandable segments turn it on
  c.debug_checks = true;
  c.thread_cache = thread_cache;
  return c;
}

inline std::unique_ptr<DeviceAllocator> MakeDevice(uint64_t capacity, const AllocatorConfig& config) {
  return std::make_unique<DeviceAllocator>(nullptr, kFakeBase, capacity, capacity * 9, config);
}

inline AllocRequest Req(size_t size, uint32_t policy = 0, void* owner = nullptr, uintptr_t stream = 0) {
  AllocRequest r;
  r.size = size;
  r.policy = policy;
  r.owner = owner;
  r.stream = stream;
  return r;
}

inline void* MustAlloc(DeviceAllocator& d, size_t size, uint32_t policy = 0, void* owner = nullptr) {
  auto p = d.Allocate(Req(size, policy, owner));
  EXPECT_TRUE(p.ok()) << p.status().message();
  return p.ok() ? p.value() : nullptr;
}

inline uintptr_t U(const void* p) { return reinterpret_cast<uintptr_t>(p); }

inline size_t CapacityOf(DeviceAllocator& d, const void* p) {
  LiveAllocation a;
  return d.LookupBlock(p, &a) ? a.capacity : 0;
}

}  // namespace npurt::core::testing
