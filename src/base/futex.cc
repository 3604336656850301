#include "base/futex.h"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <ctime>

namespace npurt {

bool FutexWait(std::atomic<uint32_t>* word, uint32_t expected, uint64_t deadline_ns, bool process_shared) {
  timespec abs_ts;
  timespec* ts_ptr = nullptr;
  if (deadline_ns != UINT64_MAX) {
    abs_ts.tv_sec = static_cast<time_t>(deadline_ns / 1000000000ull);
    abs_ts.tv_nsec = static_cast<long>(deadline_ns % 1000000000ull);
    ts_ptr = &abs_ts;
  }
  // FUTEX_WAIT_BITSET takes an absolute CLOCK_MONOTONIC deadline, so retries after EINTR need no
  // recomputation.
  const int op = process_shared ? FUTEX_WAIT_BITSET : FUTEX_WAIT_BITSET | FUTEX_PRIVATE_FLAG;
  long rc = syscall(SYS_futex, reinterpret_cast<uint32_t*>(word), op, expected, ts_ptr, nullptr, FUTEX_BITSET_MATCH_ANY);
  if (rc == -1 && errno == ETIMEDOUT) return false;
  return true;
}

void FutexWake(std::atomic<uint32_t>* word, int count, bool process_shared) {
  const int op = process_shared ? FUTEX_WAKE : FUTEX_WAKE | FUTEX_PRIVATE_FLAG;
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(word), op, count, nullptr, nullptr, 0);
}

}  // namespace npurt
