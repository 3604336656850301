// Entry points: managed (unified) memory.
#include <cstring>

#include "acl/acl.h"
#include "api/api_common.h"
#include "core/kernel/builtin_tasks.h"
#include "core/context.h"
#include "core/device.h"
#include "core/memory/mem_managed.h"
#include "core/runtime.h"
#include "core/stream.h"

using npurt::Err;
using npurt::core::ManagedLocation;
using npurt::core::ManagedRegistry;

namespace {

constexpr int32_t kInvalidDevice = -2;  // "no location" in the id attributes (CUDA's cudaInvalidDeviceId)
constexpr int32_t kHostId = -1;         // the host in the id attributes (CUDA's cudaCpuDeviceId)

npurt::StatusOr<ManagedLocation> CheckLocation(aclrtMemManagedLocation loc, bool allow_invalid) {
  switch (loc.type) {
    case ACL_MEM_LOCATIONTYPE_INVALID:
      if (allow_invalid) return ManagedLocation{};
      return Err(ACL_ERROR_INVALID_PARAM, "the location type is INVALID");
    case ACL_MEM_LOCATIONTYPE_DEVICE: {
      auto dev = npurt::core::Runtime::Get().GetDevice(loc.id);
      if (!dev.ok()) return dev.status();
      return ManagedLocation{loc.type, loc.id};
    }
    case ACL_MEM_LOCATIONTYPE_HOST:
    case ACL_MEM_LOCATIONTYPE_HOST_NUMA_CURRENT: return ManagedLocation{loc.type, 0};
    case ACL_MEM_LOCATIONTYPE_HOST_NUMA:
      if (loc.id != 0) return Err(ACL_ERROR_INVALID_PARAM, "NUMA node {} does not exist (the sim has node 0)", loc.id);
      return ManagedLocation{loc.type, 0};
  }
  return Err(ACL_ERROR_INVALID_PARAM, "location type {} is unknown", static_cast<int>(loc.type));
}

int32_t IdOf(const ManagedLocation& l) {
  if (l.type == ACL_MEM_LOCATIONTYPE_INVALID) return kInvalidDevice;
  return l.type == ACL_MEM_LOCATIONTYPE_DEVICE ? l.id : kHostId;
}

npurt::Status ReadAttribute(const npurt::core::ManagedInfo& m, aclrtMemManagedRangeAttribute attribute, void* data,
                            size_t dataSize) {
  if (data == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "data is a null pointer");
  auto put = [&](int32_t v) -> npurt::Status {
    if (dataSize < sizeof v) return Err(ACL_ERROR_INVALID_PARAM, "dataSize {} is smaller than 4", dataSize);
    std::memcpy(data, &v, sizeof v);
    return npurt::Status::Ok();
  };
  switch (attribute) {
    case ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY: return put(m.read_mostly ? 1 : 0);
    case ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION: return put(IdOf(m.preferred));
    case ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE: return put(m.preferred.type);
    case ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID: return put(m.preferred.id);
    case ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION: return put(IdOf(m.last_prefetch));
    case ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE: return put(m.last_prefetch.type);
    case ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID: return put(m.last_prefetch.id);
    case ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY: {
      if (dataSize == 0 || dataSize % 4 != 0) {
        return Err(ACL_ERROR_INVALID_PARAM, "dataSize {} is not a positive multiple of 4", dataSize);
      }
      auto* out = static_cast<int32_t*>(data);
      const size_t n = dataSize / 4;
      size_t i = 0;
      for (int32_t id : m.accessed_by) {
        if (i < n) out[i++] = id;
      }
      for (; i < n; ++i) out[i] = kInvalidDevice;
      return npurt::Status::Ok();
    }
  }
  return Err(ACL_ERROR_INVALID_PARAM, "range attribute {} is unknown", static_cast<int>(attribute));
}

npurt::Status Prefetch(const void* ptr, size_t size, aclrtMemManagedLocation location, npurt::core::Stream* stream) {
  if (size == 0) return Err(ACL_ERROR_INVALID_PARAM, "size is 0");
  auto loc = CheckLocation(location, false);
  if (!loc.ok()) return loc.status();
  NPURT_RETURN_IF_ERROR(ManagedRegistry::Get().Find(ptr, size).status());
  // The pages are resident wherever they are used on the sim: the prefetch is an ordering point only.
  npurt::core::SubmitOrderingPoint(stream);
  return ManagedRegistry::Get().SetLastPrefetch(ptr, size, loc.value());
}

}  // namespace

aclError aclrtMemAllocManaged(void** ptr, uint64_t size, uint32_t flag) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(ptr);
  if (size == 0) return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "size is 0"));
  if (flag != ACL_RT_MEM_ATTACH_GLOBAL) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "flag {} is not ACL_RT_MEM_ATTACH_GLOBAL", flag));
  }
  NPURT_API_ASSIGN(ctx, npurt::core::RequireContext());
  NPURT_API_ASSIGN(p, ManagedRegistry::Get().Allocate(ctx->device(), ctx, size));
  *ptr = p;
  return ACL_SUCCESS;
}

aclError aclrtMemManagedAdvise(const void* const ptr, uint64_t size, aclrtMemManagedAdviseType advise,
                               aclrtMemManagedLocation location) {
  NPURT_HANDLE_SCOPE();
  if (size == 0) return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "size is 0"));
  const bool uses_location = advise == ACL_MEM_ADVISE_SET_PREFERRED_LOCATION || advise == ACL_MEM_ADVISE_SET_ACCESSED_BY ||
                             advise == ACL_MEM_ADVISE_UNSET_ACCESSED_BY;
  ManagedLocation loc;
  if (uses_location) {
    NPURT_API_ASSIGN(checked, CheckLocation(location, false));
    loc = checked;
  }
  NPURT_API_CHECK(ManagedRegistry::Get().Advise(ptr, size, advise, loc));
  return ACL_SUCCESS;
}

aclError aclrtMemManagedGetAttr(aclrtMemManagedRangeAttribute attribute, const void* ptr, size_t size, void* data,
                                size_t dataSize) {
  NPURT_HANDLE_SCOPE();
  if (size == 0) return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "size is 0"));
  NPURT_API_ASSIGN(info, ManagedRegistry::Get().Find(ptr, size));
  NPURT_API_CHECK(ReadAttribute(info, attribute, data, dataSize));
  return ACL_SUCCESS;
}

aclError aclrtMemManagedGetAttrs(aclrtMemManagedRangeAttribute* attributes, size_t numAttributes, const void* ptr,
                                 size_t size, void** data, size_t* dataSizes) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(attributes);
  NPURT_API_NOT_NULL(data);
  NPURT_API_NOT_NULL(dataSizes);
  if (numAttributes == 0 || size == 0) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "numAttributes ({}) and size ({}) must be "
                                            "non-zero", numAttributes, size));
  }
  NPURT_API_ASSIGN(info, ManagedRegistry::Get().Find(ptr, size));
  for (size_t i = 0; i < numAttributes; ++i) {
    NPURT_API_CHECK(std::move(ReadAttribute(info, attributes[i], data[i], dataSizes[i]))
                        .WithContext(fmt::format("attribute {}", i).c_str()));
  }
  return ACL_SUCCESS;
}

aclError aclrtMemManagedPrefetchAsync(const void* ptr, size_t size, aclrtMemManagedLocation location, uint32_t flags,
                                      aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  if (flags != 0) return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "flags must be 0, not {}", flags));
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  NPURT_API_CHECK(Prefetch(ptr, size, location, s));
  return ACL_SUCCESS;
}

aclError aclrtMemManagedPrefetchBatchAsync(const void** ptrs, size_t* sizes, size_t count,
                                           aclrtMemManagedLocation* prefetchLocs, size_t* prefetchLocIdxs,
                                           size_t numPrefetchLocs, uint64_t flags, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(ptrs);
  NPURT_API_NOT_NULL(sizes);
  NPURT_API_NOT_NULL(prefetchLocs);
  NPURT_API_NOT_NULL(prefetchLocIdxs);
  if (flags != 0) return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "flags must be 0, not {}", flags));
  if (count == 0 || numPrefetchLocs == 0 || numPrefetchLocs > count || prefetchLocIdxs[0] != 0) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "count {} and {} locations starting at index {}: "
                                            "the first location must start at range 0", count, numPrefetchLocs,
                                            prefetchLocIdxs[0]));
  }
  for (size_t k = 1; k < numPrefetchLocs; ++k) {
    if (prefetchLocIdxs[k] <= prefetchLocIdxs[k - 1] || prefetchLocIdxs[k] >= count) {
      return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "prefetchLocIdxs[{}] = {} is not increasing "
                                              "within [0, {})", k, prefetchLocIdxs[k], count));
    }
  }
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  // Validate every range before enqueuing anything.
  for (size_t i = 0; i < count; ++i) {
    NPURT_API_ASSIGN(info, ManagedRegistry::Get().Find(ptrs[i], sizes[i]));
    (void)info;
  }
  size_t k = 0;
  for (size_t i = 0; i < count; ++i) {
    while (k + 1 < numPrefetchLocs && prefetchLocIdxs[k + 1] <= i) ++k;
    NPURT_API_CHECK(Prefetch(ptrs[i], sizes[i], prefetchLocs[k], s));
  }
  return ACL_SUCCESS;
}
