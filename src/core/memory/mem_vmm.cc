#include "core/memory/mem_vmm.h"

#include <unistd.h>

#include <algorithm>

#include "acl/acl_base_rt.h"
#include "acl/error_codes/rt_error_codes.h"
#include "core/handle_tags.h"
#include "core/memory/mem_device_memory.h"

namespace npurt::core {
namespace {

hal::MemoryAccess Union(const std::map<uint32_t, hal::MemoryAccess>& access) {
  auto best = hal::MemoryAccess::kNone;
  for (const auto& [loc, a] : access) best = static_cast<uint8_t>(a) > static_cast<uint8_t>(best) ? a : best;
  return best;
}

}  // namespace

// ---- PhysicalMemory -------------------------------------------------------------------------------

StatusOr<PhysicalMemory*> PhysicalMemory::Allocate(DeviceMemory* memory, int32_t device_id, size_t size,
                                                   size_t alignment, const PhysicalProps& props) {
  if (size == 0 || size % alignment != 0) {
    return Err(ACL_ERROR_INVALID_PARAM, "size {} is not a positive multiple of the allocation granularity {}", size,
               alignment);
  }
  auto off = memory->AllocatePhysical(size, alignment);
  if (!off.ok()) return std::move(off).status().WithContext("aclrtMallocPhysical");
  PhysicalMemory* p = NewHandle<PhysicalMemory>(memory, device_id, hal::kLocalMemory, off.value(), size, props);
  if (p == nullptr) {
    memory->FreePhysical(off.value(), size);
    return Err(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, "out of handle slots for physical memory");
  }
  return p;
}

StatusOr<PhysicalMemory*> PhysicalMemory::Import(DeviceMemory* memory, int32_t device_id, int32_t source,
                                                 uint64_t offset, size_t size, const PhysicalProps& props) {
  PhysicalMemory* p = NewHandle<PhysicalMemory>(memory, device_id, source, offset, size, props);
  if (p == nullptr) {
    if (source != hal::kLocalMemory && memory->hal() != nullptr) memory->hal()->ReleaseImport(source);
    return Err(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, "out of handle slots for physical memory");
  }
  p->imported_local_ = source == hal::kLocalMemory;
  return p;
}

PhysicalMemory::~PhysicalMemory() {
  for (const std::string& record : export_records) unlink(record.c_str());  // no importer may find freed pages
  if (source_ != hal::kLocalMemory) {
    if (memory_->hal() != nullptr) memory_->hal()->ReleaseImport(source_);
  } else if (!imported_local_) {
    memory_->FreePhysical(offset_, size_);
  }
}

void PhysicalMemory::ReleaseApi() {
  if (api_refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    Invalidate();
    Release();  // mappings keep their own references
  }
}

PhysicalMemory* LookupPhysical(const void* handle) { return LookupHandle<PhysicalMemory>(handle, handle_tags::kPhysicalMem); }

// ---- VmmSpace -------------------------------------------------------------------------------------

VmmSpace::~VmmSpace() {
  for (auto& [base, r] : reservations_) {
    for (auto& [va, m] : r.mappings) (void)memory_->Unmap(va, m.size);
    memory_->ReleaseWindow(base, r.size);
  }
}

const VmmSpace::Reservation* VmmSpace::Find(uintptr_t addr, uintptr_t* base) const {
  auto it = reservations_.upper_bound(addr);
  if (it == reservations_.begin()) return nullptr;
  --it;
  if (addr >= it->first + it->second.size) return nullptr;
  *base = it->first;
  return &it->second;
}

VmmSpace::Reservation* VmmSpace::Find(uintptr_t addr, uintptr_t* base) {
  return const_cast<Reservation*>(static_cast<const VmmSpace*>(this)->Find(addr, base));
}

StatusOr<uintptr_t> VmmSpace::Reserve(size_t size, size_t alignment, uintptr_t hint) {
  if (size == 0 || size % kPhysicalPage != 0) {
    return Err(ACL_ERROR_INVALID_PARAM, "size {} is not a positive multiple of the granularity {}", size,
               kPhysicalPage);
  }
  if (alignment != 0 && (alignment & (alignment - 1)) != 0) {
    return Err(ACL_ERROR_INVALID_PARAM, "alignment {} is not a power of two", alignment);
  }
  auto va = memory_->ReserveWindow(size, std::max<uint64_t>(alignment, kPhysicalPage), hint);
  if (!va.ok()) return va.status();
  std::lock_guard<std::mutex> lock(mu_);
  reservations_.emplace(va.value(), Reservation{size, {}});
  reserved_ += size;
  return va.value();
}

Status VmmSpace::Release(uintptr_t va) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = reservations_.find(va);
  if (it == reservations_.end()) {
    uintptr_t base = 0;
    if (Find(va, &base) != nullptr) {
      return Err(ACL_ERROR_INVALID_PARAM, "{:#x} is inside the reservation at {:#x}, not at its start", va, base);
    }
    return Err(ACL_ERROR_INVALID_PARAM, "{:#x} is not a reserved address range (never reserved or already released)",
               va);
  }
  if (!it->second.mappings.empty()) {
    return Err(ACL_ERROR_RT_MEMORY_FREE, "the reservation at {:#x} still has {} mapping(s): unmap them first", va,
               it->second.mappings.size());
  }
  memory_->ReleaseWindow(va, it->second.size);
  reserved_ -= it->second.size;
  reservations_.erase(it);
  return Status::Ok();
}

Status VmmSpace::Map(uintptr_t va, size_t size, size_t offset, PhysicalMemory* handle, hal::MemoryAccess access) {
  if (size == 0 || size % kPhysicalPage != 0 || offset % kPhysicalPage != 0 || va % kPhysicalPage != 0) {
    return Err(ACL_ERROR_INVALID_PARAM, "address {:#x}, size {} and offset {} must be multiples of the granularity {}",
               va, size, offset, kPhysicalPage);
  }
  if (offset > handle->size() || size > handle->size() - offset) {
    return Err(ACL_ERROR_INVALID_PARAM, "[{}, +{}) lies outside the physical allocation of {} bytes", offset, size,
               handle->size());
  }
  if (handle->memory() != memory_) {
    return Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
               "physical memory of device {} cannot be mapped at addresses of another device: reserve the addresses "
               "while that device is current",
               handle->device_id());
  }
  std::lock_guard<std::mutex> lock(mu_);
  uintptr_t base = 0;
  Reservation* r = Find(va, &base);
  if (r == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "{:#x} is not inside a reserved address range", va);
  if (va + size > base + r->size) {
    return Err(ACL_ERROR_INVALID_PARAM, "[{:#x}, +{}) runs past the end of its reservation [{:#x}, +{})", va, size,
               base, r->size);
  }
  auto next = r->mappings.lower_bound(va);
  if (next != r->mappings.end() && next->first < va + size) {
    return Err(ACL_ERROR_INVALID_PARAM, "[{:#x}, +{}) overlaps the mapping at {:#x}: unmap it first", va, size,
               next->first);
  }
  if (next != r->mappings.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second.size > va) {
      return Err(ACL_ERROR_INVALID_PARAM, "[{:#x}, +{}) overlaps the mapping at {:#x}: unmap it first", va, size,
                 prev->first);
    }
  }
  NPURT_RETURN_IF_ERROR(memory_->Map(va, size, handle->source(), handle->offset() + offset, access));
  Mapping m{size, Ref<PhysicalMemory>(handle), offset, {}, access};
  m.access[handle->device_id() < 0 ? 0u : static_cast<uint32_t>(handle->device_id())] = access;
  r->mappings.emplace(va, std::move(m));
  mapped_ += size;
  return Status::Ok();
}

Status VmmSpace::Unmap(uintptr_t va) {
  Ref<PhysicalMemory> handle;  // released after the lock
  std::lock_guard<std::mutex> lock(mu_);
  uintptr_t base = 0;
  Reservation* r = Find(va, &base);
  if (r == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "{:#x} is not inside a reserved address range", va);
  auto it = r->mappings.find(va);
  if (it == r->mappings.end()) {
    return Err(ACL_ERROR_INVALID_PARAM, "nothing is mapped at {:#x} (unmapped already, or not a mapping's start)", va);
  }
  NPURT_RETURN_IF_ERROR(memory_->Unmap(va, it->second.size));
  mapped_ -= it->second.size;
  handle = std::move(it->second.handle);
  r->mappings.erase(it);
  return Status::Ok();
}

Status VmmSpace::SetAccess(uintptr_t va, size_t size, uint32_t location_id, hal::MemoryAccess access) {
  std::lock_guard<std::mutex> lock(mu_);
  uintptr_t base = 0;
  Reservation* r = Find(va, &base);
  if (r == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "{:#x} is not inside a reserved address range", va);
  // The range must be covered by mappings without holes.
  std::vector<std::map<uintptr_t, Mapping>::iterator> covered;
  auto it = r->mappings.upper_bound(va);
  if (it == r->mappings.begin()) return Err(ACL_ERROR_INVALID_PARAM, "{:#x} is not mapped", va);
  --it;
  uintptr_t cur = va;
  while (cur < va + size) {
    if (it == r->mappings.end() || it->first > cur || it->first + it->second.size <= cur) {
      return Err(ACL_ERROR_INVALID_PARAM, "[{:#x}, +{}) is not entirely mapped (hole at {:#x})", va, size, cur);
    }
    covered.push_back(it);
    cur = it->first + it->second.size;
    ++it;
  }
  for (auto m : covered) {
    m->second.access[location_id] = access;
    const hal::MemoryAccess eff = Union(m->second.access);
    if (eff != m->second.effective) {
      NPURT_RETURN_IF_ERROR(memory_->Protect(m->first, m->second.size, eff));
      m->second.effective = eff;
    }
  }
  return Status::Ok();
}

StatusOr<hal::MemoryAccess> VmmSpace::GetAccess(uintptr_t va, uint32_t location_id) const {
  std::lock_guard<std::mutex> lock(mu_);
  uintptr_t base = 0;
  const Reservation* r = Find(va, &base);
  if (r == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "{:#x} is not inside a reserved address range", va);
  auto it = r->mappings.upper_bound(va);
  if (it == r->mappings.begin() || std::prev(it)->first + std::prev(it)->second.size <= va) {
    return Err(ACL_ERROR_INVALID_PARAM, "{:#x} is not mapped", va);
  }
  --it;
  auto a = it->second.access.find(location_id);
  return a == it->second.access.end() ? hal::MemoryAccess::kNone : a->second;
}

StatusOr<PhysicalMemory*> VmmSpace::RetainHandleAt(uintptr_t va) const {
  std::lock_guard<std::mutex> lock(mu_);
  uintptr_t base = 0;
  const Reservation* r = Find(va, &base);
  if (r != nullptr) {
    auto it = r->mappings.upper_bound(va);
    if (it != r->mappings.begin()) {
      --it;
      if (va < it->first + it->second.size) {
        PhysicalMemory* h = it->second.handle.get();
        if (!h->alive()) {
          return Err(ACL_ERROR_INVALID_PARAM, "the physical memory mapped at {:#x} was already freed", va);
        }
        h->RetainApi();
        return h;
      }
    }
  }
  return Err(ACL_ERROR_INVALID_PARAM, "{:#x} is not mapped to physical memory", va);
}

bool VmmSpace::Lookup(uintptr_t addr, MappedRange* out) const {
  std::lock_guard<std::mutex> lock(mu_);
  uintptr_t base = 0;
  const Reservation* r = Find(addr, &base);
  if (r == nullptr) return false;
  auto it = r->mappings.upper_bound(addr);
  if (it == r->mappings.begin()) return false;
  --it;
  if (addr >= it->first + it->second.size || it->second.effective == hal::MemoryAccess::kNone) return false;
  // Grow the run over adjacent accessible mappings (ranges built from several mappings are one buffer).
  auto lo = it;
  while (lo != r->mappings.begin()) {
    auto p = std::prev(lo);
    if (p->first + p->second.size != lo->first || p->second.effective == hal::MemoryAccess::kNone) break;
    lo = p;
  }
  auto hi = it;
  bool read_only = false;
  for (auto m = lo;; ++m) {
    read_only |= m->second.effective != hal::MemoryAccess::kReadWrite;
    hi = m;
    auto n = std::next(m);
    if (n == r->mappings.end() || m->first + m->second.size != n->first ||
        n->second.effective == hal::MemoryAccess::kNone) {
      break;
    }
  }
  out->base = lo->first;
  out->size = hi->first + hi->second.size - lo->first;
  out->read_only = read_only;
  return true;
}

bool VmmSpace::Range(uintptr_t addr, uintptr_t* base, size_t* size) const {
  std::lock_guard<std::mutex> lock(mu_);
  uintptr_t rbase = 0;
  const Reservation* r = Find(addr, &rbase);
  if (r == nullptr) return false;
  auto it = r->mappings.upper_bound(addr);
  if (it != r->mappings.begin() && addr < std::prev(it)->first + std::prev(it)->second.size) {
    *base = std::prev(it)->first;
    *size = std::prev(it)->second.size;
  } else {
    *base = rbase;
    *size = r->size;
  }
  return true;
}

bool VmmSpace::IsReserved(uintptr_t addr) const {
  std::lock_guard<std::mutex> lock(mu_);
  uintptr_t base = 0;
  return Find(addr, &base) != nullptr;
}

uint64_t VmmSpace::mapped_bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return mapped_;
}

uint64_t VmmSpace::reserved_bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return reserved_;
}

}  // namespace npurt::core
