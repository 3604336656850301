// LabelSkip: ACL's label switch (aclrtSwitchStream's graph form: kLabelSwitch / kLabelSet, hal/task.h) as a
// driver runs it. A taken switch names a target label; every task of the queue up to that label's
// kLabelSet is skipped, and execution resumes at it. Executor-side state of one queue (not thread-safe).
// Part of the driver emulation layer (src/hal/utils/README.md).
#pragma once

#include <cstdint>
#include <string>

#include "hal/task.h"

namespace npurt::hal::utils {

class LabelSkip {
 public:
  // True if `task` lies between a taken switch and its target label (the driver completes it without
  // running it). The target's own kLabelSet ends the skip and runs.
  bool Skips(const Task& task) {
    if (target_ == 0) return false;
    if (task.kind == TaskKind::kLabelSet && task.value == target_) {
      target_ = 0;
      return false;
    }
    return true;
  }
  // Runs the kLabelSwitch `task` with the index word its `src` holds (the driver reads it from device
  // memory): the index picks a label from the task's table (host_arg, `size` entries). 0, or an ACL error
  // code and `message` for an index past the table.
  int32_t Switch(const Task& task, uint32_t index, std::string* message);

 private:
  uint64_t target_ = 0;  // the label a taken switch jumps to; 0 = none
};

}  // namespace npurt::hal::utils
