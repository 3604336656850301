// What every driver does when a task of a queue completes, before it publishes the completion: a failure
// becomes the queue's error (DiscardPolicy) and reaches the failure hook; the task observer (profiling)
// sees the task; the task's cleanup runs. Part of the driver emulation layer (src/hal/utils/README.md).
#pragma once

#include <string>

#include "base/clock.h"
#include "hal/observer.h"
#include "hal/queue.h"
#include "hal/utils/discard_policy.h"

namespace npurt::hal::utils {

// `observer`: the device's (Device::task_observer), read once per task; `start_ns`: when the task started
// (0: unknown, its end is used). A driver reads the clock for it only while an observer is installed, as
// this does for the end.
inline void ReportTaskDone(const QueueOptions& options, Queue* queue, DiscardPolicy& policy, const Task& task,
                           int32_t code, const std::string& message, TaskObserver* observer, uint64_t start_ns) {
  if (code != 0) {
    policy.RecordFailure(code, message);
    if (options.on_failure != nullptr) options.on_failure(options.hook_ctx, queue, {task.id, code, message, task.kernel});
  }
  if (observer != nullptr) {
    const uint64_t end = NowNs();
    observer->OnTaskDone(options, task, start_ns != 0 ? start_ns : end, end, code);
  }
  if (task.cleanup != nullptr) task.cleanup(task.cleanup_arg);
}

}  // namespace npurt::hal::utils
