#include "core/exception.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <mutex>
#include <vector>

#include "core/device.h"
#include "core/kernel/kernel_launch.h"
#include "core/sanitizer_records.h"
#include "core/stream.h"
#include "dfx/log.h"

namespace npurt::core {
namespace {

struct ExceptionCallbacks {
  std::mutex mu;
  std::vector<ExceptionCallback> callbacks;
  ExceptionCallback legacy = nullptr;
};

ExceptionCallbacks& Callbacks() {
  static ExceptionCallbacks* r = new ExceptionCallbacks();
  return *r;
}

}  // namespace

bool AddExceptionCallback(ExceptionCallback cb) {
  ExceptionCallbacks& r = Callbacks();
  std::lock_guard<std::mutex> lock(r.mu);
  if (std::find(r.callbacks.begin(), r.callbacks.end(), cb) != r.callbacks.end()) return false;
  r.callbacks.push_back(cb);
  return true;
}

bool RemoveExceptionCallback(ExceptionCallback cb) {
  ExceptionCallbacks& r = Callbacks();
  std::lock_guard<std::mutex> lock(r.mu);
  auto it = std::find(r.callbacks.begin(), r.callbacks.end(), cb);
  if (it == r.callbacks.end()) return false;
  r.callbacks.erase(it);
  return true;
}

void SetLegacyExceptionCallback(ExceptionCallback cb) {
  ExceptionCallbacks& r = Callbacks();
  std::lock_guard<std::mutex> lock(r.mu);
  r.legacy = cb;
}

void ReportTaskException(Stream* stream, const hal::TaskFailure& failure) {
  NPURT_LOG_ERROR("RUNTIME", "task {} on stream {} (device {}) failed with {}: {}", failure.task_id, stream->id(),
                  stream->device()->id(), failure.code, failure.message);
  RecordTaskFailure(stream->device()->id(), stream->id(), failure);
  rtExceptionInfo info{};
  info.task_id = failure.task_id;
  info.stream_id = static_cast<uint32_t>(stream->id());
  info.thread_id = static_cast<uint32_t>(syscall(SYS_gettid));
  info.device_id = static_cast<uint32_t>(stream->device()->id());
  info.error_code = static_cast<uint32_t>(failure.code);
  if (failure.kernel != nullptr) FillKernelExceptionInfo(failure.kernel, &info);
  std::vector<ExceptionCallback> cbs;
  {
    ExceptionCallbacks& r = Callbacks();
    std::lock_guard<std::mutex> lock(r.mu);
    cbs = r.callbacks;
    if (r.legacy != nullptr) cbs.push_back(r.legacy);
  }
  for (ExceptionCallback cb : cbs) cb(&info);
  if (failure.kernel != nullptr) RunKernelExceptionCallback(failure.kernel, &info);
}

}  // namespace npurt::core
