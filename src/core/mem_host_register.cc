#include "core/mem_host_register.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <iterator>

#include "acl/acl.h"
#include "acl/error_codes/rt_error_codes.h"

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

namespace npurt::core {

HostRegistry& HostRegistry::Get() {
  static HostRegistry* r = new HostRegistry();
  return *r;
}

Status HostRegistry::Register(void* ptr, uint64_t size, uint32_t flags) {
  if (ptr == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "ptr is a null pointer");
  if (size == 0) return Err(ACL_ERROR_INVALID_PARAM, "size is 0");
  const uint32_t known = ACL_HOST_REG_MAPPED | ACL_HOST_REG_IOMEMORY | ACL_HOST_REG_READONLY | ACL_HOST_REG_PINNED;
  if ((flags & ~known) != 0) return Err(ACL_ERROR_INVALID_PARAM, "registration flags {:#x} are unknown", flags);
  const auto p = reinterpret_cast<uintptr_t>(ptr);
  if (p + size < p) return Err(ACL_ERROR_INVALID_PARAM, "[{}, +{}) wraps around", ptr, size);
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto next = ranges_.lower_bound(p);
    if (next != ranges_.end() && next->first < p + size) {
      return Err(ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED, "[{}, +{}) overlaps the registered range at {:#x}", ptr,
                 size, next->first);
    }
    if (next != ranges_.begin()) {
      auto prev = std::prev(next);
      if (prev->first + prev->second.size > p) {
        return Err(ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED, "[{}, +{}) overlaps the registered range at {:#x}", ptr,
                   size, prev->first);
      }
    }
    ranges_.emplace(p, Range{size, flags});
  }
  // Make the range resident, as page-locking would; a range the kernel cannot populate (not mapped
  // readable/writable) is not host memory we can use: undo and fail.
  const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const uintptr_t lo = p / page * page;
  const uintptr_t hi = (p + size + page - 1) / page * page;
  const int advice = (flags & ACL_HOST_REG_READONLY) ? MADV_POPULATE_READ : MADV_POPULATE_WRITE;
  if (madvise(reinterpret_cast<void*>(lo), hi - lo, advice) != 0 && errno != EINVAL) {
    std::lock_guard<std::mutex> lock(mu_);
    ranges_.erase(p);
    return Err(ACL_ERROR_INVALID_PARAM, "[{}, +{}) is not accessible host memory", ptr, size);
  }
  return Status::Ok();
}

Status HostRegistry::Unregister(void* ptr) {
  if (ptr == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "ptr is a null pointer");
  std::lock_guard<std::mutex> lock(mu_);
  auto it = ranges_.find(reinterpret_cast<uintptr_t>(ptr));
  if (it == ranges_.end()) {
    return Err(ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, "{} is not the start of a registered host range", ptr);
  }
  ranges_.erase(it);
  return Status::Ok();
}

StatusOr<void*> HostRegistry::DevicePointer(void* p) const {
  const auto a = reinterpret_cast<uintptr_t>(p);
  std::lock_guard<std::mutex> lock(mu_);
  auto it = ranges_.upper_bound(a);
  if (it == ranges_.begin() || a >= std::prev(it)->first + std::prev(it)->second.size) {
    return Err(ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, "{} is not in a registered host range", p);
  }
  --it;
  if ((it->second.flags & (ACL_HOST_REG_MAPPED | ACL_HOST_REG_PINNED)) == 0 && it->second.flags != 0) {
    return Err(ACL_ERROR_INVALID_PARAM, "the range at {:#x} was registered without ACL_HOST_REG_MAPPED", it->first);
  }
  return p;  // the sim's devices reach host memory at its own address
}

bool HostRegistry::Contains(const void* p, size_t size) const {
  const auto a = reinterpret_cast<uintptr_t>(p);
  std::lock_guard<std::mutex> lock(mu_);
  auto it = ranges_.upper_bound(a);
  if (it == ranges_.begin()) return false;
  --it;
  return a + size <= it->first + it->second.size;
}

}  // namespace npurt::core
