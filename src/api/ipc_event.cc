// Entry points: events and notifies shared between processes (core/sync/ipc_event.h).
#include <cstring>
#include <string>

#include "acl/acl.h"
#include "api/api_common.h"
#include "core/context.h"
#include "core/sync/event.h"
#include "core/sync/ipc_event.h"
#include "core/sync/notify.h"
#include "core/runtime.h"

using npurt::Err;

aclError aclrtIpcGetEventHandle(aclrtEvent event, aclrtIpcEventHandle* handle) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(handle);
  NPURT_API_ASSIGN(e, npurt::api::ResolveEvent(event));
  NPURT_API_CHECK(npurt::core::IpcEventHandle(e, reinterpret_cast<uint8_t*>(handle->reserved)));
  return ACL_SUCCESS;
}

aclError aclrtIpcOpenEventHandle(aclrtIpcEventHandle handle, aclrtEvent* event) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(event);
  NPURT_API_ASSIGN(ctx, npurt::core::RequireContext());
  NPURT_API_ASSIGN(e, npurt::core::IpcOpenEvent(ctx, reinterpret_cast<const uint8_t*>(handle.reserved)));
  *event = e;
  return ACL_SUCCESS;
}

aclError aclrtNotifyGetExportKey(aclrtNotify notify, char* key, size_t len, uint64_t flags) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(key);
  if (flags != ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT && flags != ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "export flags {:#x} are invalid", flags));
  }
  NPURT_API_ASSIGN(n, npurt::api::ResolveNotify(notify));
  NPURT_API_ASSIGN(name, npurt::core::NotifyExport(n, flags != ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION));
  if (len < name.size() + 1) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "key buffer of {} bytes is too small ({} needed)",
                                            len, name.size() + 1));
  }
  std::memcpy(key, name.c_str(), name.size() + 1);
  return ACL_SUCCESS;
}

aclError aclrtNotifyImportByKey(aclrtNotify* notify, const char* key, uint64_t flags) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(notify);
  NPURT_API_NOT_NULL(key);
  if (flags != ACL_RT_NOTIFY_IMPORT_FLAG_DEFAULT && flags != ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "import flags {:#x} are invalid", flags));
  }
  NPURT_API_ASSIGN(ctx, npurt::core::RequireContext());
  NPURT_API_ASSIGN(n, npurt::core::NotifyImport(ctx->device(), std::string(key, strnlen(key, 256))));
  *notify = n;
  return ACL_SUCCESS;
}

aclError aclrtNotifySetImportPid(aclrtNotify notify, int32_t* pid, size_t num) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(pid);
  NPURT_API_ASSIGN(n, npurt::api::ResolveNotify(notify));
  NPURT_API_CHECK(npurt::core::NotifyAllowPids(n, pid, num));
  return ACL_SUCCESS;
}

// The simulator is one server: every listed process of every server id is a local process id.
aclError aclrtNotifySetImportPidInterServer(aclrtNotify notify, aclrtServerPid* serverPids, size_t num) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(serverPids);
  if (num == 0) return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "num is 0"));
  NPURT_API_ASSIGN(n, npurt::api::ResolveNotify(notify));
  for (size_t i = 0; i < num; ++i) {
    if (serverPids[i].pid == nullptr || serverPids[i].num == 0) {
      return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "serverPids[{}] lists no process", i));
    }
  }
  for (size_t i = 0; i < num; ++i) NPURT_API_CHECK(npurt::core::NotifyAllowPids(n, serverPids[i].pid, serverPids[i].num));
  return ACL_SUCCESS;
}
