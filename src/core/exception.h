// Task exceptions: when a device task fails, the registered exception callbacks (aclrtSetExceptionInfoCallback,
// aclrtExceptionInfoCallbackRegister) are called on the executing thread with an aclrtExceptionInfo
// describing the task, stream, device and error.
#pragma once

#include <cstdint>

#include "hal/hal.h"

struct rtExceptionInfo {
  uint32_t task_id;
  uint32_t stream_id;
  uint32_t thread_id;
  uint32_t device_id;
  uint32_t error_code;
  void* func;          // kernel function handle when the task was a kernel
  void* dev_args;
  uint32_t dev_args_len;
};

namespace npurt::core {

class Stream;

using ExceptionCallback = void (*)(rtExceptionInfo* info);

// Adds a callback (register); false if already registered.
bool AddExceptionCallback(ExceptionCallback cb);
bool RemoveExceptionCallback(ExceptionCallback cb);
// The deprecated single-callback setter: replaces the legacy slot (nullptr clears it).
void SetLegacyExceptionCallback(ExceptionCallback cb);

void ReportTaskException(Stream* stream, const hal::TaskFailure& failure);

}  // namespace npurt::core
