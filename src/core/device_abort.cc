#include "core/device_abort.h"

#include <map>
#include <mutex>
#include <utility>
#include <vector>

#include "core/device.h"
#include "core/stream.h"

namespace npurt::core {

namespace {

struct AbortHooks {
  std::mutex mu;
  std::map<std::string, std::pair<aclrtDeviceTaskAbortCallback, void*>> hooks;
};

AbortHooks& AbortHookTable() {
  static AbortHooks* hooks = new AbortHooks();
  return *hooks;
}

// Runs every hook for `stage`; the first non-zero return becomes the error.
Status RunHooks(int32_t device_id, aclrtDeviceTaskAbortStage stage, uint32_t timeout_ms) {
  std::vector<std::pair<std::string, std::pair<aclrtDeviceTaskAbortCallback, void*>>> hooks;
  {
    std::lock_guard<std::mutex> lock(AbortHookTable().mu);
    hooks.assign(AbortHookTable().hooks.begin(), AbortHookTable().hooks.end());
  }
  Status first;
  for (const auto& [name, hook] : hooks) {
    const int32_t rc = hook.first(device_id, stage, timeout_ms, hook.second);
    if (rc != 0 && first.ok()) {
      first = Err(ACL_ERROR_RT_INTERNAL_ERROR, "abort callback '{}' returned {} at stage {}", name, rc,
                  static_cast<int>(stage));
    }
  }
  return first;
}

}  // namespace

void SetDeviceAbortHook(const std::string& name, aclrtDeviceTaskAbortCallback callback, void* args) {
  std::lock_guard<std::mutex> lock(AbortHookTable().mu);
  if (callback == nullptr) {
    AbortHookTable().hooks.erase(name);
  } else {
    AbortHookTable().hooks[name] = {callback, args};
  }
}

Status AbortDeviceTasks(Device* device, int32_t device_id, uint32_t timeout_ms) {
  Status pre = RunHooks(device_id, ACL_RT_DEVICE_TASK_ABORT_PRE, timeout_ms);
  for (const Ref<Stream>& s : device->Streams()) s->queue()->Discard();
  // Discarded tasks complete without running; what was already running finishes. Stream errors are
  // not the abort's concern, only whether the device went idle in time.
  Status sync = device->Synchronize(timeout_ms == 0 ? -1 : static_cast<int64_t>(timeout_ms));
  Status post = RunHooks(device_id, ACL_RT_DEVICE_TASK_ABORT_POST, timeout_ms);
  if (sync.code() == ACL_ERROR_RT_STREAM_SYNC_TIMEOUT) return sync;
  return pre.ok() ? post : pre;
}

}  // namespace npurt::core
