// Entry points: contexts.
#include "acl/acl.h"
#include "api/api_common.h"
#include "core/context.h"
#include "core/device.h"
#include "core/runtime.h"
#include "core/stream.h"

using npurt::Err;
using npurt::core::Runtime;

aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(context);
  NPURT_API_ASSIGN(dev, Runtime::Get().GetDevice(deviceId));
  NPURT_API_ASSIGN(ctx, npurt::core::Context::Create(dev, /*is_default=*/false));
  npurt::core::SetCurrentContext(ctx);  // a new context becomes the thread's current one
  *context = ctx;
  return ACL_SUCCESS;
}

aclError aclrtDestroyContext(aclrtContext context) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(ctx, npurt::api::ResolveContext(context));
  if (ctx->is_default()) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM,
                                            "context {} is the default context of device {}: release it with "
                                            "aclrtResetDevice, not aclrtDestroyContext",
                                            context, ctx->device()->id()));
  }
  ctx->Destroy();
  return ACL_SUCCESS;
}

aclError aclrtSetCurrentContext(aclrtContext context) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(ctx, npurt::api::ResolveContext(context));
  npurt::core::SetCurrentContext(ctx);
  return ACL_SUCCESS;
}

aclError aclrtGetCurrentContext(aclrtContext* context) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(context);
  NPURT_API_ASSIGN(ctx, npurt::core::RequireContext());
  *context = ctx;
  return ACL_SUCCESS;
}

aclError aclrtCtxGetCurrentDefaultStream(aclrtStream* stream) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(stream);
  NPURT_API_ASSIGN(ctx, npurt::core::RequireContext());
  *stream = ctx->default_stream();
  return ACL_SUCCESS;
}
