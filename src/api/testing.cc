#include "api/testing.h"

#include "api/api_common.h"
#include "core/kernel/builtin_tasks.h"
#include "core/stream.h"

int npurtTestInjectTaskFailure(void* stream, int32_t code) {
  NPURT_HANDLE_SCOPE();
  if (code == 0) return npurt::api::Report(__func__, npurt::Err(ACL_ERROR_INVALID_PARAM, "code must be non-zero"));
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  npurt::core::SubmitInjectedFailure(s, code);
  return ACL_SUCCESS;
}
