#include "core/external_task.h"

#include "core/stream.h"
#include "acl/error_codes/rt_error_codes.h"
#include "hal/hal.h"

namespace npurt::core {

namespace {
struct ExternalWork {
  ExternalStartFn start;
  void* arg;
  void (*free_arg)(void*);
};

void FreeExternalWork(void* p) {
  auto* w = static_cast<ExternalWork*>(p);
  w->free_arg(w->arg);
  delete w;
}
}  // namespace

void ExternalCompletion::Complete(int32_t code, std::string message) const {
  if (queue_ == nullptr) return;
  if (code == 0) {
    queue_->CompleteHostTask(0);
  } else {
    queue_->CompleteHostTaskWithError(code, std::move(message));
  }
}

void RunExternalStart(void* p, hal::Queue* queue) {
  auto* w = static_cast<ExternalWork*>(p);
  w->start(w->arg, ExternalCompletion(queue));
}

StatusOr<uint32_t> SubmitExternalWork(Stream* stream, ExternalStartFn start, void* arg, void (*free_arg)(void*)) {
  if (stream->recording() != nullptr) {
    free_arg(arg);
    return Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
               "stream {} is capturing a graph: work on an external engine (a collective, a DVPP operation) cannot be "
               "recorded into a graph by npurt yet; issue it outside the capture",
               stream->id());
  }
  auto* w = new ExternalWork{start, arg, free_arg};
  hal::Task t;
  t.kind = hal::TaskKind::kHostFunc;
  t.host_fn = &RunExternalStart;
  t.host_arg = w;
  t.cleanup = &FreeExternalWork;
  t.cleanup_arg = w;
  stream->Submit(t);
  return t.id;
}

}  // namespace npurt::core
