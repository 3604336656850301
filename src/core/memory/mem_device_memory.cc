#include "core/memory/mem_device_memory.h"

#include <algorithm>

#include "acl/error_codes/rt_error_codes.h"

namespace npurt::core {
namespace {
uint64_t RoundUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }
}  // namespace

DeviceMemory::DeviceMemory(hal::Device* hal, uintptr_t base, uint64_t memory_size, uint64_t address_size)
    : hal_(hal),
      base_(base),
      capacity_(memory_size / kPage * kPage),
      address_size_(address_size),
      window_base_(base + RoundUp(memory_size, kPage)),
      window_size_(address_size > RoundUp(memory_size, kPage) ? address_size - RoundUp(memory_size, kPage) : 0),
      physical_(capacity_, kPage),
      window_(window_size_, kPage),
      resident_(capacity_ / kPage, false) {}

StatusOr<uint64_t> DeviceMemory::AllocatePhysical(uint64_t size, uint64_t align) {
  std::lock_guard<std::mutex> lock(mu_);
  auto off = physical_.Allocate(size, align);
  if (!off) {
    return Err(ACL_ERROR_RT_MEMORY_ALLOCATION,
               "no run of {} physical bytes{} is free (device {} bytes, {} in use, largest free run {})", size,
               align > kPage ? fmt::format(" aligned to {}", align) : std::string(), capacity_, physical_.used(),
               align > kPage ? physical_.largest_free_aligned(align) : physical_.largest_free());
  }
  uint64_t used = physical_.used();
  uint64_t peak = physical_peak_.load(std::memory_order_relaxed);
  while (used > peak && !physical_peak_.compare_exchange_weak(peak, used, std::memory_order_relaxed)) {
  }
  return *off;
}

void DeviceMemory::FreePhysical(uint64_t offset, uint64_t size) {
  std::lock_guard<std::mutex> lock(mu_);
  physical_.Free(offset, size);
}

StatusOr<uintptr_t> DeviceMemory::AllocateLinear(uint64_t size, uint64_t align) {
  auto off = AllocatePhysical(size, align);
  if (!off.ok()) return off.status();
  Prefault(off.value(), size);
  return base_ + off.value();
}

void DeviceMemory::FreeLinear(uintptr_t addr, uint64_t size) { FreePhysical(addr - base_, size); }

void DeviceMemory::Prefault(uint64_t offset, uint64_t size) {
  if (hal_ == nullptr) return;
  // Pages are marked under the lock and faulted outside it: the run is ours, nobody else touches it.
  std::vector<std::pair<uint64_t, uint64_t>> todo;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (uint64_t p = offset / kPage; p < (offset + size) / kPage; ++p) {
      if (resident_[p]) continue;
      resident_[p] = true;
      if (!todo.empty() && todo.back().first + todo.back().second == p * kPage) {
        todo.back().second += kPage;
      } else {
        todo.emplace_back(p * kPage, kPage);
      }
    }
  }
  for (const auto& [o, n] : todo) hal_->Prefault(reinterpret_cast<void*>(base_ + o), n);
}

StatusOr<uintptr_t> DeviceMemory::ReserveWindow(uint64_t size, uint64_t align, uintptr_t hint) {
  if (size == 0 || size % kPage != 0) {
    return Err(ACL_ERROR_RT_PARAM_INVALID, "a reservation of {} bytes is not a multiple of {} bytes", size, kPage);
  }
  std::lock_guard<std::mutex> lock(mu_);
  if (hint != 0 && InWindow(hint) && hint % std::max<uint64_t>(align, kPage) == 0 &&
      hint + size <= window_base_ + window_size_ && window_.AllocateAt(hint - window_base_, size)) {
    return hint;
  }
  auto off = window_.Allocate(size, std::max<uint64_t>(align, kPage));
  if (!off) {
    return Err(ACL_ERROR_RT_MEMORY_ALLOCATION,
               "the device's address window has no free range of {} bytes (window {} bytes, {} reserved, largest "
               "free range {})",
               size, window_size_, window_.used(), window_.largest_free());
  }
  return window_base_ + *off;
}

void DeviceMemory::ReleaseWindow(uintptr_t addr, uint64_t size) {
  std::lock_guard<std::mutex> lock(mu_);
  window_.Free(addr - window_base_, size);
}

Status DeviceMemory::Map(uintptr_t addr, uint64_t size, int32_t source, uint64_t offset, hal::MemoryAccess access) {
  if (hal_ == nullptr) return Status::Ok();
  if (source == hal::kLocalMemory) {
    // Fault never-touched pages through the linear arena first: the window mapping then only needs page
    // table entries, and the pages stay resident when unmapped.
    Prefault(offset, size);
  }
  return hal_->MapMemory(reinterpret_cast<void*>(addr), size, source, offset, access);
}

Status DeviceMemory::Unmap(uintptr_t addr, uint64_t size) {
  if (hal_ == nullptr) return Status::Ok();
  return hal_->UnmapMemory(reinterpret_cast<void*>(addr), size);
}

Status DeviceMemory::Protect(uintptr_t addr, uint64_t size, hal::MemoryAccess access) {
  if (hal_ == nullptr) return Status::Ok();
  return hal_->ProtectMemory(reinterpret_cast<void*>(addr), size, access);
}

uint64_t DeviceMemory::physical_used() const {
  std::lock_guard<std::mutex> lock(mu_);
  return physical_.used();
}

uint64_t DeviceMemory::largest_free_physical() const {
  std::lock_guard<std::mutex> lock(mu_);
  return physical_.largest_free();
}

uint64_t DeviceMemory::largest_free_physical_aligned(uint64_t align) const {
  std::lock_guard<std::mutex> lock(mu_);
  return physical_.largest_free_aligned(align);
}

}  // namespace npurt::core
