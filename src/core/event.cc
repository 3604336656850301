#include "core/event.h"

#include <utility>

#include "acl/acl_base_rt.h"
#include "acl/acl_rt.h"
#include "acl/error_codes/rt_error_codes.h"
#include "base/clock.h"
#include "core/context.h"
#include "core/device.h"
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
    : HandleObject(HandleTag::kEvent),
      context_(context),
      flags_(flags),
      reusable_(reusable),
      id_(g_next_event_id.fetch_add(1, std::memory_order_relaxed)),
      flag_(std::move(flag)),
      recorded_(flag_->shared_area() != nullptr ? reinterpret_cast<std::atomic<uint64_t>*>(flag_->shared_area())
                                                : &own_recorded_) {}

Event::~Event() = default;

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
  hal::Task t;
  t.kind = hal::TaskKind::kFlagSignal;
  t.flag = flag_.get();
  // The record count is taken and the task submitted under no lock: two concurrent records of one
  // event on different streams are a user race (as in CUDA); each still raises the flag monotonically.
  t.value = recorded_->fetch_add(1, std::memory_order_acq_rel) + 1;
  RetainForTask(t, this);
  stream->Submit(t);
  return Status::Ok();
}

Status Event::Reset(Stream* stream) {
  // A reset is ordered in the stream like any task; the sequence flag needs no clearing because a
  // later wait targets the record count at the time of that wait.
  hal::Task t;
  t.kind = hal::TaskKind::kNop;
  RetainForTask(t, this);
  stream->Submit(t);
  return Status::Ok();
}

Status Event::StreamWait(Stream* stream, int64_t timeout_ms) {
  const uint64_t target = recorded();
  if (target == 0) return Status::Ok();  // never recorded: nothing to wait for
  hal::Task t;
  t.kind = hal::TaskKind::kFlagWait;
  t.flag = flag_.get();
  t.value = target;
  t.timeout_ns = timeout_ms > 0 ? static_cast<uint64_t>(timeout_ms) * 1000000ull : 0;
  RetainForTask(t, this);
  stream->Submit(t);
  return Status::Ok();
}

Status Event::Synchronize(int64_t timeout_ms) {
  const uint64_t target = recorded();
  if (!flag_->WaitHost(target, DeadlineFromMs(timeout_ms))) {
    return Err(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT, "event {} did not complete within {} ms", id_, timeout_ms);
  }
  return Status::Ok();
}

void Event::Destroy() {
  if (!Invalidate()) return;
  if (!reusable_) context_->device()->ReleaseEventSlot();
  context_->RemoveEvent(this);
  Release();
}

}  // namespace npurt::core
