#include "core/stream.h"

#include "acl/acl_rt.h"
#include "base/clock.h"
#include "core/context.h"
#include "core/device.h"
#include "core/exception.h"
#include "core/model_ri/model_ri.h"
#include "core/handle_tags.h"
#include "core/hooks.h"
#include "core/kernel/launch_records.h"
#include "core/racecheck/racecheck.h"
#include "core/thread_state.h"
#include "dfx/log.h"
#include "core/prof_tasks.h"
#include "dfx/profiler.h"

namespace npurt::core {
namespace {
std::atomic<int32_t> g_next_stream_id{0};
std::atomic<uint32_t> g_next_task_id{0};
constexpr uint64_t kForceDestroyGraceNs = 100'000'000;
}  // namespace

uint32_t NextTaskId() { return g_next_task_id.fetch_add(1, std::memory_order_relaxed) + 1; }

Stream::Stream(Context* context, const StreamOptions& options)
    : HandleObject(handle_tags::kStream),
      context_(context),
      device_(context->device()),
      options_(options),
      id_(g_next_stream_id.fetch_add(1, std::memory_order_relaxed)),
      priority_(options.priority) {
  context->Retain();  // released by ~Stream: a call holding the stream may still reach its context
  hal::QueueOptions q;
  q.priority = static_cast<int32_t>(options.priority);
  q.on_failure = &Stream::OnTaskFailure;
  q.hook_ctx = this;
  q.trace_device = device_->id();
  q.trace_stream = id_;
  queue_ = device_->hal()->CreateQueue(q);
}

Stream::~Stream() {
  if (queue_ != nullptr && queue_->completed() < queue_->submitted()) [[unlikely]] {
    // A call that resolved the stream before another thread destroyed it submitted after Destroy drained the
    // queue (its handle stays valid until it returns): that work gets a forced destroy's grace, then goes.
    if (!queue_->WaitHost(queue_->submitted(), NowNs() + kForceDestroyGraceNs)) queue_->Discard();
    queue_->WaitHost(queue_->submitted(), UINT64_MAX);
  }
  // The queue first: its tasks are done, and an executor leaving it no longer touches a launch record.
  queue_.reset();
  DestroyLaunchRing(launch_ring.load(std::memory_order_acquire));
  context_->Release();
}

StatusOr<Stream*> Stream::Create(Context* context, const StreamOptions& options) {
  Stream* s = NewHandle<Stream>(context, options);
  if (s == nullptr) return Err(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, "out of handle slots for streams");
  Status st = context->device()->RegisterStream(s);
  if (!st.ok()) {
    s->Invalidate();
    s->Release();
    return st;
  }
  context->AddStream(s);
  NPURT_LOG_DEBUG("RUNTIME", "created stream {} on device {} (priority {}, flags {:#x}{})", s->id(),
                  context->device()->id(), options.priority, options.flags, options.is_default ? ", default" : "");
  RunStreamStateHooks(s, ACL_RT_STREAM_STATE_CREATE_POST);
  return s;
}

void Stream::set_failure_mode(uint64_t mode) {
  failure_mode_.store(mode, std::memory_order_relaxed);
  queue_->SetStopOnFailure(mode == ACL_STOP_ON_FAILURE);
}

bool Stream::persistent() const { return (options_.flags & ACL_STREAM_PERSISTENT) != 0; }

uint64_t Stream::Submit(hal::Task& task) {
  // A caller may have reserved the id (the operator dump names its files after it before submitting).
  if (task.id == 0) task.id = NextTaskId();
  if (racecheck::On()) [[unlikely]] racecheck::OnSubmit(this, task);
  if (ModelRI* graph = recording()) [[unlikely]] {
    return graph->Append(this, task);
  }
  Tls().last_task_id = task.id;
  ProfRecordSubmit(device_->id(), id_, task);
  NPURT_LOG_DEBUG("RUNTIME", "submit task {} (kind {}) to stream {} on device {}", task.id, int(task.kind), id_,
                  device_->id());
  return queue_->Submit(task);
}

Status Stream::StickyError() const {
  const int32_t code = queue_->error();
  if (code == 0) return Status::Ok();
  return Err(code, "stream {} has a failed task: {}", id_, queue_->error_message());
}

Status Stream::Synchronize(int64_t timeout_ms) {
  if (ModelRI* graph = recording()) {
    // A persistent stream bound to a model being built has nothing queued: its tasks are the model's.
    if (persistent() && graph->state() == ModelRI::State::kBuilding) return Status::Ok();
    return Err(ACL_ERROR_RT_STREAM_CAPTURED, "stream {} is being captured into a model; end the capture first", id_);
  }
  const uint64_t target = queue_->submitted();
  if (!queue_->WaitHost(target, DeadlineFromMs(timeout_ms))) {
    return Err(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, "stream {} did not finish within {} ms", id_, timeout_ms);
  }
  if (racecheck::On()) [[unlikely]] racecheck::OnStreamSynchronized(this);
  Status error = StickyError();
  // As in CANN's runtime, a synchronize reports the stream's error once and, unless the stream stops on
  // failure, clears it: later tasks run and the next synchronize reports only new failures. A
  // stop-on-failure stream keeps it, so what follows the failed task stays discarded.
  if (!error.ok() && failure_mode() != ACL_STOP_ON_FAILURE) queue_->ClearError();
  return error;
}

void Stream::Destroy(bool force) {
  if (destroyed_.exchange(true)) return;
  RunStreamStateHooks(this, ACL_RT_STREAM_STATE_DESTROY_PRE);
  Invalidate();
  if (force) {
    // On an NPU the tasks launched before a forced destroy are already on the device and run; what is
    // dropped is what cannot run (queued behind a wait that is not satisfied). So the tasks get a short
    // grace to drain, and whatever is still queued after it is discarded.
    if (!queue_->WaitHost(queue_->submitted(), NowNs() + kForceDestroyGraceNs)) queue_->Discard();
  }
  queue_->WaitHost(queue_->submitted(), UINT64_MAX);
  if (racecheck::On()) [[unlikely]] racecheck::OnStreamSynchronized(this);
  device_->UnregisterStream(this);
  context_->RemoveStream(this);
  Release();
}

void Stream::OnTaskFailure(void* ctx, hal::Queue* /*queue*/, const hal::TaskFailure& failure) {
  auto* s = static_cast<Stream*>(ctx);
  ReportTaskException(s, failure);
}

}  // namespace npurt::core
