#include "drivers/sim/sim_task_exec.h"

#include <cstring>

#include "acl/error_codes/rt_error_codes.h"
#include "base/device_copy.h"
#include "drivers/sim/sim_flag.h"
#include "hal/utils/value_ops.h"

namespace npurt::drivers::sim {

bool RunImmediateTask(const hal::Task& task, hal::utils::LabelSkip* labels, int32_t* code, std::string* message) {
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

void ReleaseDiscardedSignal(const hal::Task& task) {
  if (task.kind == hal::TaskKind::kFlagSignal) static_cast<SimFlag*>(task.flag)->Signal(task.value);
}

bool WritesMemory(hal::TaskKind kind) {
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
