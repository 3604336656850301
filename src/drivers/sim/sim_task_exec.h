// The tasks a simulated queue runs to completion at once (copies, fills, value and flag tasks, operator
// dispatches, labels, injected failures), shared by the asynchronous queue (sim_queue.h) and the
// synchronous one (sim_sync_queue.h); inline, since they run per task (graph replays' included). The kinds that may wait (flag and value waits, host functions,
// kernels, batches) are each queue's own: one parks, the other blocks its caller.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

#include "acl/error_codes/rt_error_codes.h"
#include "base/device_copy.h"
#include "drivers/sim/sim_flag.h"
#include "hal/hal.h"
#include "hal/utils/label_skip.h"
#include "hal/utils/value_ops.h"

namespace npurt::drivers::sim {

// Runs `task` if its kind completes at once: true, with *code (0 or an ACL error) and *message. False for
// the kinds that may wait, which the queue runs itself. Inline: it runs per task, graph replays' included.
[[gnu::always_inline]] inline bool RunImmediateTask(const hal::Task& task, hal::utils::LabelSkip* labels, int32_t* code, std::string* message) {
  switch (task.kind) {
    case hal::TaskKind::kNop:
    case hal::TaskKind::kLabelSet:
      return true;
    case hal::TaskKind::kCopy:
      CopyDeviceBytes(task.dst, task.src, task.size);
      return true;
    case hal::TaskKind::kCopy2d:
      CopyDeviceRows(task.dst, task.dpitch, task.src, task.spitch, task.size, task.height);
      return true;
    case hal::TaskKind::kFill8:
      FillDeviceBytes(task.dst, static_cast<uint8_t>(task.value & 0xff), task.size);
      return true;
    case hal::TaskKind::kFill32:
      FillDeviceWords(static_cast<uint32_t*>(task.dst), static_cast<uint32_t>(task.value), task.size);
      return true;
    case hal::TaskKind::kValueWrite:
      __atomic_store_n(static_cast<uint64_t*>(task.dst), task.value, __ATOMIC_RELEASE);
      return true;
    case hal::TaskKind::kValueUpdate:
      hal::utils::ApplyValueUpdate(static_cast<uint64_t*>(task.dst), task.value, task.aux);
      return true;
    case hal::TaskKind::kFlagSignal:
      if ((task.aux & hal::kFlagIncrement) != 0) {
        static_cast<SimFlag*>(task.flag)->Increment();
      } else {
        static_cast<SimFlag*>(task.flag)->Signal(task.value);
      }
      return true;
    case hal::TaskKind::kFlagRead:
      __atomic_store_n(static_cast<uint64_t*>(task.dst), task.flag->value(), __ATOMIC_RELEASE);
      return true;
    case hal::TaskKind::kFail:
      *code = static_cast<int32_t>(task.aux);
      *message = "task failed on the device";
      return true;
    case hal::TaskKind::kDispatch:
      *code = task.dispatch->executable->Run(*task.dispatch, message);
      task.dispatch->status = *code;
      if (*code != 0 && message->empty()) *message = std::string(task.dispatch->name) + " failed on the device";
      return true;
    case hal::TaskKind::kLabelSwitch: {
      uint32_t index = 0;
      std::memcpy(&index, task.src, sizeof index);  // the index word, in device memory the host addresses
      *code = labels->Switch(task, index, message);
      return true;
    }
    case hal::TaskKind::kFlagWait:
    case hal::TaskKind::kValueWait:
    case hal::TaskKind::kHostFunc:
    case hal::TaskKind::kKernel:
    case hal::TaskKind::kBatch:
      return false;
  }
  *code = ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT;
  *message = "unknown task kind";
  return true;
}

// A discarded task completes without running, except that a discarded record still raises its flag:
// otherwise every host and stream waiting on that event would wait forever for a record that never runs.
inline void ReleaseDiscardedSignal(const hal::Task& task) {
  if (task.kind == hal::TaskKind::kFlagSignal) static_cast<SimFlag*>(task.flag)->Signal(task.value);
}

// A kFlagWait's target: its value, plus the reset mark at `src` when the task has one (read when the
// wait starts).
inline uint64_t WaitTarget(const hal::Task& task) {
  if (task.src == nullptr) return task.value;
  return task.value + __atomic_load_n(static_cast<const uint64_t*>(task.src), __ATOMIC_ACQUIRE);
}

// Reads a conditional batch's word (hal::utils::ReadWordFn): the arena is host memory, so an atomic load,
// ordered after every task the queue ran before.
inline uint64_t ReadConditionWord(const void* addr, uint32_t bytes) {
  if (bytes == 4) return __atomic_load_n(static_cast<const uint32_t*>(addr), __ATOMIC_ACQUIRE);
  return __atomic_load_n(static_cast<const uint64_t*>(addr), __ATOMIC_ACQUIRE);
}

// Whether a task of this kind may write memory (a completed one re-evaluates the parked value waits).
inline bool WritesMemory(hal::TaskKind kind) {
  switch (kind) {
    case hal::TaskKind::kCopy:
    case hal::TaskKind::kCopy2d:
    case hal::TaskKind::kFill8:
    case hal::TaskKind::kFill32:
    case hal::TaskKind::kValueWrite:
    case hal::TaskKind::kValueUpdate:
    case hal::TaskKind::kHostFunc:
    case hal::TaskKind::kDispatch:
    case hal::TaskKind::kFlagRead:
    case hal::TaskKind::kKernel:
    case hal::TaskKind::kBatch:
      return true;
    default:
      return false;
  }
}

}  // namespace npurt::drivers::sim
