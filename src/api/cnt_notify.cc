// Entry points: counting notifies (core/sync/cnt_notify.h).
#include "acl/acl.h"
#include "api/api_common.h"
#include "core/sync/cnt_notify.h"
#include "core/context.h"
#include "core/handle_tags.h"
#include "core/stream.h"

using npurt::Err;
using npurt::core::CntNotify;

namespace {

npurt::StatusOr<CntNotify*> ResolveCntNotify(aclrtCntNotify notify) {
  if (notify == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "cntNotify is a null pointer");
  CntNotify* n = npurt::LookupHandle<CntNotify>(notify, npurt::handle_tags::kCntNotify);
  if (n == nullptr) return Err(ACL_ERROR_RT_INVALID_HANDLE, "handle {} is not a live counting notify", notify);
  return n;
}

}  // namespace

aclError aclrtCntNotifyCreate(aclrtCntNotify* cntNotify, uint64_t flag) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(cntNotify);
  if (flag != ACL_NOTIFY_DEFAULT && flag != ACL_NOTIFY_DEVICE_USE_ONLY) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "notify flag {} is invalid", flag));
  }
  NPURT_API_ASSIGN(ctx, npurt::core::RequireContext());
  NPURT_API_ASSIGN(n, CntNotify::Create(ctx->device(), flag));
  *cntNotify = n;
  return ACL_SUCCESS;
}

aclError aclrtCntNotifyDestroy(aclrtCntNotify cntNotify) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(n, ResolveCntNotify(cntNotify));
  n->Destroy();
  return ACL_SUCCESS;
}

aclError aclrtCntNotifyRecord(aclrtCntNotify cntNotify, aclrtStream stream, aclrtCntNotifyRecordInfo* info) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(info);
  NPURT_API_ASSIGN(n, ResolveCntNotify(cntNotify));
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  NPURT_API_CHECK(n->Record(s, info->mode, info->value));
  return ACL_SUCCESS;
}

aclError aclrtCntNotifyWaitWithTimeout(aclrtCntNotify cntNotify, aclrtStream stream, aclrtCntNotifyWaitInfo* info) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(info);
  if (info->isClear > 1) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "isClear {} must be 0 or 1", info->isClear));
  }
  NPURT_API_ASSIGN(n, ResolveCntNotify(cntNotify));
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  NPURT_API_CHECK(n->Wait(s, info->mode, info->value, info->timeout, info->isClear != 0));
  return ACL_SUCCESS;
}

aclError aclrtCntNotifyReset(aclrtCntNotify cntNotify, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(n, ResolveCntNotify(cntNotify));
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  NPURT_API_CHECK(n->Reset(s));
  return ACL_SUCCESS;
}

aclError aclrtCntNotifyGetId(aclrtCntNotify cntNotify, uint32_t* notifyId) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(notifyId);
  NPURT_API_ASSIGN(n, ResolveCntNotify(cntNotify));
  *notifyId = n->id();
  return ACL_SUCCESS;
}
