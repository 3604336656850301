#include "core/kernel/kernel_memcheck.h"

#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include "base/env.h"
#include "core/device.h"
#include "core/runtime.h"

namespace npurt::core {
namespace {

// How far around an address the report looks for the allocation it missed.
constexpr uint64_t kSearchBytes = 1 << 20;
constexpr uint64_t kProbeStep = 32;

bool FindAllocation(Device* dev, uintptr_t addr, AllocationInfo* out) {
  return dev->allocator().Lookup(reinterpret_cast<const void*>(addr), out);
}

std::string Nearest(Device* dev, uintptr_t addr) {
  AllocationInfo below{};
  AllocationInfo above{};
  bool has_below = false;
  bool has_above = false;
  for (uint64_t d = kProbeStep; d <= kSearchBytes && !has_below; d += kProbeStep) {
    if (addr >= d) has_below = FindAllocation(dev, addr - d, &below);
  }
  for (uint64_t d = kProbeStep; d <= kSearchBytes && !has_above; d += kProbeStep) {
    has_above = FindAllocation(dev, addr + d, &above);
  }
  const uint64_t past = has_below ? addr - (below.base + below.size) : UINT64_MAX;
  const uint64_t before = has_above ? above.base - addr : UINT64_MAX;
  if (has_below && past <= before) {
    return fmt::format("address {:#x} is {} bytes past the end of the {}-byte allocation at {:#x} on device {}", addr,
                       past, below.size, below.base, dev->id());
  }
  if (has_above) {
    return fmt::format("address {:#x} is {} bytes before the {}-byte allocation at {:#x} on device {}", addr, before,
                       above.size, above.base, dev->id());
  }
  return fmt::format("address {:#x} is not inside any live allocation of device {}", addr, dev->id());
}

}  // namespace

bool MemcheckEnabled() {
  static const bool enabled = [] {
    const char* v = npurt::env::Raw(npurt::env::Var::kSimMemcheck);
    return v != nullptr && std::strcmp(v, "1") == 0;
  }();
  return enabled;
}

std::string MemcheckDescribe(const void* ptr, uint64_t size) {
  const auto addr = reinterpret_cast<uintptr_t>(ptr);
  Device* dev = Runtime::Get().DeviceOwning(ptr);
  if (dev == nullptr) return fmt::format("address {:#x} is not device memory", addr);
  AllocationInfo info{};
  if (!FindAllocation(dev, addr, &info)) return Nearest(dev, addr);
  if (size == 0) {
    return fmt::format("address {:#x} lies inside the {}-byte allocation at {:#x} on device {}", addr, info.size,
                       info.base, dev->id());
  }
  const uint64_t end = info.base + info.size;
  if (addr + size > end) {
    return fmt::format("the access ends {} bytes past the end of the {}-byte allocation at {:#x} on device {}",
                       addr + size - end, info.size, info.base, dev->id());
  }
  return std::string();
}

}  // namespace npurt::core
