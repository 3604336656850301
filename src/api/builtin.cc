// Entry points: built-in device tasks (core/kernel/builtin_tasks.h) — reduce, random numbers, cache
// maintenance, descriptor copies.
#include "acl/acl.h"
#include "api/api_common.h"
#include "core/kernel/builtin_tasks.h"
#include "core/context.h"
#include "core/stream.h"

using npurt::Err;

aclError aclrtReduceAsync(void* dst, const void* src, uint64_t count, aclrtReduceKind kind, aclDataType type,
                          aclrtStream stream, void* reserve) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(dst);
  NPURT_API_NOT_NULL(src);
  if (reserve != nullptr) return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "reserve must be NULL"));
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  NPURT_API_CHECK(npurt::core::SubmitReduce(s, dst, src, count, kind, type));
  return ACL_SUCCESS;
}

aclError aclrtRandomNumAsync(const aclrtRandomNumTaskInfo* taskInfo, const aclrtStream stream, void* reserve) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(taskInfo);
  if (reserve != nullptr) return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "reserve must be NULL"));
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  NPURT_API_CHECK(npurt::core::SubmitRandomNum(s, *taskInfo));
  return ACL_SUCCESS;
}

aclError aclrtCmoAsync(void* src, size_t size, aclrtCmoType cmoType, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(src);
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  NPURT_API_CHECK(npurt::core::SubmitCacheOp(s, src, size, cmoType));
  return ACL_SUCCESS;
}

// Barriers order cache operations against later tasks of the stream; the simulated device's cache
// operations finish in stream order, so the barrier id is only validated.
aclError aclrtCmoAsyncWithBarrier(void* src, size_t size, aclrtCmoType cmoType, uint32_t barrierId,
                                  aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(src);
  if (barrierId == 0) return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "barrierId must not be 0"));
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  NPURT_API_CHECK(npurt::core::SubmitCacheOp(s, src, size, cmoType));
  return ACL_SUCCESS;
}

aclError aclrtCmoWaitBarrier(aclrtBarrierTaskInfo* taskInfo, aclrtStream stream, uint32_t flag) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(taskInfo);
  if (flag != 0) return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "flag must be 0, got {}", flag));
  if (taskInfo->barrierNum == 0 || taskInfo->barrierNum > ACL_RT_CMO_MAX_BARRIER_NUM) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "barrierNum {} must be 1..{}",
                                            taskInfo->barrierNum, ACL_RT_CMO_MAX_BARRIER_NUM));
  }
  for (size_t i = 0; i < taskInfo->barrierNum; ++i) {
    const aclrtBarrierCmoInfo& b = taskInfo->cmoInfo[i];
    const int type = static_cast<int>(b.cmoType);
    if (type < ACL_RT_CMO_TYPE_PREFETCH || type > ACL_RT_CMO_TYPE_FLUSH || b.barrierId == 0) {
      return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "cmoInfo[{}] (type {}, barrier {}) is invalid",
                                              i, int(b.cmoType), b.barrierId));
    }
  }
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  npurt::core::SubmitOrderingPoint(s);
  return ACL_SUCCESS;
}

aclError aclrtCmoGetDescSize(size_t* size) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(size);
  *size = npurt::core::kCmoDescBytes;
  return ACL_SUCCESS;
}

aclError aclrtCmoSetDesc(void* cmoDesc, void* src, size_t size) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_CHECK(npurt::core::WriteCmoDesc(cmoDesc, src, size));
  return ACL_SUCCESS;
}

aclError aclrtCmoAsyncWithDesc(void* cmoDesc, aclrtCmoType cmoType, aclrtStream stream, const void* reserve) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(cmoDesc);
  if (reserve != nullptr) return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "reserve must be NULL"));
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  NPURT_API_CHECK(npurt::core::SubmitCacheOpWithDesc(s, cmoDesc, cmoType));
  return ACL_SUCCESS;
}

// The simulated device has no L2 cache: nothing to flush once the device is known.
aclError aclrtDeviceL2CacheFlush(void* rsv) {
  NPURT_HANDLE_SCOPE();
  if (rsv != nullptr) return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "rsv must be NULL"));
  NPURT_API_ASSIGN(ctx, npurt::core::RequireContext());
  (void)ctx;
  return ACL_SUCCESS;
}

aclError aclrtGetMemcpyDescSize(aclrtMemcpyKind kind, size_t* descSize) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(descSize);
  if (static_cast<int>(kind) < ACL_MEMCPY_HOST_TO_HOST || kind > ACL_MEMCPY_INTER_DEVICE_TO_DEVICE) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "copy kind {} is invalid", int(kind)));
  }
  *descSize = npurt::core::kMemcpyDescBytes;
  return ACL_SUCCESS;
}

aclError aclrtSetMemcpyDesc(void* desc, aclrtMemcpyKind kind, void* srcAddr, void* dstAddr, size_t count,
                            void* config) {
  NPURT_HANDLE_SCOPE();
  if (config != nullptr) return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "config must be NULL"));
  NPURT_API_CHECK(npurt::core::WriteMemcpyDesc(desc, kind, srcAddr, dstAddr, count));
  return ACL_SUCCESS;
}

aclError aclrtMemcpyAsyncWithDesc(void* desc, aclrtMemcpyKind kind, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(desc);
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  NPURT_API_CHECK(npurt::core::SubmitMemcpyWithDesc(s, desc, kind));
  return ACL_SUCCESS;
}

aclError aclrtMemcpyAsyncWithOffset(void** dst, size_t destMax, size_t dstDataOffset, const void** src, size_t count,
                                    size_t srcDataOffset, aclrtMemcpyKind kind, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  NPURT_API_CHECK(npurt::core::SubmitMemcpyWithOffset(s, dst, destMax, dstDataOffset, src, count, srcDataOffset, kind));
  return ACL_SUCCESS;
}
