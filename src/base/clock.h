// Monotonic clocks used for timestamps, timeouts and profiling.
#pragma once

#include <cstdint>
#include <ctime>

namespace npurt {

inline uint64_t NowNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

// Converts an ACL millisecond timeout (-1 = forever, 0 = poll, >0 = ms) to an absolute deadline in ns;
// UINT64_MAX means "no deadline".
inline uint64_t DeadlineFromMs(int64_t timeout_ms) {
  if (timeout_ms < 0) return UINT64_MAX;
  return NowNs() + static_cast<uint64_t>(timeout_ms) * 1000000ull;
}

}  // namespace npurt
