// Entry points: notifies, memory-value write/wait tasks, operator timeouts.
#include "acl/acl.h"
#include "api/api_common.h"
#include "core/kernel/builtin_tasks.h"
#include "core/context.h"
#include "core/device.h"
#include "core/memory/memory_ops.h"
#include "core/sync/notify.h"
#include "core/runtime.h"
#include "core/stream.h"

using npurt::Err;
using npurt::core::Notify;

using npurt::api::ResolveNotify;

aclError aclrtCreateNotify(aclrtNotify* notify, uint64_t flag) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(notify);
  if (flag != ACL_NOTIFY_DEFAULT && flag != ACL_NOTIFY_DEVICE_USE_ONLY) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "notify flag {} is invalid", flag));
  }
  NPURT_API_ASSIGN(ctx, npurt::core::RequireContext());
  NPURT_API_ASSIGN(n, Notify::Create(ctx->device(), flag));
  *notify = n;
  return ACL_SUCCESS;
}

aclError aclrtDestroyNotify(aclrtNotify notify) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(n, ResolveNotify(notify));
  n->Destroy();
  return ACL_SUCCESS;
}

aclError aclrtRecordNotify(aclrtNotify notify, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(n, ResolveNotify(notify));
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  NPURT_API_CHECK(n->Record(s));
  return ACL_SUCCESS;
}

aclError aclrtWaitAndResetNotify(aclrtNotify notify, aclrtStream stream, uint32_t timeout) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(n, ResolveNotify(notify));
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  NPURT_API_CHECK(n->WaitAndReset(s, timeout));
  return ACL_SUCCESS;
}

aclError aclrtGetNotifyId(aclrtNotify notify, uint32_t* notifyId) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(notifyId);
  NPURT_API_ASSIGN(n, ResolveNotify(notify));
  *notifyId = n->id();
  return ACL_SUCCESS;
}

aclError aclrtNotifyBatchReset(aclrtNotify* notifies, size_t num) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(notifies);
  if (num == 0) return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "num is 0"));
  for (size_t i = 0; i < num; ++i) {
    NPURT_API_ASSIGN(n, ResolveNotify(notifies[i]));
    (void)n;
  }
  for (size_t i = 0; i < num; ++i) static_cast<Notify*>(notifies[i])->Reset();
  return ACL_SUCCESS;
}

aclError aclrtValueWrite(void* devAddr, uint64_t value, uint32_t flag, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  if (flag != 0) return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "flag must be 0, got {}", flag));
  if (reinterpret_cast<uintptr_t>(devAddr) % 8 != 0) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_RT_ADDR_UNALIGNED, "devAddr {} is not 8-byte aligned", devAddr));
  }
  NPURT_API_ASSIGN(span, npurt::core::ResolveSpan(devAddr, sizeof(uint64_t), "devAddr"));
  if (span.device == nullptr) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "devAddr {} is not device memory", devAddr));
  }
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  npurt::core::SubmitValueWrite(s, devAddr, value);
  return ACL_SUCCESS;
}

aclError aclrtValueWait(void* devAddr, uint64_t value, uint32_t flag, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  if (flag > ACL_STREAM_WAIT_VALUE_NOR) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "flag {} is not an ACL_STREAM_WAIT_VALUE_* "
                                            "comparison", flag));
  }
  if (reinterpret_cast<uintptr_t>(devAddr) % 8 != 0) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_RT_ADDR_UNALIGNED, "devAddr {} is not 8-byte aligned", devAddr));
  }
  NPURT_API_ASSIGN(span, npurt::core::ResolveSpan(devAddr, sizeof(uint64_t), "devAddr"));
  if (span.device == nullptr) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "devAddr {} is not device memory", devAddr));
  }
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  const uint64_t wait_ms = npurt::core::Runtime::Get().op_wait_timeout_ms.load();
  npurt::core::SubmitValueWait(s, devAddr, value, flag, wait_ms * 1000000ull);
  return ACL_SUCCESS;
}
