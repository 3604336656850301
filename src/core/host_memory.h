// Pinned host memory (aclrtMallocHost): page-aligned, pre-faulted blocks the copy engines may read at
// any time, tracked so that copies can tell pinned from pageable memory and frees are validated.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>

#include "base/status.h"

namespace npurt::core {

class HostMemory {
 public:
  static HostMemory& Get();

  StatusOr<void*> Allocate(size_t size);
  Status Free(void* ptr);
  // True if [ptr, ptr+size) lies inside one pinned block.
  bool IsPinned(const void* ptr, size_t size) const;

 private:
  struct Block {
    size_t size;     // user size
    size_t mapped;   // mapping length
  };
  mutable std::mutex mu_;
  std::map<uintptr_t, Block> blocks_;
};

}  // namespace npurt::core
