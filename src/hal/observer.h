// The task observer (profiling): the driver's completion hook. Part of the driver interface (hal/hal.h).
#pragma once

#include <atomic>
#include <cstdint>

#include "hal/queue.h"
#include "hal/task.h"

namespace npurt::hal {

// Task observer (profiling). When one is installed on a device (Device::SetTaskObserver), the driver
// reports every task of the device's queues once it finished (or was discarded) with the times it started
// and ended, on the executing thread. Zero cost when none is installed: drivers load the pointer once per
// task. The observer must not block, lock or call back
// into the driver: it only appends to a per-thread buffer.
class TaskObserver {
 public:
  virtual void OnTaskDone(const QueueOptions& queue, const Task& task, uint64_t start_ns, uint64_t end_ns,
                          int32_t code) = 0;

 protected:
  ~TaskObserver() = default;
};

}  // namespace npurt::hal
