// Replay of a graph: a kBatch task on the launching stream, whatever the graph's size (see graph.h).
#include "acl/error_codes/rt_error_codes.h"
#include "core/context.h"
#include "core/device.h"
#include "core/sync/event.h"
#include "core/model_ri/model_ri.h"
#include "core/stream.h"

namespace npurt::core {

Status ModelRI::Launch(Stream* stream) { return LaunchPatched(stream, nullptr, 0); }

Status ModelRI::LaunchPatched(Stream* stream, const Patch* patches, size_t patch_count) {
  if (state() != State::kReady) {
    return Err(ACL_ERROR_INVALID_PARAM, "model instance {} is still being captured or built", id_);
  }
  if (stream->recording() != nullptr) {
    return Err(ACL_ERROR_RT_STREAM_CAPTURED, "stream {} is recording: launching a model instance into a capture "
               "is not supported", stream->id());
  }
  if (stream->device() != device_) {
    return Err(ACL_ERROR_INVALID_PARAM, "stream {} is on device {}, model instance {} on device {}", stream->id(),
               stream->device()->id(), id_, device_->id());
  }
  if (streams_.empty()) return Status::Ok();  // an empty conditional branch
  std::lock_guard<std::mutex> lock(launch_mu_);
  const uint64_t n = ++replays_;
  // Records of user events inside the graph: waiters outside it target this replay's records.
  for (auto& r : records_) r.first->AddRecords(r.second);
  if (n > 1) {
    // Replays of one graph run one after another: the private flags' values are per replay.
    hal::Task wait;
    wait.kind = hal::TaskKind::kFlagWait;
    wait.flag = done_flag_.get();
    wait.value = n - 1;
    stream->Submit(wait);
  }
  for (size_t i = 0; i < patch_count; ++i) {
    hal::Task w;
    w.kind = hal::TaskKind::kValueWrite;
    w.dst = patches[i].word;
    w.value = patches[i].value;
    stream->Submit(w);
  }
  hal::Task b;
  b.kind = hal::TaskKind::kBatch;
  b.batch = &run_list_;
  b.value = n;
  stream->Submit(b);
  // The launch keeps the graph alive until its last task finished (aclmdlRIDestroy does not wait).
  Retain();
  hal::Task done;
  done.kind = hal::TaskKind::kFlagSignal;
  done.flag = done_flag_.get();
  done.value = n;
  done.cleanup = &ModelRI::ReleaseModelRI;
  done.cleanup_arg = this;
  stream->Submit(done);
  return Status::Ok();
}

Status ModelRI::Execute(int32_t timeout_ms) {
  Stream* s = nullptr;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (exec_stream_ == nullptr) {
      auto created = Stream::Create(context_, StreamOptions{});
      if (!created.ok()) return created.status();
      exec_stream_ = created.value();
    }
    s = exec_stream_;
  }
  NPURT_RETURN_IF_ERROR(Launch(s));
  return s->Synchronize(timeout_ms);
}

}  // namespace npurt::core
