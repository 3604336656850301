#include "core/host_memory.h"

#include <sys/mman.h>

#include "acl/acl_base_rt.h"
#include "acl/error_codes/rt_error_codes.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

namespace npurt::core {

HostMemory& HostMemory::Get() {
  static HostMemory* h = new HostMemory();
  return *h;
}

StatusOr<void*> HostMemory::Allocate(size_t size) {
  if (size == 0) return Err(ACL_ERROR_INVALID_PARAM, "host allocation size is 0");
  const size_t page = 4096;
  const size_t mapped = (size + page - 1) / page * page;
  if (mapped < size) return Err(ACL_ERROR_BAD_ALLOC, "host allocation of {} bytes is too large", size);
  void* p = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return Err(ACL_ERROR_BAD_ALLOC, "cannot allocate {} bytes of pinned host memory", size);
  // "Pinned" on the sim means resident: fault it in now so copies from it run at memory speed.
  (void)madvise(p, mapped, MADV_POPULATE_WRITE);
  std::lock_guard<std::mutex> lock(mu_);
  blocks_.emplace(reinterpret_cast<uintptr_t>(p), Block{size, mapped});
  return p;
}

Status HostMemory::Free(void* ptr) {
  Block b{};
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = blocks_.find(reinterpret_cast<uintptr_t>(ptr));
    if (it == blocks_.end()) {
      return Err(ACL_ERROR_RT_MEMORY_FREE, "{} is not host memory allocated by aclrtMallocHost (or already freed)",
                 ptr);
    }
    b = it->second;
    blocks_.erase(it);
  }
  munmap(ptr, b.mapped);
  return Status::Ok();
}

bool HostMemory::IsPinned(const void* ptr, size_t size) const {
  const auto p = reinterpret_cast<uintptr_t>(ptr);
  std::lock_guard<std::mutex> lock(mu_);
  auto it = blocks_.upper_bound(p);
  if (it == blocks_.begin()) return false;
  --it;
  return p + size <= it->first + it->second.size;
}

}  // namespace npurt::core
