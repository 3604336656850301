// Shared helpers for the C entry points in src/api. Private: user code must not include this.
//
// Every entry point follows the same steps: check arguments, resolve handles, call core, and on
// failure record the error (thread's last error + recent message, logged) and return its code.
#pragma once
#ifndef NPURT_INTERNAL_BUILD
#error "src/api/api_common.h is private to the npurt runtime"
#endif

#include "acl/acl.h"
#include "base/handle_reclaim.h"
#include "base/status.h"

namespace npurt::core {
class Context;
class Device;
class PhysicalMemory;
class Stream;
class Event;
class Notify;
}  // namespace npurt::core

namespace npurt::api {

// Records "<function> is not supported by npurt" as the thread's recent error message and last error,
// and returns ACL_ERROR_RT_FEATURE_NOT_SUPPORT. Used by the generated stubs of unimplemented functions.
aclError NotSupported(const char* function);
// The same with the reason it is not supported (tools/api_unsupported.txt).
aclError NotSupported(const char* function, const char* reason);

// Records a failed status for `function` and returns its code (ACL_SUCCESS for an OK status).
aclError Report(const char* function, const Status& status);

// aclGetRecentErrMsg: the thread's (or, in process mode, the process's) recent message, then cleared.
const char* TakeRecentError();

// Handle resolution: a null stream is the current context's default stream.
StatusOr<core::Stream*> ResolveStream(aclrtStream stream);
StatusOr<core::Event*> ResolveEvent(aclrtEvent event);
StatusOr<core::Notify*> ResolveNotify(aclrtNotify notify);
StatusOr<core::Context*> ResolveContext(aclrtContext context);
StatusOr<core::PhysicalMemory*> ResolvePhysical(aclrtDrvMemHandle handle);
// The current context's device.
StatusOr<core::Device*> CurrentDevice();

// Device memory for the entry points that allocate and free it (aclrtMalloc*, acldvppMalloc): `fn` names the
// entry point in errors; `pad` adds aclrtMalloc's 32 bytes; `sync_first` waits for the device's work first.
aclError Allocate(const char* fn, void** devPtr, size_t size, uint32_t policy, bool pad = true);
aclError FreeDevice(const char* fn, void* devPtr, bool sync_first);

// Converts an ACL timeout argument (-1 forever, 0 poll, >0 ms) after validation.
Status CheckTimeout(int32_t timeout);

}  // namespace npurt::api

// The first statement of every entry point: the handles the call resolves stay valid objects until it returns,
// whatever other threads destroy meanwhile (base/handle_reclaim.h; docs/architecture.md, "Handle lifetime").
#define NPURT_HANDLE_SCOPE() ::npurt::HandleScope npurt_handle_scope_

// Returns from the entry point with the recorded error if `expr` (a Status) fails.
#define NPURT_API_CHECK(expr)                                   \
  do {                                                          \
    ::npurt::Status npurt_api_status_ = (expr);                 \
    if (!npurt_api_status_.ok()) return ::npurt::api::Report(__func__, npurt_api_status_); \
  } while (0)

// Declares `var` from a StatusOr expression or returns the recorded error.
#define NPURT_API_ASSIGN(var, expr)                             \
  auto var##_or_ = (expr);                                      \
  if (!var##_or_.ok()) return ::npurt::api::Report(__func__, var##_or_.status()); \
  auto var = var##_or_.value()

#define NPURT_API_NOT_NULL(ptr)                                                                      \
  do {                                                                                               \
    if ((ptr) == nullptr) {                                                                          \
      return ::npurt::api::Report(__func__, ::npurt::Err(ACL_ERROR_INVALID_PARAM, "{} is a null pointer", #ptr)); \
    }                                                                                                \
  } while (0)
