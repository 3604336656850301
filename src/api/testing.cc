#include "api/testing.h"

#include "api/api_common.h"
#include "core/stream.h"
#include "hal/hal.h"

int npurtTestInjectTaskFailure(void* stream, int32_t code) {
  NPURT_HANDLE_SCOPE();
  if (code == 0) return npurt::api::Report(__func__, npurt::Err(ACL_ERROR_INVALID_PARAM, "code must be non-zero"));
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  npurt::hal::Task t;
  t.kind = npurt::hal::TaskKind::kFail;
  t.aux = static_cast<uint32_t>(code);
  s->Submit(t);
  return ACL_SUCCESS;
}
