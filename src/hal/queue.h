// Queues: a device's in-order task streams, their failure hook and options. Part of the driver interface
// (hal/hal.h).
#pragma once

#include <cstdint>
#include <string>

#include "base/status.h"
#include "hal/task.h"

namespace npurt::hal {

// Details handed to the failure hook.
struct TaskFailure {
  uint32_t task_id;
  int32_t code;
  std::string message;
  const KernelLaunch* kernel = nullptr;  // the failed task's launch (kKernel)
};

using FailureHook = void (*)(void* ctx, Queue* queue, const TaskFailure& failure);

struct QueueOptions {
  int32_t priority = 0;
  bool stop_on_failure = false;
  FailureHook on_failure = nullptr;
  void* hook_ctx = nullptr;
  // Identity reported to the task observer (profiling): the runtime's device and stream ids.
  int32_t trace_device = -1;
  int32_t trace_stream = -1;
};

class Queue {
 public:
  virtual ~Queue() = default;  // precondition: idle (Drain or Discard+Drain first)

  // Enqueues a task; returns its sequence number (1, 2, ...). Never fails.
  virtual uint64_t Submit(const Task& task) = 0;
  virtual uint64_t submitted() const = 0;
  virtual uint64_t completed() const = 0;
  // Waits on the host until task `seq` completed; false when the deadline (ns, UINT64_MAX = none)
  // passed first.
  virtual bool WaitHost(uint64_t seq, uint64_t deadline_ns) = 0;
  // First error of the queue (0 if none) and its message; sticky until ClearError.
  virtual int32_t error() const = 0;
  virtual std::string error_message() const = 0;
  virtual void ClearError() = 0;
  virtual void SetStopOnFailure(bool stop) = 0;
  // Discards every task not yet started (they complete without running; a parked wait is released).
  virtual void Discard() = 0;
  // Completes the running kHostFunc task of this queue with `code` (0 = success).
  virtual void CompleteHostTask(int32_t code) = 0;
  // The same for a failure that has a reason (the stream's error message, e.g. a collective's peer that did
  // not arrive). A driver that keeps no message may drop it.
  virtual void CompleteHostTaskWithError(int32_t code, std::string message) {
    (void)message;
    CompleteHostTask(code);
  }
  // aclrtStreamAbort / aclrtStreamStop: discards every task not yet started (as Discard) and interrupts a
  // running kernel, which fails with `code` and `reason` (a string literal) in its message; a running
  // task of another kind finishes. True if a kernel was interrupted. Returns once the interruption was
  // delivered (or nothing was running), without waiting for the queue to drain.
  virtual bool Abort(int32_t /*code*/, const char* /*reason*/) {
    Discard();
    return false;
  }
  // True while the task at the head is parked on a wait (a flag, a value, a notify): it completes only
  // when something outside the queue signals it. A snapshot, for decisions that must not block on it.
  virtual bool ParkedOnWait() const { return false; }
};

}  // namespace npurt::hal
