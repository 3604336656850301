// Replay of a graph: a kBatch task on the launching stream, whatever the graph's size, and the lists of its
// joined streams on helper streams, concurrently (model_ri.h).
#include <fmt/format.h>

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
  if (!branches_.empty()) {
    NPURT_RETURN_IF_ERROR(LaunchBranches(stream, n));
  } else {
    hal::Task b;
    b.kind = hal::TaskKind::kBatch;
    b.batch = &run_list_;
    b.value = n;
    stream->Submit(b);
  }
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

// Replay `replay` with its branches concurrent: the launching stream signals the start; each joined stream's
// list runs on its helper, then releases the private flags it records (so that a list that failed part way
// cannot leave the others waiting for them), hands its failure to the graph and signals its end; the origin's
// list runs on the launching stream, releases its own flags, waits for every branch's end and fails with the
// first branch failure, if any. Sequence numbers: the previous replay's done flag was waited for already.
Status ModelRI::LaunchBranches(Stream* stream, uint64_t replay) {
  for (auto& b : branches_) {
    if (b->helper != nullptr) continue;
    auto created = Stream::Create(context_, StreamOptions{});
    if (!created.ok()) {
      return Err(created.status().code(), "model instance {}: no stream for its concurrent branches: {}", id_,
                 created.status().message());
    }
    b->helper = created.value();
  }
  auto flag_task = [](Stream* s, hal::TaskKind kind, hal::Flag* flag, uint64_t value) {
    hal::Task t;
    t.kind = kind;
    t.flag = flag;
    t.value = value;
    s->Submit(t);
  };
  auto list_task = [&](Stream* s, const hal::TaskList* list) {
    hal::Task t;
    t.kind = hal::TaskKind::kBatch;
    t.batch = list;
    t.value = replay;  // the base of the private flags' relative values
    s->Submit(t);
  };
  flag_task(stream, hal::TaskKind::kFlagSignal, start_flag_.get(), replay);
  for (auto& b : branches_) {
    Stream* h = b->helper;
    flag_task(h, hal::TaskKind::kFlagWait, start_flag_.get(), replay);
    list_task(h, &streams_[b->stream]->list);
    for (hal::Flag* f : b->records) flag_task(h, hal::TaskKind::kFlagSignal, f, replay);
    hal::Task capture;
    capture.kind = hal::TaskKind::kHostFunc;
    capture.host_fn = &ModelRI::CaptureBranchError;
    capture.host_arg = b.get();
    h->Submit(capture);
    flag_task(h, hal::TaskKind::kFlagSignal, b->end.get(), replay);
  }
  list_task(stream, &streams_[head_]->list);
  for (hal::Flag* f : head_records_) flag_task(stream, hal::TaskKind::kFlagSignal, f, replay);
  for (auto& b : branches_) flag_task(stream, hal::TaskKind::kFlagWait, b->end.get(), replay);
  hal::Task report;
  report.kind = hal::TaskKind::kHostFunc;
  report.host_fn = &ModelRI::ReportBranchErrors;
  report.host_arg = this;
  stream->Submit(report);
  return Status::Ok();
}

// On a helper, after its list: the failure the list left on the helper's queue becomes the graph's, to be
// reported on the launching stream; the helper is clean for the next replay.
void ModelRI::CaptureBranchError(void* branch, hal::Queue* queue) {
  auto* b = static_cast<Branch*>(branch);
  if (const int32_t code = queue->error(); code != 0) {
    std::lock_guard<std::mutex> lock(b->mu);
    if (b->error == 0) {
      b->error = code;
      b->message = queue->error_message();
    }
    queue->ClearError();
  }
  queue->CompleteHostTask(0);
}

// On the launching stream, after every branch ended: the first branch failure of this replay fails it.
void ModelRI::ReportBranchErrors(void* graph, hal::Queue* queue) {
  auto* g = static_cast<ModelRI*>(graph);
  int32_t code = 0;
  std::string message;
  for (auto& b : g->branches_) {
    std::lock_guard<std::mutex> lock(b->mu);
    if (b->error != 0 && code == 0) {
      code = b->error;
      message = fmt::format("model instance {}: a task of its captured stream {} failed: {}", g->id_,
                            g->streams_[b->stream]->origin->id(), b->message);
    }
    b->error = 0;
    b->message.clear();
  }
  if (code == 0) {
    queue->CompleteHostTask(0);
  } else {
    queue->CompleteHostTaskWithError(code, std::move(message));
  }
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
