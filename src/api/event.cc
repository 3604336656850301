// Entry points: events.
#include "acl/acl.h"
#include "api/api_common.h"
#include "core/context.h"
#include "core/device.h"
#include "core/sync/event.h"
#include "core/racecheck/racecheck.h"
#include "core/runtime.h"
#include "core/stream.h"

using npurt::Err;
using npurt::core::Event;

namespace {

constexpr uint32_t kKnownEventFlags = ACL_EVENT_SYNC | ACL_EVENT_CAPTURE_STREAM_PROGRESS | ACL_EVENT_TIME_LINE |
                                     ACL_EVENT_DEVICE_USE_ONLY | ACL_EVENT_EXTERNAL | ACL_EVENT_IPC;

aclError CreateEvent(const char* fn, aclrtEvent* event, uint32_t flags, bool reusable) {
  if (event == nullptr) return npurt::api::Report(fn, Err(ACL_ERROR_INVALID_PARAM, "event is a null pointer"));
  if ((flags & ~kKnownEventFlags) != 0) {
    return npurt::api::Report(fn, Err(ACL_ERROR_INVALID_PARAM, "event flag {:#x} has unknown bits", flags));
  }
  if ((flags & ACL_EVENT_IPC) != 0 || (flags & ACL_EVENT_EXTERNAL) != 0) {
    if (flags != ACL_EVENT_IPC && flags != ACL_EVENT_EXTERNAL) {
      return npurt::api::Report(fn, Err(ACL_ERROR_INVALID_PARAM,
                                        "ACL_EVENT_IPC and ACL_EVENT_EXTERNAL cannot be combined with other flags"));
    }
    if ((flags & ACL_EVENT_IPC) != 0 && !reusable) {
      return npurt::api::Report(fn, Err(ACL_ERROR_INVALID_PARAM,
                                        "inter-process events (ACL_EVENT_IPC) are created with aclrtCreateEventExWithFlag"));
    }
  }
  auto ctx = npurt::core::RequireContext();
  if (!ctx.ok()) return npurt::api::Report(fn, ctx.status());
  auto e = Event::Create(ctx.value(), flags, reusable);
  if (!e.ok()) return npurt::api::Report(fn, e.status());
  *event = e.value();
  return ACL_SUCCESS;
}

}  // namespace

aclError aclrtCreateEvent(aclrtEvent* event) {
  NPURT_HANDLE_SCOPE();
  return CreateEvent(__func__, event, ACL_EVENT_SYNC, false);
}

aclError aclrtCreateEventWithFlag(aclrtEvent* event, uint32_t flag) {
  NPURT_HANDLE_SCOPE();
  return CreateEvent(__func__, event, flag, false);
}

aclError aclrtCreateEventExWithFlag(aclrtEvent* event, uint32_t flag) {
  NPURT_HANDLE_SCOPE();
  return CreateEvent(__func__, event, flag, true);
}

aclError aclrtDestroyEvent(aclrtEvent event) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(e, npurt::api::ResolveEvent(event));
  e->Destroy();
  return ACL_SUCCESS;
}

aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(e, npurt::api::ResolveEvent(event));
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  NPURT_API_CHECK(e->Record(s));
  return ACL_SUCCESS;
}

aclError aclrtRecordEventWithFlag(aclrtEvent event, aclrtStream stream, uint32_t flag) {
  NPURT_HANDLE_SCOPE();
  if (flag != ACL_EVENT_RECORD_DEFAULT && flag != ACL_EVENT_RECORD_EXTERNAL) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "record flag {} is invalid", flag));
  }
  return aclrtRecordEvent(event, stream);
}

aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(e, npurt::api::ResolveEvent(event));
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  NPURT_API_CHECK(e->Reset(s));
  return ACL_SUCCESS;
}

aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(e, npurt::api::ResolveEvent(event));
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  const uint64_t op_wait_ms = npurt::core::Runtime::Get().op_wait_timeout_ms.load();
  NPURT_API_CHECK(e->StreamWait(s, static_cast<int64_t>(op_wait_ms)));
  return ACL_SUCCESS;
}

aclError aclrtStreamWaitEventWithTimeout(aclrtStream stream, aclrtEvent event, int32_t timeout) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_CHECK(npurt::api::CheckTimeout(timeout));
  NPURT_API_ASSIGN(e, npurt::api::ResolveEvent(event));
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  NPURT_API_CHECK(e->StreamWait(s, timeout));
  return ACL_SUCCESS;
}

aclError aclrtStreamWaitEventWithFlag(aclrtStream stream, aclrtEvent event, uint32_t timeout, uint32_t flag) {
  NPURT_HANDLE_SCOPE();
  if (flag != ACL_EVENT_WAIT_DEFAULT && flag != ACL_EVENT_WAIT_EXTERNAL) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "wait flag {} is invalid", flag));
  }
  NPURT_API_ASSIGN(e, npurt::api::ResolveEvent(event));
  NPURT_API_ASSIGN(s, npurt::api::ResolveStream(stream));
  NPURT_API_CHECK(e->StreamWait(s, static_cast<int64_t>(timeout)));
  return ACL_SUCCESS;
}

namespace {
// A query that answers complete is a host observation: the race detector orders the host after the record.
bool ObservedComplete(npurt::core::Event* e) {
  const bool done = e->Complete();
  if (done && npurt::core::racecheck::On()) [[unlikely]] {
    npurt::core::racecheck::OnFlagObserved(e->flag(), e->recorded());
  }
  return done;
}
}  // namespace

aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus* status) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(status);
  NPURT_API_ASSIGN(e, npurt::api::ResolveEvent(event));
  *status = ObservedComplete(e) ? ACL_EVENT_STATUS_COMPLETE : ACL_EVENT_STATUS_NOT_READY;
  return ACL_SUCCESS;
}

aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus* status) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(status);
  NPURT_API_ASSIGN(e, npurt::api::ResolveEvent(event));
  // CANN: an event with no record is "recorded" only in new mode (aclrtCreateEventExWithFlag); events
  // of aclrtCreateEvent/aclrtCreateEventWithFlag stay NOT_READY until a record executes. aclrtQueryEvent
  // (above) reports such an event as complete in both modes.
  const bool complete = e->ever_recorded() ? ObservedComplete(e) : e->reusable();
  *status = complete ? ACL_EVENT_RECORDED_STATUS_COMPLETE : ACL_EVENT_RECORDED_STATUS_NOT_READY;
  return ACL_SUCCESS;
}

aclError aclrtQueryEventWaitStatus(aclrtEvent event, aclrtEventWaitStatus* status) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(status);
  NPURT_API_ASSIGN(e, npurt::api::ResolveEvent(event));
  *status = ObservedComplete(e) ? ACL_EVENT_WAIT_STATUS_COMPLETE : ACL_EVENT_WAIT_STATUS_NOT_READY;
  return ACL_SUCCESS;
}

aclError aclrtSynchronizeEvent(aclrtEvent event) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(e, npurt::api::ResolveEvent(event));
  NPURT_API_CHECK(e->Synchronize(-1));
  return ACL_SUCCESS;
}

aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_CHECK(npurt::api::CheckTimeout(timeout));
  NPURT_API_ASSIGN(e, npurt::api::ResolveEvent(event));
  NPURT_API_CHECK(e->Synchronize(timeout));
  return ACL_SUCCESS;
}

aclError aclrtEventElapsedTime(float* ms, aclrtEvent startEvent, aclrtEvent endEvent) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(ms);
  NPURT_API_ASSIGN(start, npurt::api::ResolveEvent(startEvent));
  NPURT_API_ASSIGN(end, npurt::api::ResolveEvent(endEvent));
  if (!start->ever_recorded() || !end->ever_recorded()) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID,
                                            "both events must have been recorded before asking for the elapsed time"));
  }
  if (!start->Complete() || !end->Complete()) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_RT_EVENT_NOT_COMPLETE,
                                            "an event has not completed yet: synchronize it first"));
  }
  const uint64_t t0 = start->timestamp_ns();
  const uint64_t t1 = end->timestamp_ns();
  if (t1 < t0) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL,
                                            "the end event completed before the start event"));
  }
  *ms = static_cast<float>(static_cast<double>(t1 - t0) / 1e6);
  return ACL_SUCCESS;
}

aclError aclrtEventGetTimestamp(aclrtEvent event, uint64_t* timestamp) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(timestamp);
  NPURT_API_ASSIGN(e, npurt::api::ResolveEvent(event));
  if (!e->ever_recorded() || !e->Complete()) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID,
                                            "event {} has no completed record", e->id()));
  }
  *timestamp = e->timestamp_ns() / 1000;  // microseconds, as CANN reports
  return ACL_SUCCESS;
}

aclError aclrtGetEventId(aclrtEvent event, uint32_t* eventId) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(eventId);
  NPURT_API_ASSIGN(e, npurt::api::ResolveEvent(event));
  *eventId = e->id();
  return ACL_SUCCESS;
}

aclError aclrtGetEventAvailNum(uint32_t* eventCount) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(eventCount);
  NPURT_API_ASSIGN(ctx, npurt::core::RequireContext());
  npurt::core::Device* dev = ctx->device();
  *eventCount = dev->limits().events - dev->events_in_use();
  return ACL_SUCCESS;
}

aclError aclrtSetOpWaitTimeout(uint32_t timeout) {
  NPURT_HANDLE_SCOPE();
  // Seconds; 0 means wait forever.
  npurt::core::Runtime::Get().op_wait_timeout_ms.store(static_cast<uint64_t>(timeout) * 1000);
  return ACL_SUCCESS;
}
