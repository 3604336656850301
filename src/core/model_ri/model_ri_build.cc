// Explicit building of a model instance on persistent streams (aclmdlRIBuildBegin ... BuildEnd), and
// the stream activation and switch tasks (aclrtActiveStream, aclrtSwitchStream) that link its streams.
// The head stream's list is what a launch runs; another bound stream runs when a task activates it,
// nested in the activating stream's list (so in its order, not concurrently).
#include "acl/error_codes/rt_error_codes.h"
#include "core/sync/event.h"
#include "core/model_ri/model_ri.h"
#include "core/stream.h"

namespace npurt::core {
namespace {

hal::CondCompare CompareOf(aclrtCondition cond) {
  switch (cond) {
    case ACL_RT_EQUAL: return hal::CondCompare::kEqual;
    case ACL_RT_NOT_EQUAL: return hal::CondCompare::kNotEqual;
    case ACL_RT_GREATER: return hal::CondCompare::kGreater;
    case ACL_RT_GREATER_OR_EQUAL: return hal::CondCompare::kGreaterEqual;
    case ACL_RT_LESS: return hal::CondCompare::kLess;
    case ACL_RT_LESS_OR_EQUAL: return hal::CondCompare::kLessEqual;
  }
  return hal::CondCompare::kEqual;  // unreachable: aclrtSwitchStream validates the condition
}

}  // namespace

Status ModelRI::Bind(Stream* stream, bool head) {
  std::lock_guard<std::mutex> lock(mu_);
  if (state() != State::kBuilding) {
    return Err(ACL_ERROR_INVALID_PARAM, "model instance {} is not being built (aclmdlRIBuildBegin)", id_);
  }
  if (!stream->persistent()) {
    return Err(ACL_ERROR_INVALID_PARAM, "stream {} was not created with ACL_STREAM_PERSISTENT", stream->id());
  }
  if (stream->recording() != nullptr) {
    return Err(ACL_ERROR_RT_STREAM_CAPTURED, "stream {} is already bound to a model instance", stream->id());
  }
  if (head) {
    if (has_head_) return Err(ACL_ERROR_INVALID_PARAM, "model instance {} already has a head stream", id_);
    head_ = static_cast<uint32_t>(streams_.size());
    has_head_ = true;
  }
  AddStream(stream, false);
  return Status::Ok();
}

Status ModelRI::EndTask(Stream* stream) {
  std::lock_guard<std::mutex> lock(mu_);
  ModelRIStream* gs = StreamOf(stream);
  if (gs == nullptr || state() != State::kBuilding) {
    return Err(ACL_ERROR_INVALID_PARAM, "stream {} is not bound to model instance {} being built", stream->id(), id_);
  }
  gs->ended = true;
  return Status::Ok();
}

Status ModelRI::FinishBuild() {
  std::lock_guard<std::mutex> lock(mu_);
  if (state() != State::kBuilding) {
    return Err(ACL_ERROR_INVALID_PARAM, "model instance {} is not being built", id_);
  }
  if (streams_.empty()) return Err(ACL_ERROR_INVALID_PARAM, "model instance {} has no bound stream", id_);
  LeaveStreams();
  ForgetRecords();
  Finalize();
  state_.store(State::kReady, std::memory_order_release);
  return Status::Ok();
}

Status ModelRI::Unbind(Stream* stream) {
  std::lock_guard<std::mutex> lock(mu_);
  if (StreamOf(stream) == nullptr) {
    return Err(ACL_ERROR_INVALID_PARAM, "stream {} is not bound to model instance {}", stream->id(), id_);
  }
  // The stream's tasks stay in the model (it may still be launched); the stream just leaves it.
  if (stream->recording() == this) stream->set_recording(nullptr);
  return Status::Ok();
}

Status ModelRI::AppendActivate(Stream* stream, Stream* target) {
  std::lock_guard<std::mutex> lock(mu_);
  ModelRIStream* gs = StreamOf(stream);
  ModelRIStream* to = StreamOf(target);
  if (gs == nullptr || to == nullptr) {
    return Err(ACL_ERROR_INVALID_PARAM, "streams {} and {} must both be bound to model instance {}", stream->id(),
               target->id(), id_);
  }
  hal::Task t;
  t.kind = hal::TaskKind::kBatch;
  t.batch = &to->list;
  t.id = NextTaskId();
  AppendLocked(*gs, &t, 1, ACL_MODEL_RI_TASK_DEFAULT, nullptr);
  return Status::Ok();
}

Status ModelRI::AppendSwitch(Stream* stream, const SwitchNode& node, Stream* on_true, Stream* on_false) {
  std::lock_guard<std::mutex> lock(mu_);
  ModelRIStream* gs = StreamOf(stream);
  ModelRIStream* t_gs = on_true != nullptr ? StreamOf(on_true) : nullptr;
  ModelRIStream* f_gs = on_false != nullptr ? StreamOf(on_false) : nullptr;
  if (gs == nullptr || (on_true != nullptr && t_gs == nullptr) || (on_false != nullptr && f_gs == nullptr)) {
    return Err(ACL_ERROR_INVALID_PARAM, "the switch's streams must be bound to model instance {}", id_);
  }
  // Branch 0 runs when (left cond right) holds, branch 1 otherwise; the driver reads both operands when the
  // task runs. A stream's list is complete once the build ends (Finalize); a missing stream runs nothing.
  auto n = std::make_unique<CondNode>();
  n->desc.kind = hal::CondKind::kCompare;
  n->desc.compare = CompareOf(node.cond);
  n->desc.width = node.type == ACL_RT_SWITCH_INT64 ? 8 : 4;
  n->desc.word = node.left;
  n->desc.right = node.right;
  n->own = std::make_unique<hal::CondBranch[]>(2);
  n->own[0].store(t_gs != nullptr ? &t_gs->list : nullptr, std::memory_order_relaxed);
  n->own[1].store(f_gs != nullptr ? &f_gs->list : nullptr, std::memory_order_relaxed);
  n->branches = {&n->own[0], &n->own[1]};
  AppendConditional(*gs, std::move(n));
  return Status::Ok();
}

Status ModelRI::CleanStream(Stream* stream) {
  std::lock_guard<std::mutex> lock(mu_);
  ModelRIStream* gs = StreamOf(stream);
  if (gs == nullptr || state() != State::kBuilding) return Status::Ok();
  retired_.insert(retired_.end(), gs->tasks.begin(), gs->tasks.end());
  gs->tasks.clear();
  gs->nodes.clear();
  std::erase_if(order_, [&](const auto& o) { return streams_[o.first].get() == gs; });
  return Status::Ok();
}

}  // namespace npurt::core
