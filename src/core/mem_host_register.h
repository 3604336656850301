// Registered host memory (aclrtHostRegister / V2): existing host ranges the device may use directly.
//
// On the sim the device reaches host memory at its own address, so the "device pointer" of a registered
// range is the host pointer; registration makes the range resident (what page-locking buys on real
// hardware: copies from it run at memory speed) and lets asynchronous copies use it without staging.
// Ranges may not overlap. Thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>

#include "base/status.h"

namespace npurt::core {

class HostRegistry {
 public:
  static HostRegistry& Get();

  // `flags`: ACL_HOST_REG_* bits (MAPPED, IOMEMORY, READONLY, PINNED).
  Status Register(void* ptr, uint64_t size, uint32_t flags);
  Status Unregister(void* ptr);
  // The device address of host address `p` (inside a registered, mapped range).
  StatusOr<void*> DevicePointer(void* p) const;
  // True if [p, p + size) lies inside one registered range.
  bool Contains(const void* p, size_t size) const;

 private:
  struct Range {
    uint64_t size;
    uint32_t flags;
  };
  mutable std::mutex mu_;
  std::map<uintptr_t, Range> ranges_;
};

}  // namespace npurt::core
