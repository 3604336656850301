// Floating-point overflow detection and saturation (aclrtSetDeviceSatMode, aclrtSetStreamOverflowSwitch,
// aclrtGetOverflowStatus and friends).
//
// The device mode (Runtime::sat_mode) says what an overflowing float result becomes: the largest finite
// value of its type (SATURATION, the default) or Inf/NaN (INFNAN). Either way a task that overflows
// raises its device's overflow status when its stream's overflow switch is on: operators check their
// float outputs (src/ops/op_launch.cc), built-in reduce tasks their results (core/kernel/builtin_tasks.cc).
// The status is a device-wide word read and cleared by stream-ordered tasks, so a read sees exactly the
// overflows of the work queued before it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "base/status.h"

namespace npurt::core {

class Device;
class Stream;

// Bits of the status word (the first 32-bit word aclrtGetOverflowStatus writes).
inline constexpr uint32_t kOverflowFloat = 1;  // a float result overflowed (Inf/NaN or saturated)

// True if `stream`'s overflow switch is on: its tasks must check their results.
bool OverflowChecked(const Stream* stream);
// True in SATURATION mode: overflowing float results become the largest finite value.
bool Saturating();
// Records an overflow on `device`.
void RaiseOverflow(Device* device);

// Stream tasks: write the status (the 32-bit status word, then zeros) into `size` bytes of device
// memory at `out`; clear it.
Status SubmitOverflowRead(Stream* stream, void* out, size_t size);
Status SubmitOverflowReset(Stream* stream);

}  // namespace npurt::core
