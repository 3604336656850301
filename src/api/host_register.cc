// Entry points: registration of existing host memory for device use.
#include "acl/acl.h"
#include "api/api_common.h"
#include "core/memory/mem_pinned_host.h"
#include "core/runtime.h"

using npurt::Err;
using npurt::core::PinnedHost;

aclError aclrtHostRegister(void* ptr, uint64_t size, aclrtHostRegisterType type, void** devPtr) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(devPtr);
  uint32_t flags = 0;
  switch (type) {
    case ACL_HOST_REGISTER_MAPPED: flags = ACL_HOST_REG_MAPPED; break;
    case ACL_HOST_REGISTER_IOMEMORY: flags = ACL_HOST_REG_MAPPED | ACL_HOST_REG_IOMEMORY; break;
    case ACL_HOST_REGISTER_READONLY: flags = ACL_HOST_REG_MAPPED | ACL_HOST_REG_READONLY; break;
    default:
      return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "registration type {} is unknown",
                                              static_cast<int>(type)));
  }
  NPURT_API_CHECK(PinnedHost::Get().Register(ptr, size, flags));
  *devPtr = ptr;  // the sim's devices use host memory at its own address
  return ACL_SUCCESS;
}

aclError aclrtHostRegisterV2(void* ptr, uint64_t size, uint32_t flag) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_CHECK(PinnedHost::Get().Register(ptr, size, flag));
  return ACL_SUCCESS;
}

aclError aclrtHostGetDevicePointer(void* pHost, void** pDevice, uint32_t flag) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(pHost);
  NPURT_API_NOT_NULL(pDevice);
  if (flag != 0) return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "flag must be 0, not {}", flag));
  NPURT_API_ASSIGN(p, PinnedHost::Get().DevicePointer(pHost));
  *pDevice = p;
  return ACL_SUCCESS;
}

aclError aclrtHostUnregister(void* ptr) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_CHECK(PinnedHost::Get().Unregister(ptr));
  return ACL_SUCCESS;
}

aclError aclrtHostMemMapCapabilities(uint32_t deviceId, aclrtHacType hacType, aclrtHostMemMapCapability* capabilities) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(capabilities);
  NPURT_API_ASSIGN(dev, npurt::core::Runtime::Get().GetDevice(static_cast<int32_t>(deviceId)));
  (void)dev;
  switch (hacType) {
    case ACL_RT_HAC_TYPE_STARS:
    case ACL_RT_HAC_TYPE_AICPU:
    case ACL_RT_HAC_TYPE_AIC:
    case ACL_RT_HAC_TYPE_AIV:
    case ACL_RT_HAC_TYPE_PCIEDMA:
    case ACL_RT_HAC_TYPE_SDMA:
      // The simulated engines run on the host CPU: mapped host memory is theirs to use.
      *capabilities = ACL_RT_HOST_MEM_MAP_SUPPORTED;
      return ACL_SUCCESS;
    case ACL_RT_HAC_TYPE_RDMA:
    case ACL_RT_HAC_TYPE_DVPP:
    case ACL_RT_HAC_TYPE_UDMA:
    case ACL_RT_HAC_TYPE_CCU:
      *capabilities = ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED;  // engines the sim does not have
      return ACL_SUCCESS;
  }
  return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "hacType {} is unknown", static_cast<int>(hacType)));
}
