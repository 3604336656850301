#include "core/sync/event.h"

#include <utility>

#include "acl/acl_base_rt.h"
#include "acl/acl_rt.h"
#include "acl/error_codes/rt_error_codes.h"
#include "base/clock.h"
#include "core/context.h"
#include "core/device.h"
#include "core/model_ri/model_ri.h"
#include "core/handle_tags.h"
#include "core/racecheck/racecheck.h"
#include "core/stream.h"

namespace npurt::core {
namespace {
std::atomic<uint32_t> g_next_event_id{0};

void ReleaseObject(void* p) { static_cast<HandleObject*>(p)->Release(); }
}  // namespace

void RetainForTask(hal::Task& task, HandleObject* object) {
  object->Retain();
  task.cleanup = &ReleaseObject;
  task.cleanup_arg = object;
}

Event::Event(Context* context, uint32_t flags, bool reusable, std::unique_ptr<hal::Flag> flag)
    : HandleObject(handle_tags::kEvent),
      context_(context),
      flags_(flags),
      reusable_(reusable),
      id_(g_next_event_id.fetch_add(1, std::memory_order_relaxed)),
      signal_(std::move(flag)) {
  context->Retain();  // released by ~Event: a call holding the event may still reach its context
}

Event::~Event() {
  if (racecheck::On()) [[unlikely]] racecheck::OnSyncObjectDestroyed(signal_.flag());
  context_->Release();
}

StatusOr<Event*> Event::Create(Context* context, uint32_t flags, bool reusable) {
  Device* dev = context->device();
  std::unique_ptr<hal::Flag> flag;
  if ((flags & ACL_EVENT_IPC) != 0) {
    auto shared = dev->hal()->CreateSharedFlag();
    if (!shared.ok()) return shared.status();
    flag = std::move(shared.value());
  } else {
    flag = dev->hal()->CreateFlag();
  }
  if (!reusable && !dev->AcquireEventSlot()) {
    return Err(ACL_ERROR_RT_NO_EVENT_RESOURCE, "device {} has no event resources left ({} in use)", dev->id(),
               dev->events_in_use());
  }
  Event* e = NewHandle<Event>(context, flags, reusable, std::move(flag));
  if (e == nullptr) {
    if (!reusable) dev->ReleaseEventSlot();
    return Err(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, "out of handle slots for events");
  }
  context->AddEvent(e);
  return e;
}

StatusOr<Event*> Event::CreateWithFlag(Context* context, uint32_t flags, std::unique_ptr<hal::Flag> flag) {
  Event* e = NewHandle<Event>(context, flags, /*reusable=*/true, std::move(flag));
  if (e == nullptr) return Err(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, "out of handle slots for events");
  context->AddEvent(e);
  return e;
}

Status Event::Record(Stream* stream) {
  if (ModelRI* graph = stream->recording()) return graph->AppendRecord(stream, this);
  recorded_in.store(nullptr, std::memory_order_release);
  // The record count is taken and the task submitted under no lock: two concurrent records of one
  // event on different streams are a user race (as in CUDA); each still raises the flag monotonically.
  hal::Task t = signal_.RecordTask();
  RetainForTask(t, this);
  stream->Submit(t);
  return Status::Ok();
}

hal::Task Event::ResetTask() {
  // The reset mark becomes the flag's value when the task runs: the records that completed by then.
  hal::Task t;
  t.kind = hal::TaskKind::kFlagRead;
  t.flag = signal_.flag();
  t.dst = &reset_mark_;
  RetainForTask(t, this);
  return t;
}

Status Event::Reset(Stream* stream) {
  // A reset is ordered in the stream like any task. The sequence flag needs no clearing because a
  // later stream wait targets the record count at the time of that wait; the reset mark serves waits
  // replayed by graphs.
  if (ModelRI* graph = stream->recording()) return graph->AppendReset(stream, this);
  hal::Task t = ResetTask();
  stream->Submit(t);
  return Status::Ok();
}

Status Event::StreamWait(Stream* stream, int64_t timeout_ms) {
  const uint64_t timeout_ns = timeout_ms > 0 ? static_cast<uint64_t>(timeout_ms) * 1000000ull : 0;
  ModelRI* source = recorded_in.load(std::memory_order_acquire);
  ModelRI* graph = stream->recording();
  if (source != nullptr && source->state() == ModelRI::State::kCapturing && graph != source) {
    // The event's latest record is inside a capture: the waiting stream joins it (CUDA semantics).
    if (graph != nullptr) {
      return Err(ACL_ERROR_RT_CAPTURE_DEPENDENCY, "stream {} records into another model instance than event {}",
                 stream->id(), id_);
    }
    NPURT_RETURN_IF_ERROR(source->Join(stream));
    graph = source;
  }
  if (graph != nullptr) return graph->AppendWait(stream, this, timeout_ns);
  const uint64_t target = recorded();
  if (target == 0) return Status::Ok();  // never recorded: nothing to wait for
  hal::Task t = signal_.WaitTask(target, timeout_ns);
  RetainForTask(t, this);
  stream->Submit(t);
  return Status::Ok();
}

Status Event::Synchronize(int64_t timeout_ms) {
  const uint64_t target = recorded();
  if (!signal_.flag()->WaitHost(target, DeadlineFromMs(timeout_ms))) {
    return Err(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT, "event {} did not complete within {} ms", id_, timeout_ms);
  }
  if (racecheck::On()) [[unlikely]] racecheck::OnFlagObserved(signal_.flag(), target);
  return Status::Ok();
}

void Event::Destroy() {
  if (!Invalidate()) return;
  if (!reusable_) context_->device()->ReleaseEventSlot();
  context_->RemoveEvent(this);
  Release();
}

}  // namespace npurt::core
