// Entry points: stream-ordered memory pools (acl_rt_memory_soma.h).
#include "acl/acl_rt_memory_soma.h"

#include "api/api_common.h"
#include "core/device.h"
#include "core/handle_tags.h"
#include "core/memory/mem_pool.h"
#include "core/runtime.h"
#include "core/stream.h"

using npurt::Err;
using npurt::core::MemPool;
using npurt::core::Runtime;

namespace {

npurt::StatusOr<MemPool*> ResolvePool(aclrtMemPool pool) {
  if (pool == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "memPool is a null pointer");
  MemPool* p = npurt::LookupHandle<MemPool>(pool, npurt::handle_tags::kMemPool);
  if (p == nullptr) {
    return Err(ACL_ERROR_RT_INVALID_HANDLE, "memPool {} is not a live memory pool (destroyed, or not a pool)", pool);
  }
  return p;
}

}  // namespace

aclError aclrtMemPoolCreate(aclrtMemPool* memPool, const aclrtMemPoolProps* poolProps) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(memPool);
  NPURT_API_NOT_NULL(poolProps);
  if (npurt::RawEnum(poolProps->allocType) != ACL_MEM_ALLOCATION_TYPE_PINNED) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "allocType {} is not ACL_MEM_ALLOCATION_TYPE_PINNED",
                                            npurt::RawEnum(poolProps->allocType)));
  }
  if (poolProps->handleType != ACL_MEM_HANDLE_TYPE_NONE) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                                            "pools of shareable memory (handleType {}) are not supported: share "
                                            "memory with aclrtMallocPhysical and aclrtMemExportToShareableHandle",
                                            static_cast<int>(poolProps->handleType)));
  }
  if (poolProps->location.type != ACL_MEM_LOCATION_TYPE_DEVICE) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "location type {} is not a device; pools hold "
                                            "device memory", static_cast<int>(poolProps->location.type)));
  }
  NPURT_API_ASSIGN(dev, Runtime::Get().GetDevice(static_cast<int32_t>(poolProps->location.id)));
  NPURT_API_ASSIGN(pool, MemPool::Create(dev, poolProps->maxSize));
  *memPool = pool;
  return ACL_SUCCESS;
}

aclError aclrtMemPoolDestroy(const aclrtMemPool memPool) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(pool, ResolvePool(memPool));
  pool->Destroy();
  return ACL_SUCCESS;
}

aclError aclrtMemPoolSetAttr(aclrtMemPool memPool, aclrtMemPoolAttr attr, void* value) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(pool, ResolvePool(memPool));
  NPURT_API_NOT_NULL(value);
  switch (attr) {
    case ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES:
      pool->reuse_follow_event_dependencies.store(*static_cast<int32_t*>(value) != 0 ? 1 : 0);
      return ACL_SUCCESS;
    case ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC:
      pool->reuse_allow_opportunistic.store(*static_cast<int32_t*>(value) != 0 ? 1 : 0);
      return ACL_SUCCESS;
    case ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES:
      pool->reuse_allow_internal_dependencies.store(*static_cast<int32_t*>(value) != 0 ? 1 : 0);
      return ACL_SUCCESS;
    case ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD:
      pool->set_release_threshold(*static_cast<uint64_t*>(value));
      return ACL_SUCCESS;
    case ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH:
    case ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH:
      // Only a reset to zero is allowed: the high-water marks restart from the current figures.
      if (*static_cast<uint64_t*>(value) != 0) {
        return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM,
                                                "a high-water mark can only be reset (set to 0), not set to {}",
                                                *static_cast<uint64_t*>(value)));
      }
      pool->allocator().ResetPeaks();
      return ACL_SUCCESS;
    case ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT:
    case ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT:
      return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "pool attribute {} is read-only",
                                              static_cast<int>(attr)));
  }
  return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "unknown pool attribute {}", static_cast<int>(attr)));
}

aclError aclrtMemPoolGetAttr(aclrtMemPool memPool, aclrtMemPoolAttr attr, void* value) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(pool, ResolvePool(memPool));
  NPURT_API_NOT_NULL(value);
  auto u64 = [&](uint64_t v) {
    *static_cast<uint64_t*>(value) = v;
    return ACL_SUCCESS;
  };
  switch (attr) {
    case ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES:
      *static_cast<int32_t*>(value) = pool->reuse_follow_event_dependencies.load();
      return ACL_SUCCESS;
    case ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC:
      *static_cast<int32_t*>(value) = pool->reuse_allow_opportunistic.load();
      return ACL_SUCCESS;
    case ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES:
      *static_cast<int32_t*>(value) = pool->reuse_allow_internal_dependencies.load();
      return ACL_SUCCESS;
    case ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD: return u64(pool->release_threshold());
    case ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT: return u64(pool->allocator().Stats().total.reserved);
    case ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH: return u64(pool->allocator().Stats().total.reserved_peak);
    case ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT: return u64(pool->allocator().Stats().total.allocated);
    case ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH: return u64(pool->allocator().Stats().total.allocated_peak);
  }
  return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "unknown pool attribute {}", static_cast<int>(attr)));
}

aclError aclrtMemPoolMallocAsync(void** ptr, size_t size, aclrtMemPool memPool, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(ptr);
  if (size == 0) return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "size is 0"));
  NPURT_API_ASSIGN(pool, ResolvePool(memPool));
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  NPURT_API_ASSIGN(p, pool->Allocate(size, s));
  *ptr = p;
  return ACL_SUCCESS;
}

aclError aclrtMemPoolFreeAsync(void* ptr, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(ptr);
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  npurt::core::Device* dev = Runtime::Get().DeviceOwning(ptr);
  MemPool* pool = dev == nullptr ? nullptr : MemPool::FromAllocator(dev->allocator().OwnerOf(ptr));
  if (pool == nullptr) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_RT_MEMORY_FREE,
                                            "{} is not memory of a memory pool{}", ptr,
                                            dev != nullptr ? " (free aclrtMalloc memory with aclrtFree)" : ""));
  }
  NPURT_API_CHECK(pool->FreeAsync(ptr, s));
  return ACL_SUCCESS;
}

aclError aclrtMemPoolTrimTo(aclrtMemPool memPool, size_t minBytesToKeep) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(pool, ResolvePool(memPool));
  pool->allocator().Trim(minBytesToKeep);
  return ACL_SUCCESS;
}
