// The one blocking primitive of TDT channels and queues: a condition-variable wait bounded by an ACL
// timeout (ms; -1 no limit, 0 no wait). No polling: waiters sleep until notified or timed out.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace npurt::core {

// Waits (lock held) until pred() holds or the timeout passes; returns pred().
template <typename Pred>
bool WaitWithTimeout(std::unique_lock<std::mutex>& lock, std::condition_variable& cv, int32_t timeout_ms,
                     Pred pred) {
  if (timeout_ms < 0) {
    cv.wait(lock, pred);
    return true;
  }
  return cv.wait_for(lock, std::chrono::milliseconds(timeout_ms), pred);
}

}  // namespace npurt::core
