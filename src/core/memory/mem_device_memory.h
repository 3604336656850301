// DeviceMemory: the driver-segment layer of one device, below every allocator.
//
// It hands out the device's physical pages (2 MiB; 1 GiB-aligned runs for 1 GiB pages) and the
// addresses of its VMM window, and asks the driver to map, unmap and prefault them. Policy (which
// pool gets a segment, when to release) lives above, in the caching allocators and the VMM layer.
//
//   linear segments   a physical run seen at its linear address (memory_base + offset); resident the
//                     first time it is handed out, and kept resident ever after (first touch costs
//                     ~10 us a page on this machine, so pages are never given back to the OS)
//   window ranges     reservations in the VMM window, mapped page by page (expandable segments, VMM
//                     API, IPC imports)
//
// With a null driver (`hal` == nullptr) it is bookkeeping only, at a fake base address: the replay tool
// and the fragmentation benchmarks run the real allocator policy on it without touching memory.
// Thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

#include "base/status.h"
#include "core/memory/mem_extent.h"
#include "hal/hal.h"

namespace npurt::core {

class DeviceMemory {
 public:
  static constexpr uint64_t kPage = hal::Device::kPhysicalPage;

  // `memory_size` physical bytes; the device's addresses span [base, base + address_size).
  DeviceMemory(hal::Device* hal, uintptr_t base, uint64_t memory_size, uint64_t address_size);

  hal::Device* hal() const { return hal_; }
  uintptr_t base() const { return base_; }
  uint64_t capacity() const { return capacity_; }  // physical bytes (whole pages)
  uintptr_t window_base() const { return window_base_; }
  uint64_t window_size() const { return window_size_; }
  bool Contains(uintptr_t addr) const { return addr >= base_ && addr < base_ + address_size_; }
  bool InWindow(uintptr_t addr) const { return addr >= window_base_ && addr < window_base_ + window_size_; }
  uint64_t address_size() const { return address_size_; }

  // Physical pages: a run of `size` bytes (multiple of kPage) aligned to `align`.
  StatusOr<uint64_t> AllocatePhysical(uint64_t size, uint64_t align);
  void FreePhysical(uint64_t offset, uint64_t size);

  // A physical run at its linear address, resident.
  StatusOr<uintptr_t> AllocateLinear(uint64_t size, uint64_t align);
  void FreeLinear(uintptr_t addr, uint64_t size);
  uint64_t PhysicalOffsetOfLinear(uintptr_t addr) const { return addr - base_; }
  bool IsLinear(uintptr_t addr) const { return addr >= base_ && addr < base_ + capacity_; }

  // Window reservations. `hint` (0 = none) is honoured when that range is free.
  StatusOr<uintptr_t> ReserveWindow(uint64_t size, uint64_t align, uintptr_t hint);
  void ReleaseWindow(uintptr_t addr, uint64_t size);
  // Maps physical memory of `source` (hal::kLocalMemory or an import id) into the window.
  Status Map(uintptr_t addr, uint64_t size, int32_t source, uint64_t offset, hal::MemoryAccess access);
  Status Unmap(uintptr_t addr, uint64_t size);
  Status Protect(uintptr_t addr, uint64_t size, hal::MemoryAccess access);

  // Figures (physical pages in use by anyone: segments, VMM allocations).
  uint64_t physical_used() const;
  uint64_t physical_peak() const { return physical_peak_.load(std::memory_order_relaxed); }
  uint64_t largest_free_physical() const;
  uint64_t largest_free_physical_aligned(uint64_t align) const;

 private:
  void Prefault(uint64_t offset, uint64_t size);

  hal::Device* const hal_;
  const uintptr_t base_;
  const uint64_t capacity_;
  const uint64_t address_size_;
  const uintptr_t window_base_;
  const uint64_t window_size_;
  mutable std::mutex mu_;
  ExtentAllocator physical_;
  ExtentAllocator window_;
  std::vector<bool> resident_;  // per physical page: touched once (prefaulted)
  std::atomic<uint64_t> physical_peak_{0};
};

}  // namespace npurt::core
