// Entry points: report callbacks, host functions, exception callbacks and exception-info accessors.
#include "acl/acl.h"
#include "api/api_common.h"
#include "core/callbacks.h"
#include "core/exception.h"
#include "core/stream.h"
#include "core/thread_state.h"

using npurt::Err;
using npurt::core::InboxKind;

aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  NPURT_API_CHECK(npurt::core::Subscribe(InboxKind::kReport, threadId, s));
  return ACL_SUCCESS;
}

aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  NPURT_API_CHECK(npurt::core::Unsubscribe(InboxKind::kReport, threadId, s));
  return ACL_SUCCESS;
}

aclError aclrtLaunchCallback(aclrtCallback fn, void* userData, aclrtCallbackBlockType blockType, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(fn);
  if (blockType != ACL_CALLBACK_NO_BLOCK && blockType != ACL_CALLBACK_BLOCK) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "blockType {} is invalid", int(blockType)));
  }
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  NPURT_API_CHECK(npurt::core::LaunchCallback(fn, userData, blockType == ACL_CALLBACK_BLOCK, s));
  return ACL_SUCCESS;
}

aclError aclrtProcessReport(int32_t timeout) {
  NPURT_HANDLE_SCOPE();
  // -1 waits forever, > 0 is milliseconds; 0 (and anything below -1) is rejected, as in CANN.
  if (timeout == 0 || timeout < -1) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "timeout {} is invalid (use -1 or > 0 ms)",
                                            timeout));
  }
  npurt::Status st = npurt::core::ProcessInbox(InboxKind::kReport, timeout);
  if (!st.ok()) return npurt::api::Report(__func__, st);
  return ACL_SUCCESS;
}

aclError aclrtLaunchHostFunc(aclrtStream stream, aclrtHostFunc fn, void* args) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(fn);
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  NPURT_API_CHECK(npurt::core::LaunchHostFunc(fn, args, s));
  return ACL_SUCCESS;
}

aclError aclrtSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(exeStream));
  NPURT_API_CHECK(npurt::core::Subscribe(InboxKind::kHostFunc, hostFuncThreadId, s));
  return ACL_SUCCESS;
}

aclError aclrtProcessHostFunc(int32_t timeout) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_CHECK(npurt::core::ProcessInbox(InboxKind::kHostFunc, timeout));
  return ACL_SUCCESS;
}

aclError aclrtUnSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(exeStream));
  NPURT_API_CHECK(npurt::core::Unsubscribe(InboxKind::kHostFunc, hostFuncThreadId, s));
  return ACL_SUCCESS;
}

aclError aclrtSetExceptionInfoCallback(aclrtExceptionInfoCallback callback) {
  NPURT_HANDLE_SCOPE();
  npurt::core::SetLegacyExceptionCallback(callback);
  return ACL_SUCCESS;
}

aclError aclrtExceptionInfoCallbackRegister(aclrtExceptionInfoCallback callback) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(callback);
  (void)npurt::core::AddExceptionCallback(callback);  // adding twice has no further effect
  return ACL_SUCCESS;
}

aclError aclrtExceptionInfoCallbackUnregister(aclrtExceptionInfoCallback callback) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(callback);
  (void)npurt::core::RemoveExceptionCallback(callback);  // removing one never added is a no-op
  return ACL_SUCCESS;
}

uint32_t aclrtGetTaskIdFromExceptionInfo(const aclrtExceptionInfo* info) {
  NPURT_HANDLE_SCOPE();
  return info == nullptr ? 0xFFFFFFFFu : info->task_id;
}

uint32_t aclrtGetStreamIdFromExceptionInfo(const aclrtExceptionInfo* info) {
  NPURT_HANDLE_SCOPE();
  return info == nullptr ? 0xFFFFFFFFu : info->stream_id;
}

uint32_t aclrtGetThreadIdFromExceptionInfo(const aclrtExceptionInfo* info) {
  NPURT_HANDLE_SCOPE();
  return info == nullptr ? 0xFFFFFFFFu : info->thread_id;
}

uint32_t aclrtGetDeviceIdFromExceptionInfo(const aclrtExceptionInfo* info) {
  NPURT_HANDLE_SCOPE();
  return info == nullptr ? 0xFFFFFFFFu : info->device_id;
}

uint32_t aclrtGetErrorCodeFromExceptionInfo(const aclrtExceptionInfo* info) {
  NPURT_HANDLE_SCOPE();
  return info == nullptr ? 0xFFFFFFFFu : info->error_code;
}

aclError aclrtGetArgsFromExceptionInfo(const aclrtExceptionInfo* info, void** devArgsPtr, uint32_t* devArgsLen) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(info);
  NPURT_API_NOT_NULL(devArgsPtr);
  NPURT_API_NOT_NULL(devArgsLen);
  *devArgsPtr = info->dev_args;
  *devArgsLen = info->dev_args_len;
  return ACL_SUCCESS;
}

aclError aclrtGetFuncHandleFromExceptionInfo(const aclrtExceptionInfo* info, aclrtFuncHandle* func) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(info);
  NPURT_API_NOT_NULL(func);
  if (info->func == nullptr) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "the failed task was not a kernel launch"));
  }
  *func = info->func;
  return ACL_SUCCESS;
}

aclError aclrtGetThreadLastTaskId(uint32_t* taskId) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(taskId);
  *taskId = npurt::core::Tls().last_task_id;
  return ACL_SUCCESS;
}
