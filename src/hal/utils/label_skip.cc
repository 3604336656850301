#include "hal/utils/label_skip.h"

#include "acl/error_codes/rt_error_codes.h"

namespace npurt::hal::utils {

int32_t LabelSkip::Switch(const Task& task, uint32_t index, std::string* message) {
  if (index >= task.size) {
    *message = "label switch index " + std::to_string(index) + " is not below the list's " +
               std::to_string(task.size) + " labels";
    return ACL_ERROR_RT_PARAM_INVALID;
  }
  target_ = static_cast<const uint64_t*>(task.host_arg)[index];
  return 0;
}

}  // namespace npurt::hal::utils
