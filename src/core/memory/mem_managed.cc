#include "core/memory/mem_managed.h"

#include "acl/acl.h"
#include "acl/error_codes/rt_error_codes.h"
#include "core/device.h"
#include "core/runtime.h"

namespace npurt::core {

ManagedRegistry& ManagedRegistry::Get() {
  static ManagedRegistry* r = new ManagedRegistry();
  return *r;
}

StatusOr<void*> ManagedRegistry::Allocate(Device* device, void* owner, uint64_t size) {
  // One allocation serves host and device only where the host can address device memory; a driver
  // without that (a discrete device) would need page migration, which the interface does not have.
  if (!device->info().caps.host_visible_memory) {
    return Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
               "managed memory needs device memory the host can address, and device {} of driver '{}' has none",
               device->id(), Runtime::Get().config().driver);
  }
  AllocRequest r;
  r.size = size;
  r.owner = owner;
  r.fresh_serial = true;
  auto p = device->allocator().Allocate(r);
  if (!p.ok()) return p;
  LiveAllocation live;
  (void)device->allocator().LookupBlock(p.value(), &live);
  std::lock_guard<std::mutex> lock(mu_);
  Entry e{device, live.serial, {}};
  e.info.base = reinterpret_cast<uintptr_t>(p.value());
  e.info.size = size;
  entries_[e.info.base] = std::move(e);
  count_.store(entries_.size(), std::memory_order_release);
  return p;
}

void ManagedRegistry::Forget(const void* base) {
  if (count_.load(std::memory_order_acquire) == 0) return;  // every aclrtFree calls this: no lock unless needed
  std::lock_guard<std::mutex> lock(mu_);
  auto it = entries_.find(reinterpret_cast<uintptr_t>(base));
  // A new managed allocation may already sit at the same address: only a dead entry goes.
  if (it != entries_.end() && !Live(it->second)) {
    entries_.erase(it);
    count_.store(entries_.size(), std::memory_order_release);
  }
}

bool ManagedRegistry::Live(const Entry& e) const {
  LiveAllocation live;
  return e.device->allocator().LookupBlock(reinterpret_cast<void*>(e.info.base), &live) && live.base == e.info.base &&
         live.serial == e.serial;
}

Status ManagedRegistry::FindLocked(const void* ptr, size_t size, Entry** out) const {
  if (ptr == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "ptr is a null pointer");
  const auto a = reinterpret_cast<uintptr_t>(ptr);
  auto it = entries_.upper_bound(a);
  if (it == entries_.begin() || a >= std::prev(it)->first + std::prev(it)->second.info.size ||
      !Live(std::prev(it)->second)) {
    return Err(ACL_ERROR_INVALID_PARAM, "{} is not managed memory (see aclrtMemAllocManaged)", ptr);
  }
  --it;
  if (size > it->first + it->second.info.size - a) {
    return Err(ACL_ERROR_INVALID_PARAM, "[{}, +{}) runs past the managed allocation at {:#x} of {} bytes", ptr, size,
               it->first, it->second.info.size);
  }
  *out = const_cast<Entry*>(&it->second);
  return Status::Ok();
}

StatusOr<ManagedInfo> ManagedRegistry::Find(const void* ptr, size_t size) const {
  std::lock_guard<std::mutex> lock(mu_);
  Entry* e = nullptr;
  NPURT_RETURN_IF_ERROR(FindLocked(ptr, size, &e));
  return e->info;
}

Status ManagedRegistry::Advise(const void* ptr, size_t size, int32_t advice, ManagedLocation location) {
  const bool needs_location = advice == ACL_MEM_ADVISE_SET_PREFERRED_LOCATION || advice == ACL_MEM_ADVISE_SET_ACCESSED_BY ||
                              advice == ACL_MEM_ADVISE_UNSET_ACCESSED_BY;
  if (needs_location && location.type == ACL_MEM_LOCATIONTYPE_INVALID) {
    return Err(ACL_ERROR_INVALID_PARAM, "advice {} needs a valid location", advice);
  }
  if ((advice == ACL_MEM_ADVISE_SET_ACCESSED_BY || advice == ACL_MEM_ADVISE_UNSET_ACCESSED_BY) &&
      location.type != ACL_MEM_LOCATIONTYPE_DEVICE) {
    return Err(ACL_ERROR_INVALID_PARAM, "accessed-by advice takes a device location, not type {}", location.type);
  }
  std::lock_guard<std::mutex> lock(mu_);
  Entry* e = nullptr;
  NPURT_RETURN_IF_ERROR(FindLocked(ptr, size, &e));
  ManagedInfo& m = e->info;
  switch (advice) {
    case ACL_MEM_ADVISE_SET_READ_MOSTLY: m.read_mostly = true; break;
    case ACL_MEM_ADVISE_UNSET_READ_MOSTLY: m.read_mostly = false; break;
    case ACL_MEM_ADVISE_SET_PREFERRED_LOCATION: m.preferred = location; break;
    case ACL_MEM_ADVISE_UNSET_PREFERRED_LOCATION: m.preferred = ManagedLocation{}; break;
    case ACL_MEM_ADVISE_SET_ACCESSED_BY: m.accessed_by.insert(location.id); break;
    case ACL_MEM_ADVISE_UNSET_ACCESSED_BY: m.accessed_by.erase(location.id); break;
    default: return Err(ACL_ERROR_INVALID_PARAM, "advice {} is unknown", advice);
  }
  return Status::Ok();
}

Status ManagedRegistry::SetLastPrefetch(const void* ptr, size_t size, ManagedLocation location) {
  std::lock_guard<std::mutex> lock(mu_);
  Entry* e = nullptr;
  NPURT_RETURN_IF_ERROR(FindLocked(ptr, size, &e));
  e->info.last_prefetch = location;
  return Status::Ok();
}

}  // namespace npurt::core
