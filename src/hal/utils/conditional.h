// Which branch a conditional batch (hal::Conditional, hal/task.h) takes in a round, given the words it
// reads. ACL's if / while / switch of a graph and a model's aclrtSwitchStream, for a driver that walks
// batches itself (BatchCursor); one with conditional nodes of its own (CUDA's cudaGraphConditionalHandle)
// maps the descriptor to them instead. Part of the driver emulation layer (src/hal/utils/README.md).
#pragma once

#include <cstdint>

#include "hal/task.h"

namespace npurt::hal::utils {

// Reads `bytes` (4 or 8) of device memory at `addr` on the device's side of the stream, zero-extended:
// the driver's means (an atomic load on a host-visible mapping; a device read elsewhere).
using ReadWordFn = uint64_t (*)(const void* addr, uint32_t bytes);

// The list `cond` runs in `round`, or null: the batch ends.
const TaskList* SelectBranch(const Conditional& cond, uint32_t round, ReadWordFn read);

}  // namespace npurt::hal::utils
