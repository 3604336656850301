// Entry points: virtual memory management (reserve addresses, allocate physical memory, map, access).
#include "acl/acl.h"
#include "api/api_common.h"
#include "core/context.h"
#include "core/device.h"
#include "core/memory/mem_vmm.h"
#include "core/runtime.h"

using npurt::Err;
using npurt::api::ResolvePhysical;
using npurt::StatusOr;
using npurt::core::PhysicalMemory;
using npurt::core::Runtime;

namespace {

constexpr size_t kPage = npurt::core::kPhysicalPage;
constexpr size_t k1G = 1ull << 30;

bool IsHuge1G(aclrtMemAttr attr) {
  return attr == ACL_HBM_MEM_HUGE1G || attr == ACL_HBM_MEM_P2P_HUGE1G || attr == ACL_MEM_HUGE1G ||
         attr == ACL_MEM_P2P_HUGE1G;
}

// Validates physical-memory properties; returns the device and the granularity they imply.
StatusOr<std::pair<npurt::core::Device*, size_t>> CheckProps(const aclrtPhysicalMemProp* prop) {
  if (prop == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "prop is a null pointer");
  if (prop->allocationType != ACL_MEM_ALLOCATION_TYPE_PINNED) {
    return Err(ACL_ERROR_INVALID_PARAM, "allocationType {} is not ACL_MEM_ALLOCATION_TYPE_PINNED",
               static_cast<int>(prop->allocationType));
  }
  if (prop->handleType != ACL_MEM_HANDLE_TYPE_NONE && prop->handleType != ACL_MEM_HANDLE_TYPE_POSIX) {
    return Err(ACL_ERROR_INVALID_PARAM, "handleType {} is not ACL_MEM_HANDLE_TYPE_NONE or _POSIX",
               static_cast<int>(prop->handleType));
  }
  if (prop->location.type != ACL_MEM_LOCATION_TYPE_DEVICE) {
    return Err(ACL_ERROR_INVALID_PARAM, "location type {} is not a device: physical memory lives on a device",
               static_cast<int>(prop->location.type));
  }
  if (static_cast<int>(prop->memAttr) < ACL_DDR_MEM || static_cast<int>(prop->memAttr) > ACL_MEM_P2P_HUGE1G) {
    return Err(ACL_ERROR_INVALID_PARAM, "memAttr {} is not an aclrtMemAttr", static_cast<int>(prop->memAttr));
  }
  auto dev = Runtime::Get().GetDevice(static_cast<int32_t>(prop->location.id));
  if (!dev.ok()) return dev.status();
  return std::make_pair(dev.value(), IsHuge1G(prop->memAttr) ? k1G : kPage);
}

npurt::core::PhysicalProps ToProps(const aclrtPhysicalMemProp& p) {
  npurt::core::PhysicalProps out;
  out.handle_type = p.handleType;
  out.allocation_type = p.allocationType;
  out.mem_attr = p.memAttr;
  out.location_type = p.location.type;
  out.location_id = p.location.id;
  out.reserve = p.reserve;
  return out;
}

// The device whose VMM window holds `va`.
StatusOr<npurt::core::Device*> WindowDevice(const void* va, const char* what) {
  if (va == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "{} is a null pointer", what);
  npurt::core::Device* dev = Runtime::Get().DeviceOwning(va);
  if (dev == nullptr || !dev->allocator().memory().InWindow(reinterpret_cast<uintptr_t>(va))) {
    return Err(ACL_ERROR_INVALID_PARAM, "{} {} is not a reserved device address (see aclrtReserveMemAddress)", what,
               va);
  }
  return dev;
}

npurt::StatusOr<npurt::core::MemoryAccess> ToAccess(aclrtMemAccessFlags flags) {
  switch (flags) {
    case ACL_RT_MEM_ACCESS_FLAGS_NONE: return npurt::core::MemoryAccess::kNone;
    case ACL_RT_MEM_ACCESS_FLAGS_READ: return npurt::core::MemoryAccess::kRead;
    case ACL_RT_MEM_ACCESS_FLAGS_READWRITE: return npurt::core::MemoryAccess::kReadWrite;
  }
  return Err(ACL_ERROR_INVALID_PARAM, "access flags {} are not NONE, READ or READWRITE", static_cast<int>(flags));
}

aclError Reserve(const char* fn, void** virPtr, size_t size, size_t alignment, void* expectPtr, uint64_t flags,
                 bool need_expect) {
  if (virPtr == nullptr) return npurt::api::Report(fn, Err(ACL_ERROR_INVALID_PARAM, "virPtr is a null pointer"));
  if (need_expect && expectPtr == nullptr) {
    return npurt::api::Report(fn, Err(ACL_ERROR_INVALID_PARAM, "expectPtr is required (the fixed address to reserve)"));
  }
  if (flags != 0) return npurt::api::Report(fn, Err(ACL_ERROR_INVALID_PARAM, "flags must be 0, not {}", flags));
  auto ctx = npurt::core::RequireContext();
  if (!ctx.ok()) return npurt::api::Report(fn, ctx.status());
  auto& vmm = ctx.value()->device()->allocator().vmm();
  auto va = vmm.Reserve(size, alignment, reinterpret_cast<uintptr_t>(expectPtr));
  if (!va.ok()) return npurt::api::Report(fn, va.status());
  if (need_expect && va.value() != reinterpret_cast<uintptr_t>(expectPtr)) {
    (void)vmm.Release(va.value());
    return npurt::api::Report(fn, Err(ACL_ERROR_RT_MEMORY_ALLOCATION, "the range at {} is not free or not in the "
                                      "device's address window", expectPtr));
  }
  *virPtr = reinterpret_cast<void*>(va.value());
  return ACL_SUCCESS;
}

aclError Map(const char* fn, void* virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle, uint64_t flags,
             npurt::core::MemoryAccess access) {
  if (flags != 0) return npurt::api::Report(fn, Err(ACL_ERROR_INVALID_PARAM, "flags must be 0, not {}", flags));
  auto phys = ResolvePhysical(handle);
  if (!phys.ok()) return npurt::api::Report(fn, phys.status());
  auto dev = WindowDevice(virPtr, "virPtr");
  if (!dev.ok()) return npurt::api::Report(fn, dev.status());
  return npurt::api::Report(fn, dev.value()->allocator().vmm().Map(reinterpret_cast<uintptr_t>(virPtr), size, offset,
                                                                  phys.value(), access));
}

}  // namespace

aclError aclrtMemGetAllocationGranularity(aclrtPhysicalMemProp* prop, aclrtMemGranularityOptions option,
                                          size_t* granularity) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(granularity);
  if (option != ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM && option != ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "granularity option {} is not MINIMUM or "
                                            "RECOMMENDED", static_cast<int>(option)));
  }
  NPURT_API_ASSIGN(checked, CheckProps(prop));
  *granularity = checked.second;  // physical pages: 2 MiB (1 GiB for the HUGE1G attributes)
  return ACL_SUCCESS;
}

aclError aclrtMallocPhysical(aclrtDrvMemHandle* handle, size_t size, const aclrtPhysicalMemProp* prop,
                             uint64_t flags) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(handle);
  if (flags != 0) return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "flags must be 0, not {}", flags));
  NPURT_API_ASSIGN(checked, CheckProps(prop));
  npurt::core::DeviceAllocator& allocator = checked.first->allocator();
  auto p = PhysicalMemory::Allocate(&allocator.memory(), checked.first->id(), size, checked.second, ToProps(*prop));
  // aclrtGetMemInfo counts the allocators' idle cache as free: give it back and try once more.
  if (!p.ok() && p.status().code() == ACL_ERROR_RT_MEMORY_ALLOCATION && allocator.ReleaseIdleMemory()) {
    p = PhysicalMemory::Allocate(&allocator.memory(), checked.first->id(), size, checked.second, ToProps(*prop));
  }
  if (!p.ok()) return npurt::api::Report(__func__, p.status());
  *handle = p.value();
  return ACL_SUCCESS;
}

aclError aclrtFreePhysical(aclrtDrvMemHandle handle) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(p, ResolvePhysical(handle));
  p->ReleaseApi();  // the pages go when the last mapping goes too
  return ACL_SUCCESS;
}

aclError aclrtMemGetAllocationPropertiesFromHandle(aclrtDrvMemHandle handle, aclrtPhysicalMemProp* prop) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(prop);
  NPURT_API_ASSIGN(p, ResolvePhysical(handle));
  const npurt::core::PhysicalProps& s = p->props();
  prop->handleType = static_cast<aclrtMemHandleType>(s.handle_type);
  prop->allocationType = static_cast<aclrtMemAllocationType>(s.allocation_type);
  prop->memAttr = static_cast<aclrtMemAttr>(s.mem_attr);
  prop->location.type = static_cast<aclrtMemLocationType>(s.location_type);
  prop->location.id = s.location_id;
  prop->reserve = s.reserve;
  return ACL_SUCCESS;
}

aclError aclrtReserveMemAddress(void** virPtr, size_t size, size_t alignment, void* expectPtr, uint64_t flags) {
  NPURT_HANDLE_SCOPE();
  return Reserve(__func__, virPtr, size, alignment, expectPtr, flags, false);
}

aclError aclrtReserveMemAddressNoUCMemory(void** virPtr, size_t size, size_t alignment, void* expectPtr,
                                          uint64_t flags) {
  NPURT_HANDLE_SCOPE();
  // The sim has no UC memory to keep clear of: a fixed-address reservation.
  return Reserve(__func__, virPtr, size, alignment, expectPtr, flags, true);
}

aclError aclrtReleaseMemAddress(void* virPtr) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(dev, WindowDevice(virPtr, "virPtr"));
  NPURT_API_CHECK(dev->allocator().vmm().Release(reinterpret_cast<uintptr_t>(virPtr)));
  return ACL_SUCCESS;
}

aclError aclrtMapMem(void* virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle, uint64_t flags) {
  NPURT_HANDLE_SCOPE();
  return Map(__func__, virPtr, size, offset, handle, flags, npurt::core::MemoryAccess::kReadWrite);
}

aclError aclrtMemMapNoAccess(void* virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle, uint64_t flags) {
  NPURT_HANDLE_SCOPE();
  return Map(__func__, virPtr, size, offset, handle, flags, npurt::core::MemoryAccess::kNone);
}

aclError aclrtUnmapMem(void* virPtr) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(dev, WindowDevice(virPtr, "virPtr"));
  NPURT_API_CHECK(dev->allocator().vmm().Unmap(reinterpret_cast<uintptr_t>(virPtr)));
  return ACL_SUCCESS;
}

aclError aclrtMemSetAccess(void* virPtr, size_t size, aclrtMemAccessDesc* desc, size_t count) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(desc);
  if (count == 0 || size == 0) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "size ({}) and count ({}) must be non-zero", size,
                                            count));
  }
  NPURT_API_ASSIGN(dev, WindowDevice(virPtr, "virPtr"));
  for (size_t i = 0; i < count; ++i) {
    if (desc[i].location.type != ACL_MEM_LOCATION_TYPE_DEVICE) {
      return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "desc[{}]: location type {} is not a device", i,
                                              static_cast<int>(desc[i].location.type)));
    }
    NPURT_API_ASSIGN(loc, Runtime::Get().GetDevice(static_cast<int32_t>(desc[i].location.id)));
    (void)loc;
    NPURT_API_ASSIGN(access, ToAccess(desc[i].flags));
    (void)access;
  }
  for (size_t i = 0; i < count; ++i) {
    NPURT_API_CHECK(dev->allocator().vmm().SetAccess(reinterpret_cast<uintptr_t>(virPtr), size, desc[i].location.id,
                                                    ToAccess(desc[i].flags).value()));
  }
  return ACL_SUCCESS;
}

aclError aclrtMemGetAccess(void* virPtr, aclrtMemLocation* location, uint64_t* flag) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(location);
  NPURT_API_NOT_NULL(flag);
  if (location->type != ACL_MEM_LOCATION_TYPE_DEVICE) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "location type {} is not a device",
                                            static_cast<int>(location->type)));
  }
  NPURT_API_ASSIGN(dev, WindowDevice(virPtr, "virPtr"));
  NPURT_API_ASSIGN(access, dev->allocator().vmm().GetAccess(reinterpret_cast<uintptr_t>(virPtr), location->id));
  *flag = static_cast<uint64_t>(access);
  return ACL_SUCCESS;
}

aclError aclrtMemRetainAllocationHandle(void* virPtr, aclrtDrvMemHandle* handle) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(handle);
  NPURT_API_ASSIGN(dev, WindowDevice(virPtr, "virPtr"));
  NPURT_API_ASSIGN(p, dev->allocator().vmm().RetainHandleAt(reinterpret_cast<uintptr_t>(virPtr)));
  *handle = p;
  return ACL_SUCCESS;
}

aclError aclrtMemGetAddressRange(void* ptr, void** pbase, size_t* psize) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(ptr);
  if (pbase == nullptr && psize == nullptr) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "pbase and psize are both null pointers"));
  }
  npurt::core::Device* dev = Runtime::Get().DeviceOwning(ptr);
  uintptr_t base = 0;
  size_t size = 0;
  npurt::core::LiveAllocation live;
  if (dev != nullptr && dev->allocator().LookupBlock(ptr, &live)) {
    base = live.base;
    size = live.size;
  } else if (dev == nullptr || !dev->allocator().vmm().Range(reinterpret_cast<uintptr_t>(ptr), &base, &size)) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "{} is not in a live device allocation or a "
                                            "reserved address range", ptr));
  }
  if (pbase != nullptr) *pbase = reinterpret_cast<void*>(base);
  if (psize != nullptr) *psize = size;
  return ACL_SUCCESS;
}

aclError aclrtMemP2PMap(void* devPtr, size_t size, int32_t dstDevId, uint64_t flags) {
  NPURT_HANDLE_SCOPE();
  if (flags != 0) return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "flags must be 0, not {}", flags));
  NPURT_API_ASSIGN(dst, Runtime::Get().GetDevice(dstDevId));
  (void)dst;
  npurt::core::Device* dev = Runtime::Get().DeviceOwning(devPtr);
  npurt::core::AllocationInfo info;
  if (devPtr == nullptr || dev == nullptr || !dev->allocator().Lookup(devPtr, &info) ||
      size > info.base + info.size - reinterpret_cast<uintptr_t>(devPtr)) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "[{}, +{}) is not inside one device allocation",
                                            devPtr, size));
  }
  // Every simulated device reaches every device's memory: the range is usable from dstDevId as it is.
  return ACL_SUCCESS;
}

aclError aclrtMemMapSetLink(aclrtDrvMemHandle handle, aclrtMemLinkType adviceLink) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(p, ResolvePhysical(handle));
  (void)p;
  if (adviceLink < ACL_RT_MEM_ACCESS_LINK_SIO || adviceLink > ACL_RT_MEM_ACCESS_UB_MULTI_PORT_PATH) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "link type {} is unknown",
                                            static_cast<int>(adviceLink)));
  }
  return ACL_SUCCESS;  // one interconnect on the sim: any advice is followed trivially
}

aclError aclrtMemMapSelectedLink(void* virPtrDst, size_t size, void* virPtrSrc, uint32_t linkIdx) {
  NPURT_HANDLE_SCOPE();
  if (linkIdx != ACL_RT_MEM_LINK_IDX_0 && linkIdx != ACL_RT_MEM_LINK_IDX_1) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "link index {} is not 0 or 1", linkIdx));
  }
  NPURT_API_ASSIGN(src_dev, WindowDevice(virPtrSrc, "virPtrSrc"));
  NPURT_API_ASSIGN(handle, src_dev->allocator().vmm().RetainHandleAt(reinterpret_cast<uintptr_t>(virPtrSrc)));
  uintptr_t base = 0;
  size_t mapped = 0;
  (void)src_dev->allocator().vmm().Range(reinterpret_cast<uintptr_t>(virPtrSrc), &base, &mapped);
  const aclError rc = Map(__func__, virPtrDst, size, reinterpret_cast<uintptr_t>(virPtrSrc) - base, handle, 0,
                          npurt::core::MemoryAccess::kReadWrite);
  handle->ReleaseApi();
  return rc;
}

aclError aclrtCheckMemType(void** addrList, uint32_t size, uint32_t memType, uint32_t* checkResult, uint32_t reserve) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(addrList);
  NPURT_API_NOT_NULL(checkResult);
  if (size == 0) return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "size is 0"));
  if (reserve != 0) return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "reserve must be 0"));
  const uint32_t known = ACL_RT_MEM_TYPE_DEV | ACL_RT_MEM_TYPE_DVPP | ACL_RT_MEM_TYPE_RSVD;
  if (memType == 0 || (memType & ~known) != 0) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "memType {:#x} has unknown bits", memType));
  }
  uint32_t ok = 1;
  for (uint32_t i = 0; i < size && ok; ++i) {
    npurt::core::Device* dev = Runtime::Get().DeviceOwning(addrList[i]);
    npurt::core::AllocationInfo info;
    const bool device = dev != nullptr && dev->allocator().Lookup(addrList[i], &info);
    const bool reserved = dev != nullptr && dev->allocator().vmm().IsReserved(reinterpret_cast<uintptr_t>(addrList[i]));
    // The sim has no DVPP memory.
    ok = ((memType & ACL_RT_MEM_TYPE_DEV) && device && !info.vmm) || ((memType & ACL_RT_MEM_TYPE_RSVD) && reserved);
  }
  *checkResult = ok;
  return ACL_SUCCESS;
}
