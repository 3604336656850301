// Device task abort (core): aclrtDeviceTaskAbort discards every task not yet started on every stream
// of a device (what aclrtStreamAbort does for one stream), waits, within the timeout, for the tasks
// already running, and runs the callbacks registered with aclrtSetDeviceTaskAbortCallback before
// (ACL_RT_DEVICE_TASK_ABORT_PRE) and after (ACL_RT_DEVICE_TASK_ABORT_POST).
// Thread safety: any thread; callbacks run on the aborting thread, outside the registry lock.
#pragma once

#include <cstdint>
#include <string>

#include "acl/acl.h"
#include "base/status.h"

namespace npurt::core {

class Device;

// Adds or replaces the callback registered under `name`; a null callback removes it.
void SetDeviceAbortHook(const std::string& name, aclrtDeviceTaskAbortCallback callback, void* args);

// timeout_ms 0 waits without limit for the running tasks.
Status AbortDeviceTasks(Device* device, int32_t device_id, uint32_t timeout_ms);

}  // namespace npurt::core
