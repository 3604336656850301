// Entry points: floating-point overflow status (core/kernel/overflow.h). The saturation-mode setters live in
// device.cc, the stream overflow switch in stream.cc.
#include "acl/acl.h"
#include "api/api_common.h"
#include "core/kernel/overflow.h"
#include "core/stream.h"

using npurt::Err;

namespace {

// aclrtNpuGetFloatOverFlowStatus / Clear: 0 reads the status as it is, 1 also clears it (the check
// modes of the NPU status registers).
constexpr uint32_t kMaxCheckMode = 1;

aclError ReadStatus(const char* fn, void* out, uint64_t size, aclrtStream stream) {
  auto s = npurt::api::ResolveStream(stream);
  if (!s.ok()) return npurt::api::Report(fn, s.status());
  npurt::Status st = npurt::core::SubmitOverflowRead(s.value(), out, size);
  return st.ok() ? ACL_SUCCESS : npurt::api::Report(fn, st);
}

aclError ResetStatus(const char* fn, aclrtStream stream) {
  auto s = npurt::api::ResolveStream(stream);
  if (!s.ok()) return npurt::api::Report(fn, s.status());
  npurt::Status st = npurt::core::SubmitOverflowReset(s.value());
  return st.ok() ? ACL_SUCCESS : npurt::api::Report(fn, st);
}

}  // namespace

aclError aclrtGetOverflowStatus(void* outputAddr, size_t outputSize, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return ReadStatus(__func__, outputAddr, outputSize, stream);
}

aclError aclrtResetOverflowStatus(aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return ResetStatus(__func__, stream);
}

aclError aclrtGetFloatOverflowStatus(void* outputAddr, uint64_t outputSize, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return ReadStatus(__func__, outputAddr, outputSize, stream);
}

aclError aclrtResetFloatOverflowStatus(aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return ResetStatus(__func__, stream);
}

aclError aclrtNpuGetFloatOverFlowStatus(void* outputAddr, uint64_t outputSize, uint32_t checkMode,
                                        aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  if (checkMode > kMaxCheckMode) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "checkMode {} is invalid (0 or 1)", checkMode));
  }
  const aclError ret = ReadStatus(__func__, outputAddr, outputSize, stream);
  if (ret != ACL_SUCCESS || checkMode == 0) return ret;
  return ResetStatus(__func__, stream);
}

aclError aclrtNpuClearFloatOverFlowStatus(uint32_t checkMode, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  if (checkMode > kMaxCheckMode) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "checkMode {} is invalid (0 or 1)", checkMode));
  }
  return ResetStatus(__func__, stream);
}

// Kernels on the simulated device report overflow through the runtime rather than a status word of
// their own: there is no per-context overflow address to hand out.
aclError aclrtCtxGetFloatOverflowAddr(void** overflowAddr) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(overflowAddr);
  return npurt::api::Report(__func__, Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                                          "npurt has no per-context overflow address: read the device's overflow "
                                          "status with aclrtGetOverflowStatus"));
}
