// Argument dump of kernel launches (aclopStartDumpArgs, docs/dump.md): while it is on, every kernel
// launch is preceded on its stream by a task that writes the launch's argument block, read when the
// stream reaches it (a device-resident block holds what earlier tasks wrote), to
// <path>/<kernel>.<task id>.<stream id>.<timestamp>.args.bin.
#pragma once

#include "hal/hal.h"

namespace npurt::core {

class Stream;

// Submits the dump task and reserves `kernel_task`'s id (the file is named after the kernel's task).
void SubmitKernelArgsDump(Stream* stream, const hal::KernelLaunch* launch, hal::Task* kernel_task);

}  // namespace npurt::core
