// Recording into a graph: stream capture (begin, end, joined streams) and the tasks that streams
// submit while they record, including event records, resets and waits, whose meaning in a replayed
// graph differs from a one-off submission (see graph.h).
#include "acl/error_codes/rt_error_codes.h"
#include "core/context.h"
#include "core/device.h"
#include "core/sync/event.h"
#include "core/model_ri/model_ri.h"
#include "core/model_ri/model_ri_capture.h"
#include "core/stream.h"
#include "dfx/log.h"

namespace npurt::core {
namespace {

aclmdlRITaskType TypeOf(hal::TaskKind kind) {
  switch (kind) {
    case hal::TaskKind::kKernel:
      return ACL_MODEL_RI_TASK_KERNEL;
    case hal::TaskKind::kValueWrite:
      return ACL_MODEL_RI_TASK_VALUE_WRITE;
    case hal::TaskKind::kValueWait:
      return ACL_MODEL_RI_TASK_VALUE_WAIT;
    default:
      return ACL_MODEL_RI_TASK_DEFAULT;
  }
}

}  // namespace

Status ModelRI::BeginCapture(Stream* stream, CaptureMode mode) {
  std::lock_guard<std::mutex> lock(mu_);
  if (state() != State::kEmpty) {
    return Err(ACL_ERROR_RT_MODEL_CAPTURED, "model instance {} was already captured or built", id_);
  }
  if (stream->recording() != nullptr) {
    return Err(ACL_ERROR_RT_STREAM_CAPTURED, "stream {} is already being captured", stream->id());
  }
  mode_ = mode;
  capture_thread_ = CaptureThreadId();
  head_ = static_cast<uint32_t>(streams_.size());
  AddStream(stream, false);
  state_.store(State::kCapturing, std::memory_order_release);
  RegisterCapture(this, mode);
  NPURT_LOG_DEBUG("RUNTIME", "stream {} begins capture into model instance {} (mode {})", stream->id(), id_,
                  static_cast<uint32_t>(mode));
  return Status::Ok();
}

Status ModelRI::EndCapture(Stream* stream, bool* ended) {
  std::lock_guard<std::mutex> lock(mu_);
  *ended = false;
  if (state() != State::kCapturing) {
    return Err(ACL_ERROR_RT_STREAM_NOT_CAPTURED, "stream {} is not capturing", stream->id());
  }
  if (streams_[head_]->origin != stream) {
    return Err(ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED,
               "stream {} joined the capture of model instance {} but did not begin it", stream->id(), id_);
  }
  if (mode_ != CaptureMode::kRelaxed && capture_thread_ != CaptureThreadId()) {
    return Err(ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD,
               "the capture of stream {} must end on the thread that began it (or use relaxed mode)", stream->id());
  }
  // Every stream that joined through an event must have rejoined: its last task is a record that
  // another captured stream waits on; otherwise the replay could end before that stream's work.
  for (size_t i = 0; i < streams_.size(); ++i) {
    if (i == head_ || !streams_[i]->standalone || streams_[i]->tasks.empty() || streams_[i]->ended) continue;
    if (!invalidated()) {
      Invalidate(ACL_ERROR_RT_STREAM_UNJOINED,
                 fmt::format("stream {} joined the capture but the capturing stream never waited for its last task",
                             streams_[i]->origin->id()));
    }
  }
  LeaveStreams();
  UnregisterCapture(this);
  *ended = true;
  ForgetRecords();
  if (const int32_t code = invalid_code_.load(std::memory_order_acquire); code != 0) {
    return Err(code, "the capture of model instance {} was invalidated: {}", id_, invalid_why_);
  }
  Finalize();
  state_.store(State::kReady, std::memory_order_release);
  NPURT_LOG_DEBUG("RUNTIME", "model instance {} captured: {} streams", id_, streams_.size());
  return Status::Ok();
}

void ModelRI::Invalidate(int32_t code, const std::string& why) {
  int32_t none = 0;
  if (invalid_code_.compare_exchange_strong(none, code, std::memory_order_acq_rel)) invalid_why_ = why;
}

uint64_t ModelRI::Append(Stream* stream, hal::Task& task) {
  std::lock_guard<std::mutex> lock(mu_);
  if (stream == update_stream_) {
    update_tasks_.push_back(task);
    return 0;
  }
  ModelRIStream* gs = StreamOf(stream);
  if (gs == nullptr) {
    // Unreachable: a recording stream is one of the graph's. Keep the task so its cleanup still runs.
    retired_.push_back(task);
    return 0;
  }
  AppendLocked(*gs, &task, 1, TypeOf(task.kind), nullptr);
  gs->ended = false;
  return 0;
}

Status ModelRI::AppendRecord(Stream* stream, Event* event) {
  std::lock_guard<std::mutex> lock(mu_);
  ModelRIStream* gs = StreamOf(stream);
  if (gs == nullptr) {
    return Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "event records cannot be part of a task group update");
  }
  auto flag = device_->hal()->CreateFlag();
  hal::Flag* f = flag.get();
  private_flags_.push_back(std::move(flag));
  // Two prepared tasks: the graph-private flag for waits inside the graph (value = replay number),
  // then one more record of the user's event for waiters outside it.
  hal::Task t[2];
  t[0].kind = hal::TaskKind::kFlagSignal;
  t[0].flag = f;
  t[0].aux = hal::kFlagRelative;
  t[0].id = NextTaskId();
  t[1].kind = hal::TaskKind::kFlagSignal;
  t[1].flag = event->flag();
  t[1].aux = hal::kFlagIncrement;
  t[1].id = t[0].id;
  RetainForTask(t[1], event);
  AppendLocked(*gs, t, 2, ACL_MODEL_RI_TASK_EVENT_RECORD, event);
  gs->ended = false;
  bool counted = false;
  for (auto& r : records_) {
    if (r.first == event) {
      ++r.second;
      counted = true;
    }
  }
  if (!counted) records_.emplace_back(event, 1);
  bool found = false;
  for (auto& r : last_record_) {
    if (r.first == event) {
      r.second = f;
      found = true;
    }
  }
  if (!found) last_record_.emplace_back(event, f);
  record_source_[f] = {gs, static_cast<uint32_t>(gs->nodes.size() - 1)};
  event->recorded_in.store(this, std::memory_order_release);
  return Status::Ok();
}

Status ModelRI::AppendReset(Stream* stream, Event* event) {
  std::lock_guard<std::mutex> lock(mu_);
  ModelRIStream* gs = StreamOf(stream);
  if (gs == nullptr) return Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "event resets cannot be part of a task group update");
  hal::Task t = event->ResetTask();
  t.id = NextTaskId();
  AppendLocked(*gs, &t, 1, ACL_MODEL_RI_TASK_EVENT_RESET, event);
  gs->ended = false;
  return Status::Ok();
}

Status ModelRI::AppendWait(Stream* stream, Event* event, uint64_t timeout_ns) {
  std::lock_guard<std::mutex> lock(mu_);
  ModelRIStream* gs = StreamOf(stream);
  if (gs == nullptr) return Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "event waits cannot be part of a task group update");
  hal::Task t;
  t.kind = hal::TaskKind::kFlagWait;
  t.id = NextTaskId();
  t.timeout_ns = timeout_ns;
  hal::Flag* internal = nullptr;
  for (auto& r : last_record_) {
    if (r.first == event) internal = r.second;
  }
  if (internal != nullptr) {
    // Recorded inside this graph: wait for this replay's record.
    t.flag = internal;
    t.aux = hal::kFlagRelative;
    auto src = record_source_.find(internal);
    if (src != record_source_.end() && src->second.first != gs &&
        src->second.second + 1 == src->second.first->nodes.size()) {
      src->second.first->ended = true;  // that stream rejoined: its last task is waited for
    }
  } else {
    // Recorded outside: wait for the next record after the event's last reset.
    t.flag = event->flag();
    t.src = event->reset_mark();
    t.value = 1;
  }
  RetainForTask(t, event);
  AppendLocked(*gs, &t, 1, ACL_MODEL_RI_TASK_EVENT_WAIT, event);
  gs->ended = false;
  return Status::Ok();
}

Status ModelRI::Join(Stream* stream) {
  std::lock_guard<std::mutex> lock(mu_);
  if (state() != State::kCapturing && state() != State::kBuilding) {
    return Err(ACL_ERROR_RT_STREAM_NOT_CAPTURED, "model instance {} is not recording", id_);
  }
  if (stream->recording() != nullptr) {
    return Err(ACL_ERROR_RT_CAPTURE_DEPENDENCY, "stream {} already records into another model instance",
               stream->id());
  }
  if (stream->context() != context_) {
    return Err(ACL_ERROR_RT_CAPTURE_DEPENDENCY, "stream {} belongs to another context than the capture",
               stream->id());
  }
  AddStream(stream, true);
  NPURT_LOG_DEBUG("RUNTIME", "stream {} joins the capture of model instance {}", stream->id(), id_);
  return Status::Ok();
}

}  // namespace npurt::core
