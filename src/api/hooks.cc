// Entry points: lifecycle hooks (device/stream state callbacks, aclInit/aclFinalize hooks).
#include "acl/acl.h"
#include "api/api_common.h"
#include "core/hooks.h"

using npurt::Err;

aclError aclrtRegDeviceStateCallback(const char* regName, aclrtDeviceStateCallback callback, void* args) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(regName);
  npurt::core::SetDeviceStateHook(regName, reinterpret_cast<npurt::core::DeviceStateHook>(callback), args);
  return ACL_SUCCESS;
}

aclError aclrtRegStreamStateCallback(const char* regName, aclrtStreamStateCallback callback, void* args) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(regName);
  npurt::core::SetStreamStateHook(regName, reinterpret_cast<npurt::core::StreamStateHook>(callback), args);
  return ACL_SUCCESS;
}

aclError aclInitCallbackRegister(aclRegisterCallbackType type, aclInitCallbackFunc cbFunc, void* userData) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_CHECK(npurt::core::AddInitHook(type, cbFunc, userData));
  return ACL_SUCCESS;
}

aclError aclInitCallbackUnRegister(aclRegisterCallbackType type, aclInitCallbackFunc cbFunc) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_CHECK(npurt::core::RemoveInitHook(type, cbFunc));
  return ACL_SUCCESS;
}

aclError aclFinalizeCallbackRegister(aclRegisterCallbackType type, aclFinalizeCallbackFunc cbFunc, void* userData) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_CHECK(npurt::core::AddFinalizeHook(type, cbFunc, userData));
  return ACL_SUCCESS;
}

aclError aclFinalizeCallbackUnRegister(aclRegisterCallbackType type, aclFinalizeCallbackFunc cbFunc) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_CHECK(npurt::core::RemoveFinalizeHook(type, cbFunc));
  return ACL_SUCCESS;
}
