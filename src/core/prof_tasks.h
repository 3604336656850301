// The runtime's side of task profiling: it knows the task kinds and how the driver reports a completion, and
// feeds the profiler (dfx/profiler.h), which never sees a task. Registered with the profiler as its
// TaskTimeSource when the library loads.
#pragma once

#include <cstdint>

#include "dfx/profiler.h"
#include "hal/device.h"
#include "hal/observer.h"
#include "hal/task.h"

namespace npurt::core {

// Installs the task observer on a device the runtime just opened, if profiling collects task times (every
// open device gets it when collection starts).
void InstallTaskObserver(hal::Device* device);

void ProfRecordSubmitSlow(int32_t device, int32_t stream, const hal::Task& task);
// On the submission hot path: inline, so profiling off costs one relaxed load and a branch.
inline void ProfRecordSubmit(int32_t device, int32_t stream, const hal::Task& task) {
  if (dfx::ProfOn(dfx::prof_bits::kAnyTaskTime)) [[unlikely]] ProfRecordSubmitSlow(device, stream, task);
}

}  // namespace npurt::core
