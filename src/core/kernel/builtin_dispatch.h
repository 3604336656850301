// Dispatching the device's built-ins (hal/builtins.h): a run record that owns the dispatch, its bindings
// and its parameter block until the task's cleanup, which also raises the device's overflow status when
// the run reported one. Private to the built-in tasks (builtin_tasks.cc, random_num.cc).
#pragma once

#include <string>

#include "acl/error_codes/rt_error_codes.h"
#include "base/status.h"
#include "core/kernel/builtin_tasks.h"
#include "core/device.h"
#include "core/kernel/overflow.h"
#include "core/stream.h"
#include "hal/builtins.h"

namespace npurt::core {

template <typename P>
struct BuiltinRun {
  hal::Dispatch dispatch;
  P params;
  const void* inputs[1] = {};
  void* outputs[1] = {};
  Device* raise_overflow = nullptr;  // the stream's overflow switch was on
};

template <typename P>
void FinishBuiltin(void* arg) {
  auto* r = static_cast<BuiltinRun<P>*>(arg);
  // The cleanup runs before the queue's next task: a later overflow read sees what this run raised.
  if (r->raise_overflow != nullptr && r->dispatch.overflowed != 0) RaiseOverflow(r->raise_overflow);
  delete r;
}

// A run of the built-in `name` (for messages; static storage) with a copy of `params`.
template <typename P>
BuiltinRun<P>* NewBuiltinRun(const P& params, const char* name) {
  auto* r = new BuiltinRun<P>{};
  r->params = params;
  r->dispatch.params = &r->params;
  r->dispatch.params_size = sizeof(P);
  r->dispatch.inputs = r->inputs;
  r->dispatch.outputs = r->outputs;
  r->dispatch.name = name;
  return r;
}

// Submits `r` (taken) as a dispatch of the device's built-in `which`; a device without it refuses.
template <typename P>
Status SubmitBuiltin(Stream* stream, hal::Builtin which, BuiltinRun<P>* r) {
  r->dispatch.executable = stream->device()->hal()->builtin(which);
  if (r->dispatch.executable == nullptr) {
    const std::string name = r->dispatch.name;
    delete r;
    return Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "{} is not supported by the device's driver (it has no such built-in)",
               name);
  }
  SubmitDispatch(stream, &r->dispatch, &FinishBuiltin<P>, r, 0);
  return Status::Ok();
}

// hal::MemoryCheckFn for operands a built-in reads from device memory when it runs: "" for memory the
// runtime knows (host or device), resp. for device memory inside one allocation; else why not.
std::string KnownMemoryOperand(const void* addr, uint64_t size);
std::string DeviceMemoryOperand(const void* addr, uint64_t size);

}  // namespace npurt::core
