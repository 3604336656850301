// Ascend C system variables of the core on the sim: GetSystemCycle, the core's free-running system
// counter, which on Atlas A2 ticks at 50 MHz (kernels time code with it: cycles / 50 = microseconds); the
// sim reads the host's monotonic clock at that rate, so differences are host time, not NPU time.
// GetDataBlockSizeInBytes: the 32-byte data block of the vector unit. Part of kernel_operator.h (through
// pipe.h).
#pragma once

#include <chrono>
#include <cstdint>

namespace AscendC {

__aicore__ inline int64_t GetSystemCycle() {
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::steady_clock::now().time_since_epoch())
                      .count();
  return static_cast<int64_t>(ns / 20);  // 50 MHz: one cycle every 20 ns
}

__aicore__ inline constexpr int16_t GetDataBlockSizeInBytes() { return 32; }

}  // namespace AscendC
