// The built-ins of hal/builtins.h run on the host CPU: what a driver whose device memory the host can
// address (the sim) returns from Device::builtin. Shared by every such driver.
#pragma once

#include "hal/builtins.h"
#include "hal/executable.h"

namespace npurt::drivers::host {

// The built-in `which`, a process-lifetime object; null for a value outside hal::Builtin.
const hal::Executable* Builtin(hal::Builtin which);

}  // namespace npurt::drivers::host
