// Entry points: sharing device memory between processes (IPC keys and shareable physical handles).
#include <cstring>
#include <string>

#include "acl/acl.h"
#include "api/api_common.h"
#include "core/context.h"
#include "core/device.h"
#include "core/memory/mem_ipc.h"
#include "core/memory/mem_vmm.h"
#include "core/runtime.h"

using npurt::Err;
using npurt::api::ResolvePhysical;
using npurt::core::Runtime;

namespace {

npurt::StatusOr<std::string> KeyString(const char* key) {
  if (key == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "key is a null pointer");
  const size_t n = strnlen(key, 256);
  if (n == 0 || n == 256) return Err(ACL_ERROR_INVALID_PARAM, "key is empty or not NUL-terminated within 256 bytes");
  return std::string(key, n);
}

// The 64-bit handle behind a V2 shareable handle of either kind.
npurt::StatusOr<uint64_t> FromV2(const void* shareableHandle, aclrtMemSharedHandleType shareType) {
  if (shareableHandle == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "shareableHandle is a null pointer");
  if (shareType == ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT) return *static_cast<const uint64_t*>(shareableHandle);
  if (shareType == ACL_MEM_SHARE_HANDLE_TYPE_FABRIC) {
    return npurt::core::ShareableFromFabric(static_cast<const aclrtMemFabricHandle*>(shareableHandle)->data);
  }
  return Err(ACL_ERROR_INVALID_PARAM, "shareType {} is not DEFAULT or FABRIC", static_cast<int>(shareType));
}

aclError Export(const char* fn, aclrtDrvMemHandle handle, uint64_t flags, uint64_t* out) {
  if (flags & ~ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION) {
    return npurt::api::Report(fn, Err(ACL_ERROR_INVALID_PARAM, "export flags {:#x} are unknown", flags));
  }
  auto p = ResolvePhysical(handle);
  if (!p.ok()) return npurt::api::Report(fn, p.status());
  auto h = npurt::core::ShareablePhysicalExport(p.value(), (flags & ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION) == 0);
  if (!h.ok()) return npurt::api::Report(fn, h.status());
  *out = h.value();
  return ACL_SUCCESS;
}

aclError Import(const char* fn, uint64_t shareable, int32_t device_id, aclrtDrvMemHandle* handle) {
  if (handle == nullptr) return npurt::api::Report(fn, Err(ACL_ERROR_INVALID_PARAM, "handle is a null pointer"));
  auto dev = Runtime::Get().GetDevice(device_id);
  if (!dev.ok()) return npurt::api::Report(fn, dev.status());
  auto p = npurt::core::ShareablePhysicalImport(dev.value(), shareable);
  if (!p.ok()) return npurt::api::Report(fn, p.status());
  *handle = p.value();
  return ACL_SUCCESS;
}

}  // namespace

aclError aclrtIpcMemGetExportKey(void* devPtr, size_t size, char* key, size_t len, uint64_t flags) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(devPtr);
  NPURT_API_NOT_NULL(key);
  if (flags & ~ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "export flags {:#x} are unknown", flags));
  }
  npurt::core::Device* dev = Runtime::Get().DeviceOwning(devPtr);
  if (dev == nullptr) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "{} is not device memory", devPtr));
  }
  NPURT_API_ASSIGN(name, npurt::core::IpcExportRange(dev, devPtr, size,
                                                     (flags & ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION) == 0));
  if (name.size() + 1 > len) {
    (void)npurt::core::IpcClose(name);
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "the key needs {} bytes, len is {}",
                                            name.size() + 1, len));
  }
  std::memcpy(key, name.c_str(), name.size() + 1);
  return ACL_SUCCESS;
}

aclError aclrtIpcMemSetImportPid(const char* key, int32_t* pid, size_t num) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(k, KeyString(key));
  NPURT_API_CHECK(npurt::core::IpcAllowPids(k, pid, num));
  return ACL_SUCCESS;
}

aclError aclrtIpcMemSetAttr(const char* key, aclrtIpcMemAttrType type, uint64_t attr) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(k, KeyString(key));
  NPURT_API_CHECK(npurt::core::IpcSetAttribute(k, static_cast<int32_t>(type), attr));
  return ACL_SUCCESS;
}

aclError aclrtIpcMemImportPidInterServer(const char* key, aclrtServerPid* serverPids, size_t num) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(k, KeyString(key));
  NPURT_API_NOT_NULL(serverPids);
  (void)num;
  return npurt::api::Report(__func__, Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                                          "'{}': the simulated NPUs are on one server; allow local processes with "
                                          "aclrtIpcMemSetImportPid",
                                          k));
}

aclError aclrtIpcMemImportByKey(void** devPtr, const char* key, uint64_t flags) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(devPtr);
  NPURT_API_ASSIGN(k, KeyString(key));
  if (flags & ~ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "import flags {:#x} are unknown", flags));
  }
  NPURT_API_ASSIGN(ctx, npurt::core::RequireContext());
  NPURT_API_ASSIGN(p, npurt::core::IpcImport(ctx->device(), k));
  *devPtr = p;
  return ACL_SUCCESS;
}

aclError aclrtIpcMemClose(const char* key) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(k, KeyString(key));
  NPURT_API_CHECK(npurt::core::IpcClose(k));
  return ACL_SUCCESS;
}

aclError aclrtMemExportToShareableHandle(aclrtDrvMemHandle handle, aclrtMemHandleType handleType, uint64_t flags,
                                         uint64_t* shareableHandle) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(shareableHandle);
  if (handleType != ACL_MEM_HANDLE_TYPE_NONE && handleType != ACL_MEM_HANDLE_TYPE_POSIX) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "handleType {} is not NONE or POSIX",
                                            static_cast<int>(handleType)));
  }
  return Export(__func__, handle, flags, shareableHandle);
}

aclError aclrtMemExportToShareableHandleV2(aclrtDrvMemHandle handle, uint64_t flags, aclrtMemSharedHandleType shareType,
                                           void* shareableHandle) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(shareableHandle);
  if (shareType != ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT && shareType != ACL_MEM_SHARE_HANDLE_TYPE_FABRIC) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "shareType {} is not DEFAULT or FABRIC",
                                            static_cast<int>(shareType)));
  }
  uint64_t h = 0;
  const aclError rc = Export(__func__, handle, flags, &h);
  if (rc != ACL_SUCCESS) return rc;
  if (shareType == ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT) {
    *static_cast<uint64_t*>(shareableHandle) = h;
  } else {
    npurt::core::ShareableToFabric(h, static_cast<aclrtMemFabricHandle*>(shareableHandle)->data);
  }
  return ACL_SUCCESS;
}

aclError aclrtMemImportFromShareableHandle(uint64_t shareableHandle, int32_t deviceId, aclrtDrvMemHandle* handle) {
  NPURT_HANDLE_SCOPE();
  return Import(__func__, shareableHandle, deviceId, handle);
}

aclError aclrtMemImportFromShareableHandleV2(void* shareableHandle, aclrtMemSharedHandleType shareType, uint64_t flags,
                                             aclrtDrvMemHandle* handle) {
  NPURT_HANDLE_SCOPE();
  if (flags != 0) return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "flags must be 0, not {}", flags));
  NPURT_API_ASSIGN(h, FromV2(shareableHandle, shareType));
  NPURT_API_ASSIGN(ctx, npurt::core::RequireContext());
  return Import(__func__, h, ctx->device()->id(), handle);
}

aclError aclrtMemSetPidToShareableHandle(uint64_t shareableHandle, int32_t* pid, size_t pidNum) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_CHECK(npurt::core::ShareableAllowPids(shareableHandle, pid, pidNum));
  return ACL_SUCCESS;
}

aclError aclrtMemSetPidToShareableHandleV2(void* shareableHandle, aclrtMemSharedHandleType shareType, int32_t* pid,
                                           size_t pidNum) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(h, FromV2(shareableHandle, shareType));
  NPURT_API_CHECK(npurt::core::ShareableAllowPids(h, pid, pidNum));
  return ACL_SUCCESS;
}
