#include "core/memory/mem_pinned_host.h"

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

PinnedHost& PinnedHost::Get() {
  static PinnedHost* h = new PinnedHost();
  return *h;
}

PinnedHost::Map::const_iterator PinnedHost::Containing(const Map& map, uintptr_t p, size_t size) {
  auto it = map.upper_bound(p);
  if (it == map.begin()) return map.end();
  --it;
  const uint64_t offset = p - it->first;  // p + size <= the range's end, without overflow
  return offset <= it->second.size && size <= it->second.size - offset ? it : map.end();
}

StatusOr<void*> PinnedHost::Allocate(size_t size) {
  if (size == 0) return Err(ACL_ERROR_INVALID_PARAM, "host allocation size is 0");
  const size_t page = 4096;
  const size_t mapped = (size + page - 1) / page * page;
  if (mapped < size) return Err(ACL_ERROR_BAD_ALLOC, "host allocation of {} bytes is too large", size);
  {
    // A cached block at least as large and at most twice as large (a bound on the memory a reuse wastes).
    std::lock_guard<std::mutex> lock(mu_);
    auto it = cached_.lower_bound(mapped);
    if (it != cached_.end() && it->first / 2 <= mapped) {
      const uintptr_t p = it->second;
      const uint64_t length = it->first;
      cached_.erase(it);
      cached_bytes_ -= length;
      allocated_.emplace(p, Range{size, length, 0});
      return reinterpret_cast<void*>(p);
    }
  }
  void* p = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) {
    // Out of address space or memory: give the cache back and try once more.
    ReleaseCache();
    p = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return Err(ACL_ERROR_BAD_ALLOC, "cannot allocate {} bytes of pinned host memory", size);
  }
  // "Pinned" on the sim means resident: fault it in now so copies from it run at memory speed.
  (void)madvise(p, mapped, MADV_POPULATE_WRITE);
  std::lock_guard<std::mutex> lock(mu_);
  allocated_.emplace(reinterpret_cast<uintptr_t>(p), Range{size, mapped, 0});
  return p;
}

Status PinnedHost::Free(void* ptr) {
  Range r{};
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = allocated_.find(reinterpret_cast<uintptr_t>(ptr));
    if (it == allocated_.end()) {
      return Err(ACL_ERROR_RT_MEMORY_FREE, "{} is not host memory allocated by aclrtMallocHost (or already freed)",
                 ptr);
    }
    r = it->second;
    allocated_.erase(it);
    if (cached_bytes_ + r.mapped <= kCacheLimit) {
      cached_.emplace(r.mapped, reinterpret_cast<uintptr_t>(ptr));
      cached_bytes_ += r.mapped;
      return Status::Ok();
    }
  }
  munmap(ptr, r.mapped);
  return Status::Ok();
}

void PinnedHost::ReleaseCache() {
  std::multimap<uint64_t, uintptr_t> blocks;
  {
    std::lock_guard<std::mutex> lock(mu_);
    blocks.swap(cached_);
    cached_bytes_ = 0;
  }
  for (const auto& [length, p] : blocks) munmap(reinterpret_cast<void*>(p), length);
}

uint64_t PinnedHost::CachedBytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return cached_bytes_;
}

Status PinnedHost::Register(void* ptr, uint64_t size, uint32_t flags) {
  if (ptr == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "ptr is a null pointer");
  if (size == 0) return Err(ACL_ERROR_INVALID_PARAM, "size is 0");
  const uint32_t known = ACL_HOST_REG_MAPPED | ACL_HOST_REG_IOMEMORY | ACL_HOST_REG_READONLY | ACL_HOST_REG_PINNED;
  if ((flags & ~known) != 0) return Err(ACL_ERROR_INVALID_PARAM, "registration flags {:#x} are unknown", flags);
  const auto p = reinterpret_cast<uintptr_t>(ptr);
  if (p + size < p) return Err(ACL_ERROR_INVALID_PARAM, "[{}, +{}) wraps around", ptr, size);
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto next = registered_.lower_bound(p);
    if (next != registered_.end() && next->first < p + size) {
      return Err(ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED, "[{}, +{}) overlaps the registered range at {:#x}", ptr,
                 size, next->first);
    }
    if (next != registered_.begin()) {
      auto prev = std::prev(next);
      if (prev->first + prev->second.size > p) {
        return Err(ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED, "[{}, +{}) overlaps the registered range at {:#x}", ptr,
                   size, prev->first);
      }
    }
    registered_.emplace(p, Range{size, 0, flags});
  }
  // Make the range resident, as page-locking would; a range the kernel cannot populate (not mapped
  // readable/writable) is not host memory we can use: undo and fail.
  const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const uintptr_t lo = p / page * page;
  const uintptr_t hi = (p + size + page - 1) / page * page;
  const int advice = (flags & ACL_HOST_REG_READONLY) ? MADV_POPULATE_READ : MADV_POPULATE_WRITE;
  if (madvise(reinterpret_cast<void*>(lo), hi - lo, advice) != 0 && errno != EINVAL) {
    std::lock_guard<std::mutex> lock(mu_);
    registered_.erase(p);
    return Err(ACL_ERROR_INVALID_PARAM, "[{}, +{}) is not accessible host memory", ptr, size);
  }
  return Status::Ok();
}

Status PinnedHost::Unregister(void* ptr) {
  if (ptr == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "ptr is a null pointer");
  std::lock_guard<std::mutex> lock(mu_);
  auto it = registered_.find(reinterpret_cast<uintptr_t>(ptr));
  if (it == registered_.end()) {
    return Err(ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, "{} is not the start of a registered host range", ptr);
  }
  registered_.erase(it);
  return Status::Ok();
}

StatusOr<void*> PinnedHost::DevicePointer(void* p) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = Containing(registered_, reinterpret_cast<uintptr_t>(p), 1);
  if (it == registered_.end()) {
    return Err(ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, "{} is not in a registered host range", p);
  }
  if ((it->second.flags & (ACL_HOST_REG_MAPPED | ACL_HOST_REG_PINNED)) == 0 && it->second.flags != 0) {
    return Err(ACL_ERROR_INVALID_PARAM, "the range at {:#x} was registered without ACL_HOST_REG_MAPPED", it->first);
  }
  return p;  // the sim's devices reach host memory at its own address
}

bool PinnedHost::IsPinned(const void* ptr, size_t size) const {
  const auto p = reinterpret_cast<uintptr_t>(ptr);
  std::lock_guard<std::mutex> lock(mu_);
  return Containing(allocated_, p, size) != allocated_.end() || Containing(registered_, p, size) != registered_.end();
}

bool PinnedHost::IsAllocated(const void* ptr) const {
  std::lock_guard<std::mutex> lock(mu_);
  return Containing(allocated_, reinterpret_cast<uintptr_t>(ptr), 1) != allocated_.end();
}

}  // namespace npurt::core
