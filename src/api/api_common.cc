#include "api/api_common.h"
#include "api/hccl_report.h"

#include <unistd.h>

#include <ctime>
#include <mutex>
#include <utility>

#include "base/wall_clock.h"
#include "core/context.h"
#include "core/sync/event.h"
#include "core/handle_tags.h"
#include "core/memory/mem_vmm.h"
#include "core/sync/notify.h"
#include "core/runtime.h"
#include "core/stream.h"
#include "core/thread_state.h"
#include "dfx/log.h"

namespace npurt::api {
namespace {

// The CANN message id for a code: users grep logs for these.
const char* MessageId(int32_t code) {
  switch (code) {
    case ACL_ERROR_INVALID_PARAM:
    case ACL_ERROR_RT_PARAM_INVALID:
      return "EH0001";
    case ACL_ERROR_RT_MEMORY_ALLOCATION:
    case ACL_ERROR_BAD_ALLOC:
      return "EL0004";
    case ACL_ERROR_RT_NO_STREAM_RESOURCE:
      return "EL0009";
    case ACL_ERROR_RT_FEATURE_NOT_SUPPORT:
    case ACL_ERROR_FEATURE_UNSUPPORTED:
    case ACL_ERROR_API_NOT_SUPPORT:
      return "EH0006";
    default:
      return code >= 500000 ? "EZ9999" : "EE9999";
  }
}

std::mutex g_process_msg_mu;
std::string g_process_msg;

}  // namespace

namespace {
void RecordRecent(const char* message_id, const char* function, const Status& status) {
  core::ThreadState& tls = core::Tls();
  const WallTime now = NowLocal();
  tls.recent_error = fmt::format("{}: [PID: {}] {}.{:03d} {} failed with error {}: {}", message_id, getpid(),
                                 DashedStamp(now), now.ms, function, status.code(), status.message());
  if (core::Runtime::Get().config().process_level_errors) {
    std::lock_guard<std::mutex> lock(g_process_msg_mu);
    g_process_msg = tls.recent_error;
  }
}
}  // namespace

aclError Report(const char* function, const Status& status) {
  if (status.ok()) return ACL_SUCCESS;
  core::Tls().last_error = status.code();
  RecordRecent(MessageId(status.code()), function, status);
  NPURT_LOG_ERROR("ASCENDCL", "{}: {} (error {})", function, status.message(), status.code());
  return status.code();
}

int32_t ReportHccl(const char* function, const Status& status) {
  if (status.ok()) return 0;
  // HCCL's codes are not aclErrors: the thread's last ACL error stays as it was.
  RecordRecent("EI9999", function, status);
  NPURT_LOG_ERROR("HCCL", "{}: {} (HcclResult {})", function, status.message(), status.code());
  return status.code();
}

aclError NotSupported(const char* function) {
  return Report(function, Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                              "{} is not supported by npurt yet (see docs/api-coverage.md)", function));
}

aclError NotSupported(const char* function, const char* reason) {
  return Report(function, Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "{} is not supported by npurt: {}", function, reason));
}

StatusOr<core::Stream*> ResolveStream(aclrtStream stream) {
  if (stream == nullptr) {
    auto ctx = core::RequireContext();
    if (!ctx.ok()) return ctx.status();
    return ctx.value()->default_stream();
  }
  core::Stream* s = LookupHandle<core::Stream>(stream, handle_tags::kStream);
  if (s == nullptr) {
    return Err(ACL_ERROR_RT_INVALID_HANDLE, "stream handle {} is not a live stream (destroyed, or not a stream)",
               stream);
  }
  return s;
}

StatusOr<core::Notify*> ResolveNotify(aclrtNotify notify) {
  if (notify == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "notify is a null pointer");
  core::Notify* n = LookupHandle<core::Notify>(notify, handle_tags::kNotify);
  if (n == nullptr) return Err(ACL_ERROR_RT_INVALID_HANDLE, "notify handle {} is not a live notify", notify);
  return n;
}

StatusOr<core::Event*> ResolveEvent(aclrtEvent event) {
  if (event == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "event is a null pointer");
  core::Event* e = LookupHandle<core::Event>(event, handle_tags::kEvent);
  if (e == nullptr) {
    return Err(ACL_ERROR_RT_INVALID_HANDLE, "event handle {} is not a live event (destroyed, or not an event)", event);
  }
  return e;
}

StatusOr<core::Context*> ResolveContext(aclrtContext context) {
  if (context == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "context is a null pointer");
  core::Context* c = LookupHandle<core::Context>(context, handle_tags::kContext);
  if (c == nullptr) {
    return Err(ACL_ERROR_RT_INVALID_HANDLE, "context handle {} is not a live context (destroyed, or not a context)",
               context);
  }
  return c;
}

StatusOr<core::PhysicalMemory*> ResolvePhysical(aclrtDrvMemHandle handle) {
  if (handle == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "handle is a null pointer");
  core::PhysicalMemory* p = core::LookupPhysical(handle);
  if (p == nullptr) {
    return Err(ACL_ERROR_RT_INVALID_HANDLE, "handle {} is not live physical memory (freed, or not a handle)", handle);
  }
  return p;
}

StatusOr<core::Device*> CurrentDevice() {
  auto ctx = core::RequireContext();
  if (!ctx.ok()) return ctx.status();
  return ctx.value()->device();
}

Status CheckTimeout(int32_t timeout) {
  if (timeout < -1) return Err(ACL_ERROR_INVALID_PARAM, "timeout {} is invalid (use -1 for no limit, or >= 0 ms)", timeout);
  return Status::Ok();
}

}  // namespace npurt::api

namespace npurt::api {

const char* TakeRecentError() {
  // The returned text stays valid until this thread's next call; the message is cleared once read.
  thread_local std::string returned;
  core::ThreadState& tls = core::Tls();
  if (core::Runtime::Get().config().process_level_errors) {
    std::lock_guard<std::mutex> lock(g_process_msg_mu);
    returned = std::exchange(g_process_msg, std::string());
  } else {
    returned = std::exchange(tls.recent_error, std::string());
  }
  return returned.empty() ? nullptr : returned.c_str();
}

}  // namespace npurt::api
